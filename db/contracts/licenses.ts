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
