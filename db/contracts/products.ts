import { z } from "zod";
import { decimal, flag, optionalText, REQUIRED, requiredId, requiredText, whenFieldsParsed } from "./fields";

/**
 * ECCN: EAR99, or the Commerce Control List pattern — a category digit, a product group letter A–E,
 * three digits and an optional paragraph suffix (5A002, 3A090.a, 5A992.c, 9A610.y.1), plus the
 * x/y "500/600-series" forms such as 9x515 and 0y521.
 */
const ECCN = /^(EAR99|[0-9][A-E][0-9]{3}(\.[a-z0-9]{1,3})*|[0-9][xy][0-9]{3}(\.[a-z0-9]{1,3})*)$/;
export const ECCN_MESSAGE = "Enter an ECCN such as EAR99, 5A002, 3A090.a or 9x515.";

/** HTS: 6 to 10 digits, optionally grouped with dots as printed (8471.30.0100). */
const HTS = /^\d{4}(\.?\d{2}){1,2}(\.?\d{2})?$|^\d{6,10}$/;
export const HTS_MESSAGE = "Enter an HTS code of 6 to 10 digits, such as 8471.30.0100.";

/** Upper-cases the category letter and lower-cases the paragraph suffix, the way the CCL prints them. */
export function normalizeEccn(value: string): string {
  const v = value.trim().replace(/\s+/g, "");
  if (/^ear99$/i.test(v)) return "EAR99";
  const [head, ...suffix] = v.split(".");
  const letter = head.charAt(1);
  const fixed = /[xy]/i.test(letter) ? letter.toLowerCase() : letter.toUpperCase();
  return [head.charAt(0) + fixed + head.slice(2), ...suffix.map((s) => s.toLowerCase())].join(".");
}

export const ZProductInput = z
  .object({
    name: requiredText(),
    description: requiredText(2000),
    product_number: requiredText(64),
    country_of_origin_id: requiredId(),
    is_sensitive: flag(),
    sensitive_message: optionalText(2000),
    has_license: flag(),
    US_ECCN: requiredText(32)
      .transform(normalizeEccn)
      .refine((v) => ECCN.test(v), ECCN_MESSAGE),
    HTS: requiredText(16).refine((v) => HTS.test(v) && /^\d/.test(v), HTS_MESSAGE),
    unit_value: decimal(2, { isRequired: true, min: 0 }),
    // Kilograms; left out or empty it is 0 (spec section 3: default 0).
    net_weight: decimal(3, { min: 0 }),
  })
  .superRefine(
    (value, ctx) => {
      if (value.is_sensitive && !value.sensitive_message) {
        ctx.addIssue({ code: "custom", path: ["sensitive_message"], message: REQUIRED });
      }
    },
    whenFieldsParsed("is_sensitive", "sensitive_message"),
  );

export type TProductInput = z.input<typeof ZProductInput>;
export type TProduct = Omit<z.output<typeof ZProductInput>, "is_sensitive" | "has_license"> & {
  id: number;
  is_sensitive: 0 | 1;
  has_license: 0 | 1;
  documents: TDocumentRef[];
  created_at: string;
  updated_at: string;
};

/** An attached file as records list it (spec section 7, Documents). */
export type TDocumentRef = {
  id: number;
  original_name: string;
  extension: string;
  path: string;
  url: string;
  document_type?: string | null;
};
