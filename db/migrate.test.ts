import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "./client";
import { migrateDatabase, withDatabaseLock } from "./migrate";

const MIGRATIONS = path.resolve(import.meta.dir, "migrations");
const MAIN = path.resolve(import.meta.dir, "../server/main.ts");
const dir = mkdtempSync(path.join(tmpdir(), "tradewinds-migrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("migrating under a lock", () => {
  test("two connections migrating one empty database at once both succeed, the lock row is gone after", async () => {
    const file = path.join(dir, "race.db");
    const [a, b] = [await openDatabase(`file:${file}`), await openDatabase(`file:${file}`)];
    // Without the lock, both read "nothing applied" and the second fails: "table … already exists".
    let running = 0;
    let mostAtOnce = 0;
    const migrateWith = (database: typeof a) =>
      withDatabaseLock(database.client, "migrate", async () => {
        mostAtOnce = Math.max(mostAtOnce, ++running);
        await migrateDatabase(database.db, MIGRATIONS);
        running--;
      });
    const results = await Promise.allSettled([migrateWith(a), migrateWith(b)]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(mostAtOnce).toBe(1);
    const rows = await a.db.all<{ n: number }>(sql`select count(*) as n from __drizzle_migrations`);
    expect(rows[0].n).toBeGreaterThan(0);
    expect((await a.client.execute("select count(*) as n from app_locks")).rows[0].n).toBe(0);
    a.close();
    b.close();
  });

  test("a lock whose holder died on this machine is taken over without waiting for its expiry", async () => {
    const database = await openDatabase(`file:${path.join(dir, "dead.db")}`);
    await withDatabaseLock(database.client, "warm", async () => {});
    await database.client.execute({
      sql: "INSERT INTO app_locks (name, owner, expires_at) VALUES ('migrate', ?, ?)",
      args: [`${hostname()} 999999999 x`, Date.now() + 3_600_000],
    });
    expect(await withDatabaseLock(database.client, "migrate", async () => "ran")).toBe("ran");
    database.close();
  });

  test("a live holder on another machine is waited for until its lock expires", async () => {
    const database = await openDatabase(`file:${path.join(dir, "expiry.db")}`);
    await withDatabaseLock(database.client, "warm", async () => {});
    await database.client.execute({
      sql: "INSERT INTO app_locks (name, owner, expires_at) VALUES ('migrate', 'elsewhere 1 x', ?)",
      args: [Date.now() + 600],
    });
    let isRan = false;
    const pending = withDatabaseLock(database.client, "migrate", async () => {
      isRan = true;
    });
    await Bun.sleep(200);
    expect(isRan).toBe(false);
    await pending;
    expect(isRan).toBe(true);
    database.close();
  });

  test("expiry runs on the database's clock: a process whose clock runs ahead still waits for a live holder", async () => {
    const database = await openDatabase(`file:${path.join(dir, "skew.db")}`);
    await withDatabaseLock(database.client, "warm", async () => {});
    await database.client.execute({
      sql: "INSERT INTO app_locks (name, owner, expires_at) VALUES ('migrate', 'elsewhere 1 x', ?)",
      args: [Date.now() + 600],
    });
    const realNow = Date.now;
    Date.now = () => realNow() + 60_000;
    let isRan = false;
    try {
      const pending = withDatabaseLock(database.client, "migrate", async () => {
        isRan = true;
      });
      await Bun.sleep(200);
      expect(isRan).toBe(false);
      await pending;
    } finally {
      Date.now = realNow;
    }
    expect(isRan).toBe(true);
    database.close();
  });

  test("two server processes started together on an empty data folder both migrate, and each list is seeded once", async () => {
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
    // Each bundled list was imported by one of them only.
    const database = await openDatabase(`file:${path.join(dataDir, "app.db")}`);
    const lists = await database.client.execute(
      "select source, count(*) as n from screening_lists group by source order by source",
    );
    database.close();
    expect(lists.rows.length).toBeGreaterThan(0);
    expect(lists.rows.every((row) => row.n === 1)).toBe(true);
  }, 180_000);
});
