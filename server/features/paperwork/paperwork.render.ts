// Pure renderer: a typed paperwork model in, PDF bytes out (jsPDF + jspdf-autotable under Bun).
// It reads nothing but the fonts; everything printed comes from the model, so tests can render a
// model and read the PDF back field by field.
import { jsPDF } from "jspdf";
import { autoTable, type CellHookData, type RowInput, type UserOptions } from "jspdf-autotable";
import { decimalToScaled, scaledToDecimal } from "../../../db/contracts/decimal";
import {
  aesLegend,
  DESTINATION_CONTROL_STATEMENT,
  hasDestinationControlStatement,
  isControlledEccn,
  type TPaperSize,
  type TPaperworkType,
} from "../../../db/contracts/paperwork";
import { keepFigureWhole, wrapAtSensiblePoints } from "./cell-wrap";
import { parsedFontToken } from "./font-cache";
import { FontRuns, fontCellHooks } from "./font-runs";
import { loadCjkFont, loadLatinFonts, type TFontData } from "./fonts";
import {
  formatDate,
  formatDimensions,
  formatMoney,
  formatVolume,
  formatWeight,
  multiplyDecimal,
  sumDecimals,
  volumeMicroCubicInches,
} from "./format";
import { installJsPdfSpeedups } from "./jspdf-speedups";
import { loadAllScriptFonts } from "./script-fonts";
import { Shaper } from "./shaped-text";

installJsPdfSpeedups();

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
const CJK =
  /[\u2E80-\u2FFF\u3000-\u30FF\u3100-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]/;

/** Every text of the model in one string (for deciding which fonts a document needs). */
function modelText(model: TPaperworkModel): string {
  return JSON.stringify({ ...model, logo: null, signature: { ...model.signature, image: null } });
}

/** True when any text in the model needs the CJK font. */
export function modelNeedsCjk(model: TPaperworkModel): boolean {
  return CJK.test(modelText(model));
}

const MARGIN = 36;
const HEADER_TOP = 108;
const FONT = "NotoSans";
const CJK_FONT = "NotoSansSC";

type TCtx = {
  doc: jsPDF;
  hasCjk: boolean;
  width: number;
  /** With the CJK font: the hooks that give each cell the font(s) its text needs. */
  cells: ReturnType<typeof fontCellHooks> | null;
  /** With text in scripts jsPDF cannot shape (Arabic, Hebrew, Indic, …): their layout. */
  shaper: Shaper | null;
  shapedCells: ReturnType<Shaper["cellHooks"]> | null;
};

const FONT_PAIR = { primary: FONT, fallback: CJK_FONT };

function registerFont(doc: jsPDF, font: TFontData, family: string, style: string) {
  doc.addFileToVFS(font.file, font.data);
  doc.addFont(font.file, family, style, undefined, "Identity-H");
}

/** Renders one document of the given type to PDF bytes. */
export async function renderPaperwork(type: TPaperworkType, model: TPaperworkModel): Promise<Uint8Array> {
  const fonts = await loadLatinFonts();
  const text = modelText(model);
  const hasCjk = CJK.test(text);
  const chain = Shaper.needs(text) ? await loadAllScriptFonts() : null;
  const cjkFont = hasCjk ? await loadCjkFont() : null;
  const doc = new jsPDF({
    unit: "pt",
    format: model.page_size === "a4" ? "a4" : "letter",
    compress: true,
    // Only the fonts text is drawn with go into the file (not jsPDF's 14 unused standard fonts).
    putOnlyUsedFonts: true,
  });
  registerFont(doc, fonts.regular, FONT, "normal");
  registerFont(doc, fonts.bold, FONT, "bold");
  if (cjkFont) {
    registerFont(doc, cjkFont, CJK_FONT, "normal");
    // No bold CJK face ships: bold CJK cells use the regular face rather than dropping glyphs.
    doc.addFont(cjkFont.file, CJK_FONT, "bold", undefined, "Identity-H");
  }
  if (chain) {
    // The script fonts the shaped text is written in (invisibly, for search and copy).
    for (const family of Shaper.familiesOf(chain, text)) {
      if (family === FONT || (family === CJK_FONT && cjkFont)) continue;
      const font = chain.find((f) => f.family === family);
      if (!font) continue;
      const file = `${family}-Regular.ttf`;
      doc.addFileToVFS(file, parsedFontToken(file, font.ttf));
      doc.addFont(file, family, "normal", undefined, "Identity-H");
    }
  }
  // autotable asks for the font list on every cell it styles, and jsPDF rebuilds it from its font map
  // each time; no font is added after this point, so the list is built once.
  const fontList = doc.getFontList();
  doc.getFontList = () => fontList;
  doc.setFont(FONT, "normal");
  const title = DOCUMENT_TITLES[type];
  doc.setProperties({ title: `${title} ${model.number}`, creator: "Tradewinds", subject: title });
  const ctx: TCtx = {
    doc,
    hasCjk,
    width: doc.internal.pageSize.getWidth(),
    cells: hasCjk ? fontCellHooks(doc, FONT_PAIR) : null,
    shaper: null,
    shapedCells: null,
  };
  if (chain) {
    ctx.shaper = new Shaper(doc, chain);
    ctx.shapedCells = ctx.shaper.cellHooks();
  }
  const totals = computeTotals(model);

  if (type === "proforma_invoice") {
    block(ctx, [
      [{ content: "PROFORMA — NOT A DEMAND FOR PAYMENT", styles: { fontStyle: "bold", fontSize: 10 } }],
    ]);
  }
  if (type === "certificate_of_origin") {
    drawCertificateOfOrigin(ctx, model, totals);
    drawPageHeaders(ctx, type, model);
    return new Uint8Array(doc.output("arraybuffer"));
  }
  drawParties(ctx, model);
  drawNotifyParty(ctx, model);
  drawReferences(ctx, type, model);
  if (type === "packing_list") {
    drawPackages(ctx, model);
    drawContents(ctx, model);
    drawPackingTotals(ctx, model, totals);
    drawMarks(ctx, model);
  } else {
    drawItems(ctx, model);
    drawInvoiceTotals(ctx, model, totals);
    // The same marks as the packing list: carriers and customs match cartons to the invoice by them.
    drawMarks(ctx, model);
    drawLegends(ctx, model);
  }
  drawSignature(ctx, type, model);
  drawPageHeaders(ctx, type, model);
  return new Uint8Array(doc.output("arraybuffer"));
}

