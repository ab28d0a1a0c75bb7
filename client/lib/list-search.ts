import { z } from "zod";

/**
 * The query parameters every list screen takes (spec: page, sortProp, sortDirection, filters).
 * Malformed values fall back to the defaults instead of breaking the screen, so an old bookmark
 * still opens; listSearchFor then drops sorts and filters the screen's columns do not offer.
 */
export const ZListSearch = z.object({
  page: z.coerce.number().int().min(1).optional().catch(undefined),
  sortProp: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .optional()
    .catch(undefined),
  sortDirection: z.enum(["asc", "desc"]).optional().catch(undefined),
  filters: z.record(z.string(), z.string()).optional().catch(undefined),
});

export type TListSearch = z.infer<typeof ZListSearch>;

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
    listSearchFor(ZListSearch.parse(raw), columns);

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
