/**
 * Export control (EAR) and EEI (15 CFR part 30): the fields a shipment and its lines carry, their
 * validation, and the shapes of the per-line determination the server answers with.
 *
 * Endpoints (under /api/export-control, session required, workspace-scoped; foreign ids are 404):
 * - GET  /edition → the EAR tables' edition in force for the workspace (date, source, row counts).
 * - POST /editions {edition_date, source?, files:{country_chart, country_groups, ccl_eccns, chart_footnotes}}
 *   (CSV texts, the same columns as the shipped files) → 201; workspace owner only (403 otherwise).
 * - GET  /shipments/:id → TShipmentExportControl: per line determination, licence cover, EEI verdict.
 * - GET  /shipments/:id/eei-data-sheet.(json|csv|pdf) and /shipments/:id/sli.pdf → the EEI data sheet
 *   and the shipper's letter of instruction.
 * - GET  /licenses/:id/usage → TLicenseUsage (used, remaining, the shipments that drew on it).
 * - GET  /shipments/:id/audit → the overrides recorded on the shipment's lines.
 */
import { z } from "zod";

/** Licence exceptions (part 740) a line can be shipped under, by symbol. LVS and GBS are offered from the data. */
export const LICENSE_EXCEPTIONS = [
  "LVS",
  "GBS",
  "TMP",
  "RPL",
  "GOV",
  "GFT",
  "TSU",
  "BAG",
  "AVS",
  "APR",
  "ENC",
  "AGR",
  "CCD",
  "STA",
  "SCP",
  "TSR",
  "ACE",
  "NAC",
  "IEC",
] as const;
export type TLicenseException = (typeof LICENSE_EXCEPTIONS)[number];

const SCHEDULE_B_MESSAGE = "Enter a Schedule B number as 10 digits (dots and spaces are allowed).";

/** A Schedule B number: 10 digits once dots and spaces are dropped; "" means not set. */
export const ZScheduleB = z
  .string({ error: SCHEDULE_B_MESSAGE })
  .trim()
  .transform((v) => v.replace(/[.\s]/g, ""))
  .refine((v) => v === "" || /^\d{10}$/.test(v), SCHEDULE_B_MESSAGE);

/**
 * The Census units of quantity Schedule B numbers are reported in (15 CFR 30.6(a)(15)); the unit of a
 * given Schedule B number is in the Schedule B schedule, which the product does not ship, so the user
 * states it per line. X: no quantity is required for that number.
 */
export const SCHEDULE_B_UNITS = [
  "NO",
  "DOZ",
  "DPR",
  "GR",
  "GRS",
  "HUN",
  "THS",
  "PCS",
  "PRS",
  "PK",
  "DPC",
  "KG",
  "G",
  "CKG",
  "GKG",
  "CGM",
  "T",
  "L",
  "PFL",
  "BBL",
  "M",
  "M2",
  "M3",
  "CM",
  "CM2",
  "KM",
  "KM3",
  "LNM",
  "SQ",
  "FBM",
  "CAR",
  "CTN",
  "CYK",
  "KWH",
  "MWH",
  "JWL",
  "GBQ",
  "X",
] as const;
export type TScheduleBUnit = (typeof SCHEDULE_B_UNITS)[number];

const SCHEDULE_B_QUANTITY_MESSAGE =
  "Enter the quantity in the Schedule B unit as a positive number (up to 12 digits and 3 decimals), or leave it empty.";

/** A quantity in the Schedule B unit: an exact positive decimal, "" when not given. */
export const ZScheduleBQuantity = z
  .union([z.string(), z.number()], { error: SCHEDULE_B_QUANTITY_MESSAGE })
  .transform((v) => (typeof v === "number" ? String(v) : v.trim().replace(/,/g, "")))
  .refine(
    (v) => v === "" || (/^\d{1,12}(\.\d{1,3})?$/.test(v) && /[1-9]/.test(v)),
    SCHEDULE_B_QUANTITY_MESSAGE,
  );

