// Runs the Playwright specs against a real server on a free port with a temporary DATA_DIR.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureClientBuild, ROOT, resolveChromium, startServer } from "./lib";

const chromium = await resolveChromium();
if ("error" in chromium) {
  console.error(chromium.error);
  process.exit(1);
}
console.log(`Chromium: ${chromium.source}`);

await ensureClientBuild();

const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-e2e-"));
// Many sign-ups come from one IP in a run; the limiter has its own API tests.
const server = await startServer(
  { DATA_DIR: dataDir, LOG_LEVEL: "warn", AUTH_RATE_LIMIT: "10000" },
  { logs: "inherit" },
);
const baseUrl = server.url;
// The reports spec runs a second time against a server that pivots every workspace on the server
// (REPORTS_SERVER_PIVOT_LINES=0), over the same database: Playwright's "server-pivot" project.
const args = process.argv.slice(2);
const pivotServer =
  args.every((arg) => arg.startsWith("-")) || args.some((arg) => arg.includes("reports"))
    ? await startServer(
        { DATA_DIR: dataDir, LOG_LEVEL: "warn", AUTH_RATE_LIMIT: "10000", REPORTS_SERVER_PIVOT_LINES: "0" },
        { logs: "inherit" },
      )
    : null;

let code = 1;
try {
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
      env: {
        ...process.env,
        ...chromium.env,
        E2E_BASE_URL: baseUrl,
        CHROMIUM_PATH: chromium.executablePath,
        E2E_DATA_DIR: dataDir,
        ...(pivotServer ? { E2E_PIVOT_BASE_URL: pivotServer.url } : {}),
      },
      stdio: ["ignore", "inherit", "inherit"],
    },
  );
  code = await runner.exited;
} finally {
  await pivotServer?.stop();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
