// Benchmarks the restricted-party matching engine on all bundled lists: index build time and
// memory, the CPU time of each query over the evaluation's names (peer-dev and the project's own
// evaluation, screened as the product screens them), a 10,000-name batch's CPU time, and a started
// server's idle memory with the lists loaded.
//
//   bun scripts/bench-screening.ts [--rss-only]
//
// Reads lists from $SCREENING_DATA_DIR (default: db/screening-lists, else /work/shared/data/screening).

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadBundledLists, screeningDataDir } from "../server/features/screening/engine/bundled-lists";
import { entriesKey, indexKey, packIndex, unpackIndex } from "../server/features/screening/engine/index-pack";
import { buildIndex, screen } from "../server/features/screening/engine/screening-index";
import { setIndexCacheDir } from "../server/features/screening/index-cache";
import { ScreeningWorkerPool, type TQuery } from "../server/features/screening/screening-worker";
import { peerDevFile, readPeerCases } from "./eval-peer-dev";
import { evaluationCases } from "./eval-screening";
import { ensureClientBuild, freePort, ROOT, waitForHealth } from "./lib";

/** Deterministic PRNG (mulberry32) so runs are comparable. */
function makeRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = makeRandom(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (x: number): string => `${x.toFixed(3)} ms`;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** One-letter typo, so list-name queries exercise the fuzzy path and not only exact hits. */
function typo(name: string): string {
  if (name.length < 5) return name;
  const at = 1 + Math.floor(random() * (name.length - 2));
  return name.slice(0, at) + name.slice(at + 1);
}

const SURNAMES = [
  "Johnson",
  "Lindqvist",
  "Rossi",
  "Tanaka",
  "Fischer",
  "Moreau",
  "Okafor",
  "Silva",
  "Novak",
  "Kowalski",
];
const TRADES = [
  "Precision Machining",
  "Timber",
  "Dental Supplies",
  "Logistics",
  "Furniture",
  "Coffee Roasters",
  "Robotics",
];
const FORMS = ["LLC", "Ltd", "GmbH", "AB", "S.A.", "Inc.", "Pty Ltd", ""];

/**
 * The 10,000 names through the product's batch path (what a big re-screen or import uses): screening
 * workers over a fresh database with the bundled lists, each loading the stored index, fed chunks of
 * 250 with the next chunk sent before the last is read back, as RescreenJob does.
 */
async function batchOnWorkers(names: readonly string[]): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "tradewinds-bench-screening-"));
  try {
    const migrate = Bun.spawnSync([process.execPath, path.join(ROOT, "server", "main.ts"), "migrate"], {
      env: { ...process.env, DATA_DIR: dir, LOG_LEVEL: "warn" },
      stderr: "inherit",
    });
    if (migrate.exitCode !== 0) throw new Error("migrate failed");
    setIndexCacheDir(path.join(dir, "cache"));
    const url = `file:${path.join(dir, "app.db")}`;
    const queries = names.map((name): TQuery => [name, "", undefined]);
    console.log(
      `product batch path (screening workers, nice 0; ${new Set(names).size.toLocaleString("en-US")} distinct names, each scored once per worker):`,
    );
    // The first start builds and stores the index; the runs measured load it, as a server's do.
    for (const workers of [1, 1, 2]) {
      Bun.gc(true);
      const rssBefore = process.memoryUsage().rss;
      const started = performance.now();
      const pool = ScreeningWorkerPool.start(url, undefined, 0.85, { workers });
      if (!pool) throw new Error("no screening worker");
      try {
        await pool.ready;
        const readyMs = performance.now() - started;
        const t0 = performance.now();
        // This process's CPU, every thread's: the workers' scoring and this thread's hand-overs.
        const cpu0 = process.cpuUsage();
        let failed = 0;
        let previous: Promise<Awaited<ReturnType<typeof pool.screen>>> | null = null;
        const count = (outcomes: Awaited<ReturnType<typeof pool.screen>>) => {
          for (const o of outcomes) if (o.status === "failed") failed++;
        };
        for (let i = 0; i < queries.length; i += 250) {
          const next = pool.screen(queries.slice(i, i + 250));
          if (previous) count(await previous);
          previous = next;
        }
        if (previous) count(await previous);
        const seconds = (performance.now() - t0) / 1000;
        const cpu = process.cpuUsage(cpu0);
        const rss = process.memoryUsage().rss;
        console.log(
          `  ${workers} worker${workers > 1 ? "s" : " "}: ready in ${(readyMs / 1000).toFixed(2)} s, 10,000 names ${seconds.toFixed(2)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s; ${failed} failed), RSS ${mb(rss)} (${rss >= rssBefore ? "+" : "-"}${mb(Math.abs(rss - rssBefore))} since the start)  target < 5 s`,
        );
      } finally {
        pool.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Resident set size of a process in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Idle memory of a whole server process with the bundled lists loaded: a fresh DATA_DIR, a free
 * port, started from source; read once /api/health says the screening index is ready and the build's
 * garbage has had time to go. The first start builds and stores the index; the second loads it, as
 * every later start does.
 */
async function idleServerRss(): Promise<void> {
  // The server serves the client build: built here if missing or stale.
  await ensureClientBuild();
  const dir = mkdtempSync(path.join(tmpdir(), "tradewinds-bench-rss-"));
  const env = { ...process.env, DATA_DIR: dir, LOG_LEVEL: "warn" };
  try {
    const migrate = Bun.spawnSync([process.execPath, path.join(ROOT, "server", "main.ts"), "migrate"], {
      env,
      stderr: "inherit",
    });
    if (migrate.exitCode !== 0) throw new Error("migrate failed");
    for (const run of ["first start (builds the index)", "later start (loads it)"]) {
      const port = freePort();
      const proc = Bun.spawn([process.execPath, path.join(ROOT, "server", "main.ts"), "serve"], {
        env: { ...env, PORT: String(port) },
        stdout: "ignore",
        stderr: "inherit",
      });
      try {
        await waitForHealth(`http://127.0.0.1:${port}`, 180_000, true);
        await Bun.sleep(3_000);
        const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
        console.log(
          `idle server RSS, ${run}: ${rssMb(proc.pid).toFixed(0)} MB (load average ${load})  target < 200 MB`,
        );
      } finally {
        proc.kill("SIGTERM");
        await proc.exited;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  // --rss-only: just the started server's idle memory.
  if (process.argv.includes("--rss-only")) {
    await idleServerRss();
    return;
  }
  const dir = screeningDataDir();
  const parseStart = performance.now();
  const { lists, entries } = loadBundledLists(dir);
  const parseMs = performance.now() - parseStart;
  const nameCount = entries.reduce((n, e) => n + 1 + e.aliases.length, 0);
  console.log(`lists from ${dir}`);
  for (const list of lists) {
    console.log(
      `  ${list.list.padEnd(28)} ${String(list.entries.length).padStart(6)} entries  ${list.publishedAt ?? "date n/a"}`,
    );
  }
  console.log(`entries ${entries.length}, names + aliases ${nameCount}, parse ${ms(parseMs)}`);

  Bun.gc(true);
  const before = process.memoryUsage();
  const index = buildIndex(entries);
  Bun.gc(true);
  const after = process.memoryUsage();
  console.log(
    `index: ${index.stats.names} distinct names, ${index.stats.vocabulary} keys, ${index.stats.blockingKeys} blocking keys`,
  );
  console.log(
    `build ${ms(index.stats.buildMs)}; heap +${mb(after.heapUsed - before.heapUsed)}, RSS +${mb(after.rss - before.rss)} (RSS now ${mb(after.rss)})`,
  );

  // What a process pays instead of the build when the index is stored (DATA_DIR/cache, see index-cache.ts).
  const key = indexKey(entriesKey(entries));
  if (key !== undefined) {
    const packed = packIndex(index, key);
    const loadStart = performance.now();
    const loaded = unpackIndex(packed, key);
    const loadMs = performance.now() - loadStart;
    console.log(
      `stored index ${mb(packed.length)}; load from its bytes ${ms(loadMs)}${loaded ? "" : " (FAILED)"} instead of the build`,
    );
  }

  // Query mix: half disguised list names (some with a typo), half ordinary company names.
  const listNames = entries.flatMap((e) => [e.name, ...e.aliases]);
  const makeQuery = (): string => {
    if (random() < 0.5) {
      const name = pick(listNames);
      return random() < 0.5 ? typo(name) : name;
    }
    return `${pick(SURNAMES)} ${pick(TRADES)} ${pick(FORMS)}`.trim();
  };

  // The evaluation's names (eval:screening): peer-dev's and the own evaluation's, each screened once
  // as the contact flow screens a name (default options). CPU time, as the machine is shared.
  const peerFile = peerDevFile(dir);
  const { positives, negatives } = evaluationCases(entries);
  const evaluationNames = [
    ...(peerFile === undefined ? [] : readPeerCases(peerFile).map((c) => c.name)),
    ...positives.map((c) => c.text),
    ...negatives,
  ];
  const cpuTimings: number[] = [];
  for (const name of evaluationNames) {
    const c0 = process.cpuUsage();
    screen(index, { name });
    const c = process.cpuUsage(c0);
    cpuTimings.push((c.user + c.system) / 1000);
  }
  cpuTimings.sort((a, b) => a - b);
  console.log(
    `per-query CPU over peer-dev${peerFile === undefined ? " (not found)" : ""} + the own evaluation (${evaluationNames.length.toLocaleString("en-US")} names, each once): p50 ${ms(percentile(cpuTimings, 50))}  p99 ${ms(percentile(cpuTimings, 99))}  max ${ms(cpuTimings[cpuTimings.length - 1] ?? 0)}  target p99 ≤ 5 ms`,
  );

  const batch = Array.from({ length: 10_000 }, makeQuery);
  // CPU time too: on a shared machine wall time mostly measures the other processes.
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let batchFailed = 0;
  for (const name of batch) if (screen(index, { name }).status === "failed") batchFailed++;
  const total = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `10,000 names in a batch on this thread: CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (${(total / 1000).toFixed(2)} s wall, ${batchFailed} failed)  target < 5 s CPU`,
  );
  await batchOnWorkers(batch);
  await idleServerRss();
}

await main();
