// Pure renderer: a typed paperwork model in, PDF bytes out (jsPDF + jspdf-autotable under Bun).
// It reads nothing but the fonts; everything printed comes from the model, so tests can render a
// model and read the PDF back field by field.
import { jsPDF } from "jspdf";
import type { TPaperworkType } from "../../../db/contracts/paperwork";
import { parsedFontToken } from "./font-cache";
import { fontCellHooks } from "./font-runs";
import { loadCjkFont, loadLatinFonts, type TFontData } from "./fonts";
import { installJsPdfSpeedups } from "./jspdf-speedups";
import { drawCertificateOfOrigin } from "./paperwork.certificate";
import { drawInvoiceTotals, drawItems, drawLegends } from "./paperwork.invoice";
import { block, CJK_FONT, FONT, FONT_PAIR, type TCtx } from "./paperwork.layout";
import { CJK, computeTotals, DOCUMENT_TITLES, modelText, type TPaperworkModel } from "./paperwork.model";
import { drawContents, drawPackages, drawPackingTotals } from "./paperwork.packing-list";
import { drawPageHeaders } from "./paperwork.page-header";
import { drawMarks, drawNotifyParty, drawParties, drawReferences, drawSignature } from "./paperwork.sections";
import { loadAllScriptFonts } from "./script-fonts";
import { Shaper } from "./shaped-text";

// The model, its wording and totals live in ./paperwork.model; re-exported for the render's callers.
export {
  ACTUAL_PRICE_DECLARATION,
  CHAMBER_CERTIFICATION,
  computeTotals,
  DOCUMENT_TITLES,
  modelNeedsCjk,
  ORIGIN_DECLARATION,
  PROFORMA_NOTICE,
  type TPaperLine,
  type TPaperPackage,
  type TPaperParty,
  type TPaperTotals,
  type TPaperworkModel,
} from "./paperwork.model";
export { packageKinds } from "./paperwork.sections";

installJsPdfSpeedups();

function registerFont(doc: jsPDF, font: TFontData, family: string, style: string) {
  doc.addFileToVFS(font.file, font.data);
  doc.addFont(font.file, family, style, undefined, "Identity-H");
}

/** Renders one document of the given type to PDF bytes. */
export async function renderPaperwork(type: TPaperworkType, model: TPaperworkModel): Promise<Uint8Array> {
  const first = await renderOnce(type, model, false);
  if (!first.apart) return first.pdf;
  // Totals and signature pushed onto a page without any package row take the last package row with
  // them: drawn again with that row starting the next page, kept when everything after it then fits.
  const second = await renderOnce(type, model, true);
  return second.apart ? first.pdf : second.pdf;
}

async function renderOnce(
  type: TPaperworkType,
  model: TPaperworkModel,
  lastPackageOnNewPage: boolean,
): Promise<{ pdf: Uint8Array; apart: boolean }> {
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
    return { pdf: new Uint8Array(doc.output("arraybuffer")), apart: false };
  }
  drawParties(ctx, model);
  drawNotifyParty(ctx, model);
  drawReferences(ctx, type, model);
  // The page of the packing list's last package row, which the signature should share.
  let lastPackagePage = 0;
  if (type === "packing_list") {
    drawPackages(ctx, model, lastPackageOnNewPage);
    lastPackagePage = doc.getNumberOfPages();
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
  const apart = type === "packing_list" && doc.getNumberOfPages() > lastPackagePage;
  drawPageHeaders(ctx, type, model);
  return { pdf: new Uint8Array(doc.output("arraybuffer")), apart };
}
