// The EEI data sheet: the mandatory data elements of 15 CFR 30.6(a) (and the conditional ones of
// 30.6(b) this product knows) that a filer keys into AESDirect, drawn from the shipment, with the
// list of what is still missing; and the shipper's letter of instruction drawn from the same data.

import { and, eq } from "drizzle-orm";
import { jsPDF } from "jspdf";
import { autoTable } from "jspdf-autotable";
import type { TDb } from "../../../db/client";
import { decimalToScaled, scaledToDecimal } from "../../../db/contracts/decimal";
import type { TShipmentExportControl } from "../../../db/contracts/export-control";
import {
  carriers,
  contacts,
  countries,
  currencies,
  modes_of_transport,
  products,
  shipment_items,
  shipments,
} from "../../../db/schema";
import { toCsv } from "../../lib/csv";
import { notFound } from "../../lib/errors";
import { loadLatinFonts } from "../paperwork/fonts";
import { normalizeEccn } from "./determine";
import { shipmentExportControl, toUsdCents } from "./export-control.service";

type TParty = {
  name: string;
  address: string;
  country: string;
  id_number: string;
  contact: string;
  phone: string;
};

export type TEeiLine = {
  line_number: number;
  product_number: string;
  /** § 30.6(a)(11): D (domestic) or F (foreign) origin. */
  origin_indicator: "D" | "F" | "";
  origin_country: string;
  /** § 30.6(a)(12)–(13). */
  schedule_b: string;
  description: string;
  /** The line's count of pieces as sold. */
  quantity: number;
  /**
   * § 30.6(a)(14): the Census unit of quantity the user stated for the Schedule B number (NO by
   * default; X: none required) and the quantity in it, an exact decimal ("" when X or not given).
   */
  unit_of_measure: string;
  schedule_b_quantity: string;
  /** § 30.6(a)(15): shipping weight in kg (net weight × quantity; packaging not included). */
  shipping_weight_kg: string;
  /** § 30.6(a)(16): value in US dollars. */
  value_usd: string;
  /** § 30.6(a)(17). */
  export_information_code: string;
  /** § 30.6(a)(24). */
  eccn: string;
  /** § 30.6(a)(23): licence code / exemption, and the licence number when one is used. */
  license_basis: string;
  license_code: string;
  license_number: string;
};

export type TEeiDataSheet = {
  shipment_id: number;
  shipment_reference: string;
  /** § 30.6(a)(1). */
  usppi: TParty & { state_of_origin: string };
  /** § 30.6(a)(3), with the consignee type of (a)(3)(ii). */
  ultimate_consignee: TParty & { type: string };
  /** § 30.6(b)(1). */
  intermediate_consignee: TParty | null;
  /** § 30.6(a)(2), (5)–(10), (20)–(22). */
  date_of_export: string;
  country_of_ultimate_destination: string;
  mode_of_transport: string;
  carrier: string;
  carrier_code: string;
  port_of_export: string;
  related_party: string;
  routed_transaction: string;
  hazardous_materials: string;
  inbond_code: string;
  itn_or_exemption: string;
  itn_required: boolean;
  eei_reasons: string[];
  usd_exchange_rate: string;
  lines: TEeiLine[];
  missing: string[];
};

const partyOf = (row: (typeof contacts.$inferSelect & { country: string | null }) | undefined): TParty => ({
  name: row?.company ?? "",
  address: [row?.street, row?.city, row?.state_province, row?.postal_code].filter(Boolean).join(", "),
  country: row?.country ?? "",
  id_number: row?.tax_id ?? "",
  contact: row?.contact_1 ?? "",
  phone: row?.phone_1 ?? "",
});

