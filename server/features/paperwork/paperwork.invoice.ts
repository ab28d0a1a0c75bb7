// The invoices' own parts (commercial and proforma): the priced item table with page subtotals
// carried forward, the invoice totals, and the AES and destination control legends.
import type { RowInput } from "jspdf-autotable";
import { decimalToScaled, scaledToDecimal } from "../../../db/contracts/decimal";
import {
  aesLegend,
  DESTINATION_CONTROL_STATEMENT,
  hasDestinationControlStatement,
  isControlledEccn,
} from "../../../db/contracts/paperwork";
import { keepFigureWhole } from "./cell-wrap";
import { formatMoney, formatWeight, multiplyDecimal } from "./format";
import {
  block,
  FONT,
  HEADER_TOP,
  MARGIN,
  RULED_LINES,
  type TCtx,
  table,
  totalsTable,
} from "./paperwork.layout";
import type { TPaperTotals, TPaperworkModel } from "./paperwork.model";
import { lineDescription, packageKindRow, quantityText } from "./paperwork.sections";

/** Page subtotals of a multi-page item table: extended values per page and where its rows end. */
type TPageSums = Map<number, { sum: number; bottom: number }>;

export function drawItems(ctx: TCtx, model: TPaperworkModel) {
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
    ...RULED_LINES,
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

export function drawInvoiceTotals(ctx: TCtx, model: TPaperworkModel, totals: TPaperTotals) {
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

export function drawLegends(ctx: TCtx, model: TPaperworkModel) {
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