const RATE_MESSAGE =
  "Enter the US dollars per one unit of the currency as a positive number (up to 10 decimals).";

/** US dollars per one unit of the shipment's currency: an exact positive decimal, "" when not set. */
export const ZUsdExchangeRate = z
  .union([z.string(), z.number()], { error: RATE_MESSAGE })
  .transform((v) => (typeof v === "number" ? String(v) : v.trim().replace(/,/g, "")))
  .refine((v) => v === "" || (/^\d{1,9}(\.\d{1,10})?$/.test(v) && /[1-9]/.test(v)), RATE_MESSAGE);

/** Today as YYYY-MM-DD (UTC); the ITN and the rate date may not lie after it. */
export const todayIso = () => new Date().toISOString().slice(0, 10);

function isRealDate(iso: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return false;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(iso);
}

/**
 * An Internal Transaction Number as AESDirect issues it: 'X', the filing date as YYYYMMDD (a real
 * date, not after today), then six digits. 'X20261399123456' (month 13) is not one.
 */
export function itnProblem(value: string, today = todayIso()): string | null {
  const v = value.trim().toUpperCase();
  if (!/^X\d{14}$/.test(v))
    return "An ITN is 'X' followed by 14 digits: the filing date (YYYYMMDD) and six digits.";
  const iso = `${v.slice(1, 5)}-${v.slice(5, 7)}-${v.slice(7, 9)}`;
  if (!isRealDate(iso)) return `The ITN's date ${v.slice(1, 9)} is not a real date (YYYYMMDD).`;
  if (iso > today) return `The ITN's date ${iso} is in the future.`;
  return null;
}

export const isValidItn = (value: string, today?: string) => itnProblem(value, today) === null;

const YES_NO = z.enum(["", "Y", "N"], { error: "Choose Y, N or leave it empty." });

/** The shipment-level fields this module adds to the shipment PUT (each optional: left out, unchanged). */
export const ZExportControlShipmentFields = {
  usd_exchange_rate: ZUsdExchangeRate.optional(),
  usd_exchange_rate_date: z
    .string({ error: "Enter a date as YYYY-MM-DD." })
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || isRealDate(v), "Enter a date as YYYY-MM-DD.")
    .refine((v) => v === null || v <= todayIso(), "The rate's date cannot be in the future.")
    .optional(),
  ultimate_consignee_type: z
    .enum(["", "D", "G", "R", "O"], {
      error: "Choose D (direct consumer), G (government), R (reseller), O (other) or leave it empty.",
    })
    .optional(),
  related_party: YES_NO.optional(),
  routed_transaction: YES_NO.optional(),
  hazardous_materials: YES_NO.optional(),
};

/** The line-level fields this module adds to a shipment item (each optional: left out, the stored value stays). */
export const ZExportControlLineFields = {
  schedule_b: ZScheduleB.optional(),
  license_exception: z
    .string({ error: "Choose a licence exception symbol." })
    .trim()
    .transform((v) => v.toUpperCase())
    .refine(
      (v) => v === "" || (LICENSE_EXCEPTIONS as readonly string[]).includes(v),
      `Choose a licence exception symbol from: ${LICENSE_EXCEPTIONS.join(", ")}.`,
    )
    .optional(),
  license_exception_note: z.string().trim().max(500, "Please use at most 500 characters.").optional(),
  schedule_b_unit: z
    .string({ error: "Choose the Schedule B unit of quantity." })
    .trim()
    .transform((v) => v.toUpperCase())
    .refine(
      (v) => (SCHEDULE_B_UNITS as readonly string[]).includes(v),
      `Choose the Schedule B unit of quantity from: ${SCHEDULE_B_UNITS.join(", ")}.`,
    )
    .optional(),
  schedule_b_quantity: ZScheduleBQuantity.optional(),
  license_id: z
    .preprocess(
      (v) => (v === "" ? null : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v),
      z.number({ error: "Choose a licence from the list." }).int().positive().nullable(),
    )
    .optional(),
  override_justification: z.string().trim().max(2000, "Please use at most 2000 characters.").optional(),
};

