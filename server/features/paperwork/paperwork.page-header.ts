// The header on every page: title, the exporter's name and letterhead, the logo, number, date and page.
import type { TPaperworkType } from "../../../db/contracts/paperwork";
import { FontRuns } from "./font-runs";
import { formatDate } from "./format";
import { FONT, FONT_PAIR, MARGIN, type TCtx } from "./paperwork.layout";
import { DOCUMENT_TITLES, type TPaperworkModel } from "./paperwork.model";
import { Shaper } from "./shaped-text";

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

export function drawPageHeaders(ctx: TCtx, type: TPaperworkType, model: TPaperworkModel) {
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
