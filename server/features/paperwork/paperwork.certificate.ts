// The certificate of origin, laid out as a chamber of commerce expects it.
import { keepFigureWhole } from "./cell-wrap";
import { formatDate, formatWeight, multiplyDecimal } from "./format";
import { block, FONT, MARGIN, RULED_LINES, type TCtx, table, totalsTable } from "./paperwork.layout";
import {
  CHAMBER_CERTIFICATION,
  type TPaperParty,
  type TPaperTotals,
  type TPaperworkModel,
} from "./paperwork.model";
import { drawMarks, drawSignature, lineDescription, packageKinds, quantityText } from "./paperwork.sections";

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
export function drawCertificateOfOrigin(ctx: TCtx, model: TPaperworkModel, totals: TPaperTotals) {
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
    ...RULED_LINES,
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