function nextY(ctx: TCtx, gap = 10): number {
  const last = (ctx.doc as unknown as { lastAutoTable?: { finalY: number } }).lastAutoTable;
  return last ? last.finalY + gap : HEADER_TOP;
}

function table(ctx: TCtx, options: UserOptions) {
  // jsPDF has no glyph fallback: with CJK text in the document, every cell gets the font(s) it needs
  // (font-runs.ts), before the table's own hooks run.
  const { cells, shapedCells } = ctx;
  const own = {
    didParseCell: options.didParseCell,
    willDrawCell: options.willDrawCell,
    didDrawCell: options.didDrawCell,
  };
  autoTable(ctx.doc, {
    startY: nextY(ctx),
    margin: { top: HEADER_TOP, left: MARGIN, right: MARGIN, bottom: 40 },
    theme: "plain",
    styles: { font: FONT, fontSize: 8, cellPadding: 3, textColor: 20, overflow: "linebreak" },
    headStyles: { font: FONT, fontStyle: "bold", fillColor: [234, 238, 244], textColor: 20 },
    footStyles: { font: FONT, fontStyle: "bold", fillColor: [255, 255, 255], textColor: 20 },
    ...options,
    didParseCell: (data: CellHookData) => {
      if (!shapedCells?.didParseCell(data)) cells?.didParseCell(data);
      own.didParseCell?.(data);
    },
    willDrawCell: (data: CellHookData) => {
      shapedCells?.willDrawCell(data);
      cells?.willDrawCell(data);
      return own.willDrawCell?.(data);
    },
    didDrawCell: (data: CellHookData) => {
      shapedCells?.didDrawCell(data);
      cells?.didDrawCell(data);
      own.didDrawCell?.(data);
    },
  });
}

/** A one-column block of paragraphs that breaks across pages like any table. */
function block(ctx: TCtx, body: RowInput[], options: UserOptions = {}) {
  table(ctx, { body, rowPageBreak: "avoid", ...options });
}

function partyLines(party: TPaperParty | null): string {
  if (!party) return "Same as importer of record";
  const place = [party.city, party.state_province, party.postal_code].filter(Boolean).join(", ");
  return [
    party.company,
    party.street,
    place,
    party.country,
    party.tax_id ? `${party.tax_id_label || "Tax ID"}: ${party.tax_id}` : "",
    party.other_id ? `${party.other_id_label || "ID"}: ${party.other_id}` : "",
    [party.contact, party.phone].filter(Boolean).join(" · "),
    party.email,
  ]
    .filter(Boolean)
    .join("\n");
}

