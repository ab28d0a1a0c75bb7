import { describe, expect, test } from "bun:test";
import { inflateSync } from "node:zlib";
import { jsPDF } from "jspdf";
import { loadCjkFont, loadLatinFonts } from "./fonts";
import { installNativeDeflate } from "./jspdf-deflate";

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
    installNativeDeflate();
    const api = jsPDF.API as unknown as {
      processDataByFilters(data: string, chain: string[]): { data: string; reverseChain: string };
    };
    const data = Array.from({ length: 4096 }, (_, i) => String.fromCharCode((i * 7) % 256)).join("");
    const out = api.processDataByFilters(data, ["FlateEncode"]);
    expect(out.reverseChain).toBe("/FlateDecode");
    expect(inflateSync(Buffer.from(out.data, "latin1")).toString("latin1")).toBe(data);
    // Other chains still go through jsPDF's own filters.
    expect(api.processDataByFilters("ab", ["ASCIIHexEncode"]).reverseChain).toBe("/ASCIIHexDecode");
  });
});
