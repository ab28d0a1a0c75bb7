// Builds the screening index in a child process (the program started again with INDEX_BUILD_COMMAND)
// and stores it on disk, for a server that found no stored index: the child reads the entries,
// builds, writes the packed index and exits, and the server then maps the stored index exactly as a
// later start does. A build on a worker thread of the server left ~70 MB more resident for good (the
// entries read on the main thread, their copy to the worker, the thread's heap the allocator keeps):
// a process that ends gives all of it back.
import type { TEnv } from "../../env";
import { LIFELINE, watchedChildEnv } from "../../lib/bulk-process";
import { createLogger } from "../../lib/logger";

/** The child's command (not one for people), and how the server starts it. */
export const INDEX_BUILD_COMMAND = "build-screening-index";

/** A build that has not ended after this long is stopped (it takes seconds; the caller then builds). */
const CHILD_DEADLINE_MS = 10 * 60 * 1000;

/**
 * Runs `self` (how to start this program again) with INDEX_BUILD_COMMAND to store the index in
 * `cacheDir`, and waits for it to end; an error when it could not start or did not succeed (the
 * caller then builds another way). The child inherits this process's environment, so it opens the
 * same database; descriptor 3 is the lifeline it watches to end with this process (bulk-process.ts).
 */
export async function buildIndexInChild(
  self: readonly string[],
  cacheDir: string,
  deadlineMs = CHILD_DEADLINE_MS,
): Promise<{ error?: string }> {
  let child: ReturnType<typeof Bun.spawn<"ignore", "ignore", "pipe">>;
  try {
    child = Bun.spawn([...self, INDEX_BUILD_COMMAND, cacheDir], {
      env: watchedChildEnv(process.env),
      stdio: ["ignore", "ignore", "pipe", LIFELINE],
    });
  } catch (error) {
    return reported({ error: String(error) });
  }
  const deadline = setTimeout(() => child.kill("SIGKILL"), deadlineMs);
  try {
    const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    if (code === 0) return {};
    const why = stderr.trim().split("\n").pop();
    return reported({
      error: `the index build process stopped (exit ${code ?? child.signalCode})${why ? `: ${why}` : ""}`,
    });
  } finally {
    clearTimeout(deadline);
  }
}

/** The start of the warning a failed build process gives (test:binary looks for it). */
export const INDEX_BUILD_FALLBACK =
  "the screening index build process could not start or failed; the index is built in this process";

/**
 * Says that the build process failed (the build then runs in this process, on a worker where one
 * starts): the results are the same, the server's memory is not. Quiet under `bun test`, where
 * tests make it fail on purpose.
 */
function reported(failure: { error: string }): { error: string } {
  if (process.env.NODE_ENV !== "test")
    createLogger((process.env.LOG_LEVEL ?? "info") as TEnv["logLevel"]).warn(INDEX_BUILD_FALLBACK, {
      reason: failure.error,
    });
  return failure;
}
