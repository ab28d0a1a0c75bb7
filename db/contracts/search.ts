import { z } from "zod";

/** GET /api/search?q= : what the global search (Ctrl/⌘-K and the header field) asks. */
export const ZSearchQuery = z.object({
  q: z
    .string({ error: "Type at least 2 characters to search." })
    .trim()
    .min(2, "Type at least 2 characters to search.")
    .max(100, "Search for at most 100 characters."),
});

export type TSearchKind = "contact" | "product" | "license" | "shipment";

/** One thing found: what it is, how it is named, a second line, and where it opens. */
export type TSearchHit = {
  kind: TSearchKind;
  id: number;
  title: string;
  detail: string;
  path: string;
};

/** Hits grouped by kind, at most SEARCH_LIMIT of each. */
export type TSearchAnswer = { q: string; hits: TSearchHit[] };

export const SEARCH_LIMIT = 5;