/** The data sheet of one of the caller's shipments (404 when not theirs). */
export async function eeiDataSheet(db: TDb, workspaceId: number, shipmentId: number): Promise<TEeiDataSheet> {
  const [s] = await db
    .select()
    .from(shipments)
    .where(and(eq(shipments.id, shipmentId), eq(shipments.workspace_id, workspaceId)));
  if (!s) throw notFound("Shipment not found");
  const standing: TShipmentExportControl = await shipmentExportControl(db, workspaceId, shipmentId);
  const party = async (id: number | null) => {
    if (!id) return undefined;
    const [row] = await db
      .select({ contact: contacts, country: countries.name })
      .from(contacts)
      .leftJoin(countries, eq(countries.id, contacts.country_id))
      .where(and(eq(contacts.id, id), eq(contacts.workspace_id, workspaceId)));
    return row ? { ...row.contact, country: row.country } : undefined;
  };
  const exporter = await party(s.exporter_of_record_id);
  const importer = await party(s.importer_of_record_id);
  const consignee = (await party(s.ultimate_consignee_id)) ?? importer;
  const intermediate =
    s.ultimate_consignee_id && importer && importer.id !== consignee?.id ? importer : undefined;
  const [carrier] = s.carrier_id ? await db.select().from(carriers).where(eq(carriers.id, s.carrier_id)) : [];
  const [mode] = s.mode_of_transport_id
    ? await db.select().from(modes_of_transport).where(eq(modes_of_transport.id, s.mode_of_transport_id))
    : [];
  const [currency] = s.currency_id
    ? await db.select().from(currencies).where(eq(currencies.id, s.currency_id))
    : [];
  const rows = await db
    .select({
      item: shipment_items,
      product: products,
      origin: countries.name,
      origin_iso: countries.code_iso_2,
    })
    .from(shipment_items)
    .innerJoin(products, eq(products.id, shipment_items.product_id))
    .leftJoin(countries, eq(countries.id, products.country_of_origin_id))
    .where(eq(shipment_items.shipment_id, s.id))
    .orderBy(shipment_items.id);
  const missing: string[] = [];
  const lines: TEeiLine[] = rows.map(({ item, product, origin, origin_iso }, index) => {
    const ec = standing.lines.find((l) => l.item_id === item.id);
    const cents = toUsdCents(
      BigInt(decimalToScaled(item.extended_value, 2)),
      currency?.code ?? null,
      s.usd_exchange_rate,
    );
    const weight = decimalToScaled(product.net_weight || "0", 3) * item.quantity;
    const scheduleB = item.schedule_b || product.HTS.replace(/\D/g, "").slice(0, 10);
    const basis = ec?.basis ?? { kind: "none", text: "" };
    const eccn = normalizeEccn(product.US_ECCN);
    const n = index + 1;
    if (scheduleB.length !== 10)
      missing.push(`Line ${n} (${product.product_number}): a 10-digit Schedule B number.`);
    if (cents === null) missing.push(`Line ${n}: the value in US dollars (enter the exchange rate).`);
    if (weight <= 0) missing.push(`Line ${n}: the shipping weight (the product's net weight).`);
    if (!eccn) missing.push(`Line ${n}: the ECCN (or EAR99).`);
    if (basis.kind === "none") missing.push(`Line ${n}: the licence basis (licence, exception or NLR).`);
    const unit = item.schedule_b_unit || "NO";
    const scheduleBQuantity =
      unit === "X" ? "" : item.schedule_b_quantity || (unit === "NO" ? String(item.quantity) : "");
    if (unit !== "X" && !scheduleBQuantity) {
      missing.push(`Line ${n} (${product.product_number}): the Schedule B quantity in ${unit}.`);
    }
    return {
      line_number: n,
      product_number: product.product_number,
      origin_indicator: origin_iso ? (origin_iso === "US" ? "D" : "F") : "",
      origin_country: origin ?? "",
      schedule_b: scheduleB,
      description: [product.name, product.description].filter(Boolean).join(" — "),
      quantity: item.quantity,
      unit_of_measure: unit,
      schedule_b_quantity: scheduleBQuantity,
      shipping_weight_kg: scaledToDecimal(weight, 3),
      value_usd: cents === null ? "" : scaledToDecimal(Number(cents), 2),
      export_information_code: "OS",
      eccn,
      license_basis: basis.text,
      // AESDirect's licence codes for NLR: C33 for EAR99, C32 for an ECCN with no licence required.
      license_code:
        basis.kind === "nlr" || basis.kind === "override" ? (eccn === "EAR99" ? "C33" : "C32") : "",
      license_number: basis.kind === "license" ? basis.text : "",
    };
  });
  const usppi = { ...partyOf(exporter), state_of_origin: exporter?.state_province ?? "" };
  if (!exporter) missing.push("The USPPI (exporter of record).");
  else if (!usppi.id_number) missing.push("The USPPI's EIN (the exporter's tax id).");
  if (exporter && !usppi.state_of_origin) missing.push("The US state of origin (the exporter's state).");
  if (!consignee) missing.push("The ultimate consignee.");
  if (!s.ultimate_consignee_type) missing.push("The ultimate consignee type (D, G, R or O).");
  if (!s.ship_date) missing.push("The date of export (ship date).");
  if (!mode) missing.push("The mode of transport.");
  if (!carrier) missing.push("The carrier.");
  if (!s.port_of_export) missing.push("The port of export.");
  if (!s.related_party) missing.push("The related-party indicator (Y/N).");
  if (!s.routed_transaction) missing.push("The routed export transaction indicator (Y/N).");
  if (!s.hazardous_materials) missing.push("The hazardous materials indicator (Y/N).");
  if (!lines.length) missing.push("At least one line.");
  for (const problem of standing.refusals) missing.push(`Not yet exportable: ${problem}`);
  return {
    shipment_id: s.id,
    shipment_reference: s.shipper_reference_number || s.invoice_number,
    usppi,
    ultimate_consignee: { ...partyOf(consignee), type: s.ultimate_consignee_type },
    intermediate_consignee: intermediate ? partyOf(intermediate) : null,
    date_of_export: s.ship_date ?? "",
    country_of_ultimate_destination: standing.destination?.name ?? "",
    mode_of_transport: mode?.name ?? "",
    carrier: carrier?.name ?? "",
    carrier_code: carrier?.code ?? "",
    port_of_export: s.port_of_export,
    related_party: s.related_party,
    routed_transaction: s.routed_transaction,
    hazardous_materials: s.hazardous_materials,
    inbond_code: "70",
    itn_or_exemption: s.aes_citation || standing.eei.exemption || "",
    itn_required: standing.eei.itn_required,
    eei_reasons: standing.eei.reasons,
    usd_exchange_rate: currency?.code === "USD" ? "1" : s.usd_exchange_rate,
    lines,
    missing,
  };
}

