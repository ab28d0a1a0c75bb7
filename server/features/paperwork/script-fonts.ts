// The fonts for scripts Noto Sans lacks, and HarfBuzz to shape them. Arabic, Hebrew, Devanagari,
// Bengali, Thai, Khmer, Georgian, Armenian and Korean each come from an npm package (OFL-1.1): TTF
// from @expo-google-fonts where it ships one, else the script's WOFF subset from @fontsource, unpacked
// to TTF here (WOFF 1.0 is the TTF's tables, each zlib-compressed). Every font is read, parsed and its
// character map collected once per process, and only when some text needs it.
import { inflateSync } from "node:zlib";
import notoSansRegular from "@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf" with {
  type: "file",
};
import arabicRegular from "@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf" with {
  type: "file",
};
import devanagariRegular from "@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf" with {
  type: "file",
};
import khmerRegular from "@expo-google-fonts/noto-sans-khmer/400Regular/NotoSansKhmer_400Regular.ttf" with {
  type: "file",
};
import koreanRegular from "@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf" with {
  type: "file",
};
import scRegular from "@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf" with {
  type: "file",
};
import thaiRegular from "@expo-google-fonts/noto-sans-thai/400Regular/NotoSansThai_400Regular.ttf" with {
  type: "file",
};
import armenianRegular from "@fontsource/noto-sans-armenian/files/noto-sans-armenian-armenian-400-normal.woff" with {
  type: "file",
};
import bengaliRegular from "@fontsource/noto-sans-bengali/files/noto-sans-bengali-bengali-400-normal.woff" with {
  type: "file",
};
import georgianRegular from "@fontsource/noto-sans-georgian/files/noto-sans-georgian-georgian-400-normal.woff" with {
  type: "file",
};
import hebrewRegular from "@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-400-normal.woff" with {
  type: "file",
};
import harfbuzzWasm from "harfbuzzjs/dist/harfbuzz.wasm" with { type: "file" };

/** A font of the chain: its jsPDF family name, where it comes from, and the characters it covers. */
export type TScriptFontSpec = { family: string; path: string; format: "ttf" | "woff" };

/**
 * The order characters look for a font in: Noto Sans first (Latin, Greek, Cyrillic, digits and
 * punctuation), then each script's font, then the CJK fonts (Chinese and Japanese, then Korean).
 */
export const FONT_CHAIN: TScriptFontSpec[] = [
  { family: "NotoSans", path: notoSansRegular, format: "ttf" },
  { family: "NotoSansArabic", path: arabicRegular, format: "ttf" },
  { family: "NotoSansHebrew", path: hebrewRegular, format: "woff" },
  { family: "NotoSansDevanagari", path: devanagariRegular, format: "ttf" },
  { family: "NotoSansBengali", path: bengaliRegular, format: "woff" },
  { family: "NotoSansThai", path: thaiRegular, format: "ttf" },
  { family: "NotoSansKhmer", path: khmerRegular, format: "ttf" },
  { family: "NotoSansGeorgian", path: georgianRegular, format: "woff" },
  { family: "NotoSansArmenian", path: armenianRegular, format: "woff" },
  { family: "NotoSansSC", path: scRegular, format: "ttf" },
  { family: "NotoSansKR", path: koreanRegular, format: "ttf" },
];

/** WOFF 1.0 → the TrueType file it wraps (tables inflated, the sfnt directory rebuilt). */
export function woffToTtf(woff: Uint8Array): Uint8Array {
  const view = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  if (view.getUint32(0) !== 0x774f4646) throw new Error("Not a WOFF file");
  const flavor = view.getUint32(4);
  const numTables = view.getUint16(12);
  const tables: { tag: number; checksum: number; data: Uint8Array }[] = [];
  for (let i = 0; i < numTables; i++) {
    const entry = 44 + i * 20;
    const offset = view.getUint32(entry + 4);
    const compLength = view.getUint32(entry + 8);
    const origLength = view.getUint32(entry + 12);
    const raw = woff.subarray(offset, offset + compLength);
    tables.push({
      tag: view.getUint32(entry),
      checksum: view.getUint32(entry + 16),
      data: compLength < origLength ? new Uint8Array(inflateSync(raw)) : raw,
    });
  }
  const headerSize = 12 + 16 * numTables;
  const total = tables.reduce((n, t) => n + ((t.data.length + 3) & ~3), headerSize);
  const out = new Uint8Array(total);
  const o = new DataView(out.buffer);
  let entrySelector = 0;
  while (2 ** (entrySelector + 1) <= numTables) entrySelector++;
  const searchRange = 2 ** entrySelector * 16;
  o.setUint32(0, flavor);
  o.setUint16(4, numTables);
  o.setUint16(6, searchRange);
  o.setUint16(8, entrySelector);
  o.setUint16(10, numTables * 16 - searchRange);
  let offset = headerSize;
  tables.forEach((t, i) => {
    const rec = 12 + i * 16;
    o.setUint32(rec, t.tag);
    o.setUint32(rec + 4, t.checksum);
    o.setUint32(rec + 8, offset);
    o.setUint32(rec + 12, t.data.length);
    out.set(t.data, offset);
    offset += (t.data.length + 3) & ~3;
  });
  return out;
}

type THb = typeof import("harfbuzzjs");

/** One font ready for shaping and drawing: TTF bytes for jsPDF, HarfBuzz objects, its characters. */
export type TScriptFont = {
  family: string;
  ttf: Uint8Array;
  hb: THb;
  font: InstanceType<THb["Font"]>;
  upem: number;
  covers: Set<number>;
};

let hbModule: Promise<THb> | null = null;
const loaded = new Map<string, Promise<TScriptFont>>();

/**
 * HarfBuzz (WASM), instantiated once per process on first use. From source, the package starts
 * itself (a top-level await that finds its .wasm beside it); in the executable, whose bundle cannot
 * hold a top-level await, the build exports a `ready` that takes the embedded .wasm instead.
 */
export function harfbuzz(): Promise<THb> {
  hbModule ??= import("harfbuzzjs").then(async (hb) => {
    const ready = (hb as unknown as { ready?: (module: { wasmBinary: Uint8Array }) => Promise<void> }).ready;
    if (ready) await ready({ wasmBinary: new Uint8Array(await Bun.file(harfbuzzWasm).arrayBuffer()) });
    return hb;
  });
  return hbModule;
}

/** A font of the chain, loaded once per process. */
export function loadScriptFont(spec: TScriptFontSpec): Promise<TScriptFont> {
  let font = loaded.get(spec.family);
  if (!font) {
    font = (async () => {
      const bytes = new Uint8Array(await Bun.file(spec.path).arrayBuffer());
      const ttf = spec.format === "woff" ? woffToTtf(bytes) : bytes;
      const hb = await harfbuzz();
      const face = new hb.Face(new hb.Blob(ttf.slice().buffer));
      return {
        family: spec.family,
        ttf,
        hb,
        font: new hb.Font(face),
        upem: face.upem,
        covers: new Set(face.collectUnicodes()),
      };
    })();
    loaded.set(spec.family, font);
  }
  return font;
}

/** Every font of the chain (the check for characters no font has needs them all). */
export function loadAllScriptFonts(): Promise<TScriptFont[]> {
  return Promise.all(FONT_CHAIN.map(loadScriptFont));
}
