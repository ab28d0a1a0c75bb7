// Text that needs two fonts. jsPDF draws a string in one font and silently drops every character that
// font lacks (no glyph fallback): Noto Sans has Latin, Greek and Cyrillic but no Chinese, Japanese or
// Korean; Noto Sans SC has those but lacks letters such as Greek ά or Polish Ł and ź. A cell such as
// 'Ελληνικά 北京 Москва' therefore lost letters in either font. Here such text is split into runs,
// each drawn in the first font that has its glyphs (Noto Sans first, the CJK font for the rest), and
// measured and wrapped with the width of each character in the font it is drawn in.
import type { jsPDF } from "jspdf";
import type { CellHookData, Styles } from "jspdf-autotable";

type TFontMetadata = {
  characterToGlyph(code: number): number;
  widthOfGlyph(glyph: number): number;
};

/** The two families: `primary` is tried first for every character, `fallback` for what it lacks. */
export type TFontPair = { primary: string; fallback: string };

export type TRun = { text: string; font: string };

/** What a piece of text needs: one font (which), or runs of both. */
export type TCoverage = { kind: "primary" } | { kind: "fallback" } | { kind: "mixed" };

type TFontEntry = { metadata?: TFontMetadata };

function metadataOf(doc: jsPDF, family: string, style: string): TFontMetadata | null {
  const internal = doc.internal as unknown as { getFont(name: string, style: string): TFontEntry };
  return internal.getFont(family, style)?.metadata ?? null;
}

const isSpace = (code: number) => code === 32 || code === 9 || code === 0xa0;

/** Measures and splits text between two fonts of one document, for one font style. */
export class FontRuns {
  private readonly primary: TFontMetadata;
  private readonly fallback: TFontMetadata;

  constructor(
    private readonly doc: jsPDF,
    readonly fonts: TFontPair,
    readonly style: string,
  ) {
    const primary = metadataOf(doc, fonts.primary, style);
    const fallback = metadataOf(doc, fonts.fallback, style);
    if (!primary || !fallback) throw new Error(`Fonts ${fonts.primary}/${fonts.fallback} are not registered`);
    this.primary = primary;
    this.fallback = fallback;
  }

  /** The font a character is drawn in (a space keeps whatever font the run around it has). */
  private fontOf(code: number): TFontMetadata {
    if (this.primary.characterToGlyph(code)) return this.primary;
    if (this.fallback.characterToGlyph(code)) return this.fallback;
    return this.primary;
  }

  /** Whether the text can stay in one font, and which, or needs runs. */
  coverage(text: string): TCoverage {
    let needsFallback = false;
    let fallbackLacks = false;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (isSpace(code) || code === 10 || code === 13) continue;
      const inPrimary = this.primary.characterToGlyph(code) !== 0;
      const inFallback = this.fallback.characterToGlyph(code) !== 0;
      if (!inPrimary && inFallback) needsFallback = true;
      if (inPrimary && !inFallback) fallbackLacks = true;
    }
    if (!needsFallback) return { kind: "primary" };
    return fallbackLacks ? { kind: "mixed" } : { kind: "fallback" };
  }

  /** One line of text as runs of the same font, in order. */
  runs(line: string): TRun[] {
    const runs: TRun[] = [];
    let current: TRun | null = null;
    for (let i = 0; i < line.length; i++) {
      const code = line.charCodeAt(i);
      const font: string =
        isSpace(code) && current
          ? current.font
          : this.fontOf(code) === this.primary
            ? this.fonts.primary
            : this.fonts.fallback;
      if (current && current.font === font) current.text += line[i];
      else {
        current = { text: line[i], font };
        runs.push(current);
      }
    }
    return runs;
  }

  /** Width of text at a font size, in document units, each character in the font it is drawn in. */
  width(text: string, fontSize: number): number {
    let units = 0;
    for (let i = 0; i < text.length; i++) {
      const font = this.fontOf(text.charCodeAt(i));
      units += font.widthOfGlyph(font.characterToGlyph(text.charCodeAt(i)));
    }
    return (units / 1000) * (fontSize / this.doc.internal.scaleFactor);
  }

  /**
   * Wraps lines to a width: breaks at spaces, between CJK characters (which need no space), and
   * inside a word only when the word alone is too wide. Spaces at a break are dropped.
   */
  wrap(lines: string[], maxWidth: number, fontSize: number): string[] {
    const out: string[] = [];
    for (const paragraph of lines) {
      let line = "";
      let width = 0;
      const flush = () => {
        out.push(line.trimEnd());
        line = "";
        width = 0;
      };
      for (const token of paragraph.match(TOKENS) ?? []) {
        const tokenWidth = this.width(token, fontSize);
        if (width + tokenWidth <= maxWidth) {
          line += token;
          width += tokenWidth;
          continue;
        }
        if (/^\s+$/.test(token)) {
          if (line) flush();
          continue;
        }
        if (line.trim()) flush();
        else {
          line = "";
          width = 0;
        }
        if (tokenWidth <= maxWidth) {
          line = token;
          width = tokenWidth;
          continue;
        }
        for (const char of token) {
          const charWidth = this.width(char, fontSize);
          if (line && width + charWidth > maxWidth) flush();
          line += char;
          width += charWidth;
        }
      }
      out.push(line.trimEnd());
    }
    return out;
  }

  /**
   * Draws lines as runs with the text's top-left (or right/centre) at x, its first baseline at y,
   * the way jsPDF draws a multi-line string: one line height (font size × line height factor) apart.
   */
  drawLines(lines: string[], x: number, y: number, fontSize: number, halign: Styles["halign"] = "left") {
    const { doc } = this;
    const lineHeight = (fontSize / doc.internal.scaleFactor) * doc.getLineHeightFactor();
    for (const line of lines) {
      const lineWidth = this.width(line, fontSize);
      let left = halign === "right" ? x - lineWidth : halign === "center" ? x - lineWidth / 2 : x;
      for (const run of this.runs(line)) {
        doc.setFont(run.font, this.style);
        doc.setFontSize(fontSize);
        doc.text(run.text, left, y);
        left += this.width(run.text, fontSize);
      }
      y += lineHeight;
    }
  }
}

