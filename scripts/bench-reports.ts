// npm run bench:reports [-- --lines 100000,1000000] [--data-dir DIR]
// --data-dir keeps the database in DIR and reuses a workspace seeded there by an earlier run with the
// same size (seeding a million lines takes over a minute); without it, a temporary one is removed.
// The reports pivot on Perspective 5's own engine fed the Arrow stream: stream time and server memory
// growth, first pivot render in Chromium from navigation, re-pivot time, the bytes downloaded before the
// first pivot, the sizes the /reports screen loads, and /api/health while three users open the largest
// report at once. Figures go next to their
// targets. Everything runs against a real server on 127.0.0.1 with a temporary DATA_DIR.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import {
  ensureClientBuild,
  markFirstPivotPainted,
  ROOT,
  resolveChromium,
  seedReportWorkspace,
  startServer,
  timeRepivots,
} from "./lib";

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const sizes = (arg("lines") ?? "100000,1000000").split(",").map(Number);
const TARGETS: Record<number, { stream: number; render: number; repivot: number }> = {
  100000: { stream: 0.5, render: 1.5, repivot: 0.3 },
  1000000: { stream: 2, render: 4, repivot: 0.8 },
};
/** /api/health while three users open the largest report at once. */
const HEALTH_TARGET_S = 0.1;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const gz = (file: string) => Bun.gzipSync(new Uint8Array(readFileSync(file))).byteLength;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

await ensureClientBuild();

// Sizes: what /reports loads before Perspective (the entry and its static imports), then the lazy part.
type TManifest = Record<
  string,
  { file: string; css?: string[]; imports?: string[]; dynamicImports?: string[] }
>;
const dist = path.join(ROOT, "dist", "client");
const manifest = JSON.parse(readFileSync(path.join(dist, ".vite", "manifest.json"), "utf8")) as TManifest;
const staticJs = new Set<string>();
const visit = (key: string) => {
  const chunk = manifest[key];
  if (!chunk || staticJs.has(chunk.file)) return;
  staticJs.add(chunk.file);
  for (const imported of chunk.imports ?? []) visit(imported);
};
visit("client/entry-client.tsx");
const initialGzip = [...staticJs].reduce((n, f) => n + gz(path.join(dist, f)), 0);
const loaderKey = Object.keys(manifest).find((k) => k.endsWith("perspective-loader.ts"))!;
const loader = manifest[loaderKey];
const lazyJs = [loader.file, ...(loader.imports ?? []).map((k) => manifest[k].file)].filter(
  (f) => !staticJs.has(f),
);
const lazyJsGzip = lazyJs.reduce((n, f) => n + gz(path.join(dist, f)), 0);
const lazyCssGzip = (loader.css ?? []).reduce((n, f) => n + gz(path.join(dist, f)), 0);
const wasm = Object.values(manifest)
  .map((c) => c.file)
  .filter((f) => f.endsWith(".wasm"));
console.log("Sizes (gzip)");
console.log(
  `  initial JS of /reports before Perspective: ${kb(initialGzip)} (${[...staticJs].length} files)`,
);
console.log(`  Perspective chunk JS: ${kb(lazyJsGzip)}, its CSS: ${kb(lazyCssGzip)}`);
for (const f of wasm) {
  const raw = readFileSync(path.join(dist, f)).byteLength;
  console.log(`  ${path.basename(f)}: ${kb(gz(path.join(dist, f)))} gzip (${kb(raw)} raw)`);
}

const keptDir = arg("data-dir");
const dataDir = keptDir
  ? path.resolve(keptDir)
  : mkdtempSync(path.join(tmpdir(), "tradewinds-bench-reports-"));
if (keptDir) mkdirSync(dataDir, { recursive: true });
// (a) always pivots in the browser, whatever the size.
const server = await startServer({
  DATA_DIR: dataDir,
  LOG_LEVEL: "warn",
  REPORTS_SERVER_PIVOT_LINES: "1000000000",
});
// (c): the same database served by a second server that pivots every workspace itself (DuckDB in
// its pivot worker, the viewer over /api/reports/pivot).
const pivotServer = await startServer({
  DATA_DIR: dataDir,
  LOG_LEVEL: "warn",
  REPORTS_SERVER_PIVOT_LINES: "0",
});
const engines: TEngine[] = [
  {
    name: "(a) Perspective's own engine in the browser, Arrow stream of every line",
    url: server.url,
    pid: server.pid,
  },
  {
    name: "(c) server pivot: DuckDB in the Bun process, viewer over a WebSocket",
    url: pivotServer.url,
    pid: pivotServer.pid,
  },
];
// The Chromium the browser tests use (FORCE_SPARTICUZ=1: the one bundled from npm).
const resolved = await resolveChromium();
const executablePath = "error" in resolved ? null : resolved.executablePath;
const browser = executablePath
  ? await chromium.launch({
      executablePath,
      env: { ...process.env, ...("error" in resolved ? {} : resolved.env) } as Record<string, string>,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
      ],
    })
  : null;
