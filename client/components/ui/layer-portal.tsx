import type { ReactNode } from "react";
import { createPortal } from "react-dom";

/**
 * The backdrop and the box of a modal in one portal, in that order. Radix's Portal gives each part
 * a portal of its own, appended to the body when the part mounts: a backdrop that came back while
 * the box was still fading out (reopened within the box's last 50 ms) landed after the box and
 * took every click meant for it. In one portal React keeps the backdrop before the box.
 */
export function LayerPortal({ children }: { children: ReactNode }) {
  return typeof document === "undefined" ? null : createPortal(children, document.body);
}
