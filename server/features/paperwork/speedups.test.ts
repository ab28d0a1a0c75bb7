import { describe, expect, test } from "bun:test";
import { inflateSync } from "node:zlib";
import { jsPDF } from "jspdf";
import { glyphWidthList } from "./font-cache";
import { loadCjkFont, loadLatinFonts } from "./fonts";
import { arabicShortcut, installJsPdfSpeedups } from "./jspdf-speedups";

type TArabicFn = (payload: string | { text: unknown }) => string | { text: unknown };
type TDirectory = { encode(tables: Record<string, ArrayLike<number>>): ArrayLike<number> };
type TMetadata = {
  directory: TDirectory;
  glyIdsUsed: number[];
  subset: { encode(ids: number[], indexToLocFormat: number): ArrayLike<number> };
};

/** A document using the cached font, with some text drawn, and that font's per-document metadata. */
async function drawnFont(text: string, cjk = false): Promise<TMetadata> {
  const font = cjk ? await loadCjkFont() : (await loadLatinFonts()).regular;
  const doc = new jsPDF({ unit: "pt", compress: true });
  doc.addFileToVFS(font.file, font.data);
  doc.addFont(font.file, "F", "normal", undefined, "Identity-H");
  doc.setFont("F", "normal");
  doc.text(text, 40, 40);
  return (doc as unknown as { internal: { getFont(): { metadata: TMetadata } } }).internal.getFont().metadata;
}

describe("font cache", () => {
  // The subset's font file is assembled by our encodeDirectory; jsPDF's own Directory.encode must
  // give the very same bytes for the same tables (table order, padding, checksums, checkSumAdjustment).
  for (const [label, text, cjk] of [
    ["Latin, Greek, Cyrillic", "Müller Łódź Ελληνικά Москва € µ 0123456789", false],
    ["CJK", "北京进出口有限公司 上海", true],
    ["one glyph", "A", false],
  ] as const) {
    test(`the subset font file is byte-identical to jsPDF's own (${label})`, async () => {
      const metadata = await drawnFont(text, cjk);
      const directory = metadata.directory;
      const fast = directory.encode;
      let tables: Record<string, ArrayLike<number>> | null = null;
      directory.encode = (t) => {
        tables = t;
        return fast(t);
      };
      let ours: ArrayLike<number>;
      try {
        ours = metadata.subset.encode(metadata.glyIdsUsed, 1);
      } finally {
        directory.encode = fast;
      }
      expect(tables).not.toBeNull();
      expect(ours).toBeInstanceOf(Uint8Array);
      const original = Object.getPrototypeOf(directory).encode as TDirectory["encode"];
      const theirs = original.call(directory, tables as unknown as Record<string, ArrayLike<number>>);
      expect(Array.from(ours)).toEqual(Array.from(theirs));
    });
  }
});

describe("native deflate", () => {
  test("jsPDF's FlateEncode streams decode to the same bytes (every byte value)", () => {
    installJsPdfSpeedups();
    const api = jsPDF.API as unknown as {
      processDataByFilters(data: string, chain: string | string[]): { data: string; reverseChain: string };
    };
    const data = Array.from({ length: 4096 }, (_, i) => String.fromCharCode((i * 7) % 256)).join("");
    const out = api.processDataByFilters(data, ["FlateEncode"]);
    expect(out.reverseChain).toBe("/FlateDecode");
    expect(inflateSync(Buffer.from(out.data, "latin1")).toString("latin1")).toBe(data);
    // Other chains still go through jsPDF's own filters.
    expect(api.processDataByFilters("ab", ["ASCIIHexEncode"]).reverseChain).toBe("/ASCIIHexDecode");
    // Empty and large streams are valid zlib streams too (header and Adler-32 checked by inflate).
    expect(
      inflateSync(Buffer.from(api.processDataByFilters("", ["FlateEncode"]).data, "latin1")).length,
    ).toBe(0);
    const large = Array.from({ length: 300_000 }, (_, i) =>
      String.fromCharCode((i * 31 + (i >> 7)) % 256),
    ).join("");
    const packed = api.processDataByFilters(large, "FlateEncode").data;
    expect(inflateSync(Buffer.from(packed, "latin1")).toString("latin1")).toBe(large);
  });
});

describe("Arabic shaper shortcut", () => {
  test("answers exactly what jsPDF's shaper answers, for strings, line arrays and Arabic text", () => {
    const api = jsPDF.API as unknown as { __arabicParser__: { processArabic: TArabicFn } };
    // The shaper itself (installJsPdfSpeedups replaced only jsPDF.API.processArabic and the event).
    const original = api.__arabicParser__.processArabic;
    const shortcut = arabicShortcut(original);
    installJsPdfSpeedups();
    const events = (jsPDF.API as unknown as { events: [string, unknown][] }).events;
    const handlers = events.filter(([topic]) => topic === "preProcessText").map(([, fn]) => fn);
    expect(handlers).not.toContain(original);
    expect(handlers).toContain((jsPDF.API as unknown as { processArabic: unknown }).processArabic);
    const samples: unknown[] = [
      "Müller Łódź Ελληνικά Москва 北京",
      "",
      "مرحبا بالعالم",
      "Acme مرحبا",
      "a literal \\s+ in text",
      ["line one", "Ελληνικά", ""],
      [["line", 10, 20], "second"],
      ["Acme", "السلام عليكم"],
    ];
    for (const sample of samples) {
      expect(shortcut(structuredClone(sample) as string)).toEqual(
        original(structuredClone(sample) as string),
      );
      const ours = shortcut({ text: structuredClone(sample) });
      const theirs = original({ text: structuredClone(sample) });
      expect(ours).toEqual(theirs);
    }
  });
});

describe("glyph width list", () => {
  test("indexOf answers as an array's own indexOf, and the list is written out as a plain array", () => {
    const list = glyphWidthList();
    const plain: unknown[] = [];
    const width = [500];
    for (const items of [
      [3, width],
      [7, [600]],
      [3, [1]],
      [0, [250]],
      [Number.NaN, [1]],
      [-0, [2]],
    ]) {
      list.push(...items);
      plain.push(...items);
    }
    for (const probe of [3, 7, 0, -0, 9, Number.NaN, width, [500], "3", undefined]) {
      expect(list.indexOf(probe)).toBe(plain.indexOf(probe));
      expect(list.indexOf(probe, 3)).toBe(plain.indexOf(probe, 3));
    }
    expect(JSON.stringify(list)).toBe(JSON.stringify(plain));
    expect(Object.keys(list)).toEqual(Object.keys(plain));
    expect(Array.isArray(list)).toBe(true);
  });
});
