import { blob, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";

/**
 * Uploaded files (documents, avatars, signatures, logos), kept in the database so that every app
 * process sharing it serves them and one backup holds everything. A file's bytes are split into
 * chunks (stored_file_chunks), written in one transaction with this row and read one chunk at a
 * time, so a download streams without holding the whole file in memory.
 */
export const stored_files = sqliteTable("stored_files", {
  /** The storage key the feature's row holds, e.g. "documents/3f2c…". */
  key: text().primaryKey(),
  size: integer().notNull(),
  chunk_count: integer().notNull(),
  created_at: createdAt(),
});

export const stored_file_chunks = sqliteTable(
  "stored_file_chunks",
  {
    key: text()
      .notNull()
      .references(() => stored_files.key, { onDelete: "cascade" }),
    /** 0-based position of the chunk in the file. */
    seq: integer().notNull(),
    data: blob({ mode: "buffer" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.seq] })],
);
