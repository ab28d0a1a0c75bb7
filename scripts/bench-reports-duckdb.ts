// npm run bench:reports-duckdb [-- --lines 100000,1000000] [--data-dir DIR] [--runs 3] [--phone-runs 2] [--no-phone]
// Option (b) for the reports: the viewer bound to Perspective's DuckDB virtual server, DuckDB-WASM in
// the browser fed the same Arrow stream as the /reports screen. Not part of the app: the page
// (bench-reports-duckdb-page.ts) is bundled into a temporary directory and served by this script's own
// server on 127.0.0.1, which proxies /api/* to a real product server so the data is same-origin.
// Static files go out precompressed as the app's own build does (brotli, else gzip); the Arrow
// stream goes out as the product sends it (uncompressed).
// Figures from navigation: DuckDB ready, data received, table loaded, first pivot (destination ×
// status, sum of the USD value) rendered, re-pivot, bytes downloaded, JS heap and DuckDB's memory; at
// the smallest size also under a phone's CPU (4× slower) on slow 4G, next to option (a), the product's
// own /reports screen, under the same conditions. --data-dir keeps the seeded workspaces between runs.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import {
  ensureClientBuild,
  freePort,
  markFirstPivotPainted,
  ROOT,
  resolveChromium,
  seedReportWorkspace,
  startServer,
  timeRepivots,
} from "./lib";
import { precompressFolder } from "./precompress";

const TARGETS: Record<number, { render: number; repivot: number }> = {
  100000: { render: 1.5, repivot: 0.3 },
  1000000: { render: 4, repivot: 0.8 },
};
/** "Slow 4G" as Chrome's tools define it: 1.6 Mbps down, 750 kbps up, 150 ms round trip. */
const SLOW_4G = { latency: 150, downloadThroughput: (1.6 * 1e6) / 8, uploadThroughput: (0.75 * 1e6) / 8 };
const PHONE_CPU = 4;

export type TConditions = { cpu?: number; network?: typeof SLOW_4G };
export type TRunFigures = {
  marks: Record<string, number>;
  firstPivot: number;
  repivots: number[];
  bytes: number;
  jsHeapMb: number;
  duckdbMb: number;
  grandTotal: number;
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString("en-US")} KB`;
const s = (seconds: number) => `${seconds.toFixed(2)} s`;

/** The browser tests' Chromium (a system one, or the one npm install brings), headless. */
async function launchChromium(): Promise<Browser> {
  const found = await resolveChromium();
  if ("error" in found) throw new Error(found.error);
  Object.assign(process.env, found.env);
  return chromium.launch({ executablePath: found.executablePath, args: LAUNCH_ARGS });
}

const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
];

/** Bundles the page and copies the WASM and worker files it loads; returns the directory. */
async function buildPage(): Promise<string> {
  const outdir = mkdtempSync(path.join(tmpdir(), "tradewinds-bench-duckdb-page-"));
  const built = await Bun.build({
    entrypoints: [path.join(import.meta.dir, "bench-reports-duckdb-page.ts")],
    outdir,
    target: "browser",
    format: "esm",
    splitting: false,
    minify: true,
    naming: "[name].[ext]",
  });
  if (!built.success) throw new Error(`page build: ${built.logs.join("\n")}`);
  const duck = path.join(ROOT, "node_modules", "@duckdb", "duckdb-wasm", "dist");
  // Only the exception-handling build: current Chromium selects it (the page records which it used).
  for (const f of ["duckdb-eh.wasm", "duckdb-browser-eh.worker.js"])
    copyFileSync(path.join(duck, f), path.join(outdir, f));
  copyFileSync(
    path.join(ROOT, "node_modules", "@perspective-dev", "viewer", "dist", "wasm", "perspective-viewer.wasm"),
    path.join(outdir, "perspective-viewer.wasm"),
  );
  const css = readdirSync(outdir).filter((f) => f.endsWith(".css"));
  writeFileSync(
    path.join(outdir, "index.html"),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reports on DuckDB-WASM</title>
${css.map((f) => `<link rel="stylesheet" href="/${f}">`).join("\n")}
<style>html,body{margin:0;height:100%}perspective-viewer{position:absolute;inset:0}</style>
<script type="module" src="/bench-reports-duckdb-page.js"></script></head>
<body><perspective-viewer theme="Pro Light"></perspective-viewer></body></html>`,
  );
  // Precompressed copies by the app's own build rule (brotli 11, or 5 above 4 MB; gzip 9).
  precompressFolder(outdir);
  return outdir;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
};

