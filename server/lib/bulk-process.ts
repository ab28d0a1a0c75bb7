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

import { fstatSync } from "node:fs";

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
    ...watchedChildEnv(env),
    [KEEP_FREED_MEMORY.name]: KEEP_FREED_MEMORY.value,
  };
}

/** `env` marked so that the child started with it watches its parent and ends with it (watchParent). */
export function watchedChildEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return { ...env, [CHILD_MARK]: "1" };
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
      // The lifeline on descriptor 3: nothing is written to it; it closes when this process ends.
      stdio: ["inherit", "inherit", "inherit", LIFELINE],
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
 * The child's end of a pipe from its parent, given as the spawn's fourth stdio entry so that it is
 * descriptor 3 in the child (LIFELINE_FD). The parent never writes to it; the kernel closes the
 * parent's end when the parent ends, however it ends (SIGKILL included), and the child reads EOF.
 */
export const LIFELINE = "pipe" as const;
const LIFELINE_FD = 3;

/**
 * The watcher thread: a blocking read of the lifeline, off the main thread, so the child notices its
 * parent's end at once even while its main thread is busy inside a long transaction (a timer there
 * waited for the loop: the child lived 1.2–2.0 s after its parent). On EOF (or any error but "try
 * again") it kills the whole process, so an import's transaction never reaches its commit.
 */
const LIFELINE_WATCHER = `
const fs = require("node:fs");
const buffer = Buffer.alloc(64);
const pause = new Int32Array(new SharedArrayBuffer(4));
for (;;) {
  let read = 0;
  try {
    read = fs.readSync(${LIFELINE_FD}, buffer, 0, buffer.length, null);
  } catch (error) {
    if (error && error.code === "EAGAIN") { Atomics.wait(pause, 0, 0, 5); continue; }
    read = 0;
  }
  if (read === 0) process.kill(process.pid, "SIGKILL");
}
`;

/** The parent's process id when the child began watching it (0 outside a bulk child). */
let parentAtStart = 0;

/**
 * The child ends at once when its parent is gone (killed with SIGKILL, which the parent cannot pass
 * on): an import then rolls back, exactly as the command killed in one process did, instead of
 * going on unseen and committing. The lifeline (above) is watched by a thread of its own; the parent
 * id is also polled, for a child started without one.
 */
function watchParent(): void {
  parentAtStart = process.ppid;
  if (hasLifeline()) {
    try {
      const watcher = new Worker(
        URL.createObjectURL(new Blob([LIFELINE_WATCHER], { type: "application/javascript" })),
      );
      (watcher as Worker & { unref(): void }).unref();
    } catch {
      // No thread could start: the poll below still notices, once the loop is free.
    }
  }
  const timer = setInterval(() => {
    if (process.ppid !== parentAtStart) process.kill(process.pid, "SIGKILL");
  }, PARENT_POLL_MS);
  timer.unref();
}

/** True when descriptor 3 is a pipe or socket (the lifeline), not a file the child opened itself. */
function hasLifeline(): boolean {
  try {
    const stat = fstatSync(LIFELINE_FD);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/**
 * Throws when this process is a bulk child whose parent is gone: called just before a bulk write
 * commits, so that nothing is committed without the parent even in the moment before the watcher
 * thread's kill lands. A no-op outside a bulk child.
 */
export function assertParentAlive(): void {
  if (process.env[CHILD_MARK] !== "1" || !parentAtStart) return;
  if (process.ppid !== parentAtStart) {
    process.kill(process.pid, "SIGKILL");
    throw new Error("the parent process has ended: nothing is committed without it");
  }
}
