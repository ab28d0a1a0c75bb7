import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaces } from "./auth";
import { createdAt } from "./columns";

/**
 * Per-workspace, per-year number series of the generated paperwork: 'invoice' (INV-2026-0042, used
 * when a shipment has no shipper reference) and 'proforma' (PF-2026-0007).
 */
export const paperwork_sequences = sqliteTable(
  "paperwork_sequences",
  {
    workspace_id: integer()
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    series: text().notNull(),
    year: integer().notNull(),
    last_number: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.workspace_id, t.series, t.year] }),
    check("paperwork_sequences_series_check", sql`${t.series} in ('invoice', 'proforma')`),
  ],
);

/**
 * Append-only record of every paperwork generation (who, when, which types, the SHA-256 of each
 * file, licence warnings accepted), kept for the five years 15 CFR part 762 asks. Triggers in a
 * custom migration refuse UPDATE and DELETE; no foreign keys, so deleting a shipment, user or
 * workspace cannot erase it.
 */
export const paperwork_audit_log = sqliteTable(
  "paperwork_audit_log",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer().notNull(),
    shipment_id: integer().notNull(),
    user_id: integer(),
    user_email: text(),
    /**
     * JSON [{document_type, document_id, original_name, sha256, size, replaced_document_ids?}]: a
     * regeneration replaces the shipment's previous document of that type, whose own generation
     * entry stays here with its hash.
     */
    documents: text({ mode: "json" })
      .$type<
        {
          document_type: string;
          document_id: number;
          original_name: string;
          sha256: string;
          size: number;
          replaced_document_ids?: number[];
        }[]
      >()
      .notNull(),
    /** JSON of the licence warnings shown and generated through (lines without a covering licence). */
    warnings: text({ mode: "json" }).$type<string[]>().notNull(),
    created_at: createdAt(),
  },
  (t) => [index("paperwork_audit_log_ws_idx").on(t.workspace_id, t.shipment_id, t.id)],
);
