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
