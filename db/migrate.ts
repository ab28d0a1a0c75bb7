import { migrate } from "drizzle-orm/libsql/migrator";
import type { TDb } from "./client";

/** Applies every committed drizzle-kit migration in `folder` that the database has not seen yet. */
export async function migrateDatabase(db: TDb, folder: string): Promise<void> {
  await migrate(db, { migrationsFolder: folder });
}
