// The page bench-reports-duckdb.ts serves (bundled with Bun.build, never part of the app): the reports
// viewer bound to Perspective's DuckDB virtual server, DuckDB-WASM in the browser holding every line of
// the same Arrow stream the /reports screen loads. Marks (duckdb:*) say when each phase ended; the
// viewer's container gets data-first-pivot once the first pivot is rendered.
import * as duckdb from "@duckdb/duckdb-wasm";
import perspective from "@perspective-dev/client";
import { DuckDBHandler } from "@perspective-dev/client/dist/esm/virtual_servers/duckdb.js";
import perspectiveViewer from "@perspective-dev/viewer";
import "@perspective-dev/viewer-datagrid";
import "@perspective-dev/viewer/dist/css/pro.css";
import * as viewerGlue from "@perspective-dev/viewer/dist/wasm/perspective-viewer.js";

type TViewer = HTMLElement & {
  load(client: unknown): Promise<void>;
  restore(config: unknown): Promise<void>;
  flush(): Promise<void>;
};

const mark = (name: string) => performance.mark(`duckdb:${name}`);

/** The target's first view: destination × status, sum of the USD value. */
const FIRST_PIVOT = {
  table: "memory.lines",
  group_by: ["Destination country"],
  split_by: ["Status"],
  columns: ["Extended value (USD)"],
  aggregates: { "Extended value (USD)": "sum" },
};

async function start(): Promise<void> {
  // The viewer's WASM, DuckDB's WASM and every line download at once.
  const viewerReady = perspectiveViewer
    .init_client(fetch("/perspective-viewer.wasm"), viewerGlue)
    .then(() => mark("viewer-wasm-ready"));
  const data = fetch("/api/reports-data?format=arrow&names=labels").then(async (response) => {
    if (!response.ok) throw new Error(`reports-data: ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    mark("data-received");
    return bytes;
  });
  const bundle = await duckdb.selectBundle({
    mvp: { mainModule: "/duckdb-mvp.wasm", mainWorker: "/duckdb-browser-mvp.worker.js" },
    eh: { mainModule: "/duckdb-eh.wasm", mainWorker: "/duckdb-browser-eh.worker.js" },
  });
  document.documentElement.dataset.duckdbBundle = bundle.mainModule;
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), new Worker(bundle.mainWorker!));
  await db.instantiate(bundle.mainModule);
  const conn = await db.connect();
  (window as unknown as { duckdbConn: unknown }).duckdbConn = conn;
  mark("duckdb-ready");
  await conn.insertArrowFromIPCStream(await data, { name: "lines", create: true });
  mark("table-loaded");
  await viewerReady;
  // worker() hands an engine binary to whatever answers the port; the virtual server needs none.
  perspective.init_server(new ArrayBuffer(0), { disable_stage_0: true });
  const port = perspective.createMessageHandler(new DuckDBHandler(conn));
  const client = await perspective.worker(port);
  const viewer = document.querySelector("perspective-viewer") as TViewer;
  await viewer.load(client);
  await viewer.restore(FIRST_PIVOT);
  await viewer.flush();
  mark("first-pivot");
  requestAnimationFrame(() => {
    mark("first-pivot-painted");
    viewer.dataset.firstPivot = "";
  });
}

start().catch((error: unknown) => {
  document.documentElement.dataset.error = String(error instanceof Error ? error.stack : error);
});
