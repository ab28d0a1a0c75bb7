// What the reports screen uses of @perspective-dev/viewer, mapped in by tsconfig "paths". The
// package's own types augment the global Document (querySelector returns a bare Element), which
// would change the types of every other module in the program.
export function init_client(
  wasm: Promise<Response | ArrayBuffer | Uint8Array> | Response | ArrayBuffer | Uint8Array,
  glue?: unknown,
): Promise<void>;
declare const _default: { init_client: typeof init_client };
export default _default;
