import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Client, createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import type { TDb } from "./db-type";
import { attachReader } from "./reader";
import * as schema from "./schema";
import { HOLD_WRITE_LOCK, withWriteLock } from "./write-lock";

export type { TDb };
export type TDatabase = { db: TDb; client: Client; close: () => void };

/**
 * How long a write waits for another PROCESS's write lock (e.g. a CLI import) before failing with
 * SQLITE_BUSY. Within this process writes queue on withWriteLock instead.
 */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Page cache, in KiB, that bulk writes (a contacts import, the recording of its screenings) give
 * their connection; SQLite allocates it only as pages are used. The default 2,000 pages made a big
 * import read and write the same index pages again for every batch.
 */
export const BULK_WRITE_CACHE_KIB = 131_072;

/**
 * Holds this process's write lock until the returned function is called: this process's writes
 * queue behind work another thread does on its own connection (a web import's transaction).
 */
export async function holdWriteLock(db: TDb): Promise<() => void> {
  const hold = (db.$client as unknown as { [HOLD_WRITE_LOCK]?: () => Promise<() => void> })[HOLD_WRITE_LOCK];
  return hold ? hold() : () => {};
}

/** The SQLite code somewhere down drizzle's cause chain (SQLITE_BUSY answers 503, not 500). */
export function sqliteCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("SQLITE_")) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Opens the database: an embedded file by default, a libSQL server when the URL says so. */
export async function openDatabase(url: string, authToken?: string): Promise<TDatabase> {
  if (url.startsWith("file:")) {
    mkdirSync(path.dirname(url.slice("file:".length)), { recursive: true });
  }
  // The client pools connections, so per-connection settings go through its options: `timeout` is
  // the busy timeout of every connection, so a write waits for another one (an import's
  // transaction) instead of failing with SQLITE_BUSY.
  const client = withWriteLock(createClient({ url, authToken, timeout: BUSY_TIMEOUT_MS }));
  if (url.startsWith("file:")) {
    // WAL (a property of the file, so one statement sets it for all) lets readers run during a write.
    await client.execute("PRAGMA journal_mode = WAL");
  }
  await client.execute("PRAGMA foreign_keys = ON");
  const db = drizzle(client, { schema });
  const reader = attachReader(db, url, BUSY_TIMEOUT_MS);
  return {
    db,
    client,
    close: () => {
      reader.close();
      client.close();
    },
  };
}

/** The database does not enforce foreign keys on a fresh connection: serving would corrupt data. */
export class ForeignKeysOffError extends Error {}

/**
 * Proves that a fresh connection enforces foreign keys: inside a transaction of its own (a new
 * connection, or on a libSQL server a new stream) a row pointing at a missing parent must be
 * refused. `PRAGMA foreign_keys` only reaches the one connection it runs on, so correctness cannot
 * rest on it: a server whose default is off would let deletes leave orphan rows behind. The probe
 * tables are ordinary ones under a name of their own (sqld refuses temporary tables), created and
 * rolled back in the one transaction, so no other connection ever sees them.
 */
export async function assertForeignKeysEnforced(client: Client): Promise<void> {
  const probe = `fk_probe_${crypto.randomUUID().replaceAll("-", "")}`;
  const tx = await client.transaction("write");
  let isEnforced = false;
  try {
    await tx.execute(`CREATE TABLE ${probe}_parent (id INTEGER PRIMARY KEY)`);
    await tx.execute(`CREATE TABLE ${probe}_child (parent_id INTEGER REFERENCES ${probe}_parent (id))`);
    await tx.execute(`INSERT INTO ${probe}_child (parent_id) VALUES (1)`);
  } catch (error) {
    if (!/FOREIGN KEY/i.test(String((error as Error)?.message))) throw error;
    isEnforced = true;
  } finally {
    await tx.rollback().catch(() => {});
    tx.close();
  }
  if (!isEnforced) {
    throw new ForeignKeysOffError(
      "Cannot start: the database does not enforce foreign keys on a new connection, so deleting a record could leave rows pointing at nothing. Configure the libSQL server so that every connection enforces foreign keys, then start again.",
    );
  }
}
