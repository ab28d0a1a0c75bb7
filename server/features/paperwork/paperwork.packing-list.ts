// The packing list's own parts: one row per physical package, the contents, the packing totals.
import type { RowInput } from "jspdf-autotable";
import { keepFigureWhole } from "./cell-wrap";
import {
  formatDimensions,
  formatVolume,
  formatWeight,
  multiplyDecimal,
  volumeMicroCubicInches,
} from "./format";
import { RULED_LINES, type TCtx, table, totalsTable } from "./paperwork.layout";
import type { TPaperPackageContent, TPaperTotals, TPaperworkModel } from "./paperwork.model";
import { lineDescription, packageKindRow, quantityText } from "./paperwork.sections";

/**
 * What one package holds, one product a line, the count first ("3 PCS  P-0001 Field router"): a
 * right-to-left description then ends the line and cannot draw the count into its run.
 */
function contentsText(contents: TPaperPackageContent[]): string {
  return contents
    .map((c) =>
      [`${c.quantity} ${c.unit_of_measure}`, c.product_number, c.description].filter(Boolean).join("  "),
    )
    .join("\n");
}

/**
 * One row per physical package, numbered 1…n across the shipment (a line of 3 boxes is 3 rows), the
 * numbers the marks' 'PACKAGES 1-n' refer to. Where the user assigned contents, each package's row
 * says what it holds under its type.
 */
export function drawPackages(ctx: TCtx, model: TPaperworkModel, lastOnNewPage = false) {
  const total = model.packages.reduce((n, p) => n + p.quantity, 0);
  const hasContents = model.packages.some((p) => (p.contents ?? []).length > 0);
  const body: RowInput[] = [];
  let number = 0;
  for (const p of model.packages) {
    for (let k = 0; k < p.quantity; k++) {
      number += 1;
      // What every package of the line holds, and what this one alone holds.
      const contents = (p.contents ?? []).filter((c) => c.package === undefined || c.package === k + 1);
      body.push([
        `${number} of ${total}`,
        contents.length ? `${p.type}\nContents:\n${contentsText(contents)}` : p.type,
        formatWeight(p.net_weight),
        formatWeight(p.gross_weight),
        formatDimensions(p.length, p.width, p.height),
        formatVolume(volumeMicroCubicInches(1, p.length, p.width, p.height)),
      ]);
    }
  }
  const draw = (rows: RowInput[]) =>
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
      body: rows,
      showHead: "everyPage",
      rowPageBreak: "avoid",
      didParseCell: (data) => {
        if (data.section === "body" && data.column.index !== 1) keepFigureWhole(ctx.doc, data);
      },
      ...RULED_LINES,
      columnStyles: {
        0: { cellWidth: 50 },
        2: { cellWidth: 80, halign: "right" },
        3: { cellWidth: 80, halign: "right" },
        // Contents take room from the dimensions, which then wrap onto a second line.
        4: { cellWidth: hasContents ? 120 : 192 },
        5: { cellWidth: 80, halign: "right" },
      },
    });
  if (!lastOnNewPage || body.length === 0) {
    draw(body);
    return;
  }
  // The last package row starts the next page, so the totals and the signature that follow it are
  // not left alone there.
  if (body.length > 1) draw(body.slice(0, -1));
  ctx.doc.addPage();
  (ctx.doc as unknown as { lastAutoTable?: unknown }).lastAutoTable = undefined;
  draw(body.slice(-1));
}

export function drawContents(ctx: TCtx, model: TPaperworkModel) {
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
    ...RULED_LINES,
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

export function drawPackingTotals(ctx: TCtx, model: TPaperworkModel, totals: TPaperTotals) {
  totalsTable(ctx, [
    ["Total packages (pieces)", String(totals.packages)],
    ...packageKindRow(model),
    ["Total quantity (units)", String(totals.pieces)],
    ["Total net weight", formatWeight(totals.net_weight)],
    ["Total gross weight", formatWeight(totals.gross_weight)],
    ["Total volume", formatVolume(totals.volume)],
  ]);
}
