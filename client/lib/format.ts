/** YYYY-MM-DD (or an ISO timestamp) → MM/DD/YYYY, the spec's display format; empty stays empty. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "";
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return match ? `${match[2]}/${match[3]}/${match[1]}` : value;
}

/**
 * US short date with medium time, e.g. 3/15/24, 2:05:09 PM (the shipping-documents list), in the
 * browser's time zone, or in `timeZone` (then named: "3/15/24, 2:05:09 PM UTC").
 */
export function formatDateTime(value: string | null | undefined, timeZone?: string): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const text = new Intl.DateTimeFormat("en-US", { dateStyle: "short", timeStyle: "medium", timeZone }).format(
    date,
  );
  return timeZone ? `${text} ${timeZone}` : text;
}

/** A decimal string as money with thousands separators: "1234.5" → "$1,234.50". */
export function formatMoney(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const [whole, frac = ""] = String(value).split(".");
  const sign = whole.startsWith("-") ? "-" : "";
  const digits = whole.replace("-", "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}$${digits}.${frac.padEnd(2, "0").slice(0, 2)}`;
}
