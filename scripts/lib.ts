import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dir, "..");

/**
 * A fixed piece of single-threaded CPU work (sorting and hashing), timed in ms: how fast the machine
 * is just before a timed run. Shared machines drift: on the 2-core machines of this project the same
 * import's CPU time rose by ~40 % in slow stretches, and so did this probe (447 against 630 ms).
 * Compare benchmark figures only at similar probe times.
 */
export function cpuProbeMs(): number {
  const started = performance.now();
  let hash = 0;
  const values = new Float64Array(2_000_000);
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < values.length; i++) values[i] = Math.sin(i * 0.001 + round) * 1e6;
    values.sort();
    for (let i = 0; i < values.length; i += 7) hash = (hash * 31 + (values[i] as number)) | 0;
  }
  const names = new Map<string, number>();
  for (let i = 0; i < 200_000; i++) names.set(`name ${(i * 7919) % 100_003} trading co`.toUpperCase(), hash);
  return Math.round(performance.now() - started);
}

/**
 * Finds a Chromium: CHROMIUM_PATH, Debian's /usr/bin/chromium, or one Playwright installed (in
 * PLAYWRIGHT_BROWSERS_PATH or its default cache; newer Playwright releases use chrome-linux64).
 */
export function findChromium(
  env: Record<string, string | undefined> = process.env,
  systemPaths = ["/usr/bin/chromium", "/usr/bin/chromium-browser"],
): string | null {
  const candidates = [env.CHROMIUM_PATH, ...systemPaths];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  const caches = [env.PLAYWRIGHT_BROWSERS_PATH, path.join(env.HOME ?? "/root", ".cache", "ms-playwright")];
  for (const cache of caches) {
    if (!cache || !existsSync(cache)) continue;
    for (const dir of readdirSync(cache).filter((d) => d.startsWith("chromium"))) {
      for (const platform of ["chrome-linux64", "chrome-linux"]) {
        const binary = path.join(cache, dir, platform, "chrome");
        if (existsSync(binary)) return binary;
      }
    }
  }
  return null;
}

/** Where the Chromium that ships inside @sparticuz/chromium (npm) is unpacked, once per checkout. */
export const SPARTICUZ_DIR = path.join(ROOT, "node_modules", ".cache", "tradewinds-chromium");

export type TChromium = { executablePath: string; env: Record<string, string>; source: string };

/**
 * A Chromium for the browser tests: findChromium()'s candidates first, then — on Linux x64 — the
 * one that arrives with `npm install` in @sparticuz/chromium, so a machine with Node and nothing
 * else passes `npm test`. FORCE_SPARTICUZ=1 skips the others (how CI proves the bare-machine path).
 * Returns null with the reason when none can be had.
 */
export async function resolveChromium(
  env: Record<string, string | undefined> = process.env,
): Promise<TChromium | { error: string }> {
  if (env.FORCE_SPARTICUZ !== "1") {
    const found = findChromium(env);
    if (found) return { executablePath: found, env: {}, source: found };
  }
  if (process.platform !== "linux" || process.arch !== "x64") {
    return {
      error:
        `No Chromium found for the browser tests, and the bundled one (@sparticuz/chromium) runs on Linux x64 only (this is ${process.platform} ${process.arch}). ` +
        "Install Chromium or Chrome and set CHROMIUM_PATH to its binary.",
    };
  }
  try {
    const dir = await unpackSparticuz();
    // The package brings its own fonts and fontconfig file; a machine without fontconfig needs them.
    const fontEnv: Record<string, string> = existsSync("/etc/fonts/fonts.conf")
      ? {}
      : { FONTCONFIG_PATH: path.join(dir, "fonts") };
    return {
      executablePath: path.join(dir, "chromium"),
      env: fontEnv,
      source: "@sparticuz/chromium (npm)",
    };
  } catch (error) {
    return {
      error: `No Chromium found for the browser tests, and unpacking @sparticuz/chromium failed: ${String(error)}. Set CHROMIUM_PATH to a Chromium binary.`,
    };
  }
}

/**
 * Unpacks @sparticuz/chromium's brotli archives into SPARTICUZ_DIR. The package unpacks into
 * os.tmpdir() and treats an existing file as done, which races when two test runs start together;
 * so a child process unpacks into a private staging folder that is renamed into place whole.
 */
