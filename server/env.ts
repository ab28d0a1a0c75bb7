import path from "node:path";
import { z } from "zod";

const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;

// 0 asks the system for a free port (the tests use it); the log line says which one it got.
const PORT_RANGE = "must be a whole number between 0 and 65535 (0 picks a free port)";

const ZEnv = z.object({
  PORT: z.coerce
    .number({ error: PORT_RANGE })
    .int(PORT_RANGE)
    .min(0, PORT_RANGE)
    .max(65535, PORT_RANGE)
    .default(8000),
  DATA_DIR: z.string().min(1, "must not be empty").default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|libsql:|https?:|wss?:)/, "must start with file:, libsql:, http(s): or ws(s):")
    .optional(),
  DATABASE_AUTH_TOKEN: z.string().optional(),
  APP_URL: z.url({ error: "must be an absolute URL such as https://trade.example.com" }).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/]+/, "must look like smtp://user:pass@host:587 or smtps://user:pass@host:465")
    .optional(),
  MAIL_FROM: z.string().min(3, "must be an address such as Tradewinds <no-reply@example.com>").optional(),
  APP_SECRET: z
    .string()
    .min(32, "must be at least 32 characters (it signs reset and verification links)")
    .optional(),
  AUTH_RATE_LIMIT: z.coerce
    .number({ error: "must be a whole number of attempts (at least 1)" })
    .int("must be a whole number of attempts (at least 1)")
    .min(1, "must be a whole number of attempts (at least 1)")
    .default(10),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(0|[1-9])$/,
      "must be 0 (no proxy) or the number of your reverse proxies in front of the app (1-9)",
    )
    .default("0"),
  UPLOAD_MAX_MB: z.coerce
    .number({ error: "must be a number of megabytes between 1 and 1024" })
    .min(1, "must be a number of megabytes between 1 and 1024")
    .max(1024, "must be a number of megabytes between 1 and 1024")
    .default(25),
  SCREENING_THRESHOLD: z.coerce
    .number({ error: "must be a number between 0.5 and 1" })
    .min(0.5, "must be a number between 0.5 and 1")
    .max(1, "must be a number between 0.5 and 1")
    .default(0.85),
  REPORTS_SERVER_PIVOT_LINES: z.coerce
    .number({ error: "must be a whole number of report lines (0 = always pivot on the server)" })
    .int("must be a whole number of report lines (0 = always pivot on the server)")
    .min(0, "must be a whole number of report lines (0 = always pivot on the server)")
    .default(200_000),
});

export type TEnv = {
  port: number;
  dataDir: string;
  databaseUrl: string;
  databaseAuthToken: string | undefined;
  appUrl: string;
  logLevel: (typeof LOG_LEVELS)[number];
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Signs e-mailed links; when unset, a random one is kept in DATA_DIR (see server/lib/secret.ts). */
  appSecret: string | undefined;
  /** Attempts per 15 minutes per IP and per e-mail on login, register, forgot and reset. */
  authRateLimit: number;
  /** Take the client IP from X-Forwarded-For (only behind a reverse proxy you control). */
  trustProxy: boolean;
  /**
   * How many reverse proxies of yours append to X-Forwarded-For (TRUST_PROXY=N): the client IP is
   * the Nth entry from the right, the one your outermost proxy wrote. Anything left of it the client
   * may have made up.
   */
  proxyHops: number;
  /** Largest accepted upload (documents, CSV imports) in bytes. */
  uploadMaxBytes: number;
  /** Score at or above which a screening fails (a potential match a person must clear). */
  screeningThreshold: number;
  /**
   * From how many report lines /reports pivots on the server (DuckDB in the app's process, only the
   * cells on screen sent) instead of in the browser over a download of every line; 0 = always.
   */
  reportsServerPivotLines: number;
};

/** Thrown for a bad configuration value; its message is one line naming the variable. */
export class ConfigError extends Error {}

/**
 * Parses configuration from the environment. Empty strings count as unset, so `PORT= npm start`
 * behaves like no PORT at all. A bad value throws ConfigError naming the variable.
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): TEnv {
  const raw = Object.fromEntries(
    Object.keys(ZEnv.shape).map((key) => [key, source[key] === "" ? undefined : source[key]]),
  );
  const parsed = ZEnv.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0]);
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue.message} (got ${JSON.stringify(raw[name])})`,
    );
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    port: env.PORT,
    dataDir,
    databaseUrl: env.DATABASE_URL ?? `file:${path.join(dataDir, "app.db")}`,
    databaseAuthToken: env.DATABASE_AUTH_TOKEN,
    appUrl: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    logLevel: env.LOG_LEVEL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? "Tradewinds <no-reply@tradewinds.local>",
    appSecret: env.APP_SECRET,
    authRateLimit: env.AUTH_RATE_LIMIT,
    trustProxy: env.TRUST_PROXY !== "0",
    proxyHops: Number(env.TRUST_PROXY),
    uploadMaxBytes: Math.floor(env.UPLOAD_MAX_MB * 1024 * 1024),
    screeningThreshold: env.SCREENING_THRESHOLD,
    reportsServerPivotLines: env.REPORTS_SERVER_PIVOT_LINES,
  };
}
