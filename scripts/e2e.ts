// Runs the Playwright specs against a real server on a free port with a temporary DATA_DIR.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureClientBuild, findChromium, ROOT } from "./lib";

const chromium = findChromium();
if (!chromium) {
  console.error(
    "No Chromium found for the browser tests. Install Debian's: apt-get install -y chromium " +
      "(or set CHROMIUM_PATH to a Chromium binary).",
  );
  process.exit(1);
}

await ensureClientBuild();

const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-e2e-"));
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const server = Bun.spawn([process.execPath, path.join(ROOT, "server", "main.ts"), "serve"], {
  cwd: ROOT,
  // Many sign-ups come from one IP in a run; the limiter has its own API tests.
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_URL: baseUrl,
    LOG_LEVEL: "warn",
    AUTH_RATE_LIMIT: "10000",
  },
  stdio: ["ignore", "inherit", "inherit"],
});

let code = 1;
try {
  await waitForHealth(baseUrl);
  const runner = Bun.spawn(
    [
      "node",
      path.join(ROOT, "node_modules", "@playwright", "test", "cli.js"),
      "test",
      "-c",
      "e2e/playwright.config.ts",
      ...process.argv.slice(2),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, E2E_BASE_URL: baseUrl, CHROMIUM_PATH: chromium, E2E_DATA_DIR: dataDir },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  code = await runner.exited;
} finally {
  server.kill("SIGTERM");
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = probe.port;
  probe.stop(true);
  if (!port) throw new Error("Could not find a free port");
  return port;
}

async function waitForHealth(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await Bun.sleep(100);
  }
  throw new Error(`The server did not answer ${url}/api/health within 30 s`);
}
