// A web upload's contacts import on a worker thread with its own connection: the import's one
// all-or-nothing transaction is written and COMMITted there (and SQLite's WAL checkpoint after it
// runs there too), so the server's event loop only waits for a message. This process's other writes
// queue behind the import as before: it holds the in-process write lock until the worker is done.
import { holdWriteLock, type TDb } from "../../../db/client";
import { reportWorkerFallback, workerUrl } from "../../lib/worker-url";
import { ImportFileError, type TImportReport } from "./contact-import";

export type TImportWorkerRequest = {
  url: string;
  authToken?: string;
  target: { workspaceId: number; userId: number };
  bytes: Uint8Array;
};

type TImportWorkerResult =
  | { type: "done"; report: TImportReport }
  | { type: "file-error"; message: string }
  | { type: "error"; message: string; code?: string };

export type TImportWorkerReply = { type: "started" } | TImportWorkerResult;

/** Smaller files import on the main thread: starting a worker costs more than their import. */
export const OFF_THREAD_MIN_BYTES = 256 * 1024;

/**
 * Imports the file on a worker, or returns null when this database or runtime cannot (an in-memory
 * database, a worker that does not start): the caller then imports on this thread.
 */
export async function importOffThread(
  db: TDb,
  database: { url: string; authToken?: string },
  target: { workspaceId: number; userId: number },
  bytes: Uint8Array,
): Promise<TImportReport | null> {
  if (bytes.length < OFF_THREAD_MIN_BYTES || database.url.includes(":memory:")) return null;
  const specifier = workerUrl(new URL("./contact-import.worker.ts", import.meta.url));
  let worker: Worker;
  try {
    worker = new Worker(specifier);
  } catch (error) {
    reportWorkerFallback(specifier, String(error));
    return null;
  }
  const release = await holdWriteLock(db);
  try {
    let hasStarted = false;
    const reply = await new Promise<TImportWorkerResult | null>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<TImportWorkerReply>) => {
        const data = event.data;
        if (data.type === "started") hasStarted = true;
        else resolve(data);
      };
      // A worker that could not even load (a missing file in an unusual build) leaves the import
      // to this thread; one that failed while importing is the import's failure.
      worker.onerror = (event) => {
        if (hasStarted) reject(new Error(event.message || "the import worker stopped"));
        else {
          reportWorkerFallback(specifier, event.message || "the import worker stopped");
          resolve(null);
        }
      };
      const copy = bytes.slice();
      worker.postMessage({ ...database, target, bytes: copy } satisfies TImportWorkerRequest, [
        copy.buffer as ArrayBuffer,
      ]);
    });
    if (!reply) return null;
    if (reply.type === "done") return reply.report;
    if (reply.type === "file-error") throw new ImportFileError(reply.message);
    throw Object.assign(new Error(reply.message), { code: reply.code });
  } finally {
    worker.terminate();
    release();
  }
}