const HEADER_FIELDS: [string, (s: TEeiDataSheet) => string][] = [
  ["USPPI name (§ 30.6(a)(1))", (s) => s.usppi.name],
  ["USPPI address", (s) => s.usppi.address],
  ["USPPI EIN", (s) => s.usppi.id_number],
  ["USPPI contact / phone", (s) => [s.usppi.contact, s.usppi.phone].filter(Boolean).join(" / ")],
  ["Date of export (a)(2)", (s) => s.date_of_export],
  [
    "Ultimate consignee (a)(3)",
    (s) =>
      [s.ultimate_consignee.name, s.ultimate_consignee.address, s.ultimate_consignee.country]
        .filter(Boolean)
        .join(", "),
  ],
  ["Ultimate consignee type (a)(3)(ii)", (s) => s.ultimate_consignee.type],
  [
    "Intermediate consignee (b)(1)",
    (s) =>
      s.intermediate_consignee
        ? `${s.intermediate_consignee.name}, ${s.intermediate_consignee.address}, ${s.intermediate_consignee.country}`
        : "none",
  ],
  ["US state of origin (a)(4)", (s) => s.usppi.state_of_origin],
  ["Country of ultimate destination (a)(5)", (s) => s.country_of_ultimate_destination],
  ["Mode of transport (a)(6)", (s) => s.mode_of_transport],
  ["Carrier (a)(7)–(8)", (s) => [s.carrier, s.carrier_code].filter(Boolean).join(" / ")],
  ["Port of export (a)(9)", (s) => s.port_of_export],
  ["Related party (a)(10)", (s) => s.related_party],
  ["Shipment reference (a)(18)", (s) => s.shipment_reference],
  ["Hazardous materials (a)(20)", (s) => s.hazardous_materials],
  ["Inbond code (a)(21)", (s) => s.inbond_code],
  ["Routed export transaction (a)(22)", (s) => s.routed_transaction],
  ["ITN / exemption legend", (s) => s.itn_or_exemption],
  ["USD exchange rate", (s) => s.usd_exchange_rate],
];

