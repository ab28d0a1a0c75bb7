// Benchmarks the restricted-party matching engine on all bundled lists: index build time and
// memory, single-query latency percentiles and a 10,000-name batch.
//
//   bun scripts/bench-screening.ts
//
// Reads lists from $SCREENING_DATA_DIR (default: db/screening-lists, else /work/shared/data/screening).

import { loadBundledLists, screeningDataDir } from "../server/features/screening/engine/bundled-lists";
import { entriesKey, indexKey, packIndex, unpackIndex } from "../server/features/screening/engine/index-pack";
import { buildIndex, screen } from "../server/features/screening/engine/screening-index";

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

function main(): void {
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
  let failed = 0;
  for (let i = 0; i < 2000; i++) {
    const name = makeQuery();
    const t0 = performance.now();
    const result = screen(index, { name, country: i % 3 === 0 ? "RU" : undefined });
    timings.push(performance.now() - t0);
    if (result.status === "failed") failed++;
  }
  timings.sort((a, b) => a - b);
  console.log(
    `2,000 single queries: p50 ${ms(percentile(timings, 50))}  p95 ${ms(percentile(timings, 95))}  p99 ${ms(percentile(timings, 99))}  max ${ms(timings[timings.length - 1] ?? 0)}  (${failed} failed)  target p99 ≤ 5 ms`,
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
    `10,000 names: ${(total / 1000).toFixed(2)} s total (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s), ${ms(total / batch.length)} per name (${batchFailed} failed)  target < 5 s`,
  );
}

main();
