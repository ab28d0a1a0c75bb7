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
type TTableBytes = ArrayLike<number>;
type TDirectory = { scalarType: number; encode(tables: Record<string, TTableBytes>): ArrayLike<number> };

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
  // What jsPDF's addFont would set (it keeps an existing one), with a glyph-width list whose indexOf
  // is a set lookup: jsPDF asks `widths.indexOf(glyph) == -1` for every character it draws.
  (copy as unknown as { Unicode: unknown }).Unicode = { encoding: {}, kerning: {}, widths: glyphWidthList() };
  return copy;
}

/**
 * jsPDF's per-font /W list ([glyph, [width], glyph, [width], …]) as a real array (it is written out
 * as one) whose non-enumerable push also records where each value first went, so indexOf is a map
 * lookup instead of a scan. Same answers as Array's indexOf: strict equality (NaN is never found),
 * and a search from a given index still scans.
 */
export function glyphWidthList(): unknown[] {
  const list: unknown[] = [];
  const first = new Map<unknown, number>();
  Object.defineProperties(list, {
    push: {
      value: (...items: unknown[]) => {
        for (const item of items) {
          if (!first.has(item)) first.set(item, list.length);
          Array.prototype.push.call(list, item);
        }
        return list.length;
      },
    },
    indexOf: {
      value: (item: unknown, from?: number) => {
        if (from !== undefined) return Array.prototype.indexOf.call(list, item, from);
        if (Number.isNaN(item)) return -1;
        return first.get(item) ?? -1;
      },
    },
  });
  return list;
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
 * Three hot spots of jsPDF's font subsetter, fixed on the parsed font only: the tables it copies whole
 * into every PDF are read byte by byte on each document (cached here, they never change), the glyph
 * table is built with Array.concat in a loop (quadratic; pushes here, same bytes), and the font file
 * is assembled by concatenating number arrays table by table and check-summed byte by byte (one
 * typed array here, same bytes: see encodeDirectory).
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
  const directory = (font as unknown as { directory: TDirectory }).directory;
  directory.encode = (tables) => encodeDirectory(directory.scalarType, tables);
  return font;
}

/** TrueType checksum: the sum of the big-endian uint32 words, the last one zero-padded, mod 2^32. */
function checksum(bytes: Uint8Array, start: number, length: number): number {
  let sum = 0;
  const whole = start + (length & ~3);
  for (let i = start; i < whole; i += 4) {
    sum = (sum + ((bytes[i] << 24) | (bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3])) >>> 0;
  }
  if (length & 3) {
    let last = 0;
    for (let k = 0; k < 4; k++) last = (last << 8) | (whole + k < start + length ? bytes[whole + k] : 0);
    sum = (sum + (last >>> 0)) >>> 0;
  }
  return sum;
}

/**
 * jsPDF's Directory.encode (the font file of a subset: table directory, then each table padded to 4
 * bytes, then head.checkSumAdjustment) written into one Uint8Array. Byte for byte what jsPDF builds,
 * including its header fields (entrySelector is computed as jsPDF does); the caller only reads
 * `length` and indexes, which a Uint8Array answers like jsPDF's number array.
 */
export function encodeDirectory(scalarType: number, tables: Record<string, TTableBytes>): Uint8Array {
  const tags = Object.keys(tables);
  const tableCount = tags.length;
  const log2 = Math.log(2);
  const searchRange = Math.floor(Math.log(tableCount) / log2) * 16;
  const entrySelector = Math.floor(searchRange / log2);
  const rangeShift = tableCount * 16 - searchRange;
  let size = 12 + tableCount * 16;
  for (const tag of tags) size += (tables[tag].length + 3) & ~3;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, scalarType >>> 0);
  view.setUint16(4, tableCount & 0xffff);
  view.setUint16(6, searchRange & 0xffff);
  view.setUint16(8, entrySelector & 0xffff);
  view.setUint16(10, rangeShift & 0xffff);
  let entry = 12;
  let offset = 12 + tableCount * 16;
  let headOffset = -1;
  for (const tag of tags) {
    const table = tables[tag];
    bytes.set(table, offset);
    for (let k = 0; k < 4; k++) bytes[entry + k] = tag.charCodeAt(k) & 0xff;
    view.setUint32(entry + 4, checksum(bytes, offset, table.length));
    view.setUint32(entry + 8, offset);
    view.setUint32(entry + 12, table.length);
    if (tag === "head") headOffset = offset;
    entry += 16;
    offset += (table.length + 3) & ~3;
  }
  if (headOffset >= 0) view.setUint32(headOffset + 8, (0xb1b0afba - checksum(bytes, 0, size)) >>> 0);
  return bytes;
}
