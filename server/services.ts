import path from "node:path";
import type { TEnv } from "./env";
import type { TLogger } from "./lib/logger";
import { createMailer } from "./lib/mailer";
import { loadAppSecret } from "./lib/secret";
import { localDiskStorage } from "./lib/storage";

/** The process-wide services every entry point (serve, dev, tests) hands to createApp. */
export function createServices(env: TEnv, logger: TLogger) {
  return {
    mailer: createMailer(env, logger),
    storage: localDiskStorage(path.join(env.dataDir, "uploads")),
    secret: loadAppSecret(env),
  };
}