/** The page's own server on 127.0.0.1: the bundle (brotli or gzip when accepted), /api/* proxied. */
function servePage(outdir: string, productUrl: string) {
  const port = freePort();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    // A slow network takes longer than Bun's default 10 s to carry every line.
    idleTimeout: 255,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname.startsWith("/api/")) {
        const headers = new Headers(req.headers);
        headers.delete("host");
        const res = await fetch(`${productUrl}${url.pathname}${url.search}`, {
          headers,
          decompress: false,
        });
        return new Response(res.body, { status: res.status, headers: res.headers });
      }
      const name = url.pathname === "/" ? "index.html" : path.basename(url.pathname);
      const file = path.join(outdir, name);
      const type = TYPES[path.extname(name)];
      if (!type || !(await Bun.file(file).exists())) return new Response("Not found", { status: 404 });
      const accepts = req.headers.get("accept-encoding") ?? "";
      const encoding =
        accepts.includes("br") && (await Bun.file(`${file}.br`).exists())
          ? "br"
          : accepts.includes("gzip") && (await Bun.file(`${file}.gz`).exists())
            ? "gzip"
            : null;
      const body = Bun.file(encoding ? `${file}.${encoding === "br" ? "br" : "gz"}` : file);
      return new Response(body, {
        headers: {
          "content-type": type,
          "cache-control": "no-store",
          ...(encoding ? { "content-encoding": encoding } : {}),
        },
      });
    },
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => server.stop(true) };
}

/** A fresh browser context signed in at `url`, with CPU and network conditions applied to its page. */
async function openPage(
  browser: Browser,
  url: string,
  token: string,
  conditions: TConditions,
): Promise<{ context: BrowserContext; page: Page; bytesUntil: (time: number) => Promise<number> }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "en-US" });
  await context.addCookies([{ name: "twsession", value: token, url }]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (conditions.cpu) await cdp.send("Emulation.setCPUThrottlingRate", { rate: conditions.cpu });
  if (conditions.network) {
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, ...conditions.network });
  }
  // Every response's bytes on the wire (compressed body + headers), the workers' fetches included,
  // by when it finished (ms since the epoch).
  const finished: Promise<{ at: number; bytes: number }>[] = [];
  page.on("requestfinished", (request) => {
    const at = Date.now();
    finished.push(
      request
        .sizes()
        .then((z) => {
          const bytes = z.responseBodySize + z.responseHeadersSize;
          if (process.env.BENCH_BYTES) console.log(`    ${request.url()}: ${kb(bytes)}`);
          return { at, bytes };
        })
        .catch(() => ({ at, bytes: 0 })),
    );
  });
  const bytesUntil = async (time: number) =>
    (await Promise.all(finished)).filter((f) => f.at <= time).reduce((n, f) => n + f.bytes, 0);
  return { context, page, bytesUntil };
}

/** Re-pivots twice as a user would (carrier × status, then month × status): seconds until painted. */
function repivot(page: Page): Promise<number[]> {
  return timeRepivots(
    page,
    [
      { group_by: ["Carrier"], split_by: ["Status"], columns: ["Extended value (USD)"] },
      { group_by: ["Ship month"], split_by: ["Status"], columns: ["Extended value (USD)"] },
    ],
    true,
  );
}

/**
 * Option (b) once per run: opens the DuckDB page at `pageUrl` (its /api/* reaching the product), waits
 * for the first pivot, reads the figures, then re-pivots (carrier × status, then month × status).
 */
