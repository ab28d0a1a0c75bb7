// npm run bench:http: throughput of /api/health and one server-rendered page, measured with wrk on
// 127.0.0.1 against a real server with a temporary DATA_DIR. Prints figures; asserts nothing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureClientBuild, ROOT } from "./lib";

const wrk = Bun.which("wrk");
if (!wrk) {
  console.error("wrk is not installed: apt-get install -y wrk");
  process.exit(1);
}
await ensureClientBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-bench-"));
const probe = Bun.serve({ port: 0, fetch: () => new Response() });
const port = probe.port;
probe.stop(true);
const base = `http://127.0.0.1:${port}`;
const server = Bun.spawn([process.execPath, path.join(ROOT, "server", "main.ts"), "serve"], {
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "silent" },
  stdio: ["ignore", "ignore", "inherit"],
});
try {
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`${base}/api/health`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    await Bun.sleep(50);
  }
  const duration = process.env.BENCH_SECONDS ?? "10";
  for (const target of ["/api/health", "/contacts", "/home"]) {
    const run = Bun.spawnSync([wrk, "-t2", "-c32", `-d${duration}s`, "--latency", `${base}${target}`]);
    const out = run.stdout.toString();
    const rps = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
    const p50 = /50%\s+(\S+)/.exec(out)?.[1];
    const p99 = /99%\s+(\S+)/.exec(out)?.[1];
    const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? "0";
    console.log(`${target.padEnd(14)} ${rps} req/s  p50 ${p50}  p99 ${p99}  non-2xx ${errors}`);
  }
} finally {
  server.kill("SIGTERM");
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
