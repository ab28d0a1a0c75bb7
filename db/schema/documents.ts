import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaces } from "./auth";
import { licenses, msdocuments, products, wikis } from "./catalogue";
import { createdAt } from "./columns";
import { shipments } from "./shipments";

/**
 * Files attached to products, licences, wiki entries, shipping forms and shipments, in one table.
 * Each row has exactly one owner column set (a CHECK holds it), so every owner keeps a real foreign
 * key with ON DELETE CASCADE instead of a polymorphic (type, id) pair the database cannot check.
 * Shipment rows also carry the generated or custom document_type.
 */
export const documents = sqliteTable(
  "documents",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer()
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    product_id: integer().references(() => products.id, { onDelete: "cascade" }),
    license_id: integer().references(() => licenses.id, { onDelete: "cascade" }),
    wiki_id: integer().references(() => wikis.id, { onDelete: "cascade" }),
    msdocument_id: integer().references(() => msdocuments.id, { onDelete: "cascade" }),
    shipment_id: integer().references(() => shipments.id, { onDelete: "cascade" }),
    /** commercial_invoice, proforma_invoice, packing_list, custom — or null for plain attachments. */
    document_type: text(),
    original_name: text().notNull(),
    extension: text().notNull(),
    content_type: text().notNull(),
    size: integer().notNull(),
    /** Generated storage key (never the client's file name). */
    storage_key: text().notNull().unique(),
    created_at: createdAt(),
  },
  (t) => [
    index("documents_product_idx").on(t.product_id),
    index("documents_license_idx").on(t.license_id),
    index("documents_wiki_idx").on(t.wiki_id),
    index("documents_msdocument_idx").on(t.msdocument_id),
    index("documents_shipment_idx").on(t.shipment_id),
    index("documents_workspace_idx").on(t.workspace_id),
    check(
      "documents_one_owner_check",
      sql`(${t.product_id} is not null) + (${t.license_id} is not null) + (${t.wiki_id} is not null) + (${t.msdocument_id} is not null) + (${t.shipment_id} is not null) = 1`,
    ),
    check(
      "documents_type_check",
      sql`${t.document_type} is null or ${t.document_type} in ('commercial_invoice', 'proforma_invoice', 'packing_list', 'certificate_of_origin', 'custom')`,
    ),
  ],
);
