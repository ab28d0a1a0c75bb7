import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  check,
  index,
  integer,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";

/** Every business record belongs to a workspace; a registration creates one, owned by the new user. */
export const workspaces = sqliteTable(
  "workspaces",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    name: text().notNull(),
    /** The user who registered it; null once that user is deleted (the workspace outlives them). */
    owner_user_id: integer().references((): AnySQLiteColumn => users.id, { onDelete: "set null" }),
    /**
     * Paper size of the generated paperwork: 'letter' (US default) or 'a4'. Checked by the API's
     * contract, not a CHECK: adding one would make SQLite rebuild this table, whose children cascade.
     */
    paper_size: text().notNull().default("letter"),
    /**
     * When on, a compliance member who created or last edited a shipment, or created a contact,
     * cannot release its screening hits alone: another compliance member must.
     */
    two_person_release: integer({ mode: "boolean" }).notNull().default(false),
    created_at: createdAt(),
  },
  (t) => [index("workspaces_owner_idx").on(t.owner_user_id)],
);

export const users = sqliteTable(
  "users",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer()
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    title: text().notNull(),
    name: text().notNull(),
    surname: text().notNull(),
    /** Stored lowercased so look-ups and the unique index ignore case. */
    email: text().notNull(),
    password_hash: text().notNull(),
    /** Storage keys of the avatar and signature images; the API turns them into image_url / signature_url. */
    image_key: text(),
    signature_key: text(),
    email_verified_at: text(),
    /**
     * The member's roles in the workspace, comma-separated ('admin', 'compliance', 'shipper'); checked
     * by the API's contract. Accounts from before teams, and every registering user, hold admin and
     * compliance.
     */
    roles: text().notNull().default("admin,compliance"),
    /** When the member last signed in (a session started), for the members list. */
    last_sign_in_at: text(),
    /** Set when an admin removes the member: no sign-in, but their records stay attributed to them. */
    removed_at: text(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email), index("users_workspace_idx").on(t.workspace_id)],
);

/**
 * Sessions after the Lucia guide: the id is the SHA-256 of the token the client holds, so a leaked
 * database cannot be replayed as a login.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text().primaryKey(),
    user_id: integer()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Unix seconds. */
    expires_at: integer().notNull(),
    remember_me: integer({ mode: "boolean" }).notNull().default(false),
    created_at: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.user_id), index("sessions_expires_idx").on(t.expires_at)],
);

/** Fixed-window attempt counters; in the database so limits hold across restarts and processes. */
export const rate_limits = sqliteTable(
  "rate_limits",
  {
    key: text().primaryKey(),
    window_start: integer().notNull(),
    count: integer().notNull(),
  },
  (t) => [index("rate_limits_window_idx").on(t.window_start)],
);

/** Signed one-time links (password reset) that were used, so a link works once. */
export const used_signatures = sqliteTable(
  "used_signatures",
  {
    signature_hash: text().primaryKey(),
    purpose: text().notNull(),
    /** Unix seconds after which the row may be purged (the link has expired anyway). */
    expires_at: integer().notNull(),
  },
  (t) => [
    index("used_signatures_expires_idx").on(t.expires_at),
    check("used_signatures_purpose_check", sql`${t.purpose} in ('reset', 'verify')`),
  ],
);

/**
 * A colleague asked to join a workspace. The e-mailed link is signed and carries its expiry
 * (7 days); accepting sets accepted_at, so a link works once.
 */
export const invitations = sqliteTable(
  "invitations",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer()
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    email: text().notNull(),
    title: text().notNull(),
    name: text().notNull(),
    surname: text().notNull(),
    /** Comma-separated roles the member will hold. */
    roles: text().notNull(),
    invited_by_user_id: integer().references(() => users.id, { onDelete: "set null" }),
    /** Unix seconds. */
    expires_at: integer().notNull(),
    accepted_at: text(),
    /** Set when the admin withdraws the invitation before it is used. */
    revoked_at: text(),
    created_at: createdAt(),
  },
  (t) => [index("invitations_workspace_idx").on(t.workspace_id), index("invitations_email_idx").on(t.email)],
);
