import { defineConfig } from "@playwright/test";

// scripts/e2e.ts starts the real server on a free port and passes its URL and Chromium's path.
const baseURL = process.env.E2E_BASE_URL;
const executablePath = process.env.CHROMIUM_PATH;
if (!baseURL || !executablePath)
  throw new Error("Run the browser tests with npm run test:e2e (scripts/e2e.ts)");

// Set when the run includes the reports spec: a second server that pivots on the server (threshold 0).
const pivotBaseURL = process.env.E2E_PIVOT_BASE_URL;

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? "list" : [["list"]],
  outputDir: "../test-results",
  projects: [
    { name: "app" },
    ...(pivotBaseURL
      ? [{ name: "server-pivot", testMatch: "reports.spec.ts", use: { baseURL: pivotBaseURL } }]
      : []),
  ],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
