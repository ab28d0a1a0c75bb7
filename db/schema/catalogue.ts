import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaces } from "./auth";
import { createdAt, flag, money, updatedAt, weight } from "./columns";
import { contacts } from "./contacts";
import { countries } from "./reference";

/** Product catalogue with export-control data. unit_value is money (×100), net_weight kilograms (×1000). */
export const products = sqliteTable(
  "products",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer()
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text().notNull(),
    description: text().notNull(),
    product_number: text().notNull(),
    country_of_origin_id: integer()
      .notNull()
      .references(() => countries.id, { onDelete: "restrict" }),
    is_sensitive: flag(),
    sensitive_message: text().notNull().default(""),
    has_license: flag(),
    US_ECCN: text("us_eccn").notNull(),
    HTS: text("hts").notNull(),
    unit_value: money("unit_value").notNull(),
    net_weight: weight("net_weight").notNull().default(sql`0`),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index("products_ws_number_idx").on(t.workspace_id, sql`${t.product_number} collate nocase`),
    index("products_ws_description_idx").on(t.workspace_id, sql`${t.description} collate nocase`),
    index("products_ws_eccn_idx").on(t.workspace_id, t.US_ECCN),
    index("products_ws_hts_idx").on(t.workspace_id, t.HTS),
    index("products_ws_origin_idx").on(t.workspace_id, t.country_of_origin_id),
    index("products_ws_net_weight_idx").on(t.workspace_id, t.net_weight),
    index("products_ws_unit_value_idx").on(t.workspace_id, t.unit_value),
    index("products_ws_license_idx").on(t.workspace_id, t.has_license),
    index("products_ws_updated_idx").on(t.workspace_id, t.updated_at),
    index("products_ws_name_idx").on(t.workspace_id, sql`${t.name} collate nocase`),
    index("products_origin_idx").on(t.country_of_origin_id),
  ],
);

/** Export licences. Dates are YYYY-MM-DD text. */
export const licenses = sqliteTable(
  "licenses",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer()
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    licence_name: text().notNull(),
    valid_date: text().notNull(),
    expiration_date: text().notNull(),
    reference_number_1: text().notNull(),
    reference_number_2: text().notNull(),
    status: text().notNull().default("pending"),
    country_id: integer()
      .notNull()
      .references(() => countries.id, { onDelete: "restrict" }),
    /** Licensed or restricted entity; a forced contact delete detaches it (set null). */
    contact_id: integer().references(() => contacts.id, { onDelete: "set null" }),
    contact_note: text().notNull().default(""),
    product_id: integer().references(() => products.id, { onDelete: "set null" }),
    product_note: text().notNull().default(""),
    /** Covers lines of this ECCN when no product is named ("" when the licence names a product only). */
    eccn: text().notNull().default(""),
    /** Authorised value in US dollars, exact decimal ("" when the licence has no value limit). */
    authorized_value: text().notNull().default(""),
    /** Authorised quantity in units (null when the licence has no quantity limit). */
    authorized_quantity: integer(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index("licenses_ws_name_idx").on(t.workspace_id, sql`${t.licence_name} collate nocase`),
    index("licenses_ws_valid_idx").on(t.workspace_id, t.valid_date),
    index("licenses_ws_expiration_idx").on(t.workspace_id, t.expiration_date),
    index("licenses_ws_status_idx").on(t.workspace_id, t.status),
    index("licenses_ws_ref1_idx").on(t.workspace_id, t.reference_number_1),
    index("licenses_ws_ref2_idx").on(t.workspace_id, t.reference_number_2),
    index("licenses_ws_country_idx").on(t.workspace_id, t.country_id),
    index("licenses_ws_updated_idx").on(t.workspace_id, t.updated_at),
    index("licenses_contact_idx").on(t.contact_id),
    index("licenses_product_idx").on(t.product_id),
    index("licenses_country_idx").on(t.country_id),
  ],
);

/** Wiki: uploaded files with a name and description. */
export const wikis = sqliteTable(
  "wikis",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer()
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text().notNull(),
    description: text().notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index("wikis_ws_name_idx").on(t.workspace_id, sql`${t.name} collate nocase`),
    index("wikis_ws_description_idx").on(t.workspace_id, sql`${t.description} collate nocase`),
    index("wikis_ws_updated_idx").on(t.workspace_id, t.updated_at),
  ],
);

/** Shipping forms ("msdocuments"): certificate of origin, certification or other. */
export const msdocuments = sqliteTable(
  "msdocuments",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer()
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text().notNull(),
    description: text().notNull().default(""),
    document_type: text().notNull().default("other"),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index("msdocuments_ws_name_idx").on(t.workspace_id, sql`${t.name} collate nocase`),
    index("msdocuments_ws_created_idx").on(t.workspace_id, t.created_at),
    index("msdocuments_ws_type_idx").on(t.workspace_id, t.document_type),
    // The values of SHIPPING_FORM_TYPES (db/contracts/wikis.ts), stored lowercased.
    check(
      "msdocuments_document_type_check",
      sql`${t.document_type} in ('certificate of origin', 'certification', 'other')`,
    ),
  ],
);