async function unpackSparticuz(): Promise<string> {
  if (existsSync(path.join(SPARTICUZ_DIR, "chromium"))) return SPARTICUZ_DIR;
  mkdirSync(path.dirname(SPARTICUZ_DIR), { recursive: true });
  const staging = mkdtempSync(`${SPARTICUZ_DIR}-staging-`);
  try {
    console.log("Unpacking the Chromium bundled in @sparticuz/chromium (once)…");
    const child = Bun.spawn(
      [
        process.execPath,
        "-e",
        'console.log(await (await import("@sparticuz/chromium")).default.executablePath())',
      ],
      { cwd: ROOT, env: { ...process.env, TMPDIR: staging }, stdout: "pipe", stderr: "pipe" },
    );
    const [out, err, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    if (code !== 0 || !existsSync(path.join(staging, "chromium")))
      throw new Error(`exit ${code}: ${(err || out).trim().slice(0, 500)}`);
    try {
      renameSync(staging, SPARTICUZ_DIR);
    } catch (error) {
      // Another run finished first: use its copy.
      if (!existsSync(path.join(SPARTICUZ_DIR, "chromium"))) throw error;
    }
    return SPARTICUZ_DIR;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Newest modification time of any file below the given paths. */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) for (const child of readdirSync(p)) visit(path.join(p, child));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const p of paths) visit(p);
  return newest;
}

/** Builds the client with Vite when dist/client is missing or older than any client source. */
export async function ensureClientBuild(): Promise<void> {
  const manifest = path.join(ROOT, "dist", "client", ".vite", "manifest.json");
  const sources = ["client", "public", "db/contracts", "vite.config.ts", "package.json"].map((p) =>
    path.join(ROOT, p),
  );
  if (existsSync(manifest) && statSync(manifest).mtimeMs >= newestMtime(sources)) return;
  console.log("Building the client (dist/client is missing or stale)…");
  const build = Bun.spawn([process.execPath, "--bun", "vite", "build", "--logLevel", "warn"], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if ((await build.exited) !== 0) throw new Error("The client build failed");
}

/** A free TCP port on this machine, found by letting the OS pick one. */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = probe.port;
  probe.stop(true);
  if (!port) throw new Error("Could not find a free port");
  return port;
}

/**
 * Waits until the server answers /api/health, or throws after `timeoutMs`. With `untilWarm`, also
 * until it has built its screening index (it listens before): tests and benchmarks should not
 * meet the build.
 */
export async function waitForHealth(url: string, timeoutMs = 30_000, untilWarm = false): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const body = await fetch(`${url}/api/health`)
      .then((res) => (res.ok ? (res.json() as Promise<{ screening_index?: string }>) : null))
      .catch(() => null);
    if (body && (!untilWarm || body.screening_index === "ready")) return;
    await Bun.sleep(50);
  }
  throw new Error(
    `The server did not ${untilWarm ? "finish starting" : "answer"} ${url}/api/health within ${timeoutMs / 1000} s`,
  );
}

/**
 * Polls `${url}/api/health` every 20 ms, as a user's other requests would arrive while something
 * heavy runs, keeping the slowest answer. `takeWorst` returns the slowest since the last take;
 * `onPoll` runs after each answer (a bench reads the server's memory there).
 */
export function pollHealth(url: string, onPoll?: () => void) {
  return pollLatency(() => fetch(`${url}/api/health`), onPoll);
}

/**
 * Sends a request again and again, `pauseMs` after each answer, keeping the worst latency (e.g. a
 * user's small write while a big import runs).
 */
export function pollLatency(send: () => Promise<Response>, onPoll?: () => void, pauseMs = 20) {
  let isDone = false;
  let worst = 0;
  let polls = 0;
  const running = (async () => {
    while (!isDone) {
      const started = performance.now();
      await (await send()).arrayBuffer();
      worst = Math.max(worst, performance.now() - started);
      polls++;
      onPoll?.();
      await Bun.sleep(pauseMs);
    }
  })();
  return {
    takeWorst(): number {
      const taken = worst;
      worst = 0;
      return taken;
    },
    /** Stops polling; resolves to how many polls were answered. */
    async stop(): Promise<number> {
      isDone = true;
      await running;
      return polls;
    },
  };
}

/**
 * Starts the real server from source on a free port of 127.0.0.1 (React's production build), waits
 * until it is healthy, and returns its URL and a stop function.
 */
export async function startServer(
  env: Record<string, string | undefined>,
  options: { logs?: "inherit" | "ignore"; healthTimeoutMs?: number } = {},
): Promise<{ url: string; pid: number; stop: () => Promise<number> }> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = Bun.spawn([process.execPath, path.join(ROOT, "server", "main.ts"), "serve"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "silent",
      APP_URL: url,
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", options.logs ?? "ignore", "inherit"],
  });
  const stop = async () => {
    server.kill("SIGTERM");
    return server.exited;
  };
  try {
    // A fresh DATA_DIR migrates and imports the screening lists first: allow for a busy machine.
    await waitForHealth(url, options.healthTimeoutMs ?? 180_000, true);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: server.pid, stop };
}