try {
  for (const lines of sizes) {
    // A fresh workspace per size, seeded straight into the database (INSERT … SELECT).
    // In a kept data dir, one workspace per size, seeded once (it is only read afterwards).
    const { token, total, seeded } = await seedReportWorkspace(server.url, dataDir, lines, Boolean(keptDir));
    console.log(`\n${total.toLocaleString("en-US")} lines (${seeded})`);

    // Arrow stream: whole body read by a client, three runs; server RSS sampled during each.
    const streamTimes: number[] = [];
    let growth = 0;
    let bytes = 0;
    for (let run = 0; run < 3; run++) {
      Bun.gc(true);
      const before = rssMb(server.pid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(server.pid));
      }, 20);
      const started = performance.now();
      const res = await fetch(`${server.url}/api/reports-data?format=arrow&names=labels`, {
        headers: { authorization: `Bearer ${token}` },
      });
      bytes = (await res.arrayBuffer()).byteLength;
      streamTimes.push((performance.now() - started) / 1000);
      clearInterval(sampler);
      peak = Math.max(peak, rssMb(server.pid));
      growth = Math.max(growth, peak - before);
    }
    const target = TARGETS[lines];
    const mark = (value: number, limit?: number) => (limit === undefined ? "" : value <= limit ? " ✓" : " ✗");
    const stream = median(streamTimes);
    console.log(
      `  Arrow stream: median ${stream.toFixed(2)} s of ${streamTimes.map((t) => t.toFixed(2)).join(", ")} (target < ${target?.stream ?? "–"} s)${mark(stream, target?.stream)}; ${(bytes / 1024 / 1024).toFixed(1)} MB`,
    );
    console.log(
      `  server RSS growth during the stream: ${growth.toFixed(0)} MB (target < 300 MB)${mark(growth, 300)}`,
    );

    if (!browser) {
      console.log("  (no Chromium found: browser figures skipped)");
      continue;
    }
    // Each engine's server RSS is measured from where it stands now (the (c) server may hold
    // another size's table until it goes idle).
    for (const engine of engines) await browserFigures(browser, engine, lines, token, target, mark);
  }
} finally {
  await browser?.close();
  await server.stop();
  await pivotServer.stop();
  if (!keptDir) rmSync(dataDir, { recursive: true, force: true });
}
console.log("\nShared 2-core machine: treat these as ranges, not promises.");

type TEngine = { name: string; url: string; pid: number };

/**
 * The browser's figures for one engine: first pivot from navigation (three runs by link, one of the
 * default view), where its time goes, bytes before it, re-pivots; at the largest size, /api/health
 * and server RSS growth while three users open the report at once.
 */
