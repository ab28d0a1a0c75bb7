// The paperwork model a document is rendered from, the fixed wording printed on it, and the totals
// computed from it.
import { decimalToScaled, scaledToDecimal } from "../../../db/contracts/decimal";
import type { TPaperSize, TPaperworkType } from "../../../db/contracts/paperwork";
import { multiplyDecimal, sumDecimals, volumeMicroCubicInches } from "./format";

export type TPaperParty = {
  company: string;
  street: string;
  city: string;
  state_province: string;
  postal_code: string;
  country: string;
  tax_id: string;
  /** How tax_id is labelled ("EORI", "VAT", …); "" prints 'Tax ID'. */
  tax_id_label: string;
  /** A second labelled identifier (e.g. the EORI beside a VAT number); "" when none. */
  other_id_label: string;
  other_id: string;
  contact: string;
  phone: string;
  email: string;
};

/** One item line: money as 2-decimal strings, weights as kg strings (3 decimals), per unit. */
export type TPaperLine = {
  product_number: string;
  name: string;
  description: string;
  hts: string;
  eccn: string;
  origin: string;
  quantity: number;
  /** What the quantity counts (PCS, KG, …); left out reads PCS. */
  unit_of_measure?: string;
  /** The unit price of this sale (the catalogue price unless the line sets its own). */
  unit_value: string;
  /** Server-computed unit_value × quantity. */
  extended_value: string;
  /** Net weight of one unit, kg. */
  unit_net_weight: string;
  /** The workspace licence covering this line, when there is one. */
  license_number: string | null;
  /** The line's licence basis as printed: a licence number, an exception symbol, or NLR ("" when none). */
  license_basis?: string;
};

/** One package line: weights of one package in kg, dimensions of one package in inches. */
export type TPaperPackage = {
  type: string;
  quantity: number;
  net_weight: string;
  gross_weight: string;
  length: string;
  width: string;
  height: string;
  /** What each package of the line holds, as the user assigned it; empty or left out: not assigned. */
  contents?: TPaperPackageContent[];
};

/** One product in a package: the line's product number and description, pieces per package. */
export type TPaperPackageContent = {
  product_number: string;
  description: string;
  quantity: number;
  unit_of_measure: string;
  /** Only this package of the line (1…its quantity); left out: every package. */
  package?: number;
};

export type TPaperworkModel = {
  /** Document number: the invoice number (or proforma number); the packing list uses the invoice's. */
  number: string;
  /** Issue date, YYYY-MM-DD. */
  date: string;
  page_size: TPaperSize;
  exporter: TPaperParty;
  /** The exporter profile's letterhead line, printed under the exporter's name in the header; "" none. */
  letterhead?: string;
  /** The exporter profile's logo (PNG or JPEG), printed in the header; null or left out: none. */
  logo?: Uint8Array | null;
  importer: TPaperParty;
  /** null: the ultimate consignee is the importer of record. */
  consignee: TPaperParty | null;
  /** Whom the carrier notifies on arrival; null when none is named. */
  notify_party: TPaperParty | null;
  ship_date: string;
  carrier: string;
  mode_of_transport: string;
  bol_hawb_tracking: string;
  tracking_numbers: string[];
  port_of_export: string;
  port_of_import: string;
  /** Stated explicitly: the exporter's country and the ultimate consignee's (or importer's). */
  country_of_export: string;
  country_of_destination: string;
  /** The reason for export as printed ("Sale", "Repair and return", …), "" when not stated. */
  reason_for_export: string;
  incoterm: string;
  incoterm_place: string;
  currency: string;
  payment_terms: string;
  consignee_reference: string;
  shipper_reference: string;
  lines: TPaperLine[];
  packages: TPaperPackage[];
  freight: string;
  insurance: string;
  /** Added to the invoice total ("0.00" or left out: none), and what they are for. */
  other_charges?: string;
  other_charges_label?: string;
  /** Taken off the invoice total ("0.00" or left out: none). */
  discount?: string;
  /** preview_statement_text: the statement block as the user left it. */
  statement: string;
  /** The shipment's AES/EEI citation (ITN or exemption legend), or "". */
  aes_citation: string;
  /** Proforma only: YYYY-MM-DD. */
  valid_until: string | null;
  marks: string;
  signature: { image: Uint8Array | null; name: string; title: string };
};

