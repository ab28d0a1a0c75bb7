import { cva, type VariantProps } from "class-variance-authority";
import { Slot as SlotPrimitive } from "radix-ui";
import type * as React from "react";

import { cn } from "../../lib/utils";

/** Colour classes for the status tones (border, tinted background, AA-contrast text). */
const toneClass = {
  red: "border-red-200 bg-red-50 text-red-800",
  green: "border-green-200 bg-green-50 text-green-800",
  yellow: "border-yellow-200 bg-yellow-50 text-yellow-800",
  orange: "border-orange-200 bg-orange-50 text-orange-800",
  blue: "border-blue-200 bg-blue-50 text-blue-800",
  gray: "border-gray-200 bg-gray-100 text-gray-700",
} as const;

type StatusTone = keyof typeof toneClass;

const badgeVariants = cva(
  "inline-flex items-center justify-center rounded-md border px-2 py-0.5 text-xs font-medium w-fit whitespace-nowrap shrink-0 [&>svg]:size-3 gap-1 [&>svg]:pointer-events-none focus-visible:border-ring focus-visible:ring-ring/50 focus-visible:ring-[3px] aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40 aria-invalid:border-destructive transition-[color,box-shadow] overflow-hidden",
  {
    variants: {
      variant: {
        default: "border-transparent bg-primary text-primary-foreground [a&]:hover:bg-primary/90",
        secondary: "border-transparent bg-secondary text-secondary-foreground [a&]:hover:bg-secondary/90",
        destructive:
          "border-transparent bg-destructive text-white [a&]:hover:bg-destructive/90 focus-visible:ring-destructive/20 dark:focus-visible:ring-destructive/40 dark:bg-destructive/60",
        outline: "text-foreground [a&]:hover:bg-accent [a&]:hover:text-accent-foreground",
        // Status colours (product spec). Tinted background + dark text keeps AA contrast.
        red: toneClass.red,
        green: toneClass.green,
        yellow: toneClass.yellow,
        orange: toneClass.orange,
        blue: toneClass.blue,
        gray: toneClass.gray,
      },
    },
    defaultVariants: {
      variant: "default",
    },
  },
);

type BadgeVariant = NonNullable<VariantProps<typeof badgeVariants>["variant"]>;

/**
 * Status → badge variant, per the product spec:
 * delayed red, delivered green, draft yellow, customs orange,
 * in transit blue, template gray. Keys are lower-case; both
 * "in_transit" and "in transit" (and "in-transit") are accepted.
 */
const statusVariant: Record<string, StatusTone> = {
  delayed: "red",
  delivered: "green",
  draft: "yellow",
  customs: "orange",
  in_transit: "blue",
  "in transit": "blue",
  "in-transit": "blue",
  intransit: "blue",
  template: "gray",
};

/** Status → colour classes only (no badge layout), for dots, row accents, etc. */
const statusColorClass: Record<string, string> = Object.fromEntries(
  Object.entries(statusVariant).map(([status, variant]) => [status, toneClass[variant]]),
);

function statusBadgeVariant(status: string): StatusTone {
  return statusVariant[status.trim().toLowerCase()] ?? "gray";
}

function Badge({
  className,
  variant,
  asChild = false,
  ...props
}: React.ComponentProps<"span"> & VariantProps<typeof badgeVariants> & { asChild?: boolean }) {
  const Comp = asChild ? SlotPrimitive.Slot : "span";

  return (
    <Comp
      data-slot="badge"
      data-variant={variant ?? "default"}
      className={cn(badgeVariants({ variant }), className)}
      {...props}
    />
  );
}

/** A badge coloured by shipment status; renders `children`, or the status text with `_`/`-` shown as spaces. */
function StatusBadge({
  status,
  children,
  ...props
}: Omit<React.ComponentProps<typeof Badge>, "variant"> & { status: string }) {
  return (
    <Badge variant={statusBadgeVariant(status)} data-status={status} {...props}>
      {children ?? status.replace(/[_-]+/g, " ")}
    </Badge>
  );
}

export type { BadgeVariant, StatusTone };
export { Badge, badgeVariants, StatusBadge, statusBadgeVariant, statusColorClass, statusVariant };
