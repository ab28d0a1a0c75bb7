/** Kinds of party identifier customs and carriers ask for (no zod here: the client imports this). */
export const PARTY_ID_TYPES = ["ein", "eori", "vat", "uscc", "other"] as const;
export type TPartyIdType = (typeof PARTY_ID_TYPES)[number];

/** How documents label each identifier. */
export const PARTY_ID_LABELS: Record<TPartyIdType, string> = {
  ein: "EIN",
  eori: "EORI",
  vat: "VAT",
  uscc: "USCI",
  other: "ID",
};
