// Text in scripts jsPDF cannot draw by itself. jsPDF maps each character to one glyph: it has no
// shaping (Devanagari conjuncts and vowel signs, Arabic joining, Khmer subscripts), no bidirectional
// order, and no fallback between fonts. Text holding such a script is laid out here instead:
// - each character takes the first font of the chain that has it (script-fonts.ts), punctuation,
//   digits and marks staying in the font of the text around them;
// - the Unicode Bidirectional Algorithm (bidi-js) gives each character its level; runs of one level
//   and one font are put in visual order;
// - HarfBuzz shapes each run; its glyphs are drawn as filled outlines (the font's own curves), so
//   what is printed is exactly what HarfBuzz shaped;
// - the run's characters are written once more as invisible text (render mode 3), in logical order
//   with right-to-left runs stored right to left as PDF text is, in the script's font embedded as a
//   subset: a reader's search, copy and pdf.js get the names as they were typed.
import bidiFactory from "bidi-js";
import type { jsPDF } from "jspdf";
import type { CellHookData, Styles } from "jspdf-autotable";
import type { TScriptFont } from "./script-fonts";

const bidi = bidiFactory();

/** Scripts laid out here: right-to-left, Indic, Southeast Asian, Georgian, Armenian, Hangul. */
export const NEEDS_SHAPING =
  /[\u0530-\u08FF\u0900-\u0DFF\u0E00-\u0EFF\u10A0-\u10FF\u1100-\u11FF\u1780-\u17FF\u19E0-\u19FF\u1C90-\u1CBF\u2D00-\u2D2F\u3130-\u318F\uA960-\uA97F\uAC00-\uD7FF\uFB13-\uFDFF\uFE70-\uFEFF]/;

/** Characters that keep the font of the text around them when it has them. */
const NEUTRAL = /^[\p{M}\p{Zs}\p{P}\p{S}\p{Nd}\u200C\u200D]$/u;

type TGlyph = { gid: number; x: number; y: number };
type TShapedRun = { font: TScriptFont; text: string; rtl: boolean; glyphs: TGlyph[]; advance: number };
type TSegment = { text: string; level: number; font: TScriptFont; index: number };
/** A shaped run of a line, with its place in the line as typed (0 = first). */
type TLineRun = TShapedRun & { index: number };

// Shaped runs and glyph outlines are the same across documents: kept per process (bounded).
const shapeCache = new Map<string, TShapedRun>();
const pathCache = new Map<string, string>();
const MAX_CACHE = 20_000;

const fmt = (n: number) => (Math.round(n * 100) / 100).toString();

/** A glyph's outline as PDF path operators in font units (quadratic curves raised to cubic). */
function glyphPath(font: TScriptFont, gid: number): string {
  const key = `${font.family}:${gid}`;
  const cached = pathCache.get(key);
  if (cached !== undefined) return cached;
  const ops: string[] = [];
  let cx = 0;
  let cy = 0;
  let sx = 0;
  let sy = 0;
  for (const { type, values: v } of font.font.glyphToJson(gid)) {
    if (type === "M") {
      ops.push(`${fmt(v[0])} ${fmt(v[1])} m`);
      [cx, cy, sx, sy] = [v[0], v[1], v[0], v[1]];
    } else if (type === "L") {
      ops.push(`${fmt(v[0])} ${fmt(v[1])} l`);
      [cx, cy] = [v[0], v[1]];
    } else if (type === "Q") {
      const [qx, qy, x, y] = v;
      const c1x = cx + (2 / 3) * (qx - cx);
      const c1y = cy + (2 / 3) * (qy - cy);
      const c2x = x + (2 / 3) * (qx - x);
      const c2y = y + (2 / 3) * (qy - y);
      ops.push(`${fmt(c1x)} ${fmt(c1y)} ${fmt(c2x)} ${fmt(c2y)} ${fmt(x)} ${fmt(y)} c`);
      [cx, cy] = [x, y];
    } else if (type === "C") {
      ops.push(`${v.map(fmt).join(" ")} c`);
      [cx, cy] = [v[4], v[5]];
    } else if (type === "Z") {
      ops.push("h");
      [cx, cy] = [sx, sy];
    }
  }
  const path = ops.join(" ");
  if (pathCache.size > MAX_CACHE) pathCache.clear();
  pathCache.set(key, path);
  return path;
}