function drawParties(ctx: TCtx, model: TPaperworkModel) {
  table(ctx, {
    head: [["Exporter / Seller", "Importer of Record / Buyer", "Ultimate Consignee"]],
    body: [[partyLines(model.exporter), partyLines(model.importer), partyLines(model.consignee)]],
    didParseCell: (data) => {
      if (data.section === "body") wrapAtSensiblePoints(ctx.doc, data);
    },
    styles: { font: FONT, fontSize: 8.5, cellPadding: 4, textColor: 20, lineWidth: 0.5, lineColor: 200 },
    headStyles: {
      font: FONT,
      fontStyle: "bold",
      fillColor: [234, 238, 244],
      textColor: 20,
      lineWidth: 0.5,
      lineColor: 200,
    },
    // Three equal columns: one long e-mail address no longer squeezes the other parties.
    columnStyles: {
      0: { cellWidth: (ctx.width - 2 * MARGIN) / 3 },
      1: { cellWidth: (ctx.width - 2 * MARGIN) / 3 },
      2: { cellWidth: (ctx.width - 2 * MARGIN) / 3 },
    },
  });
}

function drawNotifyParty(ctx: TCtx, model: TPaperworkModel) {
  if (!model.notify_party) return;
  const boxed = { lineWidth: 0.5, lineColor: 200 };
  table(ctx, {
    head: [["Notify Party"]],
    body: [[partyLines(model.notify_party).split("\n").join(" · ")]],
    styles: { font: FONT, fontSize: 8.5, cellPadding: 4, textColor: 20, ...boxed },
    headStyles: { font: FONT, fontStyle: "bold", fillColor: [234, 238, 244], textColor: 20, ...boxed },
    didParseCell: (data) => {
      if (data.section === "body") wrapAtSensiblePoints(ctx.doc, data);
    },
  });
}

function drawReferences(ctx: TCtx, type: TPaperworkType, model: TPaperworkModel) {
  const pairs: [string, string][] = [
    ["Ship date", formatDate(model.ship_date)],
    ["Carrier", model.carrier],
    ["Mode of transport", model.mode_of_transport],
    ["BOL / HAWB / tracking", model.bol_hawb_tracking],
    ["Port of export", model.port_of_export],
    ["Port of import", model.port_of_import],
    ["Country of export", model.country_of_export],
    ["Country of ultimate destination", model.country_of_destination],
  ];
  if (type !== "packing_list") {
    pairs.push(
      ["Incoterms® 2020", [model.incoterm, model.incoterm_place].filter(Boolean).join(" ")],
      ["Currency", model.currency],
      ["Payment terms", model.payment_terms],
      ["Reason for export", model.reason_for_export],
    );
  }
  pairs.push(
    ["Shipper reference", model.shipper_reference],
    ["Consignee reference", model.consignee_reference],
  );
  const tracking = model.tracking_numbers.filter(Boolean).join(", ");
  if (tracking) pairs.push(["Tracking numbers", tracking]);
  if (type === "proforma_invoice" && model.valid_until)
    pairs.push(["Valid until", formatDate(model.valid_until)]);
  const body: RowInput[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const [a, b] = [pairs[i], pairs[i + 1]];
    body.push([
      { content: a[0], styles: { fontStyle: "bold" } },
      a[1] || "—",
      { content: b?.[0] ?? "", styles: { fontStyle: "bold" } },
      b ? b[1] || "—" : "",
    ]);
  }
  table(ctx, {
    body,
    styles: { font: FONT, fontSize: 8, cellPadding: 2.5, textColor: 20 },
    columnStyles: { 0: { cellWidth: 140 }, 2: { cellWidth: 140 } },
  });
}

function lineDescription(line: TPaperLine): string {
  const text = [line.name, line.description].filter((v, i, all) => v && all.indexOf(v) === i).join(" — ");
  if (line.license_basis) {
    const basis =
      line.license_basis === "NLR"
        ? "Licence basis: NLR"
        : line.license_basis === line.license_number
          ? `Licence: ${line.license_basis}`
          : `Licence exception: ${line.license_basis}`;
    return `${text}\n${basis}`;
  }
  return line.license_number ? `${text}\nLicence: ${line.license_number}` : text;
}

/** Page subtotals of a multi-page item table: extended values per page and where its rows end. */
type TPageSums = Map<number, { sum: number; bottom: number }>;

