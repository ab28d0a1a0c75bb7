// Writes brotli and gzip copies next to each compressible built file, so the server (and the
// binary, which embeds dist/client as is) sends them without compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|txt|wasm|map|ttf)$/;
/** Below this size the headers cost more than compression saves. */
const MIN_BYTES = 1024;
/**
 * Above this size brotli's top quality is too slow for a build (Perspective's 10.8 MB engine: ~4 min
 * at quality 11 on a busy 2-core machine, 4 s at quality 5 for 1.76 MB instead of 1.46 MB).
 */
const LARGE_BYTES = 4 * 1024 * 1024;

/** Compresses every eligible file below `dir`; returns how many files got variants. */
export function precompressFolder(dir: string): number {
  let count = 0;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      if (name !== ".vite") count += precompressFolder(file);
      continue;
    }
    if (!COMPRESSIBLE.test(name) || statSync(file).size < MIN_BYTES) continue;
    const raw = readFileSync(file);
    const br = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: raw.length > LARGE_BYTES ? 5 : 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    const gz = gzipSync(raw, { level: 9 });
    // Already-compressed data (WASM often is) gains nothing: keep only variants that save ≥ 5%.
    if (br.length < raw.length * 0.95) writeFileSync(`${file}.br`, br);
    if (gz.length < raw.length * 0.95) writeFileSync(`${file}.gz`, gz);
    count++;
  }
  return count;
}