function shapeRun(font: TScriptFont, text: string, rtl: boolean): TShapedRun {
  const key = `${font.family}|${rtl ? "r" : "l"}|${text}`;
  const cached = shapeCache.get(key);
  if (cached) return cached;
  const { hb } = font;
  const buffer = new hb.Buffer();
  buffer.addText(text);
  buffer.setDirection(rtl ? hb.Direction.RTL : hb.Direction.LTR);
  buffer.guessSegmentProperties();
  hb.shape(font.font, buffer);
  const infos = buffer.getGlyphInfos();
  const positions = buffer.getGlyphPositions();
  const glyphs: TGlyph[] = [];
  let pen = 0;
  for (let i = 0; i < infos.length; i++) {
    const p = positions[i];
    glyphs.push({ gid: infos[i].codepoint, x: pen + p.xOffset, y: p.yOffset });
    pen += p.xAdvance;
  }
  const run = { font, text, rtl, glyphs, advance: pen };
  if (shapeCache.size > MAX_CACHE) shapeCache.clear();
  shapeCache.set(key, run);
  return run;
}

type TJsPdfFont = {
  id: string;
  metadata: {
    characterToGlyph(code: number): number;
    widthOfGlyph(glyph: number): number;
    glyIdsUsed: number[];
    toUnicode: Record<number, number>;
    Unicode: { widths: (number | number[])[] };
  };
};

/** Lays out and draws text of any script the font chain covers, for one document. */
export class Shaper {
  private readonly marked = new Set<string>();

  constructor(
    private readonly doc: jsPDF,
    /** The chain, in the order characters look for a font. */
    private readonly chain: TScriptFont[],
  ) {}

  /** Whether text needs this layout (else jsPDF's own drawing is right). */
  static needs(text: string): boolean {
    return NEEDS_SHAPING.test(text);
  }

  /** The families the text's characters are drawn in (for registering them with jsPDF). */
  static familiesOf(chain: TScriptFont[], text: string): Set<string> {
    const families = new Set<string>();
    let prev: TScriptFont | null = null;
    for (const char of text) {
      prev = pickFont(chain, char, prev);
      families.add(prev.family);
    }
    return families;
  }

  /** The line's runs in visual order, shaped. */
  layout(line: string): TLineRun[] {
    if (!line) return [];
    const { levels } = bidi.getEmbeddingLevels(line);
    const segments: TSegment[] = [];
    let prev: TScriptFont | null = null;
    let index = 0;
    for (const char of line) {
      const font = pickFont(this.chain, char, prev);
      const level = levels[index];
      const last = segments[segments.length - 1];
      if (last && last.font === font && last.level === level) last.text += char;
      else segments.push({ text: char, level, font, index: segments.length });
      prev = font;
      index += char.length;
    }
    // Rule L2: from the highest level down to the lowest odd one, reverse every sequence of runs at
    // that level or above.
    const max = Math.max(...segments.map((s) => s.level));
    const lowestOdd = Math.min(...segments.map((s) => (s.level % 2 ? s.level : s.level + 1)));
    for (let level = max; level >= lowestOdd; level--) {
      for (let i = 0; i < segments.length; ) {
        if (segments[i].level < level) {
          i++;
          continue;
        }
        let j = i;
        while (j < segments.length && segments[j].level >= level) j++;
        const reversed = segments.slice(i, j).reverse();
        segments.splice(i, j - i, ...reversed);
        i = j;
      }
    }
    return segments.map((s) => ({ ...shapeRun(s.font, s.text, s.level % 2 === 1), index: s.index }));
  }

  /** Width of text at a font size, in document units. */
  width(text: string, fontSize: number): number {
    let width = 0;
    for (const run of this.layout(text)) width += (run.advance / run.font.upem) * fontSize;
    return width / this.doc.internal.scaleFactor;
  }