function drawItems(ctx: TCtx, model: TPaperworkModel) {
  const currency = model.currency;
  const sums: TPageSums = new Map();
  table(ctx, {
    head: [
      [
        "#",
        "Product no.",
        "Description",
        "HTS",
        "ECCN",
        "Origin",
        { content: "Qty", styles: { halign: "right" } },
        { content: `Unit price (${currency})`, styles: { halign: "right" } },
        { content: `Extended value (${currency})`, styles: { halign: "right" } },
        { content: "Net weight", styles: { halign: "right" } },
      ],
    ],
    body: model.lines.map((line, i) => [
      String(i + 1),
      line.product_number,
      lineDescription(line),
      line.hts,
      line.eccn,
      line.origin,
      quantityText(line),
      formatMoney(line.unit_value, ""),
      formatMoney(line.extended_value, ""),
      formatWeight(multiplyDecimal(line.unit_net_weight, line.quantity, 3)),
    ]),
    showHead: "everyPage",
    // A line's rows stay on one page; the bottom margin leaves room for the page subtotal.
    rowPageBreak: "avoid",
    margin: { top: HEADER_TOP, left: MARGIN, right: MARGIN, bottom: 56 },
    didParseCell: (data) => {
      if (data.section === "body" && data.column.index >= 6) keepFigureWhole(ctx.doc, data);
    },
    didDrawCell: (data) => {
      if (data.section !== "body" || data.column.index !== 8) return;
      const page = ctx.doc.getCurrentPageInfo().pageNumber;
      const entry = sums.get(page) ?? { sum: 0, bottom: 0 };
      entry.sum += decimalToScaled(model.lines[data.row.index]?.extended_value || "0", 2);
      entry.bottom = Math.max(entry.bottom, data.cell.y + data.cell.height);
      sums.set(page, entry);
    },
    styles: { font: FONT, fontSize: 7.5, cellPadding: 3, textColor: 20, lineWidth: 0.25, lineColor: 210 },
    headStyles: {
      font: FONT,
      fontStyle: "bold",
      fillColor: [234, 238, 244],
      textColor: 20,
      lineWidth: 0.25,
      lineColor: 210,
    },
    columnStyles: {
      0: { cellWidth: 18 },
      1: { cellWidth: 54 },
      3: { cellWidth: 54 },
      4: { cellWidth: 40 },
      5: { cellWidth: 50 },
      6: { cellWidth: 44, halign: "right" },
      7: { cellWidth: 52, halign: "right" },
      8: { cellWidth: 58, halign: "right" },
      9: { cellWidth: 80, halign: "right" },
    },
  });
  drawCarriedForward(ctx, currency, sums);
  if (sums.size > 1) {
    // What follows starts below the last page's subtotal line.
    const last = (ctx.doc as unknown as { lastAutoTable?: { finalY: number } }).lastAutoTable;
    if (last) last.finalY += 14;
  }
}

/**
 * Under the last line of each page but the last: the page's subtotal and the running total carried
 * forward; at the top of each following page: the total brought forward.
 */
function drawCarriedForward(ctx: TCtx, currency: string, sums: TPageSums) {
  const pages = [...sums.keys()].sort((a, b) => a - b);
  if (pages.length < 2) return;
  const { doc } = ctx;
  const current = doc.getCurrentPageInfo().pageNumber;
  const right = ctx.width - MARGIN;
  let running = 0;
  doc.setFont(FONT, "bold");
  doc.setFontSize(8);
  doc.setTextColor(20);
  for (const [i, page] of pages.entries()) {
    const { sum, bottom } = sums.get(page) ?? { sum: 0, bottom: 0 };
    if (i === pages.length - 1) {
      doc.setPage(page);
      doc.text(`Page subtotal ${formatMoney(scaledToDecimal(sum, 2), currency)}`, right, bottom + 12, {
        align: "right",
      });
      break;
    }
    running += sum;
    const carried = formatMoney(scaledToDecimal(running, 2), currency);
    doc.setPage(page);
    doc.text(
      `Page subtotal ${formatMoney(scaledToDecimal(sum, 2), currency)}    Carried forward ${carried}`,
      right,
      bottom + 12,
      { align: "right" },
    );
    doc.setPage(pages[i + 1]);
    doc.text(`Brought forward ${carried}`, right, 100, { align: "right" });
  }
  doc.setPage(current);
  doc.setFont(FONT, "normal");
}

function totalsTable(ctx: TCtx, rows: [string, string][]) {
  table(ctx, {
    didParseCell: (data) => {
      if (data.column.index === 1) keepFigureWhole(ctx.doc, data);
    },
    body: rows.map(([label, value], i) => [
      { content: label, styles: { fontStyle: i === rows.length - 1 ? "bold" : "normal" } },
      { content: value, styles: { halign: "right", fontStyle: i === rows.length - 1 ? "bold" : "normal" } },
    ]),
    rowPageBreak: "avoid",
    // The totals stay together on the last page.
    pageBreak: "avoid",
    tableWidth: 280,
    margin: { top: HEADER_TOP, left: ctx.width - MARGIN - 280, right: MARGIN, bottom: 40 },
    styles: { font: FONT, fontSize: 8.5, cellPadding: 3, textColor: 20, lineWidth: 0.25, lineColor: 210 },
  });
}

