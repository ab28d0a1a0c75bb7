import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type TDatabase } from "../../db/client";
import { migrateDatabase } from "../../db/migrate";
import { seedReferenceData } from "../../db/reference/seed";
import { createApp, type TAppDeps } from "../app";
import { loadEnv, type TEnv } from "../env";
import { seedShippedEdition } from "../features/export-control/ear-tables";
import { seedBundledLists } from "../features/screening/lists.service";
import { createLogger } from "../lib/logger";
import { databaseStorage, type TStorage } from "../lib/storage";
import { createServices } from "../services";

const MIGRATIONS = path.resolve(import.meta.dir, "../../db/migrations");

/**
 * A migrated and seeded database file, built once per migration set and copied per test file:
 * migrating for every test would dominate the run time.
 */
async function templateDatabase(): Promise<string> {
  const key = Bun.hash(
    readdirSync(MIGRATIONS)
      .filter((f) => f.endsWith(".sql"))
      .map((f) => readFileSync(path.join(MIGRATIONS, f), "utf8"))
      .join("\n") +
      readFileSync(path.resolve(import.meta.dir, "../../db/reference/seed.ts"), "utf8") +
      readdirSync(path.resolve(import.meta.dir, "../../db/screening-lists")).join(","),
  ).toString(16);
  const file = path.join(tmpdir(), `tradewinds-test-template-${key}.db`);
  if (existsSync(file)) return file;
  const building = `${file}.${process.pid}.tmp`;
  const database = await openDatabase(`file:${building}`);
  await migrateDatabase(database.db, MIGRATIONS);
  await seedReferenceData(database.db);
  await seedBundledLists(database.db, path.resolve(import.meta.dir, "../../db/screening-lists"));
  await seedShippedEdition(database.db);
  await database.client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  await database.client.execute("PRAGMA journal_mode = DELETE");
  database.close();
  renameSync(building, file);
  return file;
}

export type TTestContext = {
  app: ReturnType<typeof createApp>;
  database: TDatabase;
  env: TEnv;
  dataDir: string;
};

/** A fresh app over its own copy of the template database, with a temporary DATA_DIR. */
export async function createTestContext(overrides: Record<string, string> = {}): Promise<TTestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-test-"));
  const dbFile = path.join(dataDir, "app.db");
  copyFileSync(await templateDatabase(), dbFile);
  // A high attempt limit keeps ordinary tests clear of the rate limiter; its own test lowers it.
  const env = loadEnv({
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    AUTH_RATE_LIMIT: "1000",
    ...overrides,
  });
  const database = await openDatabase(env.databaseUrl);
  const app = appOver({ database, env });
  return { app, database, env, dataDir };
}

/** Another app over a context's database and settings, with some of its parts replaced (a mailer, say). */
export function appOver(
  ctx: Pick<TTestContext, "database" | "env">,
  replaced: Partial<TAppDeps> = {},
): ReturnType<typeof createApp> {
  const logger = createLogger(ctx.env.logLevel);
  return createApp({
    db: ctx.database.db,
    env: ctx.env,
    logger,
    ...createServices(ctx.env, logger, ctx.database.db),
    ...replaced,
  });
}

/** The app's upload storage over a context's database (what the running app reads and writes). */
export const storageOf = (ctx: Pick<TTestContext, "database" | "dataDir">): TStorage =>
  databaseStorage(ctx.database.client, { legacyRoot: path.join(ctx.dataDir, "uploads") });

/** The names (after "prefix/") of the stored files under a key prefix such as "documents", sorted. */
export async function storedNames(ctx: Pick<TTestContext, "database">, prefix: string): Promise<string[]> {
  const result = await ctx.database.client.execute({
    sql: "SELECT key FROM stored_files WHERE key LIKE ? ORDER BY key",
    args: [`${prefix}/%`],
  });
  return result.rows.map((row) => String(row.key).slice(prefix.length + 1));
}

/** The bytes stored under a key, or null when nothing is. */
export async function storedBytes(
  ctx: Pick<TTestContext, "database" | "dataDir">,
  key: string,
): Promise<Uint8Array | null> {
  const file = await storageOf(ctx).get(key);
  return file ? new Uint8Array(await file.arrayBuffer()) : null;
}
