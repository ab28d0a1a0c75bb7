import type { TEnv } from "../env";

const ORDER = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type TLevel = Exclude<keyof typeof ORDER, "silent">;

export type TLogger = Record<TLevel, (message: string, fields?: Record<string, unknown>) => void>;

/** A one-line-per-event logger: `time level message key=value…`, quiet below the configured level. */
export function createLogger(level: TEnv["logLevel"]): TLogger {
  const write = (at: TLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    const extra = fields
      ? ` ${Object.entries(fields)
          .map(([k, v]) => `${k}=${typeof v === "string" && !/\s/.test(v) ? v : JSON.stringify(v)}`)
          .join(" ")}`
      : "";
    const line = `${new Date().toISOString()} ${at.toUpperCase()} ${message}${extra}`;
    if (at === "error" || at === "warn") console.error(line);
    else console.log(line);
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}