const LINE_HEADER = [
  "Line",
  "D/F",
  "Schedule B",
  "Description",
  "Schedule B quantity",
  "Schedule B unit",
  "Shipping weight (kg)",
  "Value (USD)",
  "Export info code",
  "ECCN",
  "Licence code / exemption",
  "Licence number",
  "Origin",
];

const lineCells = (l: TEeiLine) => [
  String(l.line_number),
  l.origin_indicator,
  l.schedule_b,
  l.description,
  l.schedule_b_quantity,
  l.unit_of_measure,
  l.shipping_weight_kg,
  l.value_usd,
  l.export_information_code,
  l.eccn,
  [l.license_code, l.license_basis].filter(Boolean).join(" "),
  l.license_number,
  l.origin_country,
];

/** The data sheet as CSV: the shipment's elements as field/value rows, then one row per line, then what is missing. */
export function eeiDataSheetCsv(sheet: TEeiDataSheet): string {
  const head = toCsv(
    ["Field", "Value"],
    HEADER_FIELDS.map(([label, get]) => [label, get(sheet)]),
  );
  const lines = toCsv(LINE_HEADER, sheet.lines.map(lineCells));
  const missing = toCsv(
    ["Still missing"],
    sheet.missing.map((m) => [m]),
  );
  return `${head}\n${lines}\n${missing}`;
}

async function newDoc(title: string) {
  const fonts = await loadLatinFonts();
  const doc = new jsPDF({
    unit: "pt",
    format: "letter",
    orientation: "landscape",
    compress: true,
    putOnlyUsedFonts: true,
  });
  for (const [font, style] of [
    [fonts.regular, "normal"],
    [fonts.bold, "bold"],
  ] as const) {
    doc.addFileToVFS(font.file, font.data);
    doc.addFont(font.file, "Noto", style, undefined, "Identity-H");
  }
  doc.setFont("Noto", "bold");
  doc.setFontSize(14);
  doc.text(title, 36, 40);
  doc.setFont("Noto", "normal");
  doc.setProperties({ title, creator: "Tradewinds" });
  return doc;
}

const lastY = (doc: jsPDF) =>
  (doc as unknown as { lastAutoTable?: { finalY: number } }).lastAutoTable?.finalY ?? 50;
const styles = { font: "Noto", fontSize: 7.5, cellPadding: 2.5 } as const;

/** The data sheet as a PDF a filer keys AESDirect from. */
export async function eeiDataSheetPdf(sheet: TEeiDataSheet): Promise<Uint8Array> {
  const doc = await newDoc(`EEI data sheet — shipment ${sheet.shipment_reference || sheet.shipment_id}`);
  doc.setFontSize(8);
  doc.text(
    sheet.itn_required
      ? `EEI must be filed in AESDirect: ${sheet.eei_reasons.join(" ")}`.slice(0, 220)
      : `No EEI filing is required: ${sheet.itn_or_exemption}`,
    36,
    54,
  );
  autoTable(doc, {
    startY: 62,
    body: HEADER_FIELDS.map(([label, get]) => [label, get(sheet) || "— missing —"]),
    styles,
    columnStyles: { 0: { fontStyle: "bold", cellWidth: 190 } },
    theme: "grid",
  });
  autoTable(doc, {
    startY: lastY(doc) + 12,
    head: [LINE_HEADER],
    body: sheet.lines.map(lineCells),
    styles,
    headStyles: { font: "Noto", fontStyle: "bold", fillColor: [230, 230, 230], textColor: 20 },
    theme: "grid",
  });
  if (sheet.missing.length) {
    autoTable(doc, {
      startY: lastY(doc) + 12,
      head: [["Still missing before filing"]],
      body: sheet.missing.map((m) => [m]),
      styles,
      headStyles: { font: "Noto", fontStyle: "bold", fillColor: [255, 236, 200], textColor: 20 },
      theme: "grid",
    });
  }
  return new Uint8Array(doc.output("arraybuffer"));
}

