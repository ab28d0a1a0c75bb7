// The Noto fonts the paperwork embeds. `with { type: "file" }` gives a path on disk when running from
// source and a path inside the executable after `bun build --compile`, which embeds the file byte
// for byte; the client bundle never imports this module, so the fonts stay out of the browser build.

import notoSansRegular from "@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf" with {
  type: "file",
};
import notoSansBold from "@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf" with { type: "file" };
import notoSansScRegular from "@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf" with {
  type: "file",
};
import { parsedFontToken } from "./font-cache";

/** A font as a document registers it: a VFS file name and the (token) content to store there. */
export type TFontData = { file: string; data: string };

export type TPaperFonts = { regular: TFontData; bold: TFontData };

let latin: Promise<TPaperFonts> | null = null;
let cjk: Promise<TFontData> | null = null;

async function loadFont(path: string, file: string): Promise<TFontData> {
  const bytes = new Uint8Array(await Bun.file(path).arrayBuffer());
  return { file, data: parsedFontToken(file, bytes) };
}

/** Noto Sans regular + bold (Latin, Greek, Cyrillic), read and parsed once per process. */
export function loadLatinFonts(): Promise<TPaperFonts> {
  latin ??= Promise.all([
    loadFont(notoSansRegular, "NotoSans-Regular.ttf"),
    loadFont(notoSansBold, "NotoSans-Bold.ttf"),
  ]).then(([regular, bold]) => ({ regular, bold }));
  return latin;
}

/** Noto Sans SC (10 MB), read once and only when a document holds Chinese, Japanese or Korean text. */
export function loadCjkFont(): Promise<TFontData> {
  cjk ??= loadFont(notoSansScRegular, "NotoSansSC-Regular.ttf");
  return cjk;
}
