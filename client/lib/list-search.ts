/**
 * The query parameters every list screen takes (spec: page, sortProp, sortDirection, filters).
 * Malformed values fall back to the defaults instead of breaking the screen, so an old bookmark
 * still opens; listSearchFor then drops sorts and filters the screen's columns do not offer.
 * Parsed by hand, not with zod: every list screen runs this, and zod stays out of their JavaScript.
 */
export type TListSearch = {
  page?: number;
  sortProp?: string;
  sortDirection?: "asc" | "desc";
  filters?: Record<string, string>;
};

const SORT_PROP = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A whole number ≥ 1 (a number, or text such as "2" from a hand-edited URL), else undefined. */
export function positiveIntOrUndefined(value: unknown): number | undefined {
  if (value === undefined || value === null || typeof value === "boolean" || typeof value === "object")
    return undefined;
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && value.trim() !== ""
        ? Number(value)
        : Number.NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

/** A string, else undefined. */
export function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** One of the allowed strings, else undefined. */
export function oneOfOrUndefined<const T extends string>(
  value: unknown,
  allowed: readonly T[],
): T | undefined {
  return typeof value === "string" && (allowed as readonly string[]).includes(value)
    ? (value as T)
    : undefined;
}

function filtersOrUndefined(value: unknown): Record<string, string> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  return entries.every(([, v]) => typeof v === "string") ? Object.fromEntries(entries) : undefined;
}

/** The spec's list parameters from a raw URL search, each malformed one dropped. */
export function parseListSearch(raw: Record<string, unknown>): TListSearch {
  const sortProp = stringOrUndefined(raw.sortProp);
  const search: TListSearch = {};
  const page = positiveIntOrUndefined(raw.page);
  if (page !== undefined) search.page = page;
  if (sortProp !== undefined && SORT_PROP.test(sortProp)) search.sortProp = sortProp;
  const sortDirection = oneOfOrUndefined(raw.sortDirection, ["asc", "desc"]);
  if (sortDirection) search.sortDirection = sortDirection;
  const filters = filtersOrUndefined(raw.filters);
  if (filters) search.filters = filters;
  return search;
}

/** What a list screen declares about a column: its key, whether it sorts, how it filters. */
export type TSearchColumn = { key: string; sortable?: boolean; filter?: TFilterKind };

/**
 * How a column filters: text (contains), boolean (1/0), date (a day range "from..to", either end
 * open, or one day) or choice (one value from a list, e.g. a status or a dictionary id).
 */
export type TFilterKind = "text" | "boolean" | "date" | "choice";

const DAY = String.raw`\d{4}-\d{2}-\d{2}`;
const DATE_RANGE = new RegExp(`^(${DAY})?(\\.\\.(${DAY})?)?$`);

/** A date filter's value: "2025-01-01..2025-03-31", "2025-01-01..", "..2025-03-31" or one day. */
export function isDateFilter(value: string): boolean {
  return value !== "" && value !== ".." && DATE_RANGE.test(value);
}

/**
 * A list screen's search with only what its columns allow: a sort on a sortable column and
 * filters on filterable ones, with values the API takes (boolean 1/0, text 1–255 characters).
 * Anything else is dropped, so a bookmark from an older version or a hand-edited URL opens the
 * list with the defaults instead of an error from the API.
 */
export function listSearchFor(search: TListSearch, columns: readonly TSearchColumn[]): TListSearch {
  const byKey = new Map(columns.map((column) => [column.key, column]));
  const isSortable = Boolean(search.sortProp && byKey.get(search.sortProp)?.sortable);
  const filters: Record<string, string> = {};
  for (const [prop, value] of Object.entries(search.filters ?? {})) {
    const kind = byKey.get(prop)?.filter;
    const text = value.trim();
    if (kind === "boolean" && (text === "1" || text === "0")) filters[prop] = text;
    else if (kind === "text" && text !== "" && text.length <= 255) filters[prop] = value;
    else if (kind === "date" && isDateFilter(text)) filters[prop] = text;
    else if (kind === "choice" && /^[\w ]{1,64}$/.test(text)) filters[prop] = text;
  }
  // Every key is set, undefined included: the router lays the validated search over the raw one,
  // so a dropped value must be overwritten, not just left out.
  return {
    page: search.page,
    sortProp: isSortable ? search.sortProp : undefined,
    sortDirection: isSortable ? search.sortDirection : undefined,
    filters: Object.keys(filters).length ? filters : undefined,
  };
}

/** The validateSearch of a list screen: the spec's parameters, narrowed to the screen's columns. */
export const listSearchValidator =
  (columns: readonly TSearchColumn[]) =>
  (raw: Record<string, unknown>): TListSearch =>
    listSearchFor(parseListSearch(raw), columns);

export const PAGE_SIZE = 10;

/** The API query for a list screen's search: page, per_page, sort_<prop>, filters[<prop>]. */
export function listApiQuery(search: TListSearch): string {
  const params = new URLSearchParams();
  params.set("page", String(search.page ?? 1));
  params.set("per_page", String(PAGE_SIZE));
  if (search.sortProp) params.set(`sort_${search.sortProp}`, search.sortDirection ?? "asc");
  for (const [prop, value] of Object.entries(search.filters ?? {})) {
    if (value !== "") params.set(`filters[${prop}]`, value);
  }
  return params.toString();
}

/** The list API's answer. */
export type TListPage<T> = {
  data: T[];
  total: number;
  current_page: number;
  per_page: number;
  last_page: number;
};

/** A number (or numeric text, as z.coerce.number() took it), else undefined. */
export function numberOrUndefined(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** A string of at most `max` characters, else undefined. */
export function shortStringOrUndefined(value: unknown, max: number): string | undefined {
  return typeof value === "string" && value.length <= max ? value : undefined;
}
