import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { encodeHexLowerCase } from "@oslojs/encoding";
import type { TEnv } from "../env";

/**
 * The key that signs e-mailed links: APP_SECRET when set (needed when several processes share a
 * database), otherwise a random one generated once and kept in DATA_DIR/secret.key (mode 0600).
 */
export function loadAppSecret(env: TEnv): string {
  if (env.appSecret) return env.appSecret;
  const file = path.join(env.dataDir, "secret.key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = encodeHexLowerCase(crypto.getRandomValues(new Uint8Array(32)));
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  return secret;
}
