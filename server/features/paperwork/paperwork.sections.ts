// The blocks several documents print: parties, references, line descriptions, marks, the signature.
import type { RowInput } from "jspdf-autotable";
import type { TPaperworkType } from "../../../db/contracts/paperwork";
import { wrapAtSensiblePoints } from "./cell-wrap";
import { formatDate } from "./format";
import { block, FONT, MARGIN, type TCtx, table } from "./paperwork.layout";
import {
  ACTUAL_PRICE_DECLARATION,
  ORIGIN_DECLARATION,
  PROFORMA_NOTICE,
  type TPaperLine,
  type TPaperParty,
  type TPaperworkModel,
} from "./paperwork.model";

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

export function drawParties(ctx: TCtx, model: TPaperworkModel) {
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

export function drawNotifyParty(ctx: TCtx, model: TPaperworkModel) {
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

export function drawReferences(ctx: TCtx, type: TPaperworkType, model: TPaperworkModel) {
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

export function lineDescription(line: TPaperLine): string {
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

/** A line's quantity with what it counts: '3 PCS', '12.5'… never split (see keepFigureWhole). */
export function quantityText(line: TPaperLine): string {
  return `${line.quantity} ${line.unit_of_measure || "PCS"}`;
}

/** Number and kind of packages as stated to the carrier: '3 packages: 2 Box, 1 Pallet'. */
export function packageKinds(model: TPaperworkModel): string {
  const total = model.packages.reduce((n, p) => n + p.quantity, 0);
  if (total === 0) return "";
  const kinds = model.packages.map((p) => `${p.quantity} ${p.type}`).join(", ");
  return `${total} ${total === 1 ? "package" : "packages"}: ${kinds}`;
}

export function packageKindRow(model: TPaperworkModel): [string, string][] {
  const kinds = packageKinds(model);
  return kinds ? [["Number and kind of packages", kinds]] : [];
}

export function drawMarks(ctx: TCtx, model: TPaperworkModel) {
  block(ctx, [
    [{ content: "Marks and numbers", styles: { fontStyle: "bold" } }],
    [{ content: model.marks || "—" }],
  ]);
}

export function drawSignature(ctx: TCtx, type: TPaperworkType, model: TPaperworkModel) {
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
