import { mkdirSync } from "node:fs";
import path from "node:path";
import { openDatabase } from "../db/client";
import { migrateDatabase } from "../db/migrate";
import { seedReferenceData } from "../db/reference/seed";
import { users } from "../db/schema";
import pkg from "../package.json";
import { createApp } from "./app";
import { ConfigError, loadEnv, type TEnv } from "./env";
import { purgeUsedSignatures } from "./features/auth/auth.service";
import { purgeExpiredSessions } from "./features/auth/session.service";
import type { TAssetStore } from "./lib/assets";
import { createLogger } from "./lib/logger";
import { purgeRateLimits } from "./lib/rate-limit";
import { createServices } from "./services";
import type { TRenderPage } from "./ssr";

/** Where the process finds what differs between running from source and the compiled binary. */
export type TRuntime = {
  migrationsFolder: () => Promise<string>;
  assets: () => TAssetStore;
  render: () => Promise<TRenderPage>;
};

const HELP = `Tradewinds ${pkg.version}: trade shipments, paperwork and restricted-party screening.

Usage: tradewinds [command]

Commands:
  serve       Apply migrations, seed reference data and serve the app (default)
  migrate     Apply database migrations and seed reference data, then exit

Options:
  --help      Show this help
  --version   Show the version

Configuration comes from environment variables: PORT (8000), DATA_DIR (./data),
DATABASE_URL (file:<DATA_DIR>/app.db), DATABASE_AUTH_TOKEN, APP_URL (http://localhost:<PORT>),
LOG_LEVEL (info). See README.md.`;

/** Entry point shared by `bun server/main.ts` and the compiled binary; returns the exit code. */
export async function runCli(argv: string[], runtime: TRuntime): Promise<number> {
  const command = argv[0] ?? "serve";
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(HELP);
    return 0;
  }
  if (command === "--version" || command === "-v") {
    console.log(pkg.version);
    return 0;
  }
  let env: TEnv;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  if (command === "migrate") {
    const { close } = await prepareDatabase(env, runtime);
    close();
    console.log(`Database ready at ${env.databaseUrl}`);
    return 0;
  }
  if (command === "serve") return serve(env, runtime);
  console.error(`Unknown command "${command}". Run tradewinds --help for the list.`);
  return 2;
}

async function prepareDatabase(env: TEnv, runtime: TRuntime) {
  for (const dir of ["", "uploads", "outbox"]) mkdirSync(path.join(env.dataDir, dir), { recursive: true });
  const database = await openDatabase(env.databaseUrl, env.databaseAuthToken);
  await migrateDatabase(database.db, await runtime.migrationsFolder());
  await seedReferenceData(database.db);
  return database;
}

async function serve(env: TEnv, runtime: TRuntime): Promise<number> {
  const logger = createLogger(env.logLevel);
  const database = await prepareDatabase(env, runtime);
  const app = createApp({
    db: database.db,
    env,
    logger,
    ...createServices(env, logger),
    assets: runtime.assets(),
    render: await runtime.render(),
  });
  const housekeeping = () =>
    Promise.all([
      purgeExpiredSessions(database.db),
      purgeRateLimits(database.db),
      purgeUsedSignatures(database.db),
    ]).catch((error) => logger.error("housekeeping failed", { error: String(error) }));
  await housekeeping();
  const timer = setInterval(housekeeping, 60 * 60 * 1000);
  const server = Bun.serve({ port: env.port, fetch: app.fetch, idleTimeout: 60 });
  logger.info(`Tradewinds ${pkg.version} listening on http://localhost:${server.port}`, {
    data_dir: env.dataDir,
    database: env.databaseUrl.replace(/\/\/[^@]*@/, "//***@"),
  });
  const [anyUser] = await database.db.select({ id: users.id }).from(users).limit(1);
  if (!anyUser) {
    logger.info(`No accounts yet. Create the first one at ${env.appUrl}/auth/register`);
  }
  let isStopping = false;
  const shutdown = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    logger.info(`${signal} received: finishing in-flight requests`);
    // stop(false) refuses new connections and resolves once in-flight requests are answered.
    clearInterval(timer);
    await server.stop(false);
    database.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  return new Promise<number>(() => {});
}
