// One background worker reads the report summaries' SQL (report-read.worker.ts); queries queue for it.
// When it cannot start or dies, the queries run on this thread instead (reportRowSource); so does a
// query it answers with an error (SQLITE_BUSY on its read-only connection, a file it cannot open),
// once — a query that is wrong fails here too, with this connection's own error — and every query
// still waiting when the pool is stopped.

import type { Client } from "@libsql/client";
import { workerPool } from "../../lib/worker-pool";
import { workerUrl } from "../../lib/worker-url";
import { reportRowSource, type TRowSource } from "./report-row-source";

type TJob = { file: string; sql: string; args: (number | string)[]; here: TRowSource };

const pool = workerPool<TJob, ArrayLike<unknown>[]>({
  url: workerUrl(new URL("./report-read.worker.ts", import.meta.url)),
  message: ({ file, sql, args }) => ({ file, sql, args }),
  result: (reply) => reply.rows as ArrayLike<unknown>[] | undefined,
  here: (job) => job.here(job.sql, job.args),
  onError: "retry",
  failure: "The report query failed",
});

/** How many queries the background worker has answered (tests: proof that it ran). */
export function reportReadsOffThread(): number {
  return pool.answeredOffThread();
}

/**
 * A row source that runs each query on the background worker's read-only connection to `file`;
 * `here` answers instead when no worker can run (the same query on this thread).
 */
export function offThreadRowSource(file: string, here: TRowSource): TRowSource {
  return (sql, args) => pool.run({ file, sql, args, here });
}

/** Stops the worker (tests and shutdown); the queries it still held run on this thread instead. */
export function stopReportReadPool(): void {
  pool.stop();
}

/**
 * Where a summary's GROUP BY runs: for an embedded database file, a background worker's read-only
 * connection (about a second of CPU at a million lines, which on this thread held every other
 * request, the page's own scripts among them); otherwise as reportRowSource.
 */
export function reportSummaryRowSource(client: Client, databaseUrl: string): TRowSource {
  const here = reportRowSource(client, databaseUrl);
  if (!databaseUrl.startsWith("file:")) return here;
  return offThreadRowSource(databaseUrl.slice("file:".length).split("?")[0], here);
}