function drawInvoiceTotals(ctx: TCtx, model: TPaperworkModel, totals: TPaperTotals) {
  const currency = model.currency;
  totalsTable(ctx, [
    ["Total packages (pieces)", String(totals.packages)],
    ...packageKindRow(model),
    ["Total quantity (units)", String(totals.pieces)],
    ["Total net weight", formatWeight(totals.net_weight)],
    ["Total gross weight", model.packages.length > 0 ? formatWeight(totals.gross_weight) : "—"],
    ["Total value", formatMoney(totals.total_value, currency)],
    ["Freight", formatMoney(model.freight, currency)],
    ["Insurance", formatMoney(model.insurance, currency)],
    ...(isZero(model.other_charges)
      ? []
      : [
          [
            model.other_charges_label?.trim()
              ? `Other charges: ${model.other_charges_label.trim()}`
              : "Other charges",
            formatMoney(model.other_charges ?? "0", currency),
          ] as [string, string],
        ]),
    ...(isZero(model.discount)
      ? []
      : [["Discount", `− ${formatMoney(model.discount ?? "0", currency)}`] as [string, string]]),
    ["Total invoice value", formatMoney(totals.total_invoice_value, currency)],
  ]);
}

const isZero = (amount: string | undefined) => !amount || decimalToScaled(amount, 2) === 0;

/** A line's quantity with what it counts: '3 PCS', '12.5'… never split (see keepFigureWhole). */
function quantityText(line: TPaperLine): string {
  return `${line.quantity} ${line.unit_of_measure || "PCS"}`;
}

/** Number and kind of packages as stated to the carrier: '3 packages: 2 Box, 1 Pallet'. */
export function packageKinds(model: TPaperworkModel): string {
  const total = model.packages.reduce((n, p) => n + p.quantity, 0);
  if (total === 0) return "";
  const kinds = model.packages.map((p) => `${p.quantity} ${p.type}`).join(", ");
  return `${total} ${total === 1 ? "package" : "packages"}: ${kinds}`;
}

function packageKindRow(model: TPaperworkModel): [string, string][] {
  const kinds = packageKinds(model);
  return kinds ? [["Number and kind of packages", kinds]] : [];
}

function drawLegends(ctx: TCtx, model: TPaperworkModel) {
  const rows: RowInput[] = [];
  const legend = aesLegend(model.aes_citation);
  if (legend) rows.push([{ content: legend, styles: { fontStyle: "bold", fontSize: 9 } }]);
  const needsDcs = model.lines.some((l) => isControlledEccn(l.eccn));
  let statement = model.statement.trim();
  // The DCS is the law's wording, not the user's: it is printed whenever a line is on the CCL, even
  // if the statement text lost it, and never twice.
  if (needsDcs && !hasDestinationControlStatement(statement)) {
    statement = statement ? `${DESTINATION_CONTROL_STATEMENT}\n${statement}` : DESTINATION_CONTROL_STATEMENT;
  }
  if (statement) rows.push([{ content: statement }]);
  if (rows.length) block(ctx, rows, { styles: { font: FONT, fontSize: 8.5, cellPadding: 3, textColor: 20 } });
}

/** One row per physical package, numbered 1…n across the shipment (a line of 3 boxes is 3 rows). */
function drawPackages(ctx: TCtx, model: TPaperworkModel) {
  const total = model.packages.reduce((n, p) => n + p.quantity, 0);
  const body: RowInput[] = [];
  let number = 0;
  for (const p of model.packages) {
    for (let k = 0; k < p.quantity; k++) {
      number += 1;
      body.push([
        `${number} of ${total}`,
        p.type,
        formatWeight(p.net_weight),
        formatWeight(p.gross_weight),
        formatDimensions(p.length, p.width, p.height),
        formatVolume(volumeMicroCubicInches(1, p.length, p.width, p.height)),
      ]);
    }
  }
  table(ctx, {
    head: [
      [
        "Package no.",
        "Package type",
        { content: "Net weight", styles: { halign: "right" } },
        { content: "Gross weight", styles: { halign: "right" } },
        "Dimensions",
        { content: "Volume", styles: { halign: "right" } },
      ],
    ],
    body,
    showHead: "everyPage",
    rowPageBreak: "avoid",
    didParseCell: (data) => {
      if (data.section === "body" && data.column.index !== 1) keepFigureWhole(ctx.doc, data);
    },
    styles: { font: FONT, fontSize: 7.5, cellPadding: 3, textColor: 20, lineWidth: 0.25, lineColor: 210 },
    headStyles: {
      font: FONT,
      fontStyle: "bold",
      fillColor: [234, 238, 244],
      textColor: 20,
      lineWidth: 0.25,
      lineColor: 210,
    },
    columnStyles: {
      0: { cellWidth: 50 },
      2: { cellWidth: 80, halign: "right" },
      3: { cellWidth: 80, halign: "right" },
      4: { cellWidth: 192 },
      5: { cellWidth: 80, halign: "right" },
    },
  });
}

