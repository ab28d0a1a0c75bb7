import { z } from "zod";

/** Spec: each search input 2 to 255 characters, at least one filled. */
export const SEARCH_FILL_ONE = "please fill atleast one of the input fields";

const searchInput = (label: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === "" || (v.length >= 2 && v.length <= 255), `${label} must be 2 to 255 characters.`);

/** The search form: three texts, empty meaning "not used". */
export const ZScreeningSearch = z
  .object({
    keywords: searchInput("Keyword"),
    name: searchInput("Entity name"),
    address: searchInput("Address"),
  })
  .refine((v) => v.keywords || v.name || v.address, { message: SEARCH_FILL_ONE, path: ["keywords"] });

/** The same rules for a query string, where an input left out is simply missing. */
export const ZScreeningSearchQuery = z.preprocess(
  (query) => ({ keywords: "", name: "", address: "", ...(query as object) }),
  ZScreeningSearch,
);

export const ZOverride = z.object({
  id: z.coerce
    .number({ error: "Give the id of the result to override." })
    .int()
    .positive("Give the id of the result to override."),
  status: z.enum(["passed", "failed"], { error: 'The status must be "passed" or "failed".' }),
  note: z
    .string({ error: "An override needs a note saying why." })
    .trim()
    .min(1, "An override needs a note saying why.")
    .max(2000, "Please use at most 2000 characters."),
});

/** A list match as results store and show it. */
export type TScreeningMatch = {
  source_list: string;
  source_id: string;
  entity_type: string;
  name: string;
  matched_name: string;
  score: number;
  programs: string[];
  countries: string[];
  addresses: string[];
};

/** A contact's screening result (spec: contact screening result). */
export type TContactScreening = {
  id: number;
  contact_id: number;
  status: "passed" | "failed";
  multiple: boolean;
  name: string;
  address: string;
  best_score: number;
  matches: TScreeningMatch[];
  lists: { source: string; version_date: string }[];
  override_of_id: number | null;
  note: string | null;
  user_id: number | null;
  created_at: string;
};
