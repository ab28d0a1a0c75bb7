import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One change counter per list table, bumped by SQL triggers on every insert, update and delete of
 * that table, whichever process or code path writes. A list reads it in the same statement as its
 * rows, so a cached total is used only while the table is exactly as it was when it was counted.
 */
export const list_versions = sqliteTable("list_versions", {
  table_name: text().primaryKey(),
  version: integer().notNull().default(0),
});