  /**
   * Wraps lines to a width: at spaces and between CJK characters; inside a word only when the word
   * alone is too wide, then between grapheme clusters (a letter keeps its marks).
   */
  wrap(lines: string[], maxWidth: number, fontSize: number): string[] {
    const out: string[] = [];
    const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
    for (const paragraph of lines) {
      let line = "";
      const fits = (text: string) => this.width(text, fontSize) <= maxWidth;
      for (const token of paragraph.match(TOKENS) ?? []) {
        if (fits(line + token)) {
          line += token;
          continue;
        }
        if (/^\s+$/.test(token)) {
          if (line.trim()) out.push(line.trimEnd());
          line = "";
          continue;
        }
        if (line.trim()) out.push(line.trimEnd());
        line = "";
        if (fits(token)) {
          line = token;
          continue;
        }
        for (const { segment } of graphemes.segment(token)) {
          if (line && !fits(line + segment)) {
            out.push(line);
            line = "";
          }
          line += segment;
        }
      }
      out.push(line.trimEnd());
    }
    return out;
  }

  /**
   * Draws lines with the first baseline at y, one line height apart (jsPDF's spacing); x is the left
   * edge, or the right edge / centre for right and centre alignment. `gray` is the fill (0–255).
   */
  drawLines(
    lines: string[],
    x: number,
    y: number,
    fontSize: number,
    options: { halign?: Styles["halign"]; bold?: boolean; gray?: number } = {},
  ) {
    const { doc } = this;
    const k = doc.internal.scaleFactor;
    const pageHeight = doc.internal.pageSize.getHeight();
    const lineHeight = (fontSize / k) * doc.getLineHeightFactor();
    const gray = fmt((options.gray ?? 20) / 255);
    const write = (s: string) => (doc.internal as unknown as { write(s: string): void }).write(s);
    for (const line of lines) {
      const runs = this.layout(line);
      const width = runs.reduce((w, r) => w + (r.advance / r.font.upem) * (fontSize / k), 0);
      let left = options.halign === "right" ? x - width : options.halign === "center" ? x - width / 2 : x;
      const baseline = (pageHeight - y) * k;
      const placed: { run: TLineRun; left: number; width: number }[] = [];
      for (const run of runs) {
        const scale = fontSize / run.font.upem;
        const runWidth = (run.advance / run.font.upem) * (fontSize / k);
        const paint = options.bold ? `${gray} G ${fmt(run.font.upem * 0.035)} w 1 j` : "";
        const ops: string[] = [
          `q ${gray} g ${paint} ${scale.toFixed(7)} 0 0 ${scale.toFixed(7)} ${fmt(left * k)} ${fmt(baseline)} cm`,
        ];
        for (const g of run.glyphs) {
          const path = glyphPath(run.font, g.gid);
          if (!path) continue;
          ops.push(`q 1 0 0 1 ${fmt(g.x)} ${fmt(g.y)} cm ${path} ${options.bold ? "B" : "f"} Q`);
        }
        ops.push("Q");
        write(ops.join("\n"));
        placed.push({ run, left, width: runWidth });
        left += runWidth;
      }
      // The text layer: runs in the order they were typed, each over its glyphs.
      placed.sort((a, b) => a.run.index - b.run.index);
      for (const p of placed) this.writeInvisible(p.run, p.left, p.width, y, fontSize);
      y += lineHeight;
    }
  }

