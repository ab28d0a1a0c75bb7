import type * as React from "react";
import { cn } from "../../lib/utils";
import type * as Radix from "./dialog-radix";
import { createPendingContext, LazyPart, LazyRoot, LazyTrigger, lazyModule } from "./lazy-radix";

// The dialog the screens use: Radix's (./dialog-radix), loaded on the first open (./lazy-radix).

type M = typeof Radix;
type P<K extends keyof M> = React.ComponentProps<M[K]>;
const radix = lazyModule<M>(() => import("./dialog-radix"));
const Pending = createPendingContext();

function Dialog(props: P<"Dialog">) {
  return <LazyRoot lazy={radix} pending={Pending} real={(m) => m.Dialog} props={props} />;
}

function DialogTrigger(props: P<"DialogTrigger">) {
  return (
    <LazyTrigger lazy={radix} pending={Pending} real={(m) => m.DialogTrigger} popup="dialog" props={props} />
  );
}

function DialogPortal(props: P<"DialogPortal">) {
  return <LazyPart lazy={radix} pending={Pending} real={(m) => m.DialogPortal} props={props} />;
}

function DialogClose(props: P<"DialogClose">) {
  return <LazyPart lazy={radix} pending={Pending} real={(m) => m.DialogClose} props={props} />;
}

function DialogOverlay(props: P<"DialogOverlay">) {
  return <LazyPart lazy={radix} pending={Pending} real={(m) => m.DialogOverlay} props={props} />;
}

function DialogContent(props: P<"DialogContent">) {
  return <LazyPart lazy={radix} pending={Pending} real={(m) => m.DialogContent} props={props} />;
}

function DialogTitle(props: P<"DialogTitle">) {
  return <LazyPart lazy={radix} pending={Pending} real={(m) => m.DialogTitle} props={props} />;
}

function DialogDescription(props: P<"DialogDescription">) {
  return <LazyPart lazy={radix} pending={Pending} real={(m) => m.DialogDescription} props={props} />;
}

function DialogHeader({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="dialog-header"
      className={cn("flex flex-col gap-2 text-center sm:text-left", className)}
      {...props}
    />
  );
}

function DialogFooter({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="dialog-footer"
      className={cn("flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)}
      {...props}
    />
  );
}

export {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogOverlay,
  DialogPortal,
  DialogTitle,
  DialogTrigger,
};