function drawContents(ctx: TCtx, model: TPaperworkModel) {
  table(ctx, {
    head: [
      [
        "#",
        "Product no.",
        "Description",
        "HTS",
        "ECCN",
        "Origin",
        { content: "Qty", styles: { halign: "right" } },
        { content: "Net weight", styles: { halign: "right" } },
      ],
    ],
    body: model.lines.map((line, i) => [
      String(i + 1),
      line.product_number,
      lineDescription(line),
      line.hts,
      line.eccn,
      line.origin,
      quantityText(line),
      formatWeight(multiplyDecimal(line.unit_net_weight, line.quantity, 3)),
    ]),
    showHead: "everyPage",
    rowPageBreak: "avoid",
    didParseCell: (data) => {
      if (data.section === "body" && data.column.index >= 6) keepFigureWhole(ctx.doc, data);
    },
    styles: { font: FONT, fontSize: 7.5, cellPadding: 3, textColor: 20, lineWidth: 0.25, lineColor: 210 },
    headStyles: {
      font: FONT,
      fontStyle: "bold",
      fillColor: [234, 238, 244],
      textColor: 20,
      lineWidth: 0.25,
      lineColor: 210,
    },
    columnStyles: {
      0: { cellWidth: 18 },
      1: { cellWidth: 62 },
      3: { cellWidth: 58 },
      4: { cellWidth: 46 },
      5: { cellWidth: 56 },
      6: { cellWidth: 44, halign: "right" },
      7: { cellWidth: 84, halign: "right" },
    },
  });
}

function drawPackingTotals(ctx: TCtx, model: TPaperworkModel, totals: TPaperTotals) {
  totalsTable(ctx, [
    ["Total packages (pieces)", String(totals.packages)],
    ...packageKindRow(model),
    ["Total quantity (units)", String(totals.pieces)],
    ["Total net weight", formatWeight(totals.net_weight)],
    ["Total gross weight", formatWeight(totals.gross_weight)],
    ["Total volume", formatVolume(totals.volume)],
  ]);
}

function drawMarks(ctx: TCtx, model: TPaperworkModel) {
  block(ctx, [
    [{ content: "Marks and numbers", styles: { fontStyle: "bold" } }],
    [{ content: model.marks || "—" }],
  ]);
}

function drawSignature(ctx: TCtx, type: TPaperworkType, model: TPaperworkModel) {
  const { doc } = ctx;
  const sig = model.signature;
  let imageHeight = 0;
  let imageWidth = 0;
  let props: { width: number; height: number; fileType: string } | null = null;
  if (sig.image) {
    try {
      props = doc.getImageProperties(sig.image) as { width: number; height: number; fileType: string };
      const scale = Math.min(160 / props.width, 48 / props.height, 1);
      imageWidth = props.width * scale;
      imageHeight = props.height * scale;
    } catch {
      props = null; // An unreadable image leaves the signature line blank rather than failing the document.
    }
  }
  const lines = [
    sig.name ? `${sig.name}${sig.title ? `, ${sig.title}` : ""}` : "",
    `Date: ${formatDate(model.date)}`,
  ].filter(Boolean);
  const label = type === "packing_list" ? "Prepared by" : "Authorized signature";
  // The declaration the signature certifies is drawn in the same block, which moves to the next page
  // as a whole when it does not fit: a signature never stands on a page without its declaration.
  const declaration: RowInput[] =
    type === "commercial_invoice"
      ? [[{ content: ACTUAL_PRICE_DECLARATION, styles: { fontSize: 8.5 } }]]
      : type === "proforma_invoice"
        ? [[{ content: PROFORMA_NOTICE, styles: { fontStyle: "bold", fontSize: 8.5 } }]]
        : type === "certificate_of_origin"
          ? [
              [{ content: "Declaration by the exporter", styles: { fontStyle: "bold", fontSize: 8.5 } }],
              [{ content: ORIGIN_DECLARATION, styles: { fontSize: 8.5 } }],
            ]
          : [];
  const imageRow = declaration.length + 1;
  block(
    ctx,
    [
      ...declaration,
      [{ content: label, styles: { fontStyle: "bold" } }],
      [{ content: "", styles: { minCellHeight: Math.max(imageHeight, 28) + 4 } }],
      [{ content: lines.join("\n") }],
    ],
    {
      pageBreak: "avoid",
      didDrawCell: (data) => {
        if (data.section !== "body" || data.row.index !== imageRow) return;
        if (props && sig.image) {
          doc.addImage(sig.image, props.fileType, data.cell.x + 3, data.cell.y + 2, imageWidth, imageHeight);
        }
        doc.setDrawColor(120);
        doc.setLineWidth(0.5);
        doc.line(
          data.cell.x + 3,
          data.cell.y + data.cell.height - 1,
          data.cell.x + 230,
          data.cell.y + data.cell.height - 1,
        );
      },
    },
  );
}

