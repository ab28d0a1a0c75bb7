// npm run bench:start: how fast the compiled binary answers after exec on an existing data folder,
// when its screening index is ready, and its resident memory at idle before and after the index.
// Builds dist/tradewinds when it is missing (BENCH_REBUILD=1 forces a build). Prints figures next to
// their targets; asserts nothing. The machine is shared, so expect noise: run it more than once.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, ROOT } from "./lib";

const BINARY = path.join(ROOT, "dist", "tradewinds");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

if (!existsSync(BINARY) || process.env.BENCH_REBUILD === "1") {
  const build = Bun.spawnSync([process.execPath, path.join(ROOT, "scripts", "build-binary.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (build.exitCode !== 0) process.exit(1);
}

const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-bench-start-"));
const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "info" };
// An existing data folder: migrated, seeded, lists loaded.
const migrate = Bun.spawnSync([BINARY, "migrate"], { env, stderr: "inherit" });
if (migrate.exitCode !== 0) {
  console.error("migrate failed");
  process.exit(1);
}

/** Resident set size of a process in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

type TRun = {
  firstHealth: number;
  listening: number;
  indexReady: number;
  rssBefore: number;
  rssAfter: number;
};

async function once(): Promise<TRun> {
  const port = freePort();
  const started = performance.now();
  const proc = Bun.spawn([BINARY, "serve"], {
    env: { ...env, PORT: String(port) },
    stdout: "pipe",
    stderr: "inherit",
  });
  const log: string[] = [];
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) log.push(decoder.decode(chunk, { stream: true }));
  })();
  const url = `http://127.0.0.1:${port}/api/health`;
  let firstHealth = 0;
  while (!firstHealth) {
    const isUp = await fetch(url)
      .then((res) => res.ok)
      .catch(() => false);
    if (isUp) firstHealth = performance.now() - started;
    else await Bun.sleep(5);
    if (performance.now() - started > 60_000) throw new Error("no answer within 60 s");
  }
  // Idle before the index: right after the first answer (the index builds a moment later).
  const rssBefore = rssMb(proc.pid);
  const fromLog = (key: string) => Number(new RegExp(`${key}=(\\d+)`).exec(log.join(""))?.[1] ?? Number.NaN);
  while (Number.isNaN(fromLog("start_to_index_ready_ms"))) {
    if (performance.now() - started > 120_000) throw new Error("index not ready within 120 s");
    await Bun.sleep(50);
  }
  // Let the garbage of the build be collected before reading the idle figure.
  await Bun.sleep(3_000);
  const rssAfter = rssMb(proc.pid);
  proc.kill("SIGTERM");
  await proc.exited;
  await reading;
  return {
    firstHealth,
    listening: fromLog("start_to_listening_ms"),
    indexReady: fromLog("start_to_index_ready_ms"),
    rssBefore,
    rssAfter,
  };
}

const runs: TRun[] = [];
for (let i = 0; i < RUNS; i++) runs.push(await once());
rmSync(dataDir, { recursive: true, force: true });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const row = (label: string, values: number[], unit: string, target: string) =>
  console.log(
    `${label.padEnd(40)} median ${median(values).toFixed(0).padStart(6)} ${unit.padEnd(3)} (runs: ${values
      .map((v) => v.toFixed(0))
      .join(", ")})  target ${target}`,
  );
console.log(`\ndist/tradewinds on an existing data folder, ${RUNS} runs (shared 2-core machine: noisy)`);
row(
  "exec → first /api/health answered",
  runs.map((r) => r.firstHealth),
  "ms",
  "< 500 ms",
);
row(
  "start → listening (server log)",
  runs.map((r) => r.listening),
  "ms",
  "—",
);
row(
  "start → screening index ready (log)",
  runs.map((r) => r.indexReady),
  "ms",
  "—",
);
row(
  "RSS at first answer (before the index)",
  runs.map((r) => r.rssBefore),
  "MB",
  "—",
);
row(
  "RSS idle with the index",
  runs.map((r) => r.rssAfter),
  "MB",
  "< 200 MB",
);
// The first run finds no stored screening index (DATA_DIR/cache): a worker builds and stores it.
// The later runs load it, as every restart of an installation does until its lists change.
console.log(
  `first run (index built on a worker and stored): index ready ${runs[0]?.indexReady.toFixed(0)} ms, idle RSS ${runs[0]?.rssAfter.toFixed(0)} MB; later runs load the stored index`,
);
