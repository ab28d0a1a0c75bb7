// WebAssembly files imported with `with { type: "file" }` resolve to a path (server only).
declare module "*.wasm" {
  const path: string;
  export default path;
}
