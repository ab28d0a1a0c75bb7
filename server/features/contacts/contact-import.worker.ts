// Runs a web upload's contacts import on its own thread and connection (see contact-import-off-thread.ts):
// parsing, validating and writing a big file, and above all its one all-or-nothing COMMIT and the WAL
// checkpoint after it, are synchronous SQLite work that held every other request of the server.
import { openDatabase, sqliteCodeOf } from "../../../db/client";
import { decodeUtf8, ImportFileError, importContacts } from "./contact-import";
import type { TImportWorkerReply, TImportWorkerRequest } from "./contact-import-off-thread";
import { byteSlices } from "./contact-rows";

declare const self: Worker;

self.onmessage = async (event: MessageEvent<TImportWorkerRequest>) => {
  const { url, authToken, target, bytes } = event.data;
  // From here on a failure is the import's own; before it, the caller may import on its thread instead.
  self.postMessage({ type: "started" } satisfies TImportWorkerReply);
  let reply: TImportWorkerReply;
  try {
    const database = await openDatabase(url, authToken);
    try {
      const report = await importContacts(database.db, target, decodeUtf8(byteSlices(bytes)));
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
