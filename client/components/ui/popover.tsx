import type * as React from "react";
import { createPendingContext, LazyPart, LazyRoot, LazyTrigger, lazyModule } from "./lazy-radix";
import type * as Radix from "./popover-radix";

// The popover the screens use: Radix's (./popover-radix), loaded on the first open (./lazy-radix).

type M = typeof Radix;
type P<K extends keyof M> = React.ComponentProps<M[K]>;
const radix = lazyModule<M>(() => import("./popover-radix"));
const Pending = createPendingContext();

function Popover(props: P<"Popover">) {
  return <LazyRoot lazy={radix} pending={Pending} real={(m) => m.Popover} props={props} />;
}

function PopoverTrigger(props: P<"PopoverTrigger">) {
  return (
    <LazyTrigger lazy={radix} pending={Pending} real={(m) => m.PopoverTrigger} popup="dialog" props={props} />
  );
}

function PopoverContent(props: P<"PopoverContent">) {
  return <LazyPart lazy={radix} pending={Pending} real={(m) => m.PopoverContent} props={props} />;
}

function PopoverAnchor(props: P<"PopoverAnchor">) {
  return <LazyPart lazy={radix} pending={Pending} real={(m) => m.PopoverAnchor} props={props} />;
}

export { Popover, PopoverAnchor, PopoverContent, PopoverTrigger };
