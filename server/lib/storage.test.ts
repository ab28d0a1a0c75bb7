import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type TDatabase } from "../../db/client";
import { migrateDatabase } from "../../db/migrate";
import { CHUNK_BYTES, databaseStorage, moveLegacyFiles } from "./storage";

const dir = mkdtempSync(path.join(tmpdir(), "tradewinds-storage-"));
const legacyRoot = path.join(dir, "uploads");
let database: TDatabase;
beforeAll(async () => {
  database = await openDatabase(`file:${path.join(dir, "app.db")}`);
  await migrateDatabase(database.db, path.resolve(import.meta.dir, "../../db/migrations"));
});
afterAll(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

const randomBytes = (size: number) => {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 65_536) crypto.getRandomValues(bytes.subarray(i, i + 65_536));
  return bytes;
};
const chunkRows = async (key: string) =>
  (
    await database.client.execute({
      sql: "SELECT count(*) AS n FROM stored_file_chunks WHERE key = ?",
      args: [key],
    })
  ).rows[0].n;

describe("files in the database", () => {
  test("a file over several chunks comes back byte for byte, streamed and whole; delete removes its chunks", async () => {
    const storage = databaseStorage(database.client);
    const bytes = randomBytes(2 * CHUNK_BYTES + 12_345);
    await storage.put("documents/abc123", bytes);
    expect(await chunkRows("documents/abc123")).toBe(3);
    const file = await storage.get("documents/abc123");
    expect(file?.size).toBe(bytes.length);
    expect(new Uint8Array(await new Response(file?.stream()).arrayBuffer())).toEqual(bytes);
    expect(new Uint8Array((await file?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(bytes);
    await storage.delete("documents/abc123");
    expect(await storage.get("documents/abc123")).toBeNull();
    expect(await chunkRows("documents/abc123")).toBe(0);
  });

  test("storing a key again replaces its bytes", async () => {
    const storage = databaseStorage(database.client);
    await storage.put("avatars/k1", randomBytes(CHUNK_BYTES + 1));
    await storage.put("avatars/k1", new Uint8Array([1, 2, 3]));
    expect(
      new Uint8Array((await (await storage.get("avatars/k1"))?.arrayBuffer()) ?? new ArrayBuffer(0)),
    ).toEqual(new Uint8Array([1, 2, 3]));
    expect(await chunkRows("avatars/k1")).toBe(1);
  });

  test("a key that is not a generated one is refused", async () => {
    const storage = databaseStorage(database.client);
    await expect(storage.get("../etc/passwd")).rejects.toThrow("Invalid storage key");
    await expect(storage.put("documents/../x", new Uint8Array([1]))).rejects.toThrow("Invalid storage key");
  });
});

describe("files an earlier version kept on disk", () => {
  test("are read from the disk until moved, then from the database; the spool folder is left alone", async () => {
    const storage = databaseStorage(database.client, { legacyRoot });
    const bytes = randomBytes(CHUNK_BYTES + 7);
    mkdirSync(path.join(legacyRoot, "documents"), { recursive: true });
    mkdirSync(path.join(legacyRoot, ".incoming", "req1"), { recursive: true });
    writeFileSync(path.join(legacyRoot, "documents", "old1"), bytes);
    writeFileSync(path.join(legacyRoot, ".incoming", "req1", "part"), "spooled");
    const before = await storage.get("documents/old1");
    expect(new Uint8Array((await before?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(bytes);

    expect(await moveLegacyFiles(legacyRoot, storage)).toBe(1);
    expect(existsSync(path.join(legacyRoot, "documents", "old1"))).toBe(false);
    expect(existsSync(path.join(legacyRoot, ".incoming", "req1", "part"))).toBe(true);
    expect(await chunkRows("documents/old1")).toBe(2);
    const after = await databaseStorage(database.client).get("documents/old1");
    expect(new Uint8Array((await after?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(bytes);
    expect(await moveLegacyFiles(legacyRoot, storage)).toBe(0);
  });

  test("deleting a key not yet moved removes the file from the disk", async () => {
    const storage = databaseStorage(database.client, { legacyRoot });
    writeFileSync(path.join(legacyRoot, "documents", "old2"), "x");
    await storage.delete("documents/old2");
    expect(existsSync(path.join(legacyRoot, "documents", "old2"))).toBe(false);
  });
});
