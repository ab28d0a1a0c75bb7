import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaces } from "./auth";

/** ISO 3166-1 countries with a centroid for the dashboard map. */
export const countries = sqliteTable(
  "countries",
  {
    id: integer().primaryKey(),
    name: text().notNull(),
    code_iso_2: text().notNull(),
    lat: real().notNull(),
    lng: real().notNull(),
  },
  (t) => [uniqueIndex("countries_code_unique").on(t.code_iso_2), index("countries_name_idx").on(t.name)],
);

/** ISO 4217 currencies; `sort_order` puts USD first, then the rest case-insensitively by label. */
export const currencies = sqliteTable(
  "currencies",
  {
    id: integer().primaryKey(),
    code: text().notNull(),
    name: text().notNull(),
    currency: text().notNull(),
    sort_order: integer().notNull(),
  },
  (t) => [uniqueIndex("currencies_code_unique").on(t.code), index("currencies_sort_idx").on(t.sort_order)],
);

export const carriers = sqliteTable("carriers", {
  id: integer().primaryKey(),
  name: text().notNull(),
  code: text(),
});

export const incoterms = sqliteTable("incoterms", {
  id: integer().primaryKey(),
  code: text().notNull().unique(),
  name: text().notNull(),
  description: text().notNull(),
});

export const payment_terms = sqliteTable("payment_terms", {
  id: integer().primaryKey(),
  name: text().notNull(),
});

/** UN/ECE Recommendation 19 modes of transport. */
export const modes_of_transport = sqliteTable("modes_of_transport", {
  id: integer().primaryKey(),
  code: text().notNull(),
  name: text().notNull(),
});

/** Package types (UN/ECE Recommendation 21 codes). */
export const packages = sqliteTable("packages", {
  id: integer().primaryKey(),
  code: text().notNull(),
  name: text().notNull(),
});

/** Fixed ids: 1 template, 2 draft, 3 in transit, 4 customs, 5 delayed, 6 delivered. */
export const shipping_statuses = sqliteTable("shipping_statuses", {
  id: integer().primaryKey(),
  name: text().notNull().unique(),
  label: text().notNull(),
  color: text().notNull(),
});

/** Seeded partner types have no workspace; a workspace may add its own (workspace_id set). */
export const partner_types = sqliteTable(
  "partner_types",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    partner_type: text().notNull(),
    workspace_id: integer().references(() => workspaces.id, { onDelete: "cascade" }),
  },
  (t) => [
    index("partner_types_workspace_idx").on(t.workspace_id),
    // Lists sort by the partner type's name through this (server/lib/entity: sortByLabel).
    index("partner_types_label_idx").on(sql`${t.partner_type} collate nocase`, t.id),
  ],
);