async function browserFigures(
  browser: Browser,
  engine: TEngine,
  lines: number,
  token: string,
  target: (typeof TARGETS)[number] | undefined,
  mark: (value: number, limit?: number) => string,
): Promise<void> {
  console.log(`  ${engine.name}`);
  // The engine's server RSS over all its runs here, from before its first page (for (c) this
  // includes starting DuckDB and loading the workspace's lines into it).
  Bun.gc(true);
  const rssAtStart = rssMb(engine.pid);
  let rssHighest = rssAtStart;
  const rssSampler = setInterval(() => {
    rssHighest = Math.max(rssHighest, rssMb(engine.pid));
  }, 50);
  // First pivot from navigation: the target's view, destination × status, sum of the USD value, opened
  // by link (the screen loads the view's columns first, then every line); then once the default view
  // (USD value per month by status, what /reports opens with).
  const renders: number[] = [];
  const defaultRenders: number[] = [];
  const repivots: number[] = [];
  // Where the time to the first pivot goes: the screen's performance marks (reports:*), per run.
  const phases: Record<string, number>[] = [];
  const byLink = "/reports?group_by=Destination%20country&split_by=Status&columns=Extended%20value%20(USD)";
  // What a phone downloads before the first pivot (compressed, as sent), per run.
  const transferred: number[] = [];
  // Three runs by link (the median is the middle one; the first after the server starts is
  // included), then one of the default view.
  for (let run = 0; run < 4; run++) {
    const isDefault = run === 3;
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "en-US" });
    await context.addCookies([{ name: "twsession", value: token, url: engine.url }]);
    // When the first pivot reached the screen: the first frame after the viewer's container says so
    // (the screen's own marks are printed separately, this one does not rely on them).
    await markFirstPivotPainted(context);
    const page = await context.newPage();
    // The first view's summary, then every line: two downloads, no more (the preload must be reused).
    const dataRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/reports-data")) dataRequests.push(request.url());
    });
    await page.goto(`${engine.url}${isDefault ? "/reports" : byLink}`, { waitUntil: "commit" });
    await page.waitForSelector("[data-testid=reports-viewer][data-first-pivot]", { timeout: 180_000 });
    const { render, marks, bytes } = await page.evaluate(async () => {
      const viewer = document.querySelector("perspective-viewer") as unknown as { flush(): Promise<void> };
      await viewer.flush();
      const marks: Record<string, number> = Object.fromEntries(
        performance
          .getEntriesByType("mark")
          .filter((m) => m.name.startsWith("reports:"))
          .map((m) => [m.name.slice("reports:".length), m.startTime / 1000]),
      );
      // When the page asked for the data, the engine's WASM and the Perspective chunk.
      for (const entry of performance.getEntriesByType("resource") as PerformanceResourceTiming[]) {
        const key = entry.name.includes("/api/reports-data")
          ? "data-requested"
          : entry.name.includes("perspective-server")
            ? "engine-wasm-requested"
            : entry.name.includes("perspective-loader")
              ? "perspective-chunk-requested"
              : null;
        if (key && marks[key] === undefined) marks[key] = entry.startTime / 1000;
      }
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      marks["dom-content-loaded"] = nav.domContentLoadedEventEnd / 1000;
      marks["html-received"] = nav.responseEnd / 1000;
      const painted = (window as unknown as { firstPivotPainted?: number }).firstPivotPainted;
      // Bytes on the wire (compressed, headers included) of everything fetched before then.
      const until = painted ?? performance.now();
      let bytes = nav.transferSize;
      for (const entry of performance.getEntriesByType("resource") as PerformanceResourceTiming[]) {
        if (entry.responseEnd <= until) bytes += entry.transferSize;
      }
      return { render: until / 1000, marks, bytes };
    });
    const config = await page.evaluate(async () => {
      const viewer = document.querySelector("perspective-viewer") as unknown as {
        save(): Promise<unknown>;
      };
      return viewer.save();
    });
    if (isDefault) defaultRenders.push(render);
    else {
      transferred.push(bytes);
      renders.push(render);
      phases.push(marks);
      const shown = config as { group_by: string[]; split_by: string[]; columns: string[] };
      if (shown.group_by[0] !== "Destination country" || shown.split_by[0] !== "Status")
        throw new Error(`The link opened another view: ${JSON.stringify(shown)}`);
    }
    // Re-pivots once every column is in: value per month by status, then carrier × year, as a user would.
    await page.waitForSelector("[data-testid=reports-viewer][data-lines]", { timeout: 180_000 });
    const allIn = await page.evaluate(
      () => performance.getEntriesByName("reports:all-columns-shown")[0]?.startTime ?? Number.NaN,
    );
    if (!isDefault) phases[phases.length - 1]["all-columns-shown"] = allIn / 1000;
    if (engine.name.startsWith("(a)") && dataRequests.length !== 2)
      console.log(`  (${dataRequests.length} data requests: ${dataRequests.join(" ")})`);
    if (engine.name.startsWith("(c)") && dataRequests.length !== 0)
      throw new Error(`The server pivot downloaded lines: ${dataRequests.join(" ")}`);
    repivots.push(
      ...(await timeRepivots(page, [
        { group_by: ["Ship month"], split_by: ["Status"], columns: ["Extended value (USD)"] },
        { group_by: ["Carrier"], split_by: ["Ship year"], columns: ["Quantity"] },
      ])),
    );
    await context.close();
  }
  clearInterval(rssSampler);
  console.log(
    `  server RSS: ${rssAtStart.toFixed(0)} MB before the first page, peak ${rssHighest.toFixed(0)} MB over the four opens and re-pivots (growth ${(rssHighest - rssAtStart).toFixed(0)} MB), ${rssMb(engine.pid).toFixed(0)} MB after`,
  );
  const render = median(renders);
  const repivot = median(repivots);
  console.log(
    `  first pivot (destination × status, sum of USD value, by link) rendered from navigation: median ${render.toFixed(2)} s of ${renders.map((t) => t.toFixed(2)).join(", ")} (target < ${target?.render ?? "–"} s)${mark(render, target?.render)}`,
  );
  console.log(
    `  default view (value per month by status) rendered from navigation: ${defaultRenders.map((t) => t.toFixed(2)).join(", ")} s`,
  );
  const phase = (name: string) => median(phases.map((p) => p[name] ?? Number.NaN)).toFixed(2);
  console.log(
    `    from navigation (median): HTML received ${phase("html-received")} s, DOMContentLoaded ${phase("dom-content-loaded")} s; requested: Perspective chunk ${phase("perspective-chunk-requested")} s, engine WASM ${phase("engine-wasm-requested")} s, data ${phase("data-requested")} s`,
  );
  console.log(
    `    from navigation (median): engine WASM compiled ${phase("engine-compiled")} s, viewer WASM ready ${phase("viewer-wasm-ready")} s, Perspective worker ready ${phase("perspective-ready")} s, data received ${phase("data-received")} s, table loaded ${phase("table-loaded")} s, first pivot ${phase("first-pivot")} s, every column shown ${phase("all-columns-shown")} s`,
  );
  console.log(
    `  downloaded before the first pivot (compressed, every asset from a cold cache): median ${kb(median(transferred))}`,
  );
  console.log(
    `  re-pivot: median ${repivot.toFixed(2)} s of ${repivots.map((t) => t.toFixed(2)).join(", ")} (target < ${target?.repivot ?? "–"} s)${mark(repivot, target?.repivot)}`,
  );
  if (lines !== Math.max(...sizes)) return;
  // Three users open the report at once (by link, every line follows); /api/health polled meanwhile.
  const open = await threeUsersOpen(browser, engine, token, byLink);
  console.log(
    `  three users open it at once: ${open.summary} (target < ${HEALTH_TARGET_S * 1000} ms)${mark(open.worstHealth, HEALTH_TARGET_S)}; server RSS growth ${open.growth.toFixed(0)} MB (target < 300 MB)${mark(open.growth, 300)}`,
  );
  if (engine.url !== pivotServer.url) return;
  // The same on a (c) server that has just started: its pivot worker starts, loads the lines once
  // for the three, and each opens its view; the growth is everything the pivot costs the process.
  const cold = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn", REPORTS_SERVER_PIVOT_LINES: "0" });
  try {
    const first = await threeUsersOpen(browser, { ...engine, url: cold.url, pid: cold.pid }, token, byLink);
    console.log(
      `  three users open it at once on a server just started (worker start and load included): first pivot ${first.times.map((t) => t.toFixed(2)).join(", ")} s (target < ${target?.render ?? "–"} s)${mark(Math.max(...first.times), target?.render)}; ${first.summary}${mark(first.worstHealth, HEALTH_TARGET_S)}; server RSS growth ${first.growth.toFixed(0)} MB (target < 300 MB)${mark(first.growth, 300)}`,
    );
  } finally {
    await cold.stop();
  }
}