export async function measureDuckdbWasm(opts: {
  pageUrl: string;
  token: string;
  lines: number;
  browser?: Browser;
  runs?: number;
  conditions?: TConditions;
}): Promise<TRunFigures[]> {
  const browser = opts.browser ?? (await launchChromium());
  const figures: TRunFigures[] = [];
  try {
    for (let run = 0; run < (opts.runs ?? 3); run++) {
      const { context, page, bytesUntil } = await openPage(
        browser,
        opts.pageUrl,
        opts.token,
        opts.conditions ?? {},
      );
      const cdp = await context.newCDPSession(page);
      await cdp.send("Performance.enable");
      await page.goto(opts.pageUrl, { waitUntil: "commit" });
      await page.waitForSelector("perspective-viewer[data-first-pivot], html[data-error]", {
        timeout: 300_000,
        state: "attached",
      });
      const seenAt = Date.now();
      const error = await page.evaluate(() => document.documentElement.dataset.error);
      if (error) throw new Error(`The DuckDB page failed: ${error}`);
      const { marks, grandTotal, duckdbBytes } = await page.evaluate(async () => {
        const marks: Record<string, number> = Object.fromEntries(
          performance
            .getEntriesByType("mark")
            .filter((m) => m.name.startsWith("duckdb:"))
            .map((m) => [m.name.slice("duckdb:".length), m.startTime / 1000]),
        );
        const viewer = document.querySelector("perspective-viewer") as unknown as {
          getView(): Promise<{ to_json(w: unknown): Promise<Record<string, unknown>[]> }>;
        };
        // The pivot's first row is the grand total, one cell per status.
        const [total] = await (await viewer.getView()).to_json({ start_row: 0, end_row: 1 });
        const grandTotal = Object.entries(total)
          .filter(([k, v]) => k.endsWith("|Extended value (USD)") && typeof v === "number")
          .reduce((n, [, v]) => n + (v as number), 0);
        const conn = (
          window as unknown as { duckdbConn: { query(sql: string): Promise<{ toArray(): unknown[] }> } }
        ).duckdbConn;
        const [memory] = (await conn
          .query("select sum(memory_usage_bytes)::double as bytes from duckdb_memory()")
          .then((r) => r.toArray())) as { bytes: number }[];
        return { marks, grandTotal, duckdbBytes: Number(memory?.bytes ?? 0) };
      });
      const metrics = (await cdp.send("Performance.getMetrics")).metrics;
      const jsHeap = metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0;
      const repivots = await repivot(page);
      figures.push({
        marks,
        firstPivot: marks["first-pivot-painted"],
        repivots,
        bytes: await bytesUntil(seenAt),
        jsHeapMb: jsHeap / 1024 / 1024,
        duckdbMb: duckdbBytes / 1024 / 1024,
        grandTotal,
      });
      await context.close();
    }
  } finally {
    if (!opts.browser) await browser.close();
  }
  return figures;
}

/** Option (a), the product's /reports screen opened by link on the first pivot, under `conditions`. */
export async function measureProductReports(opts: {
  productUrl: string;
  token: string;
  browser: Browser;
  runs?: number;
  conditions?: TConditions;
}): Promise<{ firstPivot: number; repivots: number[]; bytes: number; jsHeapMb: number }[]> {
  const byLink = "/reports?group_by=Destination%20country&split_by=Status&columns=Extended%20value%20(USD)";
  const figures: { firstPivot: number; repivots: number[]; bytes: number; jsHeapMb: number }[] = [];
  for (let run = 0; run < (opts.runs ?? 3); run++) {
    const { context, page, bytesUntil } = await openPage(
      opts.browser,
      opts.productUrl,
      opts.token,
      opts.conditions ?? {},
    );
    await markFirstPivotPainted(context);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await page.goto(`${opts.productUrl}${byLink}`, { waitUntil: "commit" });
    await page.waitForSelector("[data-testid=reports-viewer][data-first-pivot]", { timeout: 300_000 });
    const seenAt = Date.now();
    const firstPivot = await page.evaluate(async () => {
      await new Promise(requestAnimationFrame);
      return (window as unknown as { firstPivotPainted: number }).firstPivotPainted / 1000;
    });
    const bytes = await bytesUntil(seenAt);
    const metrics = (await cdp.send("Performance.getMetrics")).metrics;
    await page.waitForSelector("[data-testid=reports-viewer][data-lines]", { timeout: 300_000 });
    const repivots = await repivot(page);
    figures.push({
      firstPivot,
      repivots,
      bytes,
      jsHeapMb: (metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0) / 1024 / 1024,
    });
    await context.close();
  }
  return figures;
}

