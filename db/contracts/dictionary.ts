import { z } from "zod";

/** Every dictionary the client can ask for (spec section 7). */
export const DICTIONARY_NAMES = [
  "contacts",
  "products",
  "licenses",
  "currencies",
  "countries",
  "carriers",
  "shipping_statuses",
  "incoterms",
  "users",
  "payment_terms",
  "mode_of_transports",
  "packages",
  "partner_types",
  "templates",
] as const;

export type TDictionaryName = (typeof DICTIONARY_NAMES)[number];
export type TDictionaryOption = { id: number; label: string };
export type TDictionary = Partial<Record<TDictionaryName, TDictionaryOption[]>>;

export const ZDictionaryName = z.enum(DICTIONARY_NAMES, {
  error: (issue) =>
    `Unknown dictionary ${JSON.stringify(issue.input)}; expected one of ${DICTIONARY_NAMES.join(", ")}`,
});
