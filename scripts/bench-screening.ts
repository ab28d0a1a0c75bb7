// Benchmarks the restricted-party matching engine on all bundled lists: index build time and
// memory, single-query latency percentiles and a 10,000-name batch.
//
//   bun scripts/bench-screening.ts
//
// Reads lists from $SCREENING_DATA_DIR (default: db/screening-lists, else /work/shared/data/screening).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadBundledLists, screeningDataDir } from "../server/features/screening/engine/bundled-lists";
import { entriesKey, indexKey, packIndex, unpackIndex } from "../server/features/screening/engine/index-pack";
import { buildIndex, screen } from "../server/features/screening/engine/screening-index";
import { setIndexCacheDir } from "../server/features/screening/index-cache";
import { ScreeningWorkerPool, type TQuery } from "../server/features/screening/screening-worker";
import { ROOT } from "./lib";

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

async function main(): Promise<void> {
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

  for (let i = 0; i < 300; i++) screen(index, { name: makeQuery() });

  const timings: number[] = [];
  // CPU time per query as well: on a shared machine wall time mostly measures the other processes.
  const cpuTimings: number[] = [];
  let failed = 0;
  for (let i = 0; i < 2000; i++) {
    const name = makeQuery();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const result = screen(index, { name, country: i % 3 === 0 ? "RU" : undefined });
    timings.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpuTimings.push((c.user + c.system) / 1000);
    if (result.status === "failed") failed++;
  }
  timings.sort((a, b) => a - b);
  cpuTimings.sort((a, b) => a - b);
  console.log(
    `2,000 single queries: p50 ${ms(percentile(timings, 50))}  p95 ${ms(percentile(timings, 95))}  p99 ${ms(percentile(timings, 99))}  max ${ms(timings[timings.length - 1] ?? 0)}  (${failed} failed)  target p99 ≤ 5 ms`,
  );
  console.log(
    `  CPU per query: p50 ${ms(percentile(cpuTimings, 50))}  p99 ${ms(percentile(cpuTimings, 99))}  (process CPU time, all threads)`,
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
    `10,000 names on this thread: ${(total / 1000).toFixed(2)} s total (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s), ${ms(total / batch.length)} per name (${batchFailed} failed)`,
  );
  await batchOnWorkers(batch);
}

await main();
