import { sql } from "drizzle-orm";
import { check, index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users, workspaces } from "./auth";
import { createdAt, flag, updatedAt } from "./columns";
import { contacts } from "./contacts";

/** One loaded version of a government list (global, not per workspace). */
export const screening_lists = sqliteTable(
  "screening_lists",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    /** e.g. "OFAC SDN", "BIS DPL", "CSL". */
    source: text().notNull(),
    /** Publication date of the list, YYYY-MM-DD. */
    version_date: text().notNull(),
    row_count: integer().notNull(),
    checksum: text().notNull(),
    file_name: text().notNull(),
    imported_at: createdAt(),
    /** Only the newest import of a source is active; older versions stay for the audit trail. */
    is_active: flag(),
  },
  (t) => [index("screening_lists_source_idx").on(t.source, t.is_active)],
);

export const screening_entries = sqliteTable(
  "screening_entries",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    list_id: integer()
      .notNull()
      .references(() => screening_lists.id, { onDelete: "cascade" }),
    /** The list the entry comes from, as the source names it (e.g. "Entity List (EL) - Bureau of Industry and Security"). */
    source_list: text().notNull(),
    source_id: text().notNull(),
    entity_type: text().notNull(),
    name: text().notNull(),
    aliases: text({ mode: "json" }).$type<string[]>().notNull(),
    programs: text({ mode: "json" }).$type<string[]>().notNull(),
    addresses: text({ mode: "json" }).$type<string[]>().notNull(),
    countries: text({ mode: "json" }).$type<string[]>().notNull(),
    remarks: text().notNull().default(""),
  },
  (t) => [
    index("screening_entries_list_idx").on(t.list_id),
    check(
      "screening_entries_type_check",
      sql`${t.entity_type} in ('entity', 'individual', 'vessel', 'aircraft')`,
    ),
  ],
);

/**
 * The lists (sources, versions, checksums) a screening was made against, stored once per distinct
 * set instead of in every result, audit row and screenings-list row (a 20,000-contact import wrote
 * the same 444 bytes 60,000 times). Append-only, like the audit log that points at it: triggers in a
 * custom migration refuse UPDATE and DELETE, so a reference always means the lists it meant.
 */
export const screening_list_sets = sqliteTable(
  "screening_list_sets",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    /** JSON array of { source, version_date, checksum } (a free search's: the full list versions). */
    lists: text({ mode: "json" }).$type<unknown[]>().notNull(),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex("screening_list_sets_lists_idx").on(t.lists)],
);

/** Free searches and screenings shown in the screening list (spec: rpscreening). */
export const rpscreenings = sqliteTable(
  "rpscreenings",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer()
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    user_id: integer().references(() => users.id, { onDelete: "set null" }),
    contact_id: integer().references(() => contacts.id, { onDelete: "set null" }),
    name: text().notNull(),
    /** JSON of what was screened (name, address, country). */
    data_screened: text({ mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** JSON of the top matches with scores; the lists/versions used are list_set_id's. */
    results: text({ mode: "json" }).$type<unknown>().notNull(),
    /** The lists this outcome was screened against (screening_list_sets). */
    list_set_id: integer(),
    status: text().notNull(),
    /** Set when a list import changed this outcome, until someone looks at it. */
    is_changed: flag(),
    /** YYYY-MM-DD: a whitelisting (override to passed) is due for review from this day. */
    review_date: text(),
    /**
     * What needs a person first, kept by triggers on every write: 2 = failed and nobody has decided
     * yet (the contact's newest result is the system's, not an override), 1 = changed by a list
     * update, 0 = the rest. The list's default order is this, then the newest first.
     */
    attention: integer().notNull().default(0),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    // The default order (attention, then updated_at, both descending) read straight from an index.
    index("rpscreenings_ws_attention_idx").on(t.workspace_id, sql`(${t.attention} || ${t.updated_at})`),
    index("rpscreenings_ws_name_idx").on(t.workspace_id, sql`${t.name} collate nocase`),
    index("rpscreenings_ws_updated_idx").on(t.workspace_id, t.updated_at),
    index("rpscreenings_ws_status_idx").on(t.workspace_id, t.status),
    index("rpscreenings_contact_idx").on(t.contact_id),
    index("rpscreenings_user_idx").on(t.user_id),
    index("rpscreenings_ws_review_idx").on(t.workspace_id, t.review_date),
    check("rpscreenings_status_check", sql`${t.status} in ('passed', 'failed')`),
  ],
);

/**
 * A contact's screening outcome. Overrides add a new row pointing at the one they override;
 * rows are never edited, so the newest row per contact is the current outcome.
 */
export const contact_screening_results = sqliteTable(
  "contact_screening_results",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer()
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    contact_id: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    status: text().notNull(),
    multiple: flag(),
    name: text().notNull(),
    address: text().notNull().default(""),
    best_score: real().notNull().default(0),
    matches: text({ mode: "json" }).$type<unknown[]>().notNull(),
    /** The lists this outcome was screened against (screening_list_sets; an override keeps its result's). */
    list_set_id: integer(),
    override_of_id: integer(),
    note: text(),
    /** YYYY-MM-DD: an override to passed that must be reviewed from this day (whitelisting with expiry). */
    review_date: text(),
    user_id: integer().references(() => users.id, { onDelete: "set null" }),
    created_at: createdAt(),
  },
  (t) => [
    index("contact_screening_results_contact_idx").on(t.contact_id, t.id),
    index("contact_screening_results_ws_idx").on(t.workspace_id),
    index("contact_screening_results_user_idx").on(t.user_id),
    check("contact_screening_results_status_check", sql`${t.status} in ('passed', 'failed')`),
  ],
);

/**
 * Append-only audit log of every screening and override, kept for the five years export rules
 * require. Triggers in a custom migration refuse UPDATE and DELETE. It deliberately has no
 * foreign keys, so deleting a contact, user or workspace cannot erase its history.
 */
export const screening_audit_log = sqliteTable(
  "screening_audit_log",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer().notNull(),
    user_id: integer(),
    user_email: text(),
    kind: text().notNull(),
    contact_id: integer(),
    query: text({ mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** The lists searched (screening_list_sets; no foreign key, like the rest of this table). */
    list_set_id: integer(),
    matches: text({ mode: "json" }).$type<unknown[]>().notNull(),
    outcome: text().notNull(),
    previous_status: text(),
    note: text(),
    created_at: createdAt(),
  },
  (t) => [
    index("screening_audit_log_ws_idx").on(t.workspace_id, t.id),
    check("screening_audit_log_kind_check", sql`${t.kind} in ('screen', 'override', 'search', 'rescreen')`),
  ],
);

/**
 * Append-only record of changes to the workspace settings that govern screening releases (today the
 * two-person release switch): who changed what, from what, when. It is part of the screening audit
 * export. Like screening_audit_log it has no foreign keys, and triggers in a custom migration refuse
 * UPDATE, DELETE and an insert onto an existing row.
 */
export const settings_audit_log = sqliteTable(
  "settings_audit_log",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer().notNull(),
    user_id: integer(),
    user_email: text(),
    /** The setting's name in the API (e.g. "two_person_release"). */
    setting: text().notNull(),
    previous_value: text({ mode: "json" }).$type<unknown>(),
    value: text({ mode: "json" }).$type<unknown>().notNull(),
    created_at: createdAt(),
  },
  (t) => [index("settings_audit_log_ws_idx").on(t.workspace_id, t.id)],
);
