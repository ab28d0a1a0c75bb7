import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaces } from "./auth";
import { createdAt } from "./columns";

/**
 * One loaded edition of the EAR tables (Commerce Country Chart, Country Groups, the CCL's per-ECCN
 * licence data). workspace_id null is the edition shipped with the product; a workspace's owner may
 * load a newer edition of the same files, which then applies to that workspace only, so one tenant
 * cannot change another's determinations.
 */
export const ear_editions = sqliteTable(
  "ear_editions",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer().references(() => workspaces.id, { onDelete: "cascade" }),
    /** The eCFR issue date the tables were taken from (YYYY-MM-DD). */
    edition_date: text().notNull(),
    source: text().notNull().default(""),
    loaded_by_user_id: integer(),
    loaded_by_email: text().notNull().default(""),
    /** JSON {chart, groups, eccns, footnotes}: how many rows each file had. */
    counts: text({ mode: "json" }).$type<Record<string, number>>().notNull(),
    loaded_at: createdAt(),
  },
  (t) => [index("ear_editions_ws_idx").on(t.workspace_id, t.edition_date)],
);

/** Supp. No. 1 to part 738: one row per destination; `columns` lists the marked cells ("CB1 NS1 MT1"). */
export const ear_country_chart = sqliteTable(
  "ear_country_chart",
  {
    edition_id: integer()
      .notNull()
      .references(() => ear_editions.id, { onDelete: "cascade" }),
    iso2: text().notNull(),
    country: text().notNull(),
    columns: text().notNull(),
    footnotes: text().notNull(),
    notes: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.edition_id, t.iso2] })],
);

/** The chart's footnotes, verbatim. */
export const ear_chart_footnotes = sqliteTable(
  "ear_chart_footnotes",
  {
    edition_id: integer()
      .notNull()
      .references(() => ear_editions.id, { onDelete: "cascade" }),
    footnote: text().notNull(),
    text: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.edition_id, t.footnote] })],
);

/** Supp. No. 1 to part 740: one row per country; `groups` lists its memberships ("A:1 B"). */
export const ear_country_groups = sqliteTable(
  "ear_country_groups",
  {
    edition_id: integer()
      .notNull()
      .references(() => ear_editions.id, { onDelete: "cascade" }),
    iso2: text().notNull(),
    country: text().notNull(),
    groups: text().notNull(),
    notes: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.edition_id, t.iso2] })],
);

/** Supp. No. 1 to part 774: per ECCN, the reasons for control, chart columns, LVS and GBS, as in ccl-eccns.csv. */
export const ear_eccns = sqliteTable(
  "ear_eccns",
  {
    edition_id: integer()
      .notNull()
      .references(() => ear_editions.id, { onDelete: "cascade" }),
    eccn: text().notNull(),
    heading_short: text().notNull(),
    reason_for_control: text().notNull(),
    chart_columns: text().notNull(),
    non_chart_requirements: text().notNull(),
    partial_scope_columns: text().notNull(),
    lvs: text().notNull(),
    lvs_value: text().notNull(),
    gbs: text().notNull(),
    gbs_available: text().notNull(),
    other_list_based_exceptions: text().notNull(),
    license_requirements_raw: text().notNull(),
    notes: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.edition_id, t.eccn] })],
);

/**
 * Append-only trail of export-control decisions a person took on a shipment line (an override of a
 * licence requirement with its written justification, or its removal): who, when, why. No foreign
 * keys, so deleting the shipment or the user cannot erase it (15 CFR part 762 records).
 */
export const export_control_audit = sqliteTable(
  "export_control_audit",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer().notNull(),
    shipment_id: integer().notNull(),
    item_id: integer(),
    user_id: integer(),
    user_email: text().notNull().default(""),
    /** 'override' or 'override_removed'. */
    action: text().notNull(),
    product_number: text().notNull().default(""),
    eccn: text().notNull().default(""),
    destination: text().notNull().default(""),
    /** What the determination said when the person overrode it. */
    determination: text().notNull().default(""),
    justification: text().notNull().default(""),
    created_at: createdAt(),
  },
  (t) => [index("export_control_audit_ws_idx").on(t.workspace_id, t.shipment_id, t.id)],
);
