import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { inflateStage0 } from "./perspective-wasm";

const PACKED = path.resolve(
  import.meta.dir,
  "..",
  "node_modules/@perspective-dev/server/dist/wasm/perspective-server.wasm",
);

test("Perspective's packed engine inflates at build time into the module its worker instantiates", async () => {
  const packed = new Uint8Array(readFileSync(PACKED));
  const inflated = await inflateStage0(packed);
  expect(inflated.byteLength).toBeGreaterThan(packed.byteLength);
  const module = await WebAssembly.compile(inflated);
  // What Perspective's worker calls on the instance (perspective.js, its worker source).
  const exports = WebAssembly.Module.exports(module).map((e) => e.name);
  for (const name of ["psp_new_server", "psp_new_session", "psp_handle_request", "psp_poll", "psp_alloc"]) {
    expect(exports).toContain(name);
  }
  // Not a stage-0 module any more: nothing left to inflate in the browser.
  expect(WebAssembly.Module.customSections(module, "psp-runtime")).toEqual([]);
}, 120_000);

test("a module that is not Perspective's stage 0 is refused with a clear message", async () => {
  // The smallest valid WASM module: magic number and version, no sections.
  const empty = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
  await expect(inflateStage0(empty)).rejects.toThrow("Not a Perspective stage-0 WASM module");
});
