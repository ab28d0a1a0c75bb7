import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { workspaces } from "./auth";
import { updatedAt } from "./columns";
import { countries } from "./reference";

/**
 * The workspace's own legal entity: who exports. Paperwork prints it as exporter and seller when a
 * shipment names no exporter of record. One row per workspace, written on first save.
 */
export const exporter_profiles = sqliteTable("exporter_profiles", {
  workspace_id: integer()
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  company: text().notNull().default(""),
  street: text().notNull().default(""),
  city: text().notNull().default(""),
  state_province: text().notNull().default(""),
  postal_code: text().notNull().default(""),
  country_id: integer().references(() => countries.id, { onDelete: "restrict" }),
  /** US Employer Identification Number (NN-NNNNNNN), "" when none. */
  ein: text().notNull().default(""),
  /** EU Economic Operators Registration and Identification number, "" when none. */
  eori: text().notNull().default(""),
  /** A further identifier with its kind (vat, uscc, other), as on contacts. */
  other_id_type: text().notNull().default(""),
  other_id: text().notNull().default(""),
  phone: text().notNull().default(""),
  email: text().notNull().default(""),
  /** Free text printed under the exporter's name on the documents' header (e.g. a trade name or slogan). */
  letterhead: text().notNull().default(""),
  /** Who signs when the shipment names no signatory. */
  signatory_name: text().notNull().default(""),
  signatory_title: text().notNull().default(""),
  /** Storage key of the logo (PNG or JPEG) printed in the documents' header; null when none. */
  logo_key: text(),
  updated_at: updatedAt(),
});
