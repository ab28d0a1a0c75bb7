import { z } from "zod";
import {
  flag,
  optionalEmail,
  optionalId,
  optionalText,
  REQUIRED,
  requiredEmail,
  requiredId,
  requiredText,
  whenFieldsParsed,
} from "./fields";
import { PARTY_ID_TYPES } from "./party-ids";

const ID_TYPE = `Choose one of ${PARTY_ID_TYPES.join(", ")} (or leave it empty).`;
const idType = () =>
  z.preprocess((v) => (v == null ? "" : v), z.enum(["", ...PARTY_ID_TYPES], { error: ID_TYPE })).default("");

/** Notes are stored as '-' when left empty (spec section 5). */
const EMPTY_NOTE = "-";

/**
 * A contact as the form and the CSV importer send it. Required per spec section 5; the notes are
 * required while their flag is on; empty notes are stored as '-'.
 */
export const ZContactInput = z
  .object({
    company: requiredText(),
    partner_type_id: requiredId(),
    tax_id: requiredText(64),
    tax_id_type: idType(),
    other_id_type: idType(),
    other_id: optionalText(64),
    contact_1: requiredText(),
    phone_1: requiredText(64),
    email_1: requiredEmail(),
    contact_2: optionalText(),
    phone_2: optionalText(64),
    email_2: optionalEmail(),
    is_sensitive: flag(),
    sensitive_note: optionalText(2000),
    is_restricted: flag(),
    restricted_note: optionalText(2000),
    street: optionalText(),
    city: optionalText(128),
    state_province: optionalText(128),
    postal_code: optionalText(32),
    country_id: optionalId(),
  })
  .superRefine(
    (value, ctx) => {
      const isBlank = (note: string) => note === "" || note === EMPTY_NOTE;
      if (value.is_sensitive && isBlank(value.sensitive_note)) {
        ctx.addIssue({ code: "custom", path: ["sensitive_note"], message: REQUIRED });
      }
      if (value.is_restricted && isBlank(value.restricted_note)) {
        ctx.addIssue({ code: "custom", path: ["restricted_note"], message: REQUIRED });
      }
    },
    whenFieldsParsed("is_sensitive", "sensitive_note", "is_restricted", "restricted_note"),
  )
  .superRefine(
    (value, ctx) => {
      if (value.other_id && !value.other_id_type) {
        ctx.addIssue({
          code: "custom",
          path: ["other_id_type"],
          message: "Say what the second identifier is.",
        });
      }
    },
    whenFieldsParsed("other_id", "other_id_type"),
  )
  .transform((value) => ({
    ...value,
    sensitive_note: value.sensitive_note || EMPTY_NOTE,
    restricted_note: value.restricted_note || EMPTY_NOTE,
  }));

export type TContactInput = z.input<typeof ZContactInput>;
export type TContactValues = z.output<typeof ZContactInput>;

/** A contact as the API returns it: flags as 1/0, dates as ISO text. */
export type TContact = Omit<TContactValues, "is_sensitive" | "is_restricted"> & {
  id: number;
  is_sensitive: 0 | 1;
  is_restricted: 0 | 1;
  last_shipment_date: string | null;
  user_id: number | null;
  created_at: string;
  updated_at: string;
};

export const ZPartnerTypeInput = z.object({ partner_type: requiredText(64) });

/** A CSV row the importer refused, with the reasons. */
export type TRejectedRow = { line: number; errors: string[] };

/** What a contacts import did (the CLI prints it; POST /contacts/upload answers it). */
export type TImportReport = {
  created: number;
  updated: number;
  unchanged: number;
  /** How many rows were rejected in all. */
  rejected: number;
  /** The first rejected rows in detail (at most 1,000), with line numbers. */
  rejected_rows: TRejectedRow[];
  /** True when `rejected_rows` stops short of `rejected`: only the first 1,000 are detailed. */
  rejected_rows_truncated: boolean;
  rows: number;
  dry_run: boolean;
};

/** The upload's answer: the report, or on failure only `message` and `result` (the spec's failure sign). */
/** GET /api/contacts/upload/progress: how far the caller's upload has got while the server imports it. */
export type TUploadProgress = { rows: number; percent: number } | { rows: null; percent: null };

export type TImportAnswer = Partial<TImportReport> & { message: string; result?: string };
