import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@libsql/client";
import { openDatabase, type TDatabase } from "./client";
import { embeddedPath, readerOf } from "./reader";

let database: TDatabase;
let file: string;
beforeAll(async () => {
  file = path.join(mkdtempSync(path.join(tmpdir(), "tradewinds-reader-")), "app.db");
  database = await openDatabase(`file:${file}`);
  await database.client.execute(
    "create table t (id integer primary key, name text, amount real, flag integer)",
  );
  await database.client.execute(
    "insert into t (name, amount, flag) values ('one', 1.5, 1), ('two', null, 0)",
  );
});
afterAll(() => database.close());

describe("the read connection of an embedded database", () => {
  test("answers the same values as the client, as arrays in select-list order", async () => {
    const query = "select id, name, amount, flag from t order by id";
    const viaClient = (await database.client.execute(query)).rows.map((row) => [...Object.values(row)]);
    const viaReader = await readerOf(database.db).rows(query, []);
    expect(viaReader).toEqual(viaClient);
    expect(viaReader).toEqual([
      [1, "one", 1.5, 1],
      [2, "two", null, 0],
    ]);
  });

  test("binds booleans, null, undefined and dates the way the client does (a boolean aborted the process; a lone null was read as named parameters)", async () => {
    const reader = readerOf(database.db);
    const sql = "select count(*) from t where flag = ?";
    expect((await reader.rows(sql, [true]))[0][0]).toBe((await reader.rows(sql, [1]))[0][0]);
    expect((await reader.rows(sql, [false]))[0][0]).toBe(1);
    expect(await reader.rows("select ? is null", [undefined])).toEqual([[1]]);
    expect(await reader.rows("select ? is null", [null])).toEqual([[1]]);
    expect(await reader.rows("select length(?)", [new Uint8Array([1, 2, 3])])).toEqual([[3]]);
    expect(await reader.rows("select ?", [new Date(5)])).toEqual([[5]]);
  });

  test("sees every commit at the next read: of this client, and of another connection or process", async () => {
    const reader = readerOf(database.db);
    const count = async () => (await reader.rows("select count(*) from t where flag = ?", [1]))[0][0];
    expect(await count()).toBe(1);
    await database.client.execute("insert into t (name, flag) values ('three', 1)");
    expect(await count()).toBe(2);
    const other = createClient({ url: `file:${file}` });
    await other.execute("delete from t where name = 'one'");
    other.close();
    expect(await count()).toBe(1);
    // A transaction's writes are seen once it commits, not before.
    const tx = await database.client.transaction("write");
    await tx.execute("insert into t (name, flag) values ('four', 1)");
    expect(await count()).toBe(1);
    await tx.commit();
    expect(await count()).toBe(2);
  });

  test("a statement it keeps prepared still works after the schema changes", async () => {
    const reader = readerOf(database.db);
    expect((await reader.rows("select name from t where id = ?", [2]))[0]).toEqual(["two"]);
    await database.client.execute("alter table t add column note text");
    await database.client.execute("create index t_name_idx on t (name)");
    expect((await reader.rows("select name from t where id = ?", [2]))[0]).toEqual(["two"]);
  });

  test("only a database file gets its own connection; memory and remote URLs go through the client", async () => {
    expect(embeddedPath("file:/data/app.db")).toBe("/data/app.db");
    expect(embeddedPath("file:data/app.db")).toBe("data/app.db");
    expect(embeddedPath("file::memory:")).toBeNull();
    expect(embeddedPath("file:app.db?mode=memory")).toBeNull();
    expect(embeddedPath("libsql://db.example.com")).toBeNull();
    expect(embeddedPath("http://127.0.0.1:8080")).toBeNull();
    const memory = await openDatabase("file::memory:");
    await memory.client.execute("create table m (x)");
    await memory.client.execute("insert into m values (7)");
    expect(await readerOf(memory.db).rows("select x from m", [])).toEqual([[7]]);
    memory.close();
  });
});