  /** Writes a run's characters as invisible text over its glyphs, in the run's script font. */
  private writeInvisible(run: TShapedRun, left: number, width: number, y: number, fontSize: number) {
    const { doc } = this;
    const internal = doc.internal as unknown as {
      getFont(family: string, style: string): TJsPdfFont | undefined;
      write(s: string): void;
    };
    const font = internal.getFont(run.font.family, "normal");
    if (!font?.metadata) return;
    this.markUsed(run.font.family, left, y);
    const chars = [...run.text];
    // PDF text stores right-to-left runs right to left; readers reverse them back.
    if (run.rtl) chars.reverse();
    const meta = font.metadata;
    let hex = "";
    let units = 0;
    for (const char of chars) {
      const code = char.codePointAt(0) ?? 0;
      if (code > 0xffff) continue;
      const glyph = meta.characterToGlyph(code);
      if (!glyph) continue;
      meta.glyIdsUsed.push(glyph);
      meta.toUnicode[glyph] = code;
      const glyphWidth = Number.parseInt(String(meta.widthOfGlyph(glyph)), 10);
      if (!meta.Unicode.widths.includes(glyph)) meta.Unicode.widths.push(glyph, [glyphWidth]);
      units += glyphWidth;
      hex += glyph.toString(16).padStart(4, "0");
    }
    if (!hex) return;
    const k = doc.internal.scaleFactor;
    const natural = (units / 1000) * (fontSize / k);
    const stretch = natural > 0 ? (width / natural) * 100 : 100;
    const baseline = (doc.internal.pageSize.getHeight() - y) * k;
    internal.write(
      `q BT /${font.id} ${fmt(fontSize)} Tf 3 Tr ${fmt(stretch)} Tz 1 0 0 1 ${fmt(left * k)} ${fmt(baseline)} Tm <${hex}> Tj ET Q`,
    );
  }

  /** jsPDF writes only the fonts its own text() used: one invisible space marks the font. */
  private markUsed(family: string, x: number, y: number) {
    if (this.marked.has(family)) return;
    this.marked.add(family);
    const { doc } = this;
    const previous = doc.getFont();
    const size = doc.getFontSize();
    doc.setFont(family, "normal");
    doc.text(" ", x, y, { renderingMode: "invisible" });
    doc.setFont(previous.fontName, previous.fontStyle);
    doc.setFontSize(size);
  }

  /** autotable hooks that hand the cells holding such text to this layout. */
  cellHooks() {
    const claimed = new WeakMap<object, { lines: string[]; bold: boolean }>();
    const k = () => this.doc.internal.scaleFactor;
    return {
      /** True when the cell is laid out here (the caller then skips its other font hooks). */
      didParseCell: (data: CellHookData): boolean => {
        const { cell } = data;
        const text = Array.isArray(cell.text) ? cell.text.join("\n") : String(cell.text ?? "");
        if (!Shaper.needs(text)) return false;
        claimed.set(cell, { lines: [], bold: cell.styles.fontStyle === "bold" });
        cell.styles.overflow = (lines: string | string[], width: number) =>
          this.wrap(Array.isArray(lines) ? lines : [lines], width + 1 / k(), cell.styles.fontSize);
        return true;
      },
      willDrawCell: (data: CellHookData) => {
        const state = claimed.get(data.cell);
        if (!state) return;
        state.lines = data.cell.text;
        data.cell.text = [];
      },
      didDrawCell: (data: CellHookData) => {
        const { cell } = data;
        const state = claimed.get(cell);
        if (!state || state.lines.length === 0) return;
        const lines = state.lines;
        cell.text = lines;
        state.lines = [];
        const pos = cell.getTextPos();
        const fontSize = cell.styles.fontSize / k();
        const lineHeight = fontSize * this.doc.getLineHeightFactor();
        let y = pos.y + fontSize * (2 - 1.15);
        if (cell.styles.valign === "middle") y -= (lines.length / 2) * lineHeight;
        else if (cell.styles.valign === "bottom") y -= lines.length * lineHeight;
        const color = cell.styles.textColor;
        const gray = typeof color === "number" ? color : Array.isArray(color) ? Number(color[0]) : 20;
        this.drawLines(lines, pos.x, y, cell.styles.fontSize, {
          halign: cell.styles.halign,
          bold: state.bold,
          gray,
        });
      },
    };
  }
}

/** The font a character is drawn in: neutral characters stay with the run's font when it has them. */
function pickFont(chain: TScriptFont[], char: string, prev: TScriptFont | null): TScriptFont {
  const code = char.codePointAt(0) ?? 0;
  if (prev && NEUTRAL.test(char) && prev.covers.has(code)) return prev;
  for (const font of chain) if (font.covers.has(code)) return font;
  return prev ?? chain[0];
}

// A break may come at a space, before or after any CJK character, or not inside other words.
const TOKENS =
  /\s+|[\u2E80-\u2FFF\u3000-\u30FF\u3100-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]|[^\s\u2E80-\u2FFF\u3000-\u30FF\u3100-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]+/g;
