// npm run bench:web: what each screen costs a browser on first load, measured in Chromium against a
// real server: the JavaScript, CSS and HTML it downloads before it is interactive (bytes over the
// wire, plus the raw, gzip and brotli sizes of the same files on disk), then Lighthouse's mobile
// performance and best-practices scores for /auth/login, /contacts, /home, /shipments and a shipment
// page (the lighthouse devDependency, run under Node against the same Chromium; LIGHTHOUSE_RUNS=3
// takes the median of three; LIGHTHOUSE_ROUTES=a,b picks screens, "shipment" for the shipment page).
// BENCH_DEMO_SHIPMENTS=3000 signs in to a demo workspace of that many shipments (npm run seed:demo)
// instead of an empty one. The same mobile throttling is also applied by hand through the DevTools
// protocol and FCP, LCP and total blocking time printed for /home, /shipments and the shipment page.
// LIGHTHOUSE_ONLY=1 skips the download table. Prints figures; asserts nothing.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { chromium, type Request } from "@playwright/test";
import { ensureClientBuild, ROOT, resolveChromium, startServer } from "./lib";

// The browser tests' Chromium: a system one, or the one npm install brings (@sparticuz/chromium).
const chromium_ = await resolveChromium();
if ("error" in chromium_) {
  console.error(chromium_.error);
  process.exit(1);
}
const { executablePath, env: chromiumEnv } = chromium_;
Object.assign(process.env, chromiumEnv);
await ensureClientBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-bench-web-"));
const account = {
  title: "Ms.",
  name: "Bench",
  surname: "Web",
  email: "web@example.com",
  password: "bench password",
};
const demoShipments = Number(process.env.BENCH_DEMO_SHIPMENTS ?? 0);
if (demoShipments > 0) {
  // The demo workspace, seeded before the server starts (seed-demo writes while it is stopped).
  console.log(`Seeding a demo workspace of ${demoShipments} shipments…`);
  const seed = Bun.spawn(
    [
      process.execPath,
      path.join(ROOT, "scripts", "seed-demo.ts"),
      `--shipments=${demoShipments}`,
      `--email=${account.email}`,
      `--password=${account.password}`,
    ],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" }, stdout: "ignore" },
  );
  if ((await seed.exited) !== 0) throw new Error("npm run seed:demo failed");
}
const server = await startServer({ DATA_DIR: dataDir });
const base = server.url;

/** The initial-JS budget per list screen. */
const LIST_JS_TARGET_KB = 150;
const ROUTES = [
  { path: "/auth/login", isList: false, isPublic: true },
  { path: "/home", isList: false },
  { path: "/contacts", isList: true },
  { path: "/products", isList: true },
  { path: "/licenses", isList: true },
  { path: "/my-wiki", isList: true },
  { path: "/restricted-party-screening", isList: true },
  { path: "/shipments", isList: true },
  { path: "/contacts/create-contact", isList: false },
  { path: "/reports", isList: false },
];

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const distFile = (url: string) => path.join(ROOT, "dist", "client", new URL(url).pathname);

