// Bulk commands (a contacts import, a list import that re-screens every contact, the demo seed) run
// in a child process whose native allocator keeps the memory it frees (decision 012). Bun's
// mimalloc returns freed pages to the OS 10 ms after they are freed (madvise), and a bulk write
// frees and reallocates the same megabytes all the time (statement parameters, messages between
// threads, SQLite's pages): a 100,000-row import spent ~8 s of system time faulting those pages in
// again. mimalloc reads its options once, when the process starts, so the setting has to be in the
// environment before the process exists: hence the child. The server keeps the default, so its idle
// memory goes back to the OS.
//
// The child also compiles less and warms up no heap ahead of need (BULK_JIT, BULK_NO_HEAP_WARM_UP below). This module is imported before anything else of the
// command line, so it imports nothing heavy.

/** The environment variable, and the value, that make mimalloc keep freed memory for reuse. */
export const KEEP_FREED_MEMORY = { name: "MIMALLOC_PURGE_DELAY", value: "-1" } as const;

/**
 * JavaScriptCore's top tier (FTL) compiles a function once it has run hot long enough, on compiler
 * threads that take a core of their own: a bulk command's three busy threads (the writes, the parse
 * worker, the screening worker) gave ~18 % of all its CPU to the compiler on two cores (perf, 20,000
 * new contacts), for code that mostly ran well enough on the tier below. Ten times the default
 * threshold leaves FTL to the hottest functions (the screening engine's scoring of a file of
 * distinct names still gets it). 20,000 new contacts: 3.9–4.8 s against 4.9–5.2 s, the
 * same or better at 100,000 and with every name distinct. Set by the operator, theirs is kept; an
 * operator who sets MIMALLOC_PURGE_DELAY gets no child, so neither setting of ours.
 */
export const BULK_JIT = { name: "BUN_JSC_thresholdForFTLOptimizeAfterWarmUp", value: "1000000" } as const;

/**
 * JavaScriptCore warms up heap blocks ahead of need on a thread of its own ("JSCWarmUp"): ~5 % of a
 * bulk command's CPU (perf, 20,000 new contacts), taken on two cores from the threads doing the
 * work, for page faults those threads would take anyway. Off in the child: 3.70–4.45 s against
 * 3.85–4.71 s in ten alternating runs. Set by the operator, theirs is kept.
 */
export const BULK_NO_HEAP_WARM_UP = { name: "BUN_JSC_useWarmUpMarkedBlocks", value: "0" } as const;

/** Set in the child, so it knows it is one and watches its parent. */
const CHILD_MARK = "TRADEWINDS_BULK_CHILD";

/** The environment of a bulk child: `env` with the allocator's, the compiler's and the heap's settings. */
export function bulkChildEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return {
    [BULK_JIT.name]: BULK_JIT.value,
    [BULK_NO_HEAP_WARM_UP.name]: BULK_NO_HEAP_WARM_UP.value,
    ...env,
    [KEEP_FREED_MEMORY.name]: KEEP_FREED_MEMORY.value,
    [CHILD_MARK]: "1",
  };
}

/** The commands that write in bulk; their help and usage errors don't need a child, but cost nothing. */
const BULK_COMMANDS = new Set(["import-contacts", "seed-demo", "screening-lists"]);

/** How often the child checks its parent is still there. */
const PARENT_POLL_MS = 25;

/**
 * Runs this command again in a child process with KEEP_FREED_MEMORY set, when it is a bulk command
 * and the environment does not already say how the allocator should behave; resolves to the child's
 * exit code. Null: run the command in this process. `self` is how to start this program again
 * (the bun executable and the entry script when running from source, the executable alone when
 * compiled); `args` are the command's arguments.
 */
export function runInBulkChild(self: string[], args: string[]): Promise<number> | null {
  if (process.env[CHILD_MARK] === "1") {
    watchParent();
    return null;
  }
  if (!BULK_COMMANDS.has(args[0] ?? "") || process.env[KEEP_FREED_MEMORY.name] !== undefined) return null;
  let child: ReturnType<typeof Bun.spawn>;
  try {
    child = Bun.spawn([...self, ...args], {
      env: bulkChildEnv(process.env),
      stdio: ["inherit", "inherit", "inherit"],
    });
  } catch {
    // No child could start (no process slots left): the command runs here, only slower.
    return null;
  }
  // Ctrl-C reaches the child from the terminal (same process group); a signal sent to this process
  // alone (kill, a service manager) is passed on, and this process waits for the child to end.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
    process.on(signal, () => {
      try {
        child.kill(signal);
      } catch {}
    });
  return child.exited.then((code) => code ?? 1);
}

/**
 * The child ends at once when its parent is gone (killed with SIGKILL, which the parent cannot pass
 * on): an import then rolls back, exactly as the command killed in one process did, instead of
 * going on unseen and committing.
 */
function watchParent(): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, "SIGKILL");
  }, PARENT_POLL_MS);
  timer.unref();
}