/** The USD value's total over the workspace's non-template lines, by SQL: each line half up at its rate. */
async function sqlTotalUsd(dataDir: string, workspaceId: number): Promise<number> {
  const { Database } = await import("bun:sqlite");
  const db = new Database(path.join(dataDir, "app.db"), { readonly: true });
  try {
    const row = db
      .query(
        `select sum(case when c.code is null or c.code = 'USD' then i.extended_value
           else (i.extended_value * cast(round(cast(s.usd_exchange_rate as real) * 10000000000) as integer)
             + 5000000000) / 10000000000 end) as cents
         from shipment_items i join shipments s on s.id = i.shipment_id
         left join currencies c on c.id = s.currency_id
         where s.workspace_id = ? and s.shipping_status_id <> 1`,
      )
      .get(workspaceId) as { cents: number };
    return row.cents / 100;
  } finally {
    db.close();
  }
}

function summarise(label: string, runs: TRunFigures[], target?: { render: number; repivot: number }) {
  const mark = (value: number, limit?: number) => (limit === undefined ? "" : value <= limit ? " ✓" : " ✗");
  const phase = (name: string) => s(median(runs.map((r) => r.marks[name] ?? Number.NaN)));
  const first = median(runs.map((r) => r.firstPivot));
  const repivots = runs.flatMap((r) => r.repivots);
  const repivot = median(repivots);
  console.log(`  ${label}`);
  console.log(
    `    first pivot rendered from navigation: median ${s(first)} of ${runs.map((r) => r.firstPivot.toFixed(2)).join(", ")}${target ? ` (target < ${target.render} s)${mark(first, target.render)}` : ""}`,
  );
  console.log(
    `    from navigation (median): viewer WASM ready ${phase("viewer-wasm-ready")}, DuckDB ready ${phase("duckdb-ready")}, data received ${phase("data-received")}, table loaded ${phase("table-loaded")}, first pivot ${phase("first-pivot")}, painted ${phase("first-pivot-painted")}`,
  );
  console.log(
    `    re-pivot (carrier × status, month × status): median ${s(repivot)} of ${repivots.map((t) => t.toFixed(2)).join(", ")}${target ? ` (target < ${target.repivot} s)${mark(repivot, target.repivot)}` : ""}`,
  );
  console.log(
    `    downloaded before the first pivot: median ${kb(median(runs.map((r) => r.bytes)))}; JS heap ${median(runs.map((r) => r.jsHeapMb)).toFixed(0)} MB, DuckDB memory ${median(runs.map((r) => r.duckdbMb)).toFixed(0)} MB`,
  );
  return { first, repivot, bytes: median(runs.map((r) => r.bytes)) };
}

