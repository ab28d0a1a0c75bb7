// Runs the report summary's SQL off the main thread: a GROUP BY over a million lines is about a
// second of CPU in SQLite, which would otherwise hold every other request, the /reports page's own
// scripts among them (the page asks for the summary with its first bytes).
import { Database } from "bun:sqlite";

declare const self: Worker;

const readers = new Map<string, Database>();

self.onmessage = (
  event: MessageEvent<{ id: number; file: string; sql: string; args: (number | string)[] }>,
) => {
  const { id, file, sql, args } = event.data;
  try {
    let reader = readers.get(file);
    if (!reader) {
      reader = new Database(file, { readonly: true });
      readers.set(file, reader);
    }
    self.postMessage({ id, rows: reader.query(sql).values(...args) });
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
};
