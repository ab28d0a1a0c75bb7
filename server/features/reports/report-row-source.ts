// Where the report's SQL runs on this thread: a read-only bun:sqlite connection or the libSQL client.
import { Database } from "bun:sqlite";
import type { Client } from "@libsql/client";

/** One row of a read query, its columns in the SELECT's order. */
export type TRow = ArrayLike<unknown>;

/** Runs one read query and answers its rows as arrays. */
export type TRowSource = (sql: string, args: (number | string)[]) => Promise<TRow[]>;

const readers = new Map<string, Database>();

/**
 * Where the report's pages are read from. For an embedded database file that is a read-only
 * bun:sqlite connection: measured on 100,000 lines, libSQL's client spent ~1.2–1.8 s building row
 * objects for a query SQLite itself ran in ~0.07 s, bun:sqlite ~0.2 s. A libSQL server URL (or a
 * file bun:sqlite cannot open) goes through the libSQL client. See docs/decisions/007-reports-read-path.md.
 */
export function reportRowSource(client: Client, databaseUrl: string): TRowSource {
  const viaClient: TRowSource = async (sql, args) => (await client.execute({ sql, args })).rows;
  if (!databaseUrl.startsWith("file:")) return viaClient;
  const file = databaseUrl.slice("file:".length).split("?")[0];
  let reader = readers.get(file);
  if (!reader) {
    try {
      reader = new Database(file, { readonly: true });
      readers.set(file, reader);
    } catch {
      return viaClient;
    }
  }
  const db = reader;
  return async (sql, args) => db.query(sql).values(...args) as TRow[];
}
