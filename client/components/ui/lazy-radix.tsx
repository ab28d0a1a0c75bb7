import { Slot as SlotPrimitive } from "radix-ui";
import {
  type ComponentType,
  type Context,
  createContext,
  type MouseEvent,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from "react";

// Radix overlays (popover, dialog) that load on first use instead of with every screen: until a
// trigger is pressed (or a controlled `open` turns true) the root renders only its children, the
// trigger renders its button with the closed state's attributes, and the content renders nothing,
// which is what the Radix components render while closed, on the server and before hydration too.
// Pressing the trigger loads the module and opens it; from then on every instance is the real one.

/** A module loaded on first use, as a store components re-render from once it is there. */
export type TLazyModule<M> = {
  ensure: () => Promise<M>;
  subscribe: (listener: () => void) => () => void;
  get: () => M | null;
};

export function lazyModule<M>(load: () => Promise<M>): TLazyModule<M> {
  let loaded: M | null = null;
  let pending: Promise<M> | null = null;
  const listeners = new Set<() => void>();
  return {
    ensure: () => {
      pending ??= load().then((module) => {
        loaded = module;
        for (const listener of listeners) listener();
        return module;
      });
      return pending;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: () => loaded,
  };
}

const noModule = () => null;

/** The module once loaded; null before, and always null while hydrating (as on the server). */
export function useLazyModule<M>(lazy: TLazyModule<M>): M | null {
  return useSyncExternalStore(lazy.subscribe, lazy.get, noModule);
}

export type TPending = { requestOpen: () => void; preload: () => void };

/** One per kind of overlay: tells a trigger that its root is still waiting for the module. */
export const createPendingContext = () => createContext<TPending | null>(null);

type TRootProps = {
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  children?: ReactNode;
};

/** The root: real once loaded; before that, a context its trigger asks to open. */
export function LazyRoot<M, P extends TRootProps>({
  lazy,
  pending: Pending,
  real,
  props,
}: {
  lazy: TLazyModule<M>;
  pending: Context<TPending | null>;
  real: (module: M) => ComponentType<P>;
  props: P;
}) {
  const module = useLazyModule(lazy);
  const [isWanted, setIsWanted] = useState(false);
  const { onOpenChange } = props;
  const mustLoad = Boolean(props.open || props.defaultOpen);
  useEffect(() => {
    if (mustLoad) void lazy.ensure();
  }, [mustLoad, lazy]);
  const pending = useMemo<TPending>(
    () => ({
      requestOpen: () => {
        setIsWanted(true);
        onOpenChange?.(true);
        void lazy.ensure();
      },
      preload: () => void lazy.ensure(),
    }),
    [onOpenChange, lazy],
  );
  if (module) {
    const Real = real(module);
    return <Real {...props} defaultOpen={props.defaultOpen ?? isWanted} />;
  }
  return <Pending.Provider value={pending}>{props.children}</Pending.Provider>;
}

type TTriggerProps = {
  asChild?: boolean;
  children?: ReactNode;
  onClick?: (event: MouseEvent<HTMLButtonElement>) => void;
};

/** The trigger: the same button, which loads and opens the real root when pressed. */
export function LazyTrigger<M, P extends TTriggerProps>({
  lazy,
  pending: Pending,
  real,
  popup,
  props,
}: {
  lazy: TLazyModule<M>;
  pending: Context<TPending | null>;
  real: (module: M) => ComponentType<P>;
  popup: "dialog" | "menu";
  props: P;
}) {
  const module = useLazyModule(lazy);
  const pending = useContext(Pending);
  if (module && !pending) {
    const Real = real(module);
    return <Real {...props} />;
  }
  const { asChild, children, onClick, ...rest } = props;
  const Component = asChild ? SlotPrimitive.Slot : "button";
  return (
    <Component
      type="button"
      aria-haspopup={popup}
      aria-expanded={false}
      data-state="closed"
      {...rest}
      onPointerEnter={pending?.preload}
      onFocus={pending?.preload}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        onClick?.(event);
        if (!event.defaultPrevented) pending?.requestOpen();
      }}
    >
      {children}
    </Component>
  );
}

/** A part that renders nothing while closed (content, title, description…): real once loaded. */
export function LazyPart<M, P extends object>({
  lazy,
  pending: Pending,
  real,
  props,
}: {
  lazy: TLazyModule<M>;
  pending: Context<TPending | null>;
  real: (module: M) => ComponentType<P>;
  props: P;
}) {
  const module = useLazyModule(lazy);
  const pending = useContext(Pending);
  if (!module || pending) return null;
  const Real = real(module);
  return <Real {...props} />;
}
