import { z } from "zod";
import { optionalEmail, optionalId, optionalText } from "./fields";

/** Kinds of a further identifier on the exporter profile (EIN and EORI have fields of their own). */
export const EXPORTER_OTHER_ID_TYPES = ["vat", "uscc", "other"] as const;

const EIN = "Enter the EIN as 9 digits, e.g. 12-3456789.";
const EORI =
  "Enter the EORI as a 2-letter country code and up to 15 letters or digits, e.g. DE123456789012345.";

/**
 * The exporter profile as the screen sends it (PUT /api/exporter-profile): every field optional
 * (a workspace fills it in over time), the identifiers checked for their shape. The EIN is stored
 * as NN-NNNNNNN whatever separators were typed; the EORI upper-case without spaces.
 */
export const ZExporterProfileInput = z.object({
  company: optionalText(255),
  street: optionalText(255),
  city: optionalText(128),
  state_province: optionalText(128),
  postal_code: optionalText(32),
  country_id: optionalId(),
  ein: optionalText(32)
    .transform((v) => v.replace(/[\s-]/g, ""))
    .refine((v) => v === "" || /^\d{9}$/.test(v), EIN)
    .transform((v) => (v ? `${v.slice(0, 2)}-${v.slice(2)}` : "")),
  eori: optionalText(32)
    .transform((v) => v.replace(/\s/g, "").toUpperCase())
    .refine((v) => v === "" || /^[A-Z]{2}[A-Z0-9]{1,15}$/.test(v), EORI),
  other_id_type: z
    .preprocess(
      (v) => (v == null ? "" : v),
      z.enum(["", ...EXPORTER_OTHER_ID_TYPES], {
        error: `Choose one of ${EXPORTER_OTHER_ID_TYPES.join(", ")} (or leave it empty).`,
      }),
    )
    .default(""),
  other_id: optionalText(64),
  phone: optionalText(64),
  email: optionalEmail(),
  letterhead: optionalText(500),
  signatory_name: optionalText(255),
  signatory_title: optionalText(255),
});
export type TExporterProfileInput = z.input<typeof ZExporterProfileInput>;

/** The profile as GET answers it (empty strings for what is not filled in). */
export type TExporterProfile = z.output<typeof ZExporterProfileInput> & {
  /** The country's name, for display. */
  country: string | null;
  /** Whether the caller may change it (the workspace owner). */
  editable: boolean;
  /** Where the logo image is served, or null when none was uploaded. */
  logo_url: string | null;
  updated_at: string | null;
};
