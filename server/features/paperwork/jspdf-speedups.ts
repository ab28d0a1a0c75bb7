// Two costs of jsPDF that a document pays whatever it draws, replaced by equivalents:
// - Streams (page contents, embedded font files) are compressed with fflate in JavaScript, after
//   copying the binary string into bytes one char at a time and back again with a string-building
//   reduce: for a 100-line invoice that was about a sixth of its CPU time. Bun's native libdeflate
//   (level 6) framed as an RFC 1950 zlib stream, which /FlateDecode is, does it in a fraction of that,
//   and compresses a little tighter.
//   jsPDF looks up `jsPDF.API.processDataByFilters` on every stream, so this wraps that one function;
//   any other filter chain still goes to jsPDF's own code.
// - Every string drawn or measured goes through the Arabic shaper, char by char, even when it holds
//   no Arabic letter; then the shaper returns it unchanged. The shortcut answers exactly what the
//   shaper would for such text and hands anything else to the shaper itself.
import { Buffer } from "node:buffer";
import { jsPDF } from "jspdf";

type TProcessed = { data: string; reverseChain: string };
type TFilters = (data: string, filterChain?: string | string[]) => TProcessed;
type TTextPayload = { text: unknown };
type TArabic = (payload: string | TTextPayload) => string | TTextPayload;

let installed = false;

function isFlateOnly(chain: string | string[] | undefined): boolean {
  if (typeof chain === "string") return chain === "FlateEncode" || chain === "/FlateEncode";
  return Array.isArray(chain) && chain.length === 1 && isFlateOnly(chain[0]);
}

/** Adler-32 of the bytes (RFC 1950), the checksum that ends a zlib stream. */
function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  // Reduced every 5552 bytes, as zlib does (its NMAX), so the sums stay small integers.
  for (let start = 0; start < bytes.length; start += 5552) {
    const end = Math.min(start + 5552, bytes.length);
    for (let i = start; i < end; i++) {
      a += bytes[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** Bytes as a zlib stream (RFC 1950): header, raw DEFLATE from libdeflate, Adler-32. */
export function zlibStream(bytes: Uint8Array<ArrayBuffer>): Uint8Array {
  const deflated = Bun.deflateSync(bytes, { library: "libdeflate", level: 6 });
  const out = new Uint8Array(deflated.length + 6);
  // CMF 0x78: DEFLATE with a 32 KB window; FLG 0x9C: default level, (0x78 × 256 + 0x9C) % 31 === 0.
  out[0] = 0x78;
  out[1] = 0x9c;
  out.set(deflated, 2);
  new DataView(out.buffer).setUint32(out.length - 4, adler32(bytes));
  return out;
}

/** A PDF binary string (one byte per char) compressed to a zlib stream, again as a binary string. */
export function flateEncode(data: string): string {
  // "latin1" keeps each char's low byte, as jsPDF's own Uint8Array copy does.
  const bytes = Buffer.from(data, "latin1");
  return Buffer.from(zlibStream(bytes).buffer).toString("latin1");
}

// The letters jsPDF's shaper acts on (its isArabicLetter ranges). Its word split is on the literal
// text "\s+" (a bug of jsPDF's), which it would turn into a space: such text goes to the shaper too.
const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]|\\s\+/;

/** True when the shaper would return this string unchanged. */
function shaperLeavesAlone(text: unknown): text is string {
  return typeof text === "string" && !ARABIC.test(text);
}

/**
 * processArabic without the per-char pass for text that has nothing to shape; same result, same
 * shapes (an array of lines comes back as jsPDF's shaper returns it: each line wrapped in an array).
 */
export function arabicShortcut(original: TArabic): TArabic {
  return (payload) => {
    if (typeof payload === "string") return shaperLeavesAlone(payload) ? payload : original(payload);
    const text = payload.text;
    if (shaperLeavesAlone(text)) return payload;
    if (Array.isArray(text)) {
      const lines: unknown[] = [];
      for (const line of text) {
        if (shaperLeavesAlone(line)) lines.push([line]);
        else if (Array.isArray(line) && shaperLeavesAlone(line[0])) lines.push([line[0], line[1], line[2]]);
        else return original(payload);
      }
      payload.text = lines;
      return payload;
    }
    return original(payload);
  };
}

/** Installs both replacements on jsPDF (idempotent); documents created afterwards use them. */
export function installJsPdfSpeedups(): void {
  if (installed) return;
  installed = true;
  const api = jsPDF.API as unknown as {
    processDataByFilters: TFilters;
    processArabic?: TArabic;
    events: [string, unknown][];
  };
  const filters = api.processDataByFilters;
  api.processDataByFilters = (data, filterChain) =>
    isFlateOnly(filterChain)
      ? { data: flateEncode(data || ""), reverseChain: "/FlateDecode" }
      : filters(data, filterChain);
  const arabic = api.processArabic;
  if (arabic) {
    const shortcut = arabicShortcut(arabic);
    api.processArabic = shortcut;
    for (const event of api.events) {
      if (event[0] === "preProcessText" && event[1] === arabic) event[1] = shortcut;
    }
  }
}
