import { lazy, Suspense, useSyncExternalStore } from "react";
import type { ToasterProps, toast as TSonnerToast } from "sonner";

// sonner (the toasts) loads on the first toast, not with every screen: a toast always follows
// something the user did (a save, a delete), and the chunk is on localhost's doorstep by then.
// The client build sends every `import { toast } from "sonner"` here (vite.config.ts,
// lazyModules); this module alone imports the real package. The server renders no toaster:
// the outlet mounts in the browser when the first toast is asked for, so SSR and hydration agree.

type TSonner = typeof import("sonner");

let sonner: Promise<TSonner> | undefined;
let isWanted = false;
const listeners = new Set<() => void>();

function loadSonner(): Promise<TSonner> {
  if (!isWanted) {
    isWanted = true;
    for (const listener of listeners) listener();
  }
  sonner ??= import("sonner");
  return sonner;
}

type TKind = "success" | "error" | "warning";
type TShow = (
  message: Parameters<typeof TSonnerToast.success>[0],
  data?: Parameters<typeof TSonnerToast.success>[1],
) => void;
const show =
  (kind: TKind): TShow =>
  (message, data) => {
    void loadSonner().then(({ toast }) => toast[kind](message, data));
  };

/**
 * Closes the toasts shown (all, or one by id); before the first toast there is nothing to close.
 * Queued after any toast asked for earlier, so the order of calls holds.
 */
const dismiss = (id?: string | number) => {
  if (sonner) void sonner.then(({ toast }) => toast.dismiss(id));
};

/**
 * sonner's toast.success, toast.error, toast.warning and toast.dismiss (the ones this app uses),
 * loaded on first use.
 */
export const toast = { success: show("success"), error: show("error"), warning: show("warning"), dismiss };

const RealToaster = lazy(() => loadSonner().then(({ Toaster }) => ({ default: Toaster })));

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** sonner's Toaster, mounted once a toast is wanted (toasts shown before it mounts still appear). */
export function Toaster(props: ToasterProps) {
  const isMounted = useSyncExternalStore(
    subscribe,
    () => isWanted,
    () => false,
  );
  if (!isMounted) return null;
  return (
    <Suspense fallback={null}>
      <RealToaster {...props} />
    </Suspense>
  );
}
