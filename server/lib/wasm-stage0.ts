// Perspective ships its WebAssembly as a small "stage 0" module carrying the real one compressed in a
// custom section; this inflates it with that module's own code, as Perspective's loader does. The
// build inflates the engine for the browser (scripts/perspective-wasm.ts); the pivot worker inflates
// the protocol client it answers the viewer with (server/features/reports/pivot).

type TStage0 = {
  memory: WebAssembly.Memory;
  resize(length: number): number;
  compile(length: number, inflatedLength: number): number;
};

/** The module inside a stage-0 module, inflated by that module's own code (as Perspective's loader does). */
export async function inflateStage0(packed: Uint8Array): Promise<Uint8Array> {
  const { instance, module } = await WebAssembly.instantiate(packed);
  const exports = instance.exports as unknown as TStage0;
  const [runtime] = WebAssembly.Module.customSections(module, "psp-runtime");
  const [lengthSection] = WebAssembly.Module.customSections(module, "psp-len");
  if (!runtime || !lengthSection) throw new Error("Not a Perspective stage-0 WASM module");
  const inflatedLength = new DataView(lengthSection).getUint32(0, true);
  const input = exports.resize(runtime.byteLength);
  new Uint8Array(exports.memory.buffer).set(new Uint8Array(runtime), input);
  const output = exports.compile(runtime.byteLength, inflatedLength);
  return new Uint8Array(exports.memory.buffer).slice(output, output + inflatedLength);
}
