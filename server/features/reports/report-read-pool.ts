// One background worker reads the report summaries' SQL (report-read.worker.ts); queries queue for it.
// When it cannot start or dies, the queries run on this thread instead (reportRowSource); so does a
// query it answers with an error (SQLITE_BUSY on its read-only connection, a file it cannot open),
// once, and every query still waiting when the pool is stopped.
import type { TRowSource } from "./reports.service";

type TPending = {
  sql: string;
  args: (number | string)[];
  here: TRowSource;
  resolve: (rows: ArrayLike<unknown>[]) => void;
  reject: (error: Error) => void;
};

let worker: Worker | null = null;
let workerFailed = false;
let nextId = 1;
let answeredOffThread = 0;
const pending = new Map<number, TPending>();

/** How many queries the background worker has answered (tests: proof that it ran). */
export function reportReadsOffThread(): number {
  return answeredOffThread;
}

function startWorker(): Worker | null {
  if (worker || workerFailed) return worker;
  try {
    const started = new Worker(new URL("./report-read.worker.ts", import.meta.url).href);
    started.onmessage = (
      event: MessageEvent<{ id: number; rows?: ArrayLike<unknown>[]; error?: string }>,
    ) => {
      const job = pending.get(event.data.id);
      if (!job) return;
      pending.delete(event.data.id);
      if (event.data.rows) {
        answeredOffThread++;
        job.resolve(event.data.rows);
      } else {
        // Retried once here: this thread's connection may read what the worker's could not. A query
        // that is wrong fails here too, with this connection's own error.
        job.here(job.sql, job.args).then(job.resolve, job.reject);
      }
    };
    started.onerror = () => {
      // The worker could not start or crashed: from now on read here, including what it still held.
      workerFailed = true;
      started.terminate();
      if (worker === started) worker = null;
      const jobs = [...pending.values()];
      pending.clear();
      for (const job of jobs) job.here(job.sql, job.args).then(job.resolve, job.reject);
    };
    (started as Worker & { unref(): void }).unref();
    worker = started;
  } catch {
    workerFailed = true;
  }
  return worker;
}

/**
 * A row source that runs each query on the background worker's read-only connection to `file`;
 * `here` answers instead when no worker can run (the same query on this thread).
 */
export function offThreadRowSource(file: string, here: TRowSource): TRowSource {
  return (sql, args) => {
    const active = startWorker();
    if (!active) return here(sql, args);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { sql, args, here, resolve, reject });
      active.postMessage({ id, file, sql, args });
    });
  };
}

/** Stops the worker (tests and shutdown); the queries it still held run on this thread instead. */
export function stopReportReadPool(): void {
  worker?.terminate();
  worker = null;
  const jobs = [...pending.values()];
  pending.clear();
  for (const job of jobs) job.here(job.sql, job.args).then(job.resolve, job.reject);
}
