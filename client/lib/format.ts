/** YYYY-MM-DD (or an ISO timestamp) → MM/DD/YYYY, the spec's display format; empty stays empty. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return "";
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return match ? `${match[2]}/${match[3]}/${match[1]}` : value;
}

/**
 * The one date format with the time where it matters: MM/DD/YYYY (spec: dates are displayed
 * MM/DD/YYYY) and the US medium time, e.g. 03/15/2026, 2:05:09 PM, in the browser's time zone or in
 * `timeZone` (then named: "03/15/2026, 2:05:09 PM UTC").
 */
export function formatDateTime(value: string | null | undefined, timeZone?: string): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const text = new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
    timeZone,
  }).format(date);
  return timeZone ? `${text} ${timeZone}` : text;
}

/**
 * A number with thousands separators and no trailing-zero noise: "1234.500" → "1,234.5",
 * "2.000" → "2". Exact for decimal strings (no float rounding); empty stays empty.
 */
export function formatNumber(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const text = String(value).trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  const [whole, frac = ""] = text.split(".");
  const sign = whole.startsWith("-") ? "-" : "";
  const digits = whole.replace("-", "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const decimals = frac.replace(/0+$/, "");
  const shown = decimals ? `${digits}.${decimals}` : digits;
  return shown === "0" ? "0" : `${sign}${shown}`;
}

/** A decimal string as money with thousands separators: "1234.5" → "$1,234.50". */
export function formatMoney(value: string | number | null | undefined, currency?: string): string {
  if (value === null || value === undefined || value === "") return "";
  const [whole, frac = ""] = String(value).split(".");
  const sign = whole.startsWith("-") ? "-" : "";
  const digits = whole.replace("-", "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  // An amount in another currency shows its code ('EUR 1,234.50'), never a dollar sign.
  const symbol = currency && currency !== "USD" ? `${currency} ` : "$";
  return `${sign}${symbol}${digits}.${frac.padEnd(2, "0").slice(0, 2)}`;
}
