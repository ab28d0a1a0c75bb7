// jsPDF compresses every stream (page contents, embedded font files) with fflate in JavaScript, after
// copying the binary string into bytes one char at a time and back again with a string-building
// reduce: for a 100-line invoice that was about a sixth of its CPU time. The runtime's native zlib
// gives the same kind of stream (RFC 1950 zlib, /FlateDecode, default level 6) in a fraction of it.
// jsPDF looks up `jsPDF.API.processDataByFilters` on every stream, so this wraps that one function;
// any other filter chain still goes to jsPDF's own code.
import { Buffer } from "node:buffer";
import { deflateSync } from "node:zlib";
import { jsPDF } from "jspdf";

type TProcessed = { data: string; reverseChain: string };
type TFilters = (data: string, filterChain?: string | string[]) => TProcessed;

let installed = false;

function isFlateOnly(chain: string | string[] | undefined): boolean {
  if (typeof chain === "string") return chain === "FlateEncode" || chain === "/FlateEncode";
  return Array.isArray(chain) && chain.length === 1 && isFlateOnly(chain[0]);
}

/** A PDF binary string (one byte per char) compressed to a zlib stream, again as a binary string. */
export function flateEncode(data: string): string {
  // "latin1" keeps each char's low byte, as jsPDF's own Uint8Array copy does.
  return deflateSync(Buffer.from(data, "latin1")).toString("latin1");
}

/** Routes jsPDF's FlateEncode through native zlib (idempotent). */
export function installNativeDeflate(): void {
  if (installed) return;
  installed = true;
  const api = jsPDF.API as unknown as { processDataByFilters: TFilters };
  const original = api.processDataByFilters;
  api.processDataByFilters = (data, filterChain) =>
    isFlateOnly(filterChain)
      ? { data: flateEncode(data || ""), reverseChain: "/FlateDecode" }
      : original(data, filterChain);
}
