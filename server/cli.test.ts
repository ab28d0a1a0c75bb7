import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { screeningWorkerPlan } from "./features/contacts/contact-import-child";

const MAIN = path.resolve(import.meta.dir, "main.ts");

describe("tradewinds commands", () => {
  test("--version and --help answer without touching a database", () => {
    const version = Bun.spawnSync([process.execPath, MAIN, "--version"]);
    expect(version.stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = Bun.spawnSync([process.execPath, MAIN, "--help"]);
    expect(help.stdout.toString()).toContain("migrate");
    const unknown = Bun.spawnSync([process.execPath, MAIN, "frobnicate"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr.toString()).toContain('Unknown command "frobnicate"');
  });

  test("serve on an empty DATA_DIR prints where to create the first account", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-cli-"));
    const proc = Bun.spawn([process.execPath, MAIN, "serve"], {
      env: {
        ...process.env,
        PORT: "0",
        DATA_DIR: dataDir,
        APP_URL: "http://trade.example.test",
        LOG_LEVEL: "info",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    let output = "";
    const reader = proc.stdout.getReader();
    const decoder = new TextDecoder();
    const deadline = Date.now() + 15_000;
    while (!output.includes("/auth/register") && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      output += decoder.decode(value);
    }
    proc.kill("SIGTERM");
    const code = await proc.exited;
    // Say why in the test output when it did not stop cleanly.
    if (code !== 0) console.error(await new Response(proc.stderr).text());
    expect(code).toBe(0);
    rmSync(dataDir, { recursive: true, force: true });
    expect(output).toContain(
      "No accounts yet. Create the first one at http://trade.example.test/auth/register",
    );
  });

  test("migrate prepares the database and exits", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-cli-"));
    const run = Bun.spawnSync([process.execPath, MAIN, "migrate"], {
      env: { ...process.env, DATA_DIR: dataDir },
    });
    expect(run.exitCode).toBe(0);
    expect(run.stdout.toString()).toContain(`Database ready at file:${dataDir}/app.db`);
    rmSync(dataDir, { recursive: true, force: true });
  });
});

describe("import-contacts screening workers", () => {
  test("a second worker only for big files, with a core left for the import's own writes, or once most names prove distinct", () => {
    expect(screeningWorkerPlan(200_000, 8)).toEqual({ workers: 1, mayAddOne: false });
    expect(screeningWorkerPlan(2_000_000, 3)).toEqual({ workers: 2, mayAddOne: false });
    expect(screeningWorkerPlan(2_000_000, 16)).toEqual({ workers: 2, mayAddOne: false });
    // On two cores, a second worker only once the first's scoring shows most names are distinct
    // (scoring is then the import's critical path), and never for a small file.
    expect(screeningWorkerPlan(2_000_000, 2)).toEqual({ workers: 1, mayAddOne: true });
    expect(screeningWorkerPlan(200_000, 2)).toEqual({ workers: 1, mayAddOne: false });
  });
});
