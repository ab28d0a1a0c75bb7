// The only module that imports Perspective. The reports screen loads it with import() inside an
// effect, so Vite puts it (and its CSS and WASM) in chunks of their own that no other screen and no
// server render ever loads. The WASM files are served by the app itself (Vite `?url` assets).
import perspective from "@finos/perspective";
import perspectiveViewer from "@finos/perspective-viewer";
import "@finos/perspective-viewer-datagrid";
import "@finos/perspective-viewer-d3fc";
import "@finos/perspective-viewer/dist/css/themes.css";
import clientWasm from "@finos/perspective-viewer/dist/wasm/perspective-viewer.wasm?url";
// Perspective's engine, inflated at build time (scripts/perspective-wasm.ts): no stage-0 inflation
// on the page's main thread.
import serverWasm from "./generated/perspective-server.wasm?url";

type TClient = Awaited<ReturnType<typeof perspective.worker>>;

let client: Promise<TClient> | null = null;

/** Starts Perspective once per page: both WASM modules, then its worker (which holds the tables). */
export function perspectiveClient(): Promise<TClient> {
  client ??= (async () => {
    // `true`: the bytes are the engine itself, not Perspective's packed stage-0 module.
    perspective.init_server(
      fetch(serverWasm).then((response) => {
        if (!response.ok) throw new Error(`Perspective's engine did not load (${response.status})`);
        return response.arrayBuffer();
      }),
      true,
    );
    await perspectiveViewer.init_client(fetch(clientWasm));
    performance.mark("reports:viewer-wasm-ready");
    return perspective.worker();
  })();
  client.catch(() => {
    client = null;
  });
  return client;
}
