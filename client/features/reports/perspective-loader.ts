// The only module that imports Perspective. The reports screen loads it with import() inside an
// effect, so Vite puts it (and its CSS and WASM) in chunks of their own that no other screen and no
// server render ever loads. The WASM files are served by the app itself (Vite `?url` assets).
import perspective from "@finos/perspective";
import serverWasm from "@finos/perspective/dist/wasm/perspective-server.wasm?url";
import perspectiveViewer from "@finos/perspective-viewer";
import "@finos/perspective-viewer-datagrid";
import "@finos/perspective-viewer-d3fc";
import "@finos/perspective-viewer/dist/css/themes.css";
import clientWasm from "@finos/perspective-viewer/dist/wasm/perspective-viewer.wasm?url";

type TClient = Awaited<ReturnType<typeof perspective.worker>>;

let client: Promise<TClient> | null = null;

/** Starts Perspective once per page: both WASM modules, then its worker (which holds the tables). */
export function perspectiveClient(): Promise<TClient> {
  client ??= (async () => {
    perspective.init_server(fetch(serverWasm));
    await perspectiveViewer.init_client(fetch(clientWasm));
    performance.mark("reports:viewer-wasm-ready");
    return perspective.worker();
  })();
  client.catch(() => {
    client = null;
  });
  return client;
}
