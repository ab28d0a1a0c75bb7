import type { SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { z } from "zod";
import type { TDb } from "../../../db/client";
import type { TDictionaryName } from "../../../db/contracts/dictionary";
import type { TAuth } from "../context";
import type { TListColumn, TListQuery, TSortDirection } from "./list-query";

/** A business table: every row belongs to a workspace and has an id and update time. */
export type TWorkspaceTable = SQLiteTable & {
  id: SQLiteColumn;
  workspace_id: SQLiteColumn;
  created_at: SQLiteColumn;
  updated_at: SQLiteColumn;
};

export type TRow = Record<string, unknown> & { id: number; workspace_id: number };

/** A list column: the SQL column behind it, whether it sorts and how it filters. */
export type TEntityColumn = TListColumn & {
  column: SQLiteColumn;
  /** Sort text case-insensitively; the table needs a matching COLLATE NOCASE index. */
  isNocase?: boolean;
  /**
   * For filter "custom": the condition for a raw filter value; throw a VALIDATION AppError naming
   * `filters[<prop>]` for a value it does not understand.
   */
  where?: (value: string) => SQL;
  /**
   * The filter's condition reads the clock (e.g. 'review due' compares with today): its result can
   * change with no write, so totals of lists filtered on it are counted every time, never kept.
   */
  isTimeDependent?: boolean;
  /**
   * A NOT NULL reference column that sorts by the label the list shows (a partner type's or a
   * country's name), not the id. The page walks the referenced table in label order through an index
   * on (label, id) and each label's rows through the entity's (workspace_id, <column>) index, so no
   * sort of the whole list is needed.
   */
  sortByLabel?: { table: SQLiteTable & { id: SQLiteColumn }; label: SQLiteColumn; isNocase?: boolean };
};

/** An id field that must point at a row the caller may use. */
export type TReference = {
  table: SQLiteTable & { id: SQLiteColumn };
  /** global: reference data; workspace: the caller's rows; global-or-workspace: seeded plus the workspace's own. */
  scope: "global" | "workspace" | "global-or-workspace";
  message: string;
};

export type TDbOrTx = Pick<TDb, "select" | "insert" | "update" | "delete">;

/**
 * Everything the generic list/CRUD machinery needs to serve one entity. A new entity is a new
 * definition, not new machinery.
 */
export type TEntityDefinition<TValues extends Record<string, unknown> = Record<string, unknown>> = {
  /** Singular, for messages: "contact". */
  noun: string;
  table: TWorkspaceTable;
  columns: Record<string, TEntityColumn>;
  defaultSort: { prop: string; direction: TSortDirection };
  /** The zod contract shared with the client form: parses a request body into column values. */
  input: z.ZodType<TValues>;
  references?: Partial<Record<keyof TValues & string, TReference>>;
  /** Dictionaries the edit form needs, returned by GET /{entity}/{id}/edit. */
  editDictionaries: readonly TDictionaryName[];
  /**
   * An FTS5 trigram table over some text columns (same names), kept in step by triggers: text
   * filters on those columns of at least three characters are served from it instead of LIKE.
   */
  search?: { table: string; columns: readonly string[] };
  /** Columns set on create from the caller (e.g. user_id). */
  onCreate?: (auth: TAuth) => Record<string, unknown>;
  /** Columns set from the caller on create and on every update (e.g. who saved it last). */
  onSave?: (auth: TAuth) => Record<string, unknown>;
  /** The API shape of a row; by default booleans become 1/0 and workspace_id is dropped. */
  toItem?: (row: TRow) => Record<string, unknown>;
  /** Why the row cannot simply be deleted (other records depend on it); empty when it can. */
  dependants?: (db: TDbOrTx, workspaceId: number, id: number) => Promise<string[]>;
  /** What a forced delete does with the dependants before the row goes (detach or remove). */
  forceDelete?: (tx: TDbOrTx, workspaceId: number, id: number) => Promise<void>;
  /**
   * A condition every list query gets on top of the workspace and the filters, given the parsed query
   * (e.g. shipments leave templates out unless a status filter asks for them). It may read the
   * filters only: the built clause is kept per workspace, sort column and filters.
   */
  listScope?: (query: TListQuery) => SQL | undefined;
  /** Adds related data to outgoing items in one query per page (e.g. attached documents). */
  decorate?: (db: TDbOrTx, items: Record<string, unknown>[]) => Promise<void>;
  /** Adds what only a single-record read carries (nested lines), after `decorate`. */
  decorateOne?: (db: TDbOrTx, item: Record<string, unknown>) => Promise<void>;
  /** Runs in the delete's transaction after the row is gone (e.g. to refresh a denormalised date). */
  afterDelete?: (tx: TDbOrTx, workspaceId: number, row: TRow) => Promise<void>;
  /** Stored files that belong to the row, removed from storage once the row is deleted. */
  storageKeys?: (db: TDbOrTx, id: number) => Promise<string[]>;
  /** Values a create form starts with (GET /{entity}/edit). */
  createDefaults?: (db: TDbOrTx, workspaceId: number) => Promise<Record<string, unknown>>;
};

/** Default API shape: flags as 1/0 (the spec's wire format), no workspace_id. */
export function defaultToItem(row: TRow): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const key in row) {
    if (key === "workspace_id") continue;
    const value = row[key];
    item[key] = typeof value === "boolean" ? (value ? 1 : 0) : value;
  }
  return item;
}