/**
 * The exporter's name under the title, in at most two lines above the header rule: a long name is
 * set smaller, and one still too long ends with '…' (the parties block below prints it whole).
 */
function drawHeaderName(ctx: TCtx, name: string, letterhead = "") {
  const { doc } = ctx;
  const width = ctx.width / 2;
  const shaper = ctx.shaper && Shaper.needs(name) ? ctx.shaper : null;
  const runs = !shaper && ctx.hasCjk ? new FontRuns(doc, FONT_PAIR, "normal") : null;
  const wrap = (size: number): string[] => {
    if (shaper) return shaper.wrap([name], width, size);
    if (runs) return runs.wrap([name], width, size);
    doc.setFont(FONT, "normal");
    doc.setFontSize(size);
    return doc.splitTextToSize(name, width) as string[];
  };
  let size = 9;
  let lines = wrap(size);
  for (const smaller of [8, 7]) {
    if (lines.length <= 2) break;
    size = smaller;
    lines = wrap(size);
  }
  if (lines.length > 2 || (letterhead && lines.length > 1)) {
    lines = letterhead ? [lines[0]] : [lines[0], `${lines[1].replace(/.$/u, "").trimEnd()}…`];
  }
  if (shaper) shaper.drawLines(lines, MARGIN, 64, size);
  else if (runs) runs.drawLines(lines, MARGIN, 64, size);
  else {
    doc.setFont(FONT, "normal");
    doc.setFontSize(size);
    doc.text(lines, MARGIN, 64);
  }
  if (letterhead) drawLetterhead(ctx, letterhead);
  doc.setFontSize(9);
}

/** The letterhead line under the exporter's name (one line, shortened with '…' when too long). */
function drawLetterhead(ctx: TCtx, text: string) {
  const { doc } = ctx;
  const width = ctx.width / 2;
  const size = 7.5;
  const shaper = ctx.shaper && Shaper.needs(text) ? ctx.shaper : null;
  const runs = !shaper && ctx.hasCjk ? new FontRuns(doc, FONT_PAIR, "normal") : null;
  doc.setTextColor(90);
  let lines: string[];
  if (shaper) lines = shaper.wrap([text], width, size);
  else if (runs) lines = runs.wrap([text], width, size);
  else {
    doc.setFont(FONT, "normal");
    doc.setFontSize(size);
    lines = doc.splitTextToSize(text, width) as string[];
  }
  const line = lines.length > 1 ? `${lines[0].replace(/.$/u, "").trimEnd()}…` : (lines[0] ?? "");
  if (shaper) shaper.drawLines([line], MARGIN, 75, size);
  else if (runs) runs.drawLines([line], MARGIN, 75, size);
  else doc.text(line, MARGIN, 75);
  doc.setTextColor(20);
}

/** A party as the certificate names it: name, address and country. */
function originParty(party: TPaperParty): string {
  const place = [party.city, party.state_province, party.postal_code].filter(Boolean).join(", ");
  return [party.company, party.street, place, party.country].filter(Boolean).join("\n");
}

/**
 * The generic certificate of origin a chamber of commerce stamps: exporter, consignee, transport and
 * route, the goods with their HS code and country of origin, packages and weights, the exporter's
 * signed declaration, and an empty box for the chamber's certification.
 */
