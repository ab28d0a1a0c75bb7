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
