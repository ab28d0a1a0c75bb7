import { z } from "zod";
import { isoDate, optionalId, optionalText, requiredId, requiredText, whenFieldsParsed } from "./fields";
import type { TDocumentRef } from "./products";

export const EXPIRY_BEFORE_VALID = "The expiry date must not be before the valid date.";

/** A licence: dates as YYYY-MM-DD, expiry not before validity, status free text ('pending' by default). */
export const ZLicenseInput = z
  .object({
    licence_name: requiredText(),
    valid_date: isoDate(),
    expiration_date: isoDate(),
    reference_number_1: requiredText(64),
    reference_number_2: requiredText(64),
    status: requiredText(64),
    country_id: requiredId(),
    contact_id: requiredId(),
    contact_note: optionalText(2000),
    product_id: optionalId(),
    product_note: optionalText(2000),
    /** Covers lines of this ECCN (or its paragraphs) when no product is named; "" when none. */
    eccn: z
      .string({ error: "Enter an ECCN such as 3A001 or 3A001.b.2." })
      .trim()
      .transform((v) => v.toUpperCase())
      .refine(
        (v) => v === "" || /^\d[A-E]\d{3}(\.[A-Z0-9]+)*$/.test(v),
        "Enter an ECCN such as 3A001 or 3A001.b.2.",
      )
      .optional()
      .default(""),
    /** Authorised value in US dollars ("" when the licence has no value limit). */
    authorized_value: z
      .union([z.string(), z.number()], { error: "Enter an amount such as 250000.00." })
      .transform((v) => (typeof v === "number" ? String(v) : v.trim().replace(/,/g, "")))
      .refine(
        (v) => v === "" || /^\d{1,13}(\.\d{1,2})?$/.test(v),
        "Enter an amount such as 250000.00 (at most 2 decimals).",
      )
      .optional()
      .default(""),
    /** Authorised quantity in units (null when the licence has no quantity limit). */
    authorized_quantity: z
      .preprocess(
        (v) =>
          v === "" || v === undefined ? null : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v,
        z
          .number({ error: "Enter a whole number of units." })
          .int("Enter a whole number of units.")
          .min(1, "Must be at least 1.")
          .nullable(),
      )
      .optional()
      .default(null),
  })
  .superRefine(
    (value, ctx) => {
      if (value.expiration_date < value.valid_date) {
        ctx.addIssue({ code: "custom", path: ["expiration_date"], message: EXPIRY_BEFORE_VALID });
      }
    },
    whenFieldsParsed("valid_date", "expiration_date"),
  );

export type TLicenseInput = z.input<typeof ZLicenseInput>;
export type TLicense = z.output<typeof ZLicenseInput> & {
  id: number;
  documents: TDocumentRef[];
  created_at: string;
  updated_at: string;
};