/** A justification must say something: a few words, not a dot. */
export const MIN_JUSTIFICATION = 15;

// ---------------------------------------------------------------------------------------------
// Determination shapes

/**
 * - nlr: no licence required for this destination (the chart has no X for the item's columns).
 * - license_required: the chart has an X; `reasons` names each (e.g. "NS2", "RS2").
 * - review: the requirement is not something the chart expresses; `review` quotes the data.
 * - embargo: the destination is embargoed or sanctioned (part 746): a stop for every line.
 * - unknown: the line lacks what the determination needs (no ECCN, no destination).
 */
export type TDeterminationOutcome = "nlr" | "license_required" | "review" | "embargo" | "unknown";

export type TDetermination = {
  outcome: TDeterminationOutcome;
  eccn: string;
  destination: { iso2: string; name: string } | null;
  /** The chart columns with an X for this destination (NS2, RS2 …). */
  reasons: string[];
  /** Short summary a shipper understands. */
  summary: string;
  /** What to do next. */
  next_step: string;
  /** Texts quoted from the data (non-chart requirements, footnotes) the user must read: "review: see § …". */
  review: string[];
  /** Licence exceptions the data offers for this line (LVS within its value, GBS). */
  exceptions_offered: { symbol: "LVS" | "GBS"; text: string }[];
};

/** How the line is authorised for export, as printed on the invoice: a licence number, an exception symbol or NLR. */
export type TLineBasis = {
  kind: "license" | "exception" | "nlr" | "override" | "none";
  /** What the invoice prints: "D123456", "LVS", "NLR", "" (none). */
  text: string;
};

export type TLineExportControl = {
  item_id: number;
  product_id: number;
  product_number: string;
  determination: TDetermination;
  /** True when the line may be shipped as it stands (NLR, or covered by a licence/exception/override). */
  is_cleared: boolean;
  basis: TLineBasis;
  /** The chosen licence and whether it covers the line (why not, when it does not). */
  license: { id: number; number: string; name: string; covers: boolean; problem: string | null } | null;
  /** Licences of the workspace that would cover the line, to choose from. */
  license_candidates: { id: number; number: string; name: string; remaining: string | null }[];
  /** Why this line stops the paperwork, or null. */
  problem: string | null;
  warnings: string[];
  /** What is stored on the line (for the form to show). */
  stored: {
    schedule_b: string;
    license_exception: string;
    license_exception_note: string;
    override_justification: string;
    schedule_b_unit: string;
    schedule_b_quantity: string;
  };
};

export type TEeiVerdict = {
  /** True when EEI must be filed in AESDirect and the ITN printed. */
  itn_required: boolean;
  /** The rules that make it required, each citing its section. */
  reasons: string[];
  /** The exemption legend that applies when no ITN is required (NOEEI § 30.36 / § 30.37(a)), else null. */
  exemption: string | null;
  /** Per Schedule B number: the summed value in USD ("" when it cannot be converted). */
  by_schedule_b: { schedule_b: string; value_usd: string; over_limit: boolean }[];
  /** The stored citation's problem against this verdict, or null. */
  problem: string | null;
  notes: string[];
};

export type TShipmentExportControl = {
  edition: { id: number; edition_date: string; is_shipped: boolean };
  destination: { iso2: string; name: string } | null;
  lines: TLineExportControl[];
  eei: TEeiVerdict;
  /** Every reason the paperwork would be refused (empty: it may be generated). */
  refusals: string[];
};

export type TLicenseUsage = {
  license_id: number;
  authorized_value: string | null;
  authorized_quantity: number | null;
  used_value: string;
  used_quantity: number;
  remaining_value: string | null;
  remaining_quantity: number | null;
  /** Highest share used of the value or quantity limit, 0–100+ (null without limits). */
  percent_used: number | null;
  warning: string | null;
  shipments: {
    shipment_id: number;
    name: string;
    ship_date: string | null;
    value_usd: string;
    quantity: number;
  }[];
};