function drawCertificateOfOrigin(ctx: TCtx, model: TPaperworkModel, totals: TPaperTotals) {
  const consignee = model.consignee ?? model.importer;
  const boxed = { lineWidth: 0.5, lineColor: 200 };
  table(ctx, {
    head: [["1. Exporter (name, address, country)", "2. Consignee (name, address, country)"]],
    body: [[originParty(model.exporter), originParty(consignee)]],
    styles: { font: FONT, fontSize: 8.5, cellPadding: 4, textColor: 20, ...boxed },
    headStyles: { font: FONT, fontStyle: "bold", fillColor: [234, 238, 244], textColor: 20, ...boxed },
    columnStyles: { 0: { cellWidth: (ctx.width - 2 * MARGIN) / 2 } },
  });
  const route = [model.port_of_export, model.port_of_import].filter(Boolean).join(" to ");
  const transport = [model.mode_of_transport, model.carrier, route].filter(Boolean).join(" · ");
  const origins = [...new Set(model.lines.map((l) => l.origin).filter(Boolean))].join(", ");
  const pairs: [string, string][] = [
    ["3. Means of transport and route", transport],
    ["Ship date", formatDate(model.ship_date)],
    ["4. Country of destination", consignee.country],
    ["5. Country of origin", origins],
    ["Invoice", `${model.number}, ${formatDate(model.date)}`],
    ["Number and kind of packages", packageKinds(model) || `${totals.packages}`],
  ];
  table(ctx, {
    body: pairs.map(([label, value]) => [{ content: label, styles: { fontStyle: "bold" } }, value || "—"]),
    styles: { font: FONT, fontSize: 8, cellPadding: 2.5, textColor: 20 },
    columnStyles: { 0: { cellWidth: 150 } },
  });
  table(ctx, {
    head: [
      [
        "#",
        "Description of goods",
        "HS code",
        { content: "Quantity", styles: { halign: "right" } },
        "Country of origin",
        { content: "Net weight", styles: { halign: "right" } },
      ],
    ],
    body: model.lines.map((line, i) => [
      String(i + 1),
      lineDescription({ ...line, license_number: null }),
      line.hts,
      quantityText(line),
      line.origin,
      formatWeight(multiplyDecimal(line.unit_net_weight, line.quantity, 3)),
    ]),
    showHead: "everyPage",
    rowPageBreak: "avoid",
    didParseCell: (data) => {
      if (data.section === "body" && [3, 5].includes(data.column.index)) keepFigureWhole(ctx.doc, data);
    },
    styles: { font: FONT, fontSize: 7.5, cellPadding: 3, textColor: 20, lineWidth: 0.25, lineColor: 210 },
    headStyles: {
      font: FONT,
      fontStyle: "bold",
      fillColor: [234, 238, 244],
      textColor: 20,
      lineWidth: 0.25,
      lineColor: 210,
    },
    columnStyles: {
      0: { cellWidth: 18 },
      2: { cellWidth: 64 },
      3: { cellWidth: 50, halign: "right" },
      4: { cellWidth: 80 },
      5: { cellWidth: 90, halign: "right" },
    },
  });
  totalsTable(ctx, [
    ["Total packages (pieces)", String(totals.packages)],
    ["Total net weight", formatWeight(totals.net_weight)],
    ["Total gross weight", model.packages.length > 0 ? formatWeight(totals.gross_weight) : "—"],
  ]);
  drawMarks(ctx, model);
  drawSignature(ctx, "certificate_of_origin", model);
  block(
    ctx,
    [
      [{ content: "Certification", styles: { fontStyle: "bold" } }],
      [{ content: CHAMBER_CERTIFICATION }],
      [
        {
          content: "Chamber of commerce: stamp, place, date and signature",
          styles: { minCellHeight: 96, textColor: 110, ...boxed },
        },
      ],
    ],
    { pageBreak: "avoid", styles: { font: FONT, fontSize: 8.5, cellPadding: 4, textColor: 20 } },
  );
}

/**
 * Where the logo goes: scaled to fit 110 × 44 pt between the exporter's name (left half) and the
 * number, date and page (right), vertically centred on the title's band. An image jsPDF cannot read
 * is left out rather than failing the document.
 */
function logoPlacement(ctx: TCtx, image: Uint8Array | null) {
  if (!image || image.length === 0) return null;
  try {
    const props = ctx.doc.getImageProperties(image);
    const boxW = 110;
    const boxH = 44;
    const scale = Math.min(boxW / props.width, boxH / props.height);
    const w = props.width * scale;
    const h = props.height * scale;
    const right = ctx.width - MARGIN - 140;
    return { image, type: props.fileType, x: right - w, y: 30 + (boxH - h) / 2, w, h };
  } catch {
    return null;
  }
}

function drawPageHeaders(ctx: TCtx, type: TPaperworkType, model: TPaperworkModel) {
  const { doc } = ctx;
  const pages = doc.getNumberOfPages();
  const numberLabel =
    type === "proforma_invoice" ? "Proforma No." : type === "packing_list" ? "Invoice No." : "Invoice No.";
  const exporterName = model.exporter.company;
  const logo = logoPlacement(ctx, model.logo ?? null);
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    doc.setTextColor(20);
    doc.setFont(FONT, "bold");
    doc.setFontSize(18);
    doc.text(DOCUMENT_TITLES[type], MARGIN, 48);
    drawHeaderName(ctx, exporterName, model.letterhead ?? "");
    if (logo) doc.addImage(logo.image, logo.type, logo.x, logo.y, logo.w, logo.h, "exporter-logo");
    doc.setFont(FONT, "normal");
    const right = ctx.width - MARGIN;
    doc.text(`${numberLabel} ${model.number}`, right, 40, { align: "right" });
    doc.text(`Date ${formatDate(model.date)}`, right, 54, { align: "right" });
    doc.text(`Page ${page} of ${pages}`, right, 68, { align: "right" });
    doc.setDrawColor(160);
    doc.setLineWidth(0.75);
    doc.line(MARGIN, 84, right, 84);
  }
}
