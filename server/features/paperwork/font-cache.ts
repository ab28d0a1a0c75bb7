// jsPDF parses a TrueType font again for every document that adds it (and first copies it into a
// one-char-per-byte string): for Noto Sans regular + bold that is most of a 100-line invoice's CPU
// time, and for the 10 MB CJK font far more. The parsed tables are read-only afterwards, so each
// font is parsed once per process; a document's virtual file system holds only a short token that
// names it, and every document gets a thin copy carrying its own state (glyphs used, ToUnicode
// map, subset).
import { jsPDF } from "jspdf";

type TTtfFont = {
  toUnicode: Record<number, number>;
  subset: { font: unknown; subset: Record<number, number>; unicodes: Record<number, number>; next: number };
};
type TTtfFontClass = { open(data: Uint8Array): TTtfFont };
type TTable = { raw(): number[] };
type TGlyph = { encode(old2new: Record<number, number>): number[] };
type TGlyfTable = {
  encode(glyphs: Record<number, TGlyph>, mapping: number[], old2new: Record<number, number>): unknown;
};

// jsPDF reads VFS content that starts with the TrueType magic as raw bytes and hands them to open().
const MAGIC = "\x00\x01\x00\x00";
const TOKEN_PREFIX = `${MAGIC}tradewinds-font:`;

const parsedFonts = new Map<string, TTtfFont>();
let originalOpen: TTtfFontClass["open"] | null = null;

function api(): { TTFFont: TTtfFontClass } {
  return jsPDF.API as unknown as { TTFFont: TTtfFontClass };
}

function install(): TTtfFontClass["open"] {
  if (originalOpen) return originalOpen;
  const ttf = api().TTFFont;
  const original = ttf.open.bind(ttf);
  originalOpen = original;
  ttf.open = (data: Uint8Array) => {
    if (data.length < 128) {
      const text = String.fromCharCode(...data);
      const parsed = text.startsWith(TOKEN_PREFIX)
        ? parsedFonts.get(text.slice(TOKEN_PREFIX.length))
        : undefined;
      if (parsed) return perDocumentCopy(parsed);
    }
    return original(data);
  };
  return original;
}

function perDocumentCopy(parsed: TTtfFont): TTtfFont {
  // An own-property copy: jsPDF checks metadata.hasOwnProperty("cmap") before mapping characters.
  const copy = Object.assign(Object.create(Object.getPrototypeOf(parsed)), parsed) as TTtfFont;
  copy.toUnicode = {};
  const subset = Object.create(Object.getPrototypeOf(parsed.subset)) as TTtfFont["subset"];
  subset.font = copy;
  subset.subset = {};
  subset.unicodes = {};
  subset.next = 33;
  copy.subset = subset;
  return copy;
}

/**
 * Parses a TrueType font once and answers the string to put in a document's VFS in place of the
 * whole file (addFileToVFS(name, token); addFont(name, …, "Identity-H")).
 */
export function parsedFontToken(name: string, bytes: Uint8Array): string {
  const open = install();
  if (!parsedFonts.has(name)) parsedFonts.set(name, speedUp(open(bytes)));
  return `${TOKEN_PREFIX}${name}`;
}

/**
 * Two hot spots of jsPDF's font subsetter, fixed on the parsed font only: the tables it copies whole
 * into every PDF are read byte by byte on each document (cached here, they never change), and the
 * glyph table is built with Array.concat in a loop (quadratic; pushes here, same bytes).
 */
function speedUp(font: TTtfFont): TTtfFont {
  const tables = font as unknown as Record<string, TTable & { exists?: boolean }>;
  for (const name of ["cmap", "hmtx", "hhea", "maxp", "post", "name", "os2"]) {
    const table = tables[name];
    if (!table || typeof table.raw !== "function") continue;
    const raw = table.raw.call(table);
    table.raw = () => raw;
  }
  const glyf = (font as unknown as { glyf: TGlyfTable }).glyf;
  glyf.encode = (glyphs, mapping, old2new) => {
    const table: number[] = [];
    const offsets: number[] = [];
    for (const id of mapping) {
      const glyph = glyphs[id];
      offsets.push(table.length);
      if (glyph) for (const byte of glyph.encode(old2new)) table.push(byte);
    }
    offsets.push(table.length);
    return { table, offsets };
  };
  return font;
}
