// The only module that imports Perspective. The reports screen loads it with import() inside an
// effect, so Vite puts it (and its CSS and WASM) in chunks of their own that no other screen and no
// server render ever loads. The WASM files are served by the app itself (Vite `?url` assets).
import perspective from "@perspective-dev/client";
import perspectiveViewer from "@perspective-dev/viewer";
import "@perspective-dev/viewer-datagrid";
// Only the light theme the screen uses, with its icons and labels (themes.css carries all eighteen).
import "@perspective-dev/viewer/dist/css/pro.css";
import "./perspective-theme.css";
// The viewer's WASM glue as a module of this chunk: without it, the viewer imports its own copy from a
// blob: URL, which the app's script-src (no blob:) rightly refuses.
import * as viewerGlue from "@perspective-dev/viewer/dist/wasm/perspective-viewer.js";
import clientWasm from "@perspective-dev/viewer/dist/wasm/perspective-viewer.wasm?url";
// Perspective's engine, inflated at build time (scripts/perspective-wasm.ts): no stage-0 inflation
// on the page's main thread.
import serverWasm from "./generated/perspective-server.wasm?url";

type TClient = Awaited<ReturnType<typeof perspective.worker>>;

let client: Promise<TClient> | null = null;
let viewerReady: Promise<void> | null = null;

/**
 * Perspective's engine as a compiled WebAssembly module, compiled while it downloads. A response
 * that cannot be compiled as a stream (not served as application/wasm) is compiled from its bytes.
 */
async function compileEngine(url: string): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Perspective's engine did not load (${response.status})`);
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("application/wasm") && typeof WebAssembly.compileStreaming === "function") {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * The viewer's first render builds two Intl.NumberFormat for the browser's languages. The first one
 * in a page loads the locale's number data: measured 90–170 ms on the main thread then, inside the
 * first pivot's render. Built here, while the worker starts and the data downloads (the main thread
 * waits), it costs ~20 ms and the viewer's own take 0.1 ms.
 */
function warmNumberFormats(): void {
  try {
    const languages = [...navigator.languages];
    new Intl.NumberFormat(languages, {}).format(1);
    new Intl.NumberFormat(languages, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(1);
  } catch {
    // Only a head start: the viewer builds its own.
  }
}

/** The viewer's WebAssembly (which is also the protocol client's), once per page. */
function startViewer(): Promise<void> {
  viewerReady ??= perspectiveViewer.init_client(fetch(clientWasm), viewerGlue).then(() => {
    performance.mark("reports:viewer-wasm-ready");
  });
  viewerReady.catch(() => {
    viewerReady = null;
  });
  return viewerReady;
}

/**
 * A client of the server's pivot (/api/reports/pivot): only the viewer's WebAssembly loads, no
 * engine and no lines; the server answers each view with the cells on screen. A new client is a new
 * connection, which sees the workspace's lines as they are now.
 */
export async function pivotSocketClient(): Promise<TClient> {
  await startViewer();
  warmNumberFormats();
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  return perspective.websocket(`${scheme}://${window.location.host}/api/reports/pivot`);
}

/** Starts Perspective once per page: both WASM modules, then its worker (which holds the tables). */
export function perspectiveClient(): Promise<TClient> {
  client ??= (async () => {
    // `true`: the engine itself, not Perspective's packed stage-0 module. Compiled here while it
    // downloads (streaming compilation, which also lets Chromium cache the compiled code), and handed
    // to Perspective's worker as a compiled module: it only instantiates it.
    perspective.init_server(
      compileEngine(serverWasm).finally(() => performance.mark("reports:engine-compiled")),
      { disable_stage_0: true },
    );
    await startViewer();
    const worker = perspective.worker();
    warmNumberFormats();
    return worker;
  })();
  client.catch(() => {
    client = null;
  });
  return client;
}

// The server render of /reports runs this chunk as soon as it arrives (React's preinitModule): start
// Perspective then, alongside the app's own code, which takes this start over (perspectiveClient).
// A workspace that pivots on the server (the screen says so on its container) needs no engine.
if (typeof window !== "undefined" && window.location.pathname === "/reports") {
  if (document.querySelector('[data-pivot="server"]')) void startViewer().catch(() => undefined);
  else void perspectiveClient().catch(() => undefined);
}
