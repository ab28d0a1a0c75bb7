import { z } from "zod";

/**
 * The query parameters every list screen takes (spec: page, sortProp, sortDirection, filters).
 * Bad values fall back to the defaults instead of breaking the screen, so an old bookmark still opens.
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
