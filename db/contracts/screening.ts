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

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isRealDay = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`);
  return DAY.test(value) && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
};

// Without zod, so screens that only show review dates do not load zod with them.
import { todayUtc } from "./review-dates";

export {
  CONTACT_SCREENING_LABELS,
  CONTACT_SCREENING_STATES,
  contactScreeningState,
  isReviewDue,
  type TContactScreeningState,
  todayUtc,
} from "./review-dates";

export const REVIEW_DATE_ONLY_PASSED = "Only an override to PASSED can carry a review date.";

export const ZOverride = z
  .object({
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
    /** YYYY-MM-DD, after today; empty means none. */
    review_date: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || undefined)
      .refine((v) => v === undefined || isRealDay(v), "The review date must be a date (YYYY-MM-DD).")
      .refine((v) => v === undefined || v > todayUtc(), "The review date must be after today."),
  })
  .refine((v) => v.review_date === undefined || v.status === "passed", {
    message: REVIEW_DATE_ONLY_PASSED,
    path: ["review_date"],
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
  /** YYYY-MM-DD from which an override to passed is due for review. */
  review_date: string | null;
  user_id: number | null;
  created_at: string;
};

/** One line of a contact's screening trail (GET /screenings/contact/{id}/history), from the audit log. */
export type TScreeningHistoryEntry = {
  id: number;
  created_at: string;
  kind: "screen" | "rescreen" | "override";
  contact_id: number | null;
  name: string;
  outcome: "passed" | "failed";
  previous_status: string | null;
  /** An override's note, or why a list update changed the outcome. */
  note: string | null;
  review_date: string | null;
  best_match: Pick<
    TScreeningMatch,
    "name" | "matched_name" | "source_list" | "source_id" | "programs" | "score"
  > | null;
  lists: { source: string; version_date: string }[];
  user: string;
  /** An override's askers: the members whose work the hit held (the contact's creator, shipments' editors). */
  asked_by?: { user_id: number; email: string; name: string; as: string }[];
};
