// Runs a web upload's contacts import on its own thread and connection (see contact-import-off-thread.ts):
// parsing, validating and writing a big file, and above all its one all-or-nothing COMMIT and the WAL
// checkpoint after it, are synchronous SQLite work that held every other request of the server.
import { openDatabase, sqliteCodeOf } from "../../../db/client";
import { decodeUtf8, ImportFileError, importContacts } from "./contact-import";
import type { TImportWorkerReply, TImportWorkerRequest } from "./contact-import-off-thread";

declare const self: Worker;

/** The file in slices, as the parser takes a stream. */
async function* slices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 1024 * 1024) yield bytes.subarray(at, at + 1024 * 1024);
}

self.onmessage = async (event: MessageEvent<TImportWorkerRequest>) => {
  const { url, authToken, target, bytes } = event.data;
  // From here on a failure is the import's own; before it, the caller may import on its thread instead.
  self.postMessage({ type: "started" } satisfies TImportWorkerReply);
  let reply: TImportWorkerReply;
  try {
    const database = await openDatabase(url, authToken);
    try {
      const report = await importContacts(database.db, target, decodeUtf8(slices(bytes)));
      reply = { type: "done", report };
    } finally {
      database.close();
    }
  } catch (error) {
    reply =
      error instanceof ImportFileError
        ? { type: "file-error", message: error.message }
        : { type: "error", message: String((error as Error)?.message ?? error), code: sqliteCodeOf(error) };
  }
  self.postMessage(reply);
};
