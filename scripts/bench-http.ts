// npm run bench:http: throughput of /api/health and one server-rendered page, measured with wrk on
// 127.0.0.1 against a real server with a temporary DATA_DIR. Prints figures; asserts nothing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureClientBuild, startServer } from "./lib";

const wrk = Bun.which("wrk");
if (!wrk) {
  console.error("wrk is not installed: apt-get install -y wrk");
  process.exit(1);
}
await ensureClientBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-bench-"));
const server = await startServer({ DATA_DIR: dataDir });
const base = server.url;
try {
  // A signed-in session, so the protected page renders instead of redirecting to login.
  const account = {
    title: "Ms.",
    name: "Bench",
    surname: "User",
    email: "bench@example.com",
    password: "bench password",
  };
  await fetch(`${base}/api/register`, {
    method: "POST",
    body: JSON.stringify(account),
    headers: { "content-type": "application/json" },
  });
  const login = await fetch(`${base}/api/login`, {
    method: "POST",
    body: JSON.stringify({ email: account.email, password: account.password }),
    headers: { "content-type": "application/json" },
  });
  const { token } = (await login.json()) as { token: string };
  const duration = process.env.BENCH_SECONDS ?? "10";
  const targets: [string, string, string[]][] = [
    ["/api/health", "health (DB query)", []],
    ["/auth/login", "SSR public page", []],
    ["/api/user", "API with session", ["-H", `Authorization: Bearer ${token}`]],
    ["/home", "SSR signed-in page", ["-H", `Cookie: twsession=${token}`]],
  ];
  for (const [target, label, headers] of targets) {
    const run = Bun.spawnSync([
      wrk,
      "-t2",
      "-c32",
      `-d${duration}s`,
      "--latency",
      ...headers,
      `${base}${target}`,
    ]);
    const out = run.stdout.toString();
    const rps = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
    const p50 = /^\s+50%\s+(\S+)/m.exec(out)?.[1];
    const p99 = /^\s+99%\s+(\S+)/m.exec(out)?.[1];
    const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? "0";
    console.log(
      `${label.padEnd(20)} ${target.padEnd(12)} ${rps} req/s  p50 ${p50}  p99 ${p99}  non-2xx ${errors}`,
    );
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
