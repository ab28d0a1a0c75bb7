import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users, workspaces } from "./auth";
import { createdAt, flag, updatedAt } from "./columns";
import { countries, partner_types } from "./reference";

/** The address book: trade partners of one workspace. */
export const contacts = sqliteTable(
  "contacts",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer()
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    user_id: integer().references(() => users.id, { onDelete: "set null" }),
    /**
     * The member who saved the contact last (in the app or by an import); user_id is who created
     * it. Added by ALTER TABLE, so the reference has no ON DELETE action in the database: users are
     * never deleted, removal only sets users.removed_at.
     */
    updated_by_user_id: integer().references(() => users.id, { onDelete: "set null" }),
    company: text().notNull(),
    is_sensitive: flag(),
    sensitive_note: text().notNull().default("-"),
    partner_type_id: integer()
      .notNull()
      .references(() => partner_types.id, { onDelete: "restrict" }),
    is_restricted: flag(),
    restricted_note: text().notNull().default("-"),
    tax_id: text().notNull(),
    /** What tax_id is (ein, eori, vat, uscc, other; "" not stated): printed as its label. */
    tax_id_type: text().notNull().default(""),
    /** A second identifier authorities ask for (e.g. the EORI beside a VAT number), with its type. */
    other_id_type: text().notNull().default(""),
    other_id: text().notNull().default(""),
    street: text().notNull().default(""),
    city: text().notNull().default(""),
    state_province: text().notNull().default(""),
    postal_code: text().notNull().default(""),
    country_id: integer().references(() => countries.id, { onDelete: "restrict" }),
    contact_1: text().notNull(),
    phone_1: text().notNull(),
    email_1: text().notNull(),
    contact_2: text().notNull().default(""),
    phone_2: text().notNull().default(""),
    email_2: text().notNull().default(""),
    /** YYYY-MM-DD of the newest shipment that names this contact; maintained by the shipments service. */
    last_shipment_date: text(),
    /**
     * Set with every write that needs a (new) screening, in the same statement: 1 by default on
     * insert, and by trigger when the name, address or country change. Cleared only when a result
     * for exactly these values is stored, so a crash or a failed screening leaves it set for the
     * startup and periodic sweep, and the contact is never shown or treated as cleared meanwhile.
     */
    screening_pending: integer({ mode: "boolean" }).notNull().default(true),
    /**
     * The newest screening result's status ('passed' | 'failed', NULL before the first) and review
     * date, copied by a trigger on every new contact_screening_results row (a screening or an
     * override), so the address book shows and filters the screening state without another query.
     */
    screening_outcome: text(),
    screening_review_date: text(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    // Text lists sort case-insensitively; a NOCASE index serves ORDER BY company COLLATE NOCASE.
    index("contacts_ws_company_idx").on(t.workspace_id, sql`${t.company} collate nocase`),
    index("contacts_ws_partner_type_idx").on(t.workspace_id, t.partner_type_id),
    index("contacts_ws_last_shipment_idx").on(t.workspace_id, t.last_shipment_date),
    index("contacts_ws_sensitive_idx").on(t.workspace_id, t.is_sensitive),
    index("contacts_ws_restricted_idx").on(t.workspace_id, t.is_restricted),
    // A flag filter with the default company sort walks these instead of every contact.
    index("contacts_ws_sensitive_company_idx").on(
      t.workspace_id,
      t.is_sensitive,
      sql`${t.company} collate nocase`,
    ),
    index("contacts_ws_restricted_company_idx").on(
      t.workspace_id,
      t.is_restricted,
      sql`${t.company} collate nocase`,
    ),
    // The importer matches an existing contact on company + tax id within the workspace.
    index("contacts_ws_tax_id_idx").on(t.workspace_id, t.tax_id),
    index("contacts_ws_updated_idx").on(t.workspace_id, t.updated_at),
    index("contacts_partner_type_idx").on(t.partner_type_id),
    index("contacts_country_idx").on(t.country_id),
    index("contacts_user_idx").on(t.user_id),
    index("contacts_screening_pending_idx").on(t.screening_pending),
    // filters[screening] with the default company sort walks this instead of every contact.
    index("contacts_ws_screening_company_idx").on(
      t.workspace_id,
      t.screening_outcome,
      sql`${t.company} collate nocase`,
    ),
  ],
);
