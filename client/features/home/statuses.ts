/** A status as the spec shows it: uppercase ("in transit" → "IN TRANSIT"). */
export const statusLabel = (name: string | null | undefined) => (name ?? "").toUpperCase();

/**
 * The spec's status colours (delayed red, delivered green, draft yellow, customs orange, in
 * transit blue) as tile classes; text shades keep at least 4.5:1 on their tint.
 */
export const STATUS_TONES: Record<string, { tile: string; accent: string; text: string }> = {
  draft: { tile: "border-yellow-300 bg-yellow-50", accent: "bg-yellow-400", text: "text-yellow-900" },
  "in transit": { tile: "border-blue-300 bg-blue-50", accent: "bg-blue-500", text: "text-blue-900" },
  customs: { tile: "border-orange-300 bg-orange-50", accent: "bg-orange-500", text: "text-orange-900" },
  delayed: { tile: "border-red-300 bg-red-50", accent: "bg-red-500", text: "text-red-900" },
  delivered: { tile: "border-green-300 bg-green-50", accent: "bg-green-500", text: "text-green-900" },
};
