// npm run bench:web: what each screen costs a browser on first load, measured in Chromium against a
// real server: the JavaScript, CSS and HTML it downloads before it is interactive (bytes over the
// wire, plus the raw, gzip and brotli sizes of the same files on disk), then Lighthouse's mobile
// performance and best-practices scores for /auth/login and /contacts (the lighthouse devDependency,
// run under Node against the same Chromium; LIGHTHOUSE_RUNS=3 takes the median of three). Prints
// figures; asserts nothing.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { chromium, type Request } from "@playwright/test";
import { ensureClientBuild, findChromium, ROOT, startServer } from "./lib";

const executablePath = findChromium();
if (!executablePath) {
  console.error("No Chromium found (set CHROMIUM_PATH)");
  process.exit(1);
}
await ensureClientBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-bench-web-"));
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
  const account = {
    title: "Ms.",
    name: "Bench",
    surname: "Web",
    email: "web@example.com",
    password: "bench password",
  };
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
  for (const route of ROUTES) {
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
  await browser.close();
  console.log(
    "\nJS wire / CSS wire / HTML wire: bytes Chromium downloaded (with Accept-Encoding: gzip, deflate, br).",
  );
  const cookie = signedIn.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  await lighthouse(executablePath, base, cookie);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
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
async function lighthouse(chromePath: string, base: string, cookie: string) {
  /** The screens Lighthouse scores, with their targets: mobile performance ≥ 90, best practices 100. */
  const LIGHTHOUSE_ROUTES = ["/auth/login", "/contacts"];
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
          "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking",
          "--quiet",
        ];
        if (route !== "/auth/login") args.push(`--extra-headers=${JSON.stringify({ Cookie: cookie })}`);
        const child = Bun.spawn(["node", ...args], {
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
