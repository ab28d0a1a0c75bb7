import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "./client";
import { migrateDatabase, withMigrationLock } from "./migrate";

const MIGRATIONS = path.resolve(import.meta.dir, "migrations");
const MAIN = path.resolve(import.meta.dir, "../server/main.ts");
const dir = mkdtempSync(path.join(tmpdir(), "tradewinds-migrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("migrating under a lock", () => {
  test("two connections migrating one empty database at once both succeed", async () => {
    const file = path.join(dir, "race.db");
    const [a, b] = [await openDatabase(`file:${file}`), await openDatabase(`file:${file}`)];
    const lock = `${file}.migrate-lock`;
    // Without the lock, both read "nothing applied" and the second fails: "table … already exists".
    const results = await Promise.allSettled([
      withMigrationLock(lock, () => migrateDatabase(a.db, MIGRATIONS)),
      withMigrationLock(lock, () => migrateDatabase(b.db, MIGRATIONS)),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    const rows = await a.db.all<{ n: number }>(sql`select count(*) as n from __drizzle_migrations`);
    expect(rows[0].n).toBeGreaterThan(0);
    expect(existsSync(lock)).toBe(false);
    a.close();
    b.close();
  });

  test("a lock left by a process that no longer exists is taken over", async () => {
    const lock = path.join(dir, "stale.lock");
    writeFileSync(lock, "999999999 2026-01-01T00:00:00.000Z");
    const result = await withMigrationLock(lock, async () => "ran");
    expect(result).toBe("ran");
    expect(existsSync(lock)).toBe(false);
  });

  test("two server processes started together on an empty data folder both migrate and seed", async () => {
    const dataDir = path.join(dir, "two-processes");
    const run = () =>
      Bun.spawn([process.execPath, MAIN, "migrate"], {
        env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
        stdout: "pipe",
        stderr: "pipe",
      });
    const children = [run(), run()];
    const codes = await Promise.all(children.map((child) => child.exited));
    const errors = await Promise.all(children.map((child) => new Response(child.stderr).text()));
    expect({ codes, errors }).toEqual({ codes: [0, 0], errors: ["", ""] });
  }, 180_000);
});
