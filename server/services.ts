import path from "node:path";
import type { TDb } from "../db/client";
import type { TEnv } from "./env";
import { ScreeningRegistry } from "./features/screening/lists.service";
import { RescreenJob } from "./features/screening/rescreen";
import { ScreeningWorkerPool } from "./features/screening/screening-worker";
import type { TLogger } from "./lib/logger";
import { createMailer } from "./lib/mailer";
import { loadAppSecret } from "./lib/secret";
import { databaseStorage } from "./lib/storage";

/**
 * Runs over this many contacts screen on two workers: below it, a second index's load and memory
 * (~0.2 s, tens of MB) buy little.
 */
const POOL_MIN_CONTACTS = 10_000;

/** The process-wide services every entry point (serve, dev, tests) hands to createApp. */
export function createServices(env: TEnv, logger: TLogger, db: TDb) {
  const registry = new ScreeningRegistry(db);
  const threshold = env.screeningThreshold;
  return {
    mailer: createMailer(env, logger),
    // Uploads live in the database, where every process reaches them; files an earlier version left
    // in DATA_DIR/uploads are read from there until serve moves them in.
    storage: databaseStorage(db.$client, { legacyRoot: path.join(env.dataDir, "uploads") }),
    secret: loadAppSecret(env),
    screening: {
      registry,
      threshold,
      // Big runs (a large import, a list update) screen on a worker of their own, on the other core;
      // the biggest on two, each loading the stored index (~0.2 s) and holding its own copy.
      rescreen: new RescreenJob({ db, registry, threshold }, logger, undefined, (contacts) =>
        env.databaseUrl.includes(":memory:")
          ? null
          : ScreeningWorkerPool.start(env.databaseUrl, env.databaseAuthToken, threshold, {
              background: true,
              workers: contacts >= POOL_MIN_CONTACTS ? 2 : 1,
            }),
      ),
    },
  };
}
