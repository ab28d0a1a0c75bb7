// Perspective ships its WASM as a small "stage 0" module that carries the real engine compressed in a
// custom section and inflates it in the browser, on the main thread, on every page load (~0.3-0.9 s
// of CPU for the 10.8 MB engine). The build inflates it once instead; the screen hands the inflated
// bytes to Perspective's worker with stage 0 switched off. Brotli/gzip copies (scripts/precompress.ts)
// keep the download the same size as the packed file.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { inflateStage0 } from "../server/lib/wasm-stage0.ts";

export { inflateStage0 };

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE = path.join(
  ROOT,
  "node_modules",
  "@perspective-dev",
  "server",
  "dist",
  "wasm",
  "perspective-server.wasm",
);
/** Git-ignored; imported with `?url` by client/features/reports/perspective-loader.ts. */
export const INFLATED_SERVER_WASM = path.join(
  ROOT,
  "client",
  "features",
  "reports",
  "generated",
  "perspective-server.wasm",
);

/** Writes the inflated engine next to the loader unless it is already newer than the package's file. */
export async function preparePerspectiveWasm(): Promise<void> {
  if (
    existsSync(INFLATED_SERVER_WASM) &&
    statSync(INFLATED_SERVER_WASM).mtimeMs >= statSync(SOURCE).mtimeMs
  ) {
    return;
  }
  const inflated = await inflateStage0(new Uint8Array(readFileSync(SOURCE)));
  await WebAssembly.compile(inflated); // fail the build, not the browser, if the bytes are not a module
  mkdirSync(path.dirname(INFLATED_SERVER_WASM), { recursive: true });
  writeFileSync(INFLATED_SERVER_WASM, inflated);
}