/** The shipper's letter of instruction: the same data, addressed to the forwarder, with the filing instruction. */
export async function sliPdf(sheet: TEeiDataSheet): Promise<Uint8Array> {
  const doc = await newDoc("Shipper's Letter of Instruction");
  const instruction = sheet.itn_required
    ? sheet.itn_or_exemption.startsWith("X")
      ? `EEI has been filed by the USPPI: ITN ${sheet.itn_or_exemption}. Show 'AES ${sheet.itn_or_exemption}' on the bill of lading / air waybill.`
      : "EEI must be filed before export. The USPPI has not yet filed: do not export until an ITN is given."
    : `No EEI filing is required: show '${sheet.itn_or_exemption}' on the bill of lading / air waybill.`;
  autoTable(doc, {
    startY: 56,
    body: [
      ["USPPI", `${sheet.usppi.name}, ${sheet.usppi.address} — EIN ${sheet.usppi.id_number || "(missing)"}`],
      [
        "Ultimate consignee",
        `${sheet.ultimate_consignee.name}, ${sheet.ultimate_consignee.address}, ${sheet.ultimate_consignee.country} (type ${sheet.ultimate_consignee.type || "?"})`,
      ],
      [
        "Intermediate consignee",
        sheet.intermediate_consignee
          ? `${sheet.intermediate_consignee.name}, ${sheet.intermediate_consignee.country}`
          : "none",
      ],
      ["Date of export", sheet.date_of_export],
      ["Carrier / mode", `${sheet.carrier} / ${sheet.mode_of_transport}`],
      ["Port of export", sheet.port_of_export],
      ["Country of ultimate destination", sheet.country_of_ultimate_destination],
      [
        "Related party / routed / hazmat",
        `${sheet.related_party || "?"} / ${sheet.routed_transaction || "?"} / ${sheet.hazardous_materials || "?"}`,
      ],
      ["EEI instruction", instruction],
    ],
    styles,
    columnStyles: { 0: { fontStyle: "bold", cellWidth: 190 } },
    theme: "grid",
  });
  autoTable(doc, {
    startY: lastY(doc) + 12,
    head: [
      [
        "Line",
        "Schedule B",
        "Description",
        "Qty (Schedule B unit)",
        "Weight (kg)",
        "Value (USD)",
        "ECCN",
        "Licence basis",
      ],
    ],
    body: sheet.lines.map((l) => [
      String(l.line_number),
      l.schedule_b,
      l.description,
      [l.schedule_b_quantity, l.unit_of_measure].filter(Boolean).join(" "),
      l.shipping_weight_kg,
      l.value_usd,
      l.eccn,
      l.license_basis || "(none)",
    ]),
    styles,
    headStyles: { font: "Noto", fontStyle: "bold", fillColor: [230, 230, 230], textColor: 20 },
    theme: "grid",
  });
  doc.setFontSize(8);
  doc.text(
    "I certify that the statements above are true and correct and authorise the forwarder to act as our agent for export control and customs purposes.",
    36,
    lastY(doc) + 24,
    { maxWidth: 700 },
  );
  return new Uint8Array(doc.output("arraybuffer"));
}
