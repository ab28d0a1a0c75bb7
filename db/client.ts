import { mkdirSync } from "node:fs";
import path from "node:path";
import { type Client, createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import * as schema from "./schema";

export type TDb = ReturnType<typeof drizzle<typeof schema>>;
export type TDatabase = { db: TDb; client: Client; close: () => void };

/** Opens the database: an embedded file by default, a libSQL server when the URL says so. */
export async function openDatabase(url: string, authToken?: string): Promise<TDatabase> {
  if (url.startsWith("file:")) {
    mkdirSync(path.dirname(url.slice("file:".length)), { recursive: true });
  }
  const client = createClient({ url, authToken });
  if (url.startsWith("file:")) {
    // WAL lets readers run during a write; foreign keys are off by default in SQLite.
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute("PRAGMA busy_timeout = 5000");
    await client.execute("PRAGMA synchronous = NORMAL");
  }
  await client.execute("PRAGMA foreign_keys = ON");
  const db = drizzle(client, { schema });
  return { db, client, close: () => client.close() };
}
