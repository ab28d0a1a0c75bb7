import { z } from "zod";
import { optionalText, requiredText } from "./fields";
import type { TDocumentRef } from "./products";

/** A wiki entry: a name and a description for uploaded files. */
export const ZWikiInput = z.object({ name: requiredText(), description: requiredText(2000) });

export type TWiki = z.output<typeof ZWikiInput> & {
  id: number;
  documents: TDocumentRef[];
  created_at: string;
  updated_at: string;
};

/** Shipping form types (spec: certificate of origin, certification, other; stored lowercased). */
export const SHIPPING_FORM_TYPES = ["certificate of origin", "certification", "other"] as const;

/** A shipping form ("msdocuments"): name, description and its type, 'other' by default. */
export const ZShippingFormInput = z.object({
  name: requiredText(),
  description: optionalText(2000),
  document_type: z
    .string()
    .trim()
    .toLowerCase()
    .nullish()
    .transform((v) => v || "other")
    .pipe(z.enum(SHIPPING_FORM_TYPES, { error: "Choose Certificate Of Origin, Certification or Other." })),
});

export type TShippingForm = z.output<typeof ZShippingFormInput> & {
  id: number;
  documents: TDocumentRef[];
  created_at: string;
  updated_at: string;
};
