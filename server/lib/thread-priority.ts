// A background thread's CPU priority: on Linux a thread has a nice value of its own, and threads it
// starts inherit it, so a worker that does long work can yield the CPU to the request threads.

import { dlopen } from "bun:ffi";
import { readdirSync, readFileSync } from "node:fs";

/** The nice value background work runs at (0 is the default; 19 the lowest priority). */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's priority to `nice` (Linux with glibc; elsewhere nothing changes).
 * Answers whether it did.
 */
export function lowerThisThreadPriority(nice = BACKGROUND_NICE): boolean {
  if (process.platform !== "linux") return false;
  try {
    const libc = dlopen("libc.so.6", {
      gettid: { args: [], returns: "i32" },
      setpriority: { args: ["i32", "u32", "i32"], returns: "i32" },
    });
    try {
      // PRIO_PROCESS (0) with a thread id sets that thread's nice value only.
      return libc.symbols.setpriority(0, libc.symbols.gettid(), nice) === 0;
    } finally {
      libc.close();
    }
  } catch {
    return false;
  }
}

/** The nice values of a process's threads (Linux: /proc/PID/task/TID/stat), for tests. */
export function threadNiceValues(pid: number | "self" = "self"): number[] {
  const tasks = `/proc/${pid}/task`;
  return readdirSync(tasks).flatMap((tid) => {
    try {
      // Fields after the command's closing parenthesis: state is the 3rd field, nice the 19th.
      const stat = readFileSync(`${tasks}/${tid}/stat`, "utf8");
      return [Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])];
    } catch {
      return [];
    }
  });
}