/** Three browsers open `path` at once while /api/health is polled: their times, health and RSS growth. */
async function threeUsersOpen(browser: Browser, engine: TEngine, token: string, path: string) {
  Bun.gc(true);
  const rssBefore = rssMb(engine.pid);
  let rssPeak = rssBefore;
  const healthTimes: number[] = [];
  let isOpening = true;
  const poll = (async () => {
    while (isOpening) {
      const started = performance.now();
      await fetch(`${engine.url}/api/health`).then((r) => r.arrayBuffer());
      healthTimes.push((performance.now() - started) / 1000);
      rssPeak = Math.max(rssPeak, rssMb(engine.pid));
      await Bun.sleep(50);
    }
  })();
  const contexts = await Promise.all(
    [0, 1, 2].map(async () => {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "en-US" });
      await context.addCookies([{ name: "twsession", value: token, url: engine.url }]);
      return context;
    }),
  );
  const times = await Promise.all(
    contexts.map(async (context) => {
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${engine.url}${path}`, { waitUntil: "commit" });
      await page.waitForSelector("[data-testid=reports-viewer][data-lines]", { timeout: 300_000 });
      return (performance.now() - started) / 1000;
    }),
  );
  isOpening = false;
  await poll;
  await Promise.all(contexts.map((c) => c.close()));
  const worstHealth = Math.max(...healthTimes);
  return {
    times,
    worstHealth,
    growth: rssPeak - rssBefore,
    summary: `/api/health median ${(median(healthTimes) * 1000).toFixed(0)} ms, worst ${(worstHealth * 1000).toFixed(0)} ms of ${healthTimes.length}`,
  };
}
