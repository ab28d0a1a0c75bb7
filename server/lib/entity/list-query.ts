import { AppError } from "../errors";

/** custom: the raw value goes to the entity column's own `where` (e.g. a status by id or name). */
export type TFilterKind = "text" | "boolean" | "date" | "number" | "custom";
export type TListColumn = { sortable?: boolean; filter?: TFilterKind };
export type TSortDirection = "asc" | "desc";

export type TFilter =
  | { prop: string; kind: "text"; value: string }
  | { prop: string; kind: "boolean"; value: boolean }
  | { prop: string; kind: "number"; value: number }
  | { prop: string; kind: "date"; from?: string; to?: string }
  | { prop: string; kind: "custom"; value: string };

export type TListQuery = {
  page: number;
  perPage: number;
  sort: { prop: string; direction: TSortDirection };
  filters: TFilter[];
};

export const DEFAULT_PER_PAGE = 10;
/** The template list's size (spec section 9) is the largest page anyone asks for. */
export const MAX_PER_PAGE = 100;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const refuse = (parameter: string, message: string) =>
  new AppError("VALIDATION", `${parameter}: ${message}`, { errors: { [parameter]: [message] } });

function isRealDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/**
 * Reads page, per_page, sort (`sort_<prop>=asc|desc`, or the spec's sortProp/sortDirection) and
 * `filters[<prop>]=<value>` from a query string, allowing only the columns the entity declares.
 * Anything unknown or malformed is a 422 that names the parameter; per_page above 100 is capped.
 */
export function parseListQuery(
  params: URLSearchParams,
  columns: Record<string, TListColumn>,
  defaultSort: { prop: string; direction: TSortDirection },
): TListQuery {
  const page = positiveInt(params, "page", 1);
  // Larger pages are capped rather than refused: a client asking for "all" gets the most we serve.
  const perPage = positiveInt(params, "per_page", DEFAULT_PER_PAGE, MAX_PER_PAGE);

  let sort = defaultSort;
  const sortKeys = [...params.keys()].filter((k) => k.startsWith("sort_"));
  if (sortKeys.length > 1) throw refuse(sortKeys[1], "only one sort_<column> parameter is allowed");
  const sortProp = sortKeys.length ? sortKeys[0].slice(5) : params.get("sortProp");
  const sortDirection = sortKeys.length ? params.get(sortKeys[0]) : params.get("sortDirection");
  const sortParam = sortKeys[0] ?? "sortProp";
  if (sortProp) {
    if (!columns[sortProp]?.sortable) {
      throw refuse(sortParam, `cannot sort by "${sortProp}"; sortable: ${sortableList(columns)}`);
    }
    const direction = (sortDirection ?? "asc").toLowerCase();
    if (direction !== "asc" && direction !== "desc") {
      throw refuse(sortKeys[0] ?? "sortDirection", 'must be "asc" or "desc"');
    }
    sort = { prop: sortProp, direction };
  } else if (sortDirection && !sortKeys.length) {
    throw refuse("sortDirection", "needs sortProp");
  }

  const filters: TFilter[] = [];
  for (const [key, raw] of params) {
    const match = /^filters\[([^\]]+)\]$/.exec(key);
    if (!match) {
      if (key.startsWith("filters")) throw refuse(key, "use filters[<column>]=<value>");
      continue;
    }
    const prop = match[1];
    const kind = columns[prop]?.filter;
    if (!kind) throw refuse(key, `cannot filter by "${prop}"`);
    filters.push(parseFilter(key, prop, kind, raw));
  }
  return { page, perPage, sort, filters };
}

function parseFilter(key: string, prop: string, kind: TFilterKind, raw: string): TFilter {
  const value = raw.trim();
  if (!value) throw refuse(key, "must not be empty");
  if (kind === "text" || kind === "custom") {
    if (value.length > 255) throw refuse(key, "must be at most 255 characters");
    return { prop, kind, value } as TFilter;
  }
  if (kind === "boolean") {
    if (value !== "1" && value !== "0") throw refuse(key, "must be 1 (true) or 0 (false)");
    return { prop, kind, value: value === "1" };
  }
  if (kind === "number") {
    if (!/^\d{1,15}$/.test(value)) throw refuse(key, "must be a whole number");
    return { prop, kind, value: Number(value) };
  }
  // Dates: a day (2024-05-01), or a range with .. where either end may be open (2024-01-01..2024-03-31).
  const [from, to] = value.includes("..") ? value.split("..", 2) : [value, value];
  for (const end of [from, to]) {
    if (end && !isRealDate(end)) throw refuse(key, "must be YYYY-MM-DD or a range YYYY-MM-DD..YYYY-MM-DD");
  }
  if (!from && !to) throw refuse(key, "must be YYYY-MM-DD or a range YYYY-MM-DD..YYYY-MM-DD");
  if (from && to && from > to) throw refuse(key, "the range starts after it ends");
  return { prop, kind, from: from || undefined, to: to || undefined };
}

/** A whole number of at least 1; with `cap`, any larger one (however many digits) becomes the cap. */
function positiveInt(params: URLSearchParams, name: string, fallback: number, cap?: number): number {
  const raw = params.get(name);
  if (raw === null || raw === "") return fallback;
  if (cap !== undefined && /^\d+$/.test(raw) && Number(raw) >= 1) return Math.min(Number(raw), cap);
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw refuse(name, "must be a whole number of at least 1");
  return Number(raw);
}

function sortableList(columns: Record<string, TListColumn>): string {
  return Object.entries(columns)
    .filter(([, c]) => c.sortable)
    .map(([name]) => name)
    .join(", ");
}