if (import.meta.main) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const sizes = (arg("lines") ?? "100000,1000000").split(",").map(Number);
  const runs = Number(arg("runs") ?? 3);
  // A run on slow 4G downloads for a minute or more: fewer of them by default.
  const phoneRuns = Number(arg("phone-runs") ?? 2);
  const withPhone = !process.argv.includes("--no-phone");
  const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

  await ensureClientBuild();
  const outdir = await buildPage();
  console.log("Sizes the DuckDB page downloads (raw / gzip / brotli)");
  for (const f of readdirSync(outdir).filter((f) => !/\.(gz|br)$/.test(f))) {
    const size = (name: string) =>
      existsSync(path.join(outdir, name)) ? kb(readFileSync(path.join(outdir, name)).byteLength) : "–";
    const gzip = kb(Bun.gzipSync(new Uint8Array(readFileSync(path.join(outdir, f)))).byteLength);
    console.log(`  ${f}: ${size(f)} / ${gzip} / ${size(`${f}.br`)} (brotli as served)`);
  }
  const keptDir = arg("data-dir");
  const dataDir = keptDir
    ? path.resolve(keptDir)
    : mkdtempSync(path.join(tmpdir(), "tradewinds-bench-duckdb-"));
  if (keptDir) mkdirSync(dataDir, { recursive: true });
  const browser = await launchChromium();
  const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
  const page = servePage(outdir, server.url);
  const table: string[] = [];
  try {
    for (const lines of sizes) {
      const { token, workspaceId, total, seeded } = await seedReportWorkspace(
        server.url,
        dataDir,
        lines,
        !!keptDir,
      );
      console.log(`\n${total.toLocaleString("en-US")} lines (${seeded}); load average ${load()}`);
      const desk = await measureDuckdbWasm({ pageUrl: page.url, token, lines, browser, runs });
      const sqlTotal = await sqlTotalUsd(dataDir, workspaceId);
      const pivotTotal = desk[0].grandTotal;
      console.log(
        `  grand total: pivot ${pivotTotal.toFixed(2)}, SQL ${sqlTotal.toFixed(2)} ${Math.abs(pivotTotal - sqlTotal) < 0.005 ? "✓ equal" : "✗ DIFFERENT"}`,
      );
      const d = summarise("(b) DuckDB-WASM, desktop (1440×900, no throttling)", desk, TARGETS[lines]);
      table.push(
        `| ${total.toLocaleString("en-US")} | (b) desktop | ${s(d.first)} | ${s(d.repivot)} | ${kb(d.bytes)} |`,
      );
      console.log(`  load average after: ${load()}`);
      if (!withPhone || lines !== Math.min(...sizes)) continue;
      const phone = { cpu: PHONE_CPU, network: SLOW_4G };
      const b = summarise(
        "(b) DuckDB-WASM, phone CPU (4× slower) on slow 4G (1.6 Mbps, 150 ms)",
        await measureDuckdbWasm({
          pageUrl: page.url,
          token,
          lines,
          browser,
          runs: phoneRuns,
          conditions: phone,
        }),
      );
      table.push(
        `| ${total.toLocaleString("en-US")} | (b) phone, slow 4G | ${s(b.first)} | ${s(b.repivot)} | ${kb(b.bytes)} |`,
      );
      const a = await measureProductReports({
        productUrl: server.url,
        token,
        browser,
        runs: phoneRuns,
        conditions: phone,
      });
      const aFirst = median(a.map((r) => r.firstPivot));
      const aRepivots = a.flatMap((r) => r.repivots);
      console.log("  (a) the product's /reports (Perspective's own engine), phone CPU on slow 4G");
      console.log(
        `    first pivot rendered from navigation: median ${s(aFirst)} of ${a.map((r) => r.firstPivot.toFixed(2)).join(", ")}; re-pivot median ${s(median(aRepivots))} of ${aRepivots.map((t) => t.toFixed(2)).join(", ")}`,
      );
      console.log(
        `    downloaded before the first pivot: median ${kb(median(a.map((r) => r.bytes)))}; JS heap ${median(a.map((r) => r.jsHeapMb)).toFixed(0)} MB`,
      );
      table.push(
        `| ${total.toLocaleString("en-US")} | (a) phone, slow 4G | ${s(aFirst)} | ${s(median(aRepivots))} | ${kb(median(a.map((r) => r.bytes)))} |`,
      );
      console.log(`  load average after: ${load()}`);
    }
  } finally {
    await browser.close();
    page.stop();
    await server.stop();
    rmSync(outdir, { recursive: true, force: true });
    if (!keptDir) rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    "\n| Lines | Option, conditions | First pivot (median) | Re-pivot (median) | Downloaded before first pivot |",
  );
  console.log("|---|---|---|---|---|");
  for (const row of table) console.log(row);
  console.log("\nShared 2-core machine: treat these as ranges, not promises.");
}
