// The page layout every document shares: margins, fonts, the drawing context, and tables that flow
// across pages with each cell given the font(s) its text needs.
import type { jsPDF } from "jspdf";
import { autoTable, type CellHookData, type RowInput, type UserOptions } from "jspdf-autotable";
import { keepFigureWhole } from "./cell-wrap";
import type { fontCellHooks } from "./font-runs";
import type { Shaper } from "./shaped-text";

export const MARGIN = 36;

export const HEADER_TOP = 108;

export const FONT = "NotoSans";

export const CJK_FONT = "NotoSansSC";

export type TCtx = {
  doc: jsPDF;
  hasCjk: boolean;
  width: number;
  /** With the CJK font: the hooks that give each cell the font(s) its text needs. */
  cells: ReturnType<typeof fontCellHooks> | null;
  /** With text in scripts jsPDF cannot shape (Arabic, Hebrew, Indic, …): their layout. */
  shaper: Shaper | null;
  shapedCells: ReturnType<Shaper["cellHooks"]> | null;
};

export const FONT_PAIR = { primary: FONT, fallback: CJK_FONT };

export function nextY(ctx: TCtx, gap = 10): number {
  const last = (ctx.doc as unknown as { lastAutoTable?: { finalY: number } }).lastAutoTable;
  return last ? last.finalY + gap : HEADER_TOP;
}

/** The ruled look of the documents' line tables (goods, packages): small type, hairline grid. */
export const RULED_LINES = {
  styles: { font: FONT, fontSize: 7.5, cellPadding: 3, textColor: 20, lineWidth: 0.25, lineColor: 210 },
  headStyles: {
    font: FONT,
    fontStyle: "bold",
    fillColor: [234, 238, 244],
    textColor: 20,
    lineWidth: 0.25,
    lineColor: 210,
  },
} satisfies UserOptions;

export function table(ctx: TCtx, options: UserOptions) {
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
export function block(ctx: TCtx, body: RowInput[], options: UserOptions = {}) {
  table(ctx, { body, rowPageBreak: "avoid", ...options });
}

export function totalsTable(ctx: TCtx, rows: [string, string][]) {
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
