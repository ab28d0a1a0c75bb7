// The Hrana test server answers @libsql/client the way the app relies on a libSQL server to.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Client, createClient } from "@libsql/client";
import { assertForeignKeysEnforced, ForeignKeysOffError } from "../../db/client";
import { startHranaServer, type THranaServer } from "./hrana-server";

const dir = mkdtempSync(path.join(tmpdir(), "tradewinds-hrana-"));
let server: THranaServer;
let client: Client;
beforeAll(async () => {
  server = startHranaServer({ file: path.join(dir, "db.sqlite"), streamIdleMs: 300 });
  client = createClient({ url: server.url });
  await client.executeMultiple(`
    CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT, data BLOB, price REAL);
    CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent (id));
  `);
});
afterAll(() => {
  client.close();
  server.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("statements with arguments: integers, reals, text, blobs, RETURNING and the affected count", async () => {
  const inserted = await client.execute({
    sql: "INSERT INTO parent (name, data, price) VALUES (?, ?, ?) RETURNING id, name",
    args: ["Acme", new Uint8Array([0, 1, 255]), 12.5],
  });
  expect(inserted.rowsAffected).toBe(1);
  expect(inserted.rows[0].name).toBe("Acme");
  const id = Number(inserted.rows[0].id);
  const read = await client.execute({ sql: "SELECT * FROM parent WHERE id = :id", args: { id } });
  expect(read.columns).toEqual(["id", "name", "data", "price"]);
  expect(read.columnTypes).toEqual(["INTEGER", "TEXT", "BLOB", "REAL"]);
  expect(new Uint8Array(read.rows[0].data as ArrayBuffer)).toEqual(new Uint8Array([0, 1, 255]));
  expect(read.rows[0].price).toBe(12.5);
  const updated = await client.execute({
    sql: "UPDATE parent SET name = 'Acme Ltd' WHERE id = ?",
    args: [id],
  });
  expect(updated.rowsAffected).toBe(1);
});

test("a failed statement answers with SQLite's code; foreign keys are enforced", async () => {
  const failure = await client.execute("INSERT INTO child (parent_id) VALUES (999999)").catch((e) => e);
  expect(String(failure.code)).toStartWith("SQLITE_CONSTRAINT");
  expect(String(failure.message)).toContain("FOREIGN KEY");
});

test("a batch is all or nothing", async () => {
  const before = (await client.execute("SELECT count(*) AS n FROM parent")).rows[0].n;
  const failure = await client
    .batch(
      ["INSERT INTO parent (name) VALUES ('In batch')", "INSERT INTO child (parent_id) VALUES (999999)"],
      "write",
    )
    .catch((e) => e);
  expect(failure).toBeInstanceOf(Error);
  expect((await client.execute("SELECT count(*) AS n FROM parent")).rows[0].n).toBe(before);
});

test("an interactive transaction spans requests on its own stream, and rolls back", async () => {
  const tx = await client.transaction("write");
  await tx.execute("INSERT INTO parent (name) VALUES ('Uncommitted')");
  expect((await tx.execute("SELECT count(*) AS n FROM parent WHERE name = 'Uncommitted'")).rows[0].n).toBe(1);
  expect(
    (await client.execute("SELECT count(*) AS n FROM parent WHERE name = 'Uncommitted'")).rows[0].n,
  ).toBe(0);
  await tx.rollback();
  tx.close();
  expect(
    (await client.execute("SELECT count(*) AS n FROM parent WHERE name = 'Uncommitted'")).rows[0].n,
  ).toBe(0);
});

test("one writer: a second write transaction waits for the first to commit, without blocking readers", async () => {
  const first = await client.transaction("write");
  await first.execute("INSERT INTO parent (name) VALUES ('First')");
  let isSecondDone = false;
  const second = (async () => {
    const tx = await client.transaction("write");
    await tx.execute("INSERT INTO parent (name) VALUES ('Second')");
    await tx.commit();
    tx.close();
    isSecondDone = true;
  })();
  await Bun.sleep(100);
  expect(isSecondDone).toBe(false);
  expect((await client.execute("SELECT count(*) AS n FROM parent WHERE name = 'Second'")).rows[0].n).toBe(0);
  await first.commit();
  first.close();
  await second;
  expect(
    (await client.execute("SELECT count(*) AS n FROM parent WHERE name IN ('First', 'Second')")).rows[0].n,
  ).toBe(2);
});

test("a stream left idle (its client gone) is closed and its transaction rolled back", async () => {
  const abandoned = await client.transaction("write");
  await abandoned.execute("INSERT INTO parent (name) VALUES ('Abandoned')");
  expect(server.openStreams()).toBe(1);
  await Bun.sleep(600);
  expect(server.openStreams()).toBe(0);
  // The write lock is free again and nothing of the abandoned transaction remains.
  await client.execute("INSERT INTO parent (name) VALUES ('After')");
  expect((await client.execute("SELECT count(*) AS n FROM parent WHERE name = 'Abandoned'")).rows[0].n).toBe(
    0,
  );
  expect(await abandoned.commit().catch((e) => e)).toBeInstanceOf(Error);
});

test("with foreign keys off, a row pointing at nothing is accepted (what the app refuses to start on)", async () => {
  const off = startHranaServer({ file: path.join(dir, "off.sqlite"), foreignKeys: false });
  const offClient = createClient({ url: off.url });
  try {
    await offClient.executeMultiple(
      "CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (p INTEGER REFERENCES p (id));",
    );
    expect((await offClient.execute("INSERT INTO c (p) VALUES (42)")).rowsAffected).toBe(1);
  } finally {
    offClient.close();
    off.stop();
  }
});

test("temporary tables are refused, as sqld refuses them", async () => {
  const refused = await client.execute("CREATE TEMP TABLE scratch (id INTEGER)").catch((e) => e);
  expect(String(refused.message)).toContain("unsupported statement");
});

test("the start-up foreign-key probe passes on a server enforcing them, fails on one that does not, and leaves no table", async () => {
  await assertForeignKeysEnforced(client);
  const tables = await client.execute("SELECT name FROM sqlite_schema WHERE name LIKE 'fk_probe%'");
  expect(tables.rows).toEqual([]);
  const off = startHranaServer({ file: path.join(dir, "probe-off.sqlite"), foreignKeys: false });
  const offClient = createClient({ url: off.url });
  try {
    expect(await assertForeignKeysEnforced(offClient).catch((e) => e)).toBeInstanceOf(ForeignKeysOffError);
    const left = await offClient.execute("SELECT name FROM sqlite_schema WHERE name LIKE 'fk_probe%'");
    expect(left.rows).toEqual([]);
  } finally {
    offClient.close();
    off.stop();
  }
});
