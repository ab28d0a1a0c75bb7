// npm run bench:http: throughput of /api/health, /api/user with a session and two server-rendered
// pages, measured with wrk (or scripts/load.ts without it) on 127.0.0.1 against a real server with a temporary DATA_DIR. Prints figures; asserts nothing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureClientBuild, startServer } from "./lib";
import { formatLoad, load, waitUntilWarm } from "./load";

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
  await waitUntilWarm(base, token);
  const duration = process.env.BENCH_SECONDS ?? "10";
  const targets: [string, string, Record<string, string>, number | undefined][] = [
    ["/api/health", "health (DB query)", {}, undefined],
    ["/auth/login", "SSR public page", {}, 2_000],
    ["/api/user", "API with session", { authorization: `Bearer ${token}` }, 5_000],
    ["/home", "SSR signed-in page", { cookie: `twsession=${token}` }, 2_000],
  ];
  console.log("Shared 2-core machine: figures are noisy, run more than once.");
  let tool = "";
  for (const [target, label, headers, goal] of targets) {
    const check = await fetch(`${base}${target}`, { headers, redirect: "manual" });
    if (check.status !== 200) console.error(`✖ ${target} answers ${check.status}, not 200`);
    const result = await load(`${base}${target}`, { headers, seconds: Number(duration) });
    tool = result.tool;
    console.log(formatLoad(`${label} ${target}`, result, goal));
  }
  console.log(`load from: ${tool}`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