export const DOCUMENT_TITLES: Record<TPaperworkType, string> = {
  commercial_invoice: "COMMERCIAL INVOICE",
  proforma_invoice: "PROFORMA INVOICE",
  packing_list: "PACKING LIST",
  certificate_of_origin: "CERTIFICATE OF ORIGIN",
};

export const ORIGIN_DECLARATION =
  "The undersigned, as exporter, hereby declares that the above details and statements are correct and that the goods described above originate in the country shown against each item.";

export const CHAMBER_CERTIFICATION =
  "It is hereby certified, on the basis of the control carried out, that the declaration of the exporter is correct.";

export const ACTUAL_PRICE_DECLARATION =
  "It is hereby certified that this invoice shows the actual price of the goods described, that no other invoice has been or will be issued, and that all particulars are true and correct.";

export const PROFORMA_NOTICE =
  "This proforma invoice is not a demand for payment. It states the goods and prices of a proposed shipment and is valid until the date shown.";

/** Totals printed on the documents, all exact decimal strings. */
export type TPaperTotals = {
  total_value: string;
  total_invoice_value: string;
  packages: number;
  pieces: number;
  net_weight: string;
  gross_weight: string;
  volume: bigint;
};

/**
 * Sums lines and packages exactly (money ×100, kg ×1000); the same rule the shipment form shows.
 * 'Pieces' means what it means on the form: packages. The lines' quantities are 'units'.
 */
export function computeTotals(model: TPaperworkModel): TPaperTotals {
  const totalValue = sumDecimals(
    model.lines.map((l) => l.extended_value),
    2,
  );
  const packageNet = sumDecimals(
    model.packages.map((p) => multiplyDecimal(p.net_weight, p.quantity, 3)),
    3,
  );
  const itemNet = sumDecimals(
    model.lines.map((l) => multiplyDecimal(l.unit_net_weight, l.quantity, 3)),
    3,
  );
  return {
    total_value: totalValue,
    total_invoice_value: scaledToDecimal(
      decimalToScaled(
        sumDecimals([totalValue, model.freight, model.insurance, model.other_charges || "0"], 2),
        2,
      ) - decimalToScaled(model.discount || "0", 2),
      2,
    ),
    packages: model.packages.reduce((n, p) => n + p.quantity, 0),
    pieces: model.lines.reduce((n, l) => n + l.quantity, 0),
    // Packed weights when packages are given; otherwise the items' own net weight.
    net_weight: model.packages.length > 0 ? packageNet : itemNet,
    gross_weight: sumDecimals(
      model.packages.map((p) => multiplyDecimal(p.gross_weight, p.quantity, 3)),
      3,
    ),
    volume: model.packages.reduce(
      (v, p) => v + volumeMicroCubicInches(p.quantity, p.length, p.width, p.height),
      0n,
    ),
  };
}

// Chinese, Japanese and Korean scripts: Noto Sans has none of them, and jsPDF has no glyph fallback.
export const CJK =
  /[\u2E80-\u2FFF\u3000-\u30FF\u3100-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]/;

/** Every text of the model in one string (for deciding which fonts a document needs). */
export function modelText(model: TPaperworkModel): string {
  return JSON.stringify({ ...model, logo: null, signature: { ...model.signature, image: null } });
}

/** True when any text in the model needs the CJK font. */
export function modelNeedsCjk(model: TPaperworkModel): boolean {
  return CJK.test(modelText(model));
}