/** Whether the database holds `rows` contacts, none pending, each with a screening result. */
export function isEveryContactScreened(dbFile: string, rows: number): boolean {
  const db = new Database(dbFile, { readonly: true });
  try {
    const one = (q: string) => (db.query(q).get() as { n: number }).n;
    return (
      one("select count(*) as n from contacts") === rows &&
      one("select count(*) as n from contacts where screening_pending = 1") === 0 &&
      one("select count(distinct contact_id) as n from contact_screening_results") === rows
    );
  } finally {
    db.close();
  }
}

/**
 * A workspace of about `lines` report lines for the reports benches: registers (or, in a kept data dir,
 * logs back in to) `bench-<lines>@example.com`, then seeds 60 products, 300 contacts and `lines / 3`
 * shipments of three lines straight into the database (INSERT … SELECT). Returns the session token,
 * the workspace id, the line count and how the lines got there.
 */
export async function seedReportWorkspace(
  serverUrl: string,
  dataDir: string,
  lines: number,
  isKept: boolean,
): Promise<{ token: string; workspaceId: number; total: number; seeded: string }> {
  const { openDatabase } = await import("../db/client");
  const { insertBulkLines, insertReportContact, insertReportProduct } = await import(
    "../server/features/reports/report-fixtures"
  );
  const email = isKept ? `bench-${lines}@example.com` : `bench-${lines}-${Date.now()}@example.com`;
  const password = "bench password 1";
  const logIn = () =>
    fetch(`${serverUrl}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password, rememberMe: true }),
    });
  let login = isKept ? await logIn() : null;
  const isSeeded = login?.status === 200;
  if (!isSeeded) {
    const reg = await fetch(`${serverUrl}/api/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "Mr.", name: "Bench", surname: "Mark", email, password }),
    });
    if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
    login = await logIn();
  }
  const { token } = (await login!.json()) as { token: string };
  const { db, client, close } = await openDatabase(`file:${path.join(dataDir, "app.db")}`);
  try {
    const workspaceId = Number(
      (await client.execute({ sql: "select workspace_id from users where email = ?", args: [email] }))
        .rows[0][0],
    );
    const started = performance.now();
    if (!isSeeded) {
      const productIds: number[] = [];
      for (let i = 0; i < 60; i++)
        productIds.push(await insertReportProduct(db, workspaceId, { has_license: i % 7 === 0 }));
      const contactIds: number[] = [];
      for (let i = 0; i < 300; i++) {
        contactIds.push(
          await insertReportContact(db, workspaceId, {
            country_id: 1 + ((i * 7) % 200),
            screening: i % 5 === 0 ? "passed" : i % 23 === 0 ? "failed" : null,
          }),
        );
      }
      await insertBulkLines(db, workspaceId, {
        shipments: Math.ceil(lines / 3),
        itemsPer: 3,
        productIds,
        contactIds,
        packagesPer: 2,
      });
      await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    }
    const seeded = isSeeded
      ? "seeded by an earlier run"
      : `seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`;
    return { token, workspaceId, total: Math.ceil(lines / 3) * 3, seeded };
  } finally {
    close();
  }
}

/** A Playwright page, as far as re-pivot timing needs one (the scripts import Playwright themselves). */
type TEvaluatingPage = { evaluate<R, A>(fn: (arg: A) => Promise<R>, arg: A): Promise<R> };

/**
 * Re-pivots the page's <perspective-viewer> to each config in turn, as a user would: seconds from
 * `restore` until the viewer has flushed (and, with `frame`, painted the next frame).
 */
export async function timeRepivots(
  page: TEvaluatingPage,
  configs: Record<string, unknown>[],
  frame = false,
): Promise<number[]> {
  const times: number[] = [];
  for (const config of configs) {
    times.push(
      await page.evaluate(
        async ({ next, paint }) => {
          const viewer = document.querySelector("perspective-viewer") as unknown as {
            restore(c: unknown): Promise<void>;
            flush(): Promise<void>;
          };
          const started = performance.now();
          await viewer.restore(next);
          await viewer.flush();
          if (paint) await new Promise(requestAnimationFrame);
          return (performance.now() - started) / 1000;
        },
        { next: config, paint: frame },
      ),
    );
  }
  return times;
}

/** A Playwright browser context, as far as an init script needs one. */
type TScriptedContext = { addInitScript(script: () => void): Promise<unknown> };

/**
 * Records in `window.firstPivotPainted` when the reports screen's first pivot reached the screen:
 * the first frame after the viewer's container says so (independent of the screen's own marks).
 */
export async function markFirstPivotPainted(context: TScriptedContext): Promise<void> {
  await context.addInitScript(() => {
    const seen = new MutationObserver(() => {
      if (!document.querySelector("[data-testid=reports-viewer][data-first-pivot]")) return;
      seen.disconnect();
      requestAnimationFrame(() => {
        (window as unknown as { firstPivotPainted: number }).firstPivotPainted = performance.now();
      });
    });
    seen.observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["data-first-pivot"],
    });
  });
}
