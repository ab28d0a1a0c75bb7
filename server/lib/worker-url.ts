// Where a worker thread's module is, from source and in the compiled executable.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TEnv } from "../env";
import { createLogger } from "./logger";

/**
 * Set by scripts/build-binary.ts to the folder the executable was built from (the common root of
 * its entry points); undefined when running from source.
 */
declare const TRADEWINDS_BUNDLE_ROOT: string | undefined;

/**
 * The specifier to start a worker with, for its module given as `new URL("./x.worker.ts",
 * import.meta.url)`. From source, that URL. In the executable, `import.meta.url` still names the
 * module's source file on the build machine, and a Worker started with it runs that FILE, compiled
 * at run time, where the executable resolves no package: its first import of a package (the
 * database driver) failed, so every worker fell back to the main thread, and on a machine without
 * the sources none could start at all. The entry embedded in the executable is named by its path
 * from the bundle's root instead ("./server/…/x.worker.ts"), which Bun resolves inside the
 * executable whatever the working directory.
 */
export function workerUrl(url: URL): string {
  if (typeof TRADEWINDS_BUNDLE_ROOT !== "string") return url.href;
  const fromRoot = path.relative(TRADEWINDS_BUNDLE_ROOT, fileURLToPath(url)).split(path.sep).join("/");
  return `./${fromRoot}`;
}

/** The workers whose fallback this process has already reported. */
const reported = new Set<string>();

/**
 * Says, once per worker module and process, that a worker could not start (or stopped) and its work
 * runs on the calling thread instead. Every fallback keeps the results, which is why, silent, they
 * hid for seven sessions that no worker of the executable ever started. A warning through the
 * project's logger (so quiet when LOG_LEVEL is error or silent); quiet under `bun test` too
 * (NODE_ENV=test: tests break workers on purpose).
 */
export function reportWorkerFallback(specifier: string, reason: string): void {
  if (process.env.NODE_ENV === "test") return;
  const module = specifier.split("/").pop() ?? specifier;
  if (reported.has(module)) return;
  reported.add(module);
  // Workers start where no logger is at hand (module-level pools); LOG_LEVEL was checked at start.
  const level = (process.env.LOG_LEVEL ?? "info") as TEnv["logLevel"];
  createLogger(level).warn(WORKER_FALLBACK, { worker: module, reason });
}

/** The start of the warning line (test:binary looks for it). */
export const WORKER_FALLBACK =
  "a worker thread could not start or stopped; its work runs on the calling thread";
