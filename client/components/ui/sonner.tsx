import type * as React from "react";
import type { ToasterProps } from "sonner";
import { Toaster as Sonner } from "../../lib/toast";

/**
 * App-wide toast outlet. Light theme with rich (coloured) success/error toasts.
 * Use `toast` from "sonner" to show one (sonner loads with the first toast: client/lib/toast.tsx).
 */
function Toaster({ ...props }: ToasterProps) {
  return (
    <Sonner
      theme="light"
      richColors
      className="toaster group"
      style={
        {
          "--normal-bg": "var(--popover)",
          "--normal-text": "var(--popover-foreground)",
          "--normal-border": "var(--border)",
        } as React.CSSProperties
      }
      {...props}
    />
  );
}

export type { ToasterProps };
export { Toaster };