// A break may come at a space, before or after any CJK character, or not inside other words.
const TOKENS =
  /\s+|[\u2E80-\u2FFF\u3000-\u30FF\u3100-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]|[^\s\u2E80-\u2FFF\u3000-\u30FF\u3100-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]+/g;

/**
 * autotable hooks that give each cell the font its text needs: Noto Sans, the CJK font when it covers
 * the whole cell, or — when neither does — runs of both, wrapped and drawn here (autotable's own text
 * for such a cell is blanked just before it would draw it, after its rectangle and borders).
 */
export function fontCellHooks(doc: jsPDF, fonts: TFontPair) {
  const measurers = new Map<string, FontRuns>();
  const runsFor = (style: string) => {
    let runs = measurers.get(style);
    if (!runs) {
      runs = new FontRuns(doc, fonts, style);
      measurers.set(style, runs);
    }
    return runs;
  };
  const mixed = new WeakMap<object, FontRuns>();
  const pending = new WeakMap<object, string[]>();
  return {
    didParseCell(data: CellHookData) {
      const { cell } = data;
      const text = Array.isArray(cell.text) ? cell.text.join("\n") : String(cell.text ?? "");
      // Only regular and bold faces are registered (the CJK "bold" is its regular face).
      const runs = runsFor(cell.styles.fontStyle === "bold" ? "bold" : "normal");
      const coverage = runs.coverage(text);
      if (coverage.kind === "primary") return;
      // Measured in the CJK font until wrapped: it is the wider of the two for what it lacks.
      cell.styles.font = fonts.fallback;
      if (coverage.kind === "fallback") return;
      mixed.set(cell, runs);
      cell.styles.overflow = (lines: string | string[], width: number) =>
        // autotable adds one point to the width it wraps to as well (rounding).
        runs.wrap(
          Array.isArray(lines) ? lines : [lines],
          width + 1 / doc.internal.scaleFactor,
          cell.styles.fontSize,
        );
    },
    willDrawCell(data: CellHookData) {
      if (!mixed.has(data.cell)) return;
      pending.set(data.cell, data.cell.text);
      data.cell.text = [];
    },
    didDrawCell(data: CellHookData) {
      const { cell } = data;
      const runs = mixed.get(cell);
      const lines = pending.get(cell);
      if (!runs || !lines) return;
      pending.delete(cell);
      cell.text = lines;
      // autotable's text position: the cell's text origin, then down to the first baseline.
      const pos = cell.getTextPos();
      const fontSize = cell.styles.fontSize / doc.internal.scaleFactor;
      const lineHeight = fontSize * doc.getLineHeightFactor();
      let y = pos.y + fontSize * (2 - 1.15);
      if (cell.styles.valign === "middle") y -= (lines.length / 2) * lineHeight;
      else if (cell.styles.valign === "bottom") y -= lines.length * lineHeight;
      runs.drawLines(lines, pos.x, y, cell.styles.fontSize, cell.styles.halign);
    },
  };
}