try {
  if (!demoShipments)
    await fetch(`${base}/api/register`, {
      method: "POST",
      body: JSON.stringify(account),
      headers: { "content-type": "application/json" },
    });
  const browser = await chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const context = await browser.newContext({ baseURL: base });
  const login = await context.request.post("/api/login", {
    data: { email: account.email, password: account.password, rememberMe: true },
  });
  if (login.status() !== 200) throw new Error(`login failed: ${login.status()}`);

  console.log(
    `${"route".padEnd(30)} ${"JS files".padStart(8)} ${"JS wire".padStart(10)} ${"JS raw".padStart(10)} ${"JS gzip".padStart(10)} ${"JS br".padStart(10)} ${"CSS wire".padStart(10)} ${"HTML wire".padStart(10)}  target`,
  );
  const signedIn = await context.storageState();
  // A shipment for the shipment page's Lighthouse run: the newest demo shipment, or a new draft.
  const shipmentId = demoShipments
    ? ((await (await context.request.get("/api/shipments?per_page=1")).json()) as { data: { id: number }[] })
        .data[0]?.id
    : (
        (await (await context.request.post("/api/shipments", { headers: { origin: base } })).json()) as {
          id?: number;
        }
      ).id;
  // LIGHTHOUSE_ONLY=1 skips the download table.
  for (const route of process.env.LIGHTHOUSE_ONLY ? [] : ROUTES) {
    // A fresh context per screen: an empty cache, as on a first visit, with the session cookie.
    const fresh = await browser.newContext({ baseURL: base, storageState: signedIn });
    const page = await fresh.newPage();
    const sizes = { js: 0, jsFiles: 0, css: 0, html: 0, raw: 0, gzip: 0, br: 0 };
    // Every finished request, with its bytes over the wire (encoded body + headers), measured once
    // the page has settled (events can arrive just after the network goes idle).
    const finished: Request[] = [];
    page.on("requestfinished", (request) => finished.push(request));
    await page.goto(route.path, { waitUntil: "networkidle" });
    await page.waitForTimeout(1000);
    for (const request of finished) {
      const { responseBodySize, responseHeadersSize } = await request.sizes();
      const wire = responseBodySize + responseHeadersSize;
      const type = request.resourceType();
      const isScript =
        type === "script" || (type === "other" && new URL(request.url()).pathname.endsWith(".js"));
      if (isScript) {
        // modulepreload links fetch scripts as "other".
        sizes.js += wire;
        sizes.jsFiles += 1;
        const file = distFile(request.url());
        if (process.env.BENCH_VERBOSE) console.log(`  ${route.path} ${request.url()} ${wire}`);
        if (existsSync(file)) {
          const raw = readFileSync(file);
          sizes.raw += raw.length;
          sizes.gzip += gzipSync(raw, { level: 9 }).length;
          sizes.br += brotliCompressSync(raw).length;
        }
      } else if (type === "stylesheet") sizes.css += wire;
      else if (type === "document") sizes.html += wire;
    }
    const target = route.isList ? `≤ ${LIST_JS_TARGET_KB} KB gzip` : "";
    const ok = route.isList ? (sizes.gzip / 1024 <= LIST_JS_TARGET_KB ? "met" : "NOT met") : "";
    console.log(
      `${route.path.padEnd(30)} ${String(sizes.jsFiles).padStart(8)} ${kb(sizes.js).padStart(10)} ${kb(sizes.raw).padStart(10)} ${kb(sizes.gzip).padStart(10)} ${kb(sizes.br).padStart(10)} ${kb(sizes.css).padStart(10)} ${kb(sizes.html).padStart(10)}  ${target} ${ok}`,
    );
    await fresh.close();
  }
  await throttledStartUp(browser, signedIn, shipmentId ? `/shipments/edit-shipment/${shipmentId}` : null);
  await browser.close();
  console.log(
    "\nJS wire / CSS wire / HTML wire: bytes Chromium downloaded (with Accept-Encoding: gzip, deflate, br).",
  );
  const cookie = signedIn.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  await lighthouse(
    executablePath,
    base,
    cookie,
    shipmentId ? `/shipments/edit-shipment/${shipmentId}` : null,
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * A module Node loads before Lighthouse's CLI that leaves the blink.webdx_feature_usage category out
 * of Lighthouse's trace. While that category records, Chromium 147 (the @sparticuz headless shell)
 * cancels any document navigation whose response carries a Referrer-Policy header (net::ERR_ABORTED,
 * though the server answered 200), and every response of ours carries one. The category feeds no
 * performance or best-practices audit.
 */
function lighthousePreload(cli: string, dir: string): string {
  const trace = pathToFileURL(path.join(path.dirname(cli), "..", "core", "gather", "gatherers", "trace.js"));
  const file = path.join(dir, "trace-categories.mjs");
  writeFileSync(
    file,
    `import Trace from ${JSON.stringify(trace.href)};
const categories = Trace.getDefaultTraceCategories;
Trace.getDefaultTraceCategories = () => categories().filter((c) => c !== "blink.webdx_feature_usage");
`,
  );
  return file;
}

function lighthouseCli(): string | null {
  if (process.env.LIGHTHOUSE_CLI) return process.env.LIGHTHOUSE_CLI;
  try {
    return createRequire(import.meta.url).resolve("lighthouse/cli/index.js");
  } catch {
    return null;
  }
}

/**
 * Lighthouse's default mobile run (simulated slow 4G, 4× CPU slowdown, Moto G-sized screen) on each
 * screen, signed in where the screen needs it. On a loaded machine the CPU is slower than Lighthouse
 * assumes, so performance scores here are pessimistic.
 */
async function lighthouse(chromePath: string, base: string, cookie: string, shipmentPage: string | null) {
  /** The screens Lighthouse scores, with their targets: mobile performance ≥ 90, best practices 100. */
  const LIGHTHOUSE_ROUTES = (
    process.env.LIGHTHOUSE_ROUTES?.split(",") ?? [
      "/auth/login",
      "/contacts",
      "/home",
      "/shipments",
      "shipment",
    ]
  ).flatMap((r) => (r === "shipment" ? (shipmentPage ? [shipmentPage] : []) : [r]));
  const cli = lighthouseCli();
  if (!cli) {
    console.log("\nLighthouse: not installed (npm install adds the lighthouse devDependency).");
    return;
  }
  const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1));
  console.log(
    `\nLighthouse (mobile, ${runs} run${runs > 1 ? "s, median" : ""}; targets: performance ≥ 90, best practices 100)`,
  );
  const outDir = mkdtempSync(path.join(tmpdir(), "tradewinds-lighthouse-"));
  const preload = lighthousePreload(cli, outDir);
  try {
    for (const route of LIGHTHOUSE_ROUTES) {
      const scores: { performance: number; bestPractices: number; metrics: string }[] = [];
      for (let run = 0; run < runs; run++) {
        const out = path.join(outDir, `report-${run}.json`);
        const args = [
          cli,
          `${base}${route}`,
          "--output=json",
          `--output-path=${out}`,
          "--only-categories=performance,best-practices",
          "--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking",
          "--quiet",
        ];
        if (route !== "/auth/login") args.push(`--extra-headers=${JSON.stringify({ Cookie: cookie })}`);
        const child = Bun.spawn(["node", "--import", preload, ...args], {
          env: { ...process.env, CHROME_PATH: chromePath },
          stdout: "ignore",
          stderr: "pipe",
        });
        const stderr = await new Response(child.stderr).text();
        if ((await child.exited) !== 0 || !existsSync(out)) {
          console.log(
            `${route.padEnd(30)} Lighthouse failed: ${stderr.trim().split("\n").slice(-3).join(" ")}`,
          );
          continue;
        }
        const report = JSON.parse(readFileSync(out, "utf8"));
        const audit = (id: string) => report.audits[id]?.displayValue ?? "?";
        scores.push({
          performance: Math.round(report.categories.performance.score * 100),
          bestPractices: Math.round(report.categories["best-practices"].score * 100),
          metrics: `FCP ${audit("first-contentful-paint")}, LCP ${audit("largest-contentful-paint")}, TBT ${audit("total-blocking-time")}, CLS ${audit("cumulative-layout-shift")}`,
        });
        const failed = Object.values(report.categories["best-practices"].auditRefs as { id: string }[])
          .map((ref) => report.audits[ref.id])
          .filter((a) => a && a.score !== null && a.score < 1)
          .map((a) => a.id);
        if (failed.length)
          console.log(`${route.padEnd(30)} best-practices audits not passed: ${failed.join(", ")}`);
      }
      if (!scores.length) continue;
      const byPerformance = [...scores].sort((a, b) => a.performance - b.performance);
      const median = byPerformance[Math.floor(byPerformance.length / 2)]!;
      const perf = `performance ${median.performance} ${median.performance >= 90 ? "met" : "NOT met"}`;
      const bp = `best practices ${median.bestPractices} ${median.bestPractices === 100 ? "met" : "NOT met"}`;
      console.log(`${route.padEnd(30)} ${perf}; ${bp}  (${median.metrics})`);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * Lighthouse's mobile conditions applied by hand through the DevTools protocol (4× CPU slowdown,
 * slow 4G: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up), measured in the page itself, as a
 * cross-check on Lighthouse's simulated figures and where Lighthouse is not installed: first and
 * largest contentful paint, and total blocking time (each main-thread task after the first paint, less 50 ms). Median
 * of THROTTLED_RUNS (default 3), a fresh context (empty cache) each time.
 */
async function throttledStartUp(
  browser: import("@playwright/test").Browser,
  signedIn: Awaited<ReturnType<import("@playwright/test").BrowserContext["storageState"]>>,
  shipmentPage: string | null,
) {
  const runs = Math.max(1, Number(process.env.THROTTLED_RUNS ?? 3));
  const routes = ["/home", "/shipments", ...(shipmentPage ? [shipmentPage] : [])];
  console.log(
    `\nStart-up under Lighthouse's mobile throttling (CDP: CPU 4x, slow 4G; median of ${runs}; target TBT ≤ 200 ms, LCP ≤ 2.5 s)`,
  );
  for (const route of routes) {
    const results: { fcp: number; lcp: number; tbt: number }[] = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({
        baseURL: base,
        storageState: signedIn,
        viewport: { width: 412, height: 823 },
        deviceScaleFactor: 1.75,
        isMobile: true,
        hasTouch: true,
        serviceWorkers: "block",
      });
      const page = await context.newPage();
      await page.addInitScript(() => {
        const w = window as unknown as { __perf: { tasks: [number, number][]; lcp: number; fcp: number } };
        w.__perf = { tasks: [], lcp: 0, fcp: 0 };
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__perf.tasks.push([e.startTime, e.duration]);
        }).observe({ type: "longtask", buffered: true });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__perf.lcp = e.startTime;
        }).observe({ type: "largest-contentful-paint", buffered: true });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries())
            if (e.name === "first-contentful-paint") w.__perf.fcp = e.startTime;
        }).observe({ type: "paint", buffered: true });
      });
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
      await page.goto(route, { waitUntil: "networkidle", timeout: 120_000 });
      await page.waitForTimeout(2000);
      const perf = await page.evaluate(
        () =>
          (window as unknown as { __perf: { tasks: [number, number][]; lcp: number; fcp: number } }).__perf,
      );
      const tbt = perf.tasks
        .filter(([start]) => start >= perf.fcp)
        .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
      results.push({ fcp: perf.fcp, lcp: perf.lcp, tbt });
      if (process.env.BENCH_VERBOSE) {
        const long = perf.tasks.map(([s, d]) => `${s.toFixed(0)}+${d.toFixed(0)}`).join(" ");
        const map = await page.getByTestId("world-map").count();
        console.log(`  ${route} fcp ${perf.fcp.toFixed(0)} long tasks: ${long}; map mounted: ${map}`);
      }
      await context.close();
    }
    const median = (key: "fcp" | "lcp" | "tbt") =>
      [...results].sort((a, b) => a[key] - b[key])[Math.floor(results.length / 2)]![key];
    const tbt = median("tbt");
    const lcp = median("lcp");
    console.log(
      `${route.padEnd(30)} FCP ${(median("fcp") / 1000).toFixed(2)} s, LCP ${(lcp / 1000).toFixed(2)} s, TBT ${tbt.toFixed(0)} ms  ${tbt <= 200 && lcp <= 2500 ? "met" : "NOT met"}`,
    );
  }
}
