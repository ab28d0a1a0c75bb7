import { z } from "zod";
import { decimalToScaled } from "./decimal";
import { itnProblem } from "./export-control";

/** The paperwork the server generates for a shipment (spec section 9). */
export const PAPERWORK_TYPES = [
  "commercial_invoice",
  "proforma_invoice",
  "packing_list",
  "certificate_of_origin",
] as const;
export type TPaperworkType = (typeof PAPERWORK_TYPES)[number];

export const PAPERWORK_LABELS: Record<TPaperworkType, string> = {
  commercial_invoice: "Commercial Invoice",
  proforma_invoice: "Proforma Invoice",
  packing_list: "Packing List",
  certificate_of_origin: "Certificate of Origin",
};

/** Paper sizes a workspace can print on: Letter for US exporters by default, or A4. */
export const PAPER_SIZES = ["letter", "a4"] as const;
export type TPaperSize = (typeof PAPER_SIZES)[number];
export const ZPaperSize = z.enum(PAPER_SIZES, { message: "Choose letter or a4." });

/**
 * Destination Control Statement, 15 CFR 758.6(a)(1), word for word. Required on the commercial
 * invoice whenever an item is on the Commerce Control List (any ECCN but EAR99). The older
 * 'Diversion contrary to U.S. law is prohibited' wording is superseded and never used.
 */
export const DESTINATION_CONTROL_STATEMENT =
  "These items are controlled by the U.S. Government and authorized for export only to the country of ultimate destination for use by the ultimate consignee or end-user(s) herein identified. They may not be resold, transferred, or otherwise disposed of, to any other country or to any person other than the authorized ultimate consignee or end-user(s), either in their original form or after being incorporated into other items, without first obtaining approval from the U.S. government or as otherwise authorized by U.S. law and regulations.";

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/** True when an ECCN puts the item on the Commerce Control List (anything but EAR99). */
export function isControlledEccn(eccn: string | null | undefined): boolean {
  const value = (eccn ?? "").trim();
  return value !== "" && value.toUpperCase() !== "EAR99";
}

/** True when the statement still carries the full DCS wording (whitespace differences forgiven). */
export function hasDestinationControlStatement(statement: string): boolean {
  return collapse(statement).includes(collapse(DESTINATION_CONTROL_STATEMENT));
}

/** An Internal Transaction Number from AESDirect/ACE: X followed by 14 digits. */
export const ITN = /^X\d{14}$/;

/** The FTR exemption legends (15 CFR 30.36–30.40) offered instead of an ITN. */
export const NOEEI_LEGENDS = [
  "NOEEI § 30.36",
  "NOEEI § 30.37(a)",
  "NOEEI § 30.37(b)",
  "NOEEI § 30.37(e)",
  "NOEEI § 30.37(f)",
  "NOEEI § 30.37(g)",
  "NOEEI § 30.37(h)",
  "NOEEI § 30.37(i)",
  "NOEEI § 30.37(k)",
  "NOEEI § 30.37(q)",
  "NOEEI § 30.37(r)",
  "NOEEI § 30.37(y)",
  "NOEEI § 30.39",
  "NOEEI § 30.40(a)",
  "NOEEI § 30.40(b)",
  "NOEEI § 30.40(c)",
  "NOEEI § 30.40(d)",
] as const;

export const LOW_VALUE_LEGEND = "NOEEI § 30.37(a)";
export const AES_MESSAGE = "Enter an ITN (X followed by 14 digits) or choose an exemption legend.";

/** The shipment's AES/EEI citation: empty, an ITN, or one of the exemption legends. */
export const ZAesCitation = z
  .string()
  .trim()
  .max(64)
  .transform((v) => (/^x\d{14}$/i.test(v) ? v.toUpperCase() : v))
  .refine((v) => v === "" || ITN.test(v) || (NOEEI_LEGENDS as readonly string[]).includes(v), AES_MESSAGE)
  // An ITN carries its filing date: 'X', a real YYYYMMDD not in the future, six digits.
  .superRefine((v, ctx) => {
    const problem = ITN.test(v) ? itnProblem(v) : null;
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** How the citation reads on the documents: an ITN as `AES X…`, a legend as itself. */
export function aesLegend(citation: string | null | undefined): string {
  const value = (citation ?? "").trim();
  if (!value) return "";
  return ITN.test(value) ? `AES ${value}` : value;
}

/** The $2,500 per Schedule B number limit of 15 CFR 30.37(a), in cents. */
export const LOW_VALUE_LIMIT_CENTS = 250_000;

export type TAesLine = { hts: string; extended_value: string; needs_license: boolean };
export type TAesAdvice =
  | { kind: "exempt"; suggestion: typeof LOW_VALUE_LEGEND; message: string }
  | { kind: "itn_required"; suggestion: null; message: string };

/**
 * Whether the low-value exemption can be suggested: every Schedule B/HTS code's summed value is at
 * most $2,500 and no line needs a licence (EEI is required regardless of value under a licence).
 */
export function adviseAes(lines: TAesLine[], currencyCode: string | null | undefined): TAesAdvice {
  if (lines.some((line) => line.needs_license)) {
    return {
      kind: "itn_required",
      suggestion: null,
      message: "An ITN is required: a line needs an export licence, so EEI must be filed whatever the value.",
    };
  }
  if (currencyCode && currencyCode !== "USD") {
    return {
      kind: "itn_required",
      suggestion: null,
      message: `Values are in ${currencyCode}: the $2,500 exemption is judged in US dollars, so file EEI (ITN) unless the converted value per Schedule B code is at most $2,500.`,
    };
  }
  const byCode = new Map<string, number>();
  for (const line of lines) {
    const code = line.hts.replace(/\D/g, "");
    byCode.set(code, (byCode.get(code) ?? 0) + decimalToScaled(line.extended_value || "0", 2));
  }
  const over = [...byCode.entries()]
    .filter(([, cents]) => cents > LOW_VALUE_LIMIT_CENTS)
    .map(([code]) => code);
  if (over.length > 0) {
    return {
      kind: "itn_required",
      suggestion: null,
      message: `An ITN is required: Schedule B/HTS ${over.join(", ")} exceeds $2,500 in value.`,
    };
  }
  return {
    kind: "exempt",
    suggestion: LOW_VALUE_LEGEND,
    message:
      "Every Schedule B/HTS code is at most $2,500 and no line needs a licence: NOEEI § 30.37(a) applies.",
  };
}

/** Default validity of a proforma invoice: ship date + 30 days (YYYY-MM-DD in, YYYY-MM-DD out). */
export function defaultProformaValidUntil(shipDate: string | null | undefined): string | null {
  if (!shipDate || !/^\d{4}-\d{2}-\d{2}$/.test(shipDate)) return null;
  const date = new Date(`${shipDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 30);
  return date.toISOString().slice(0, 10);
}
