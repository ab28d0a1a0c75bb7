import { inArray, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import type { TDb } from "../../../db/client";
import { contacts, rpscreenings, screening_list_sets } from "../../../db/schema";
import type { TDbOrTx, TEntityDefinition, TRow } from "../../lib/entity/entity";
import { pendingAmong } from "./screening.service";

/**
 * A screening's status as everything shows it: 'pending' while its contact waits for a screening of
 * its current name and address (contacts.screening_pending), else the stored outcome. A pending
 * contact must never show, sort or filter as passed. Cached list totals stay exact: a
 * change of contacts.screening_pending bumps the rpscreenings list counter (migration
 * screenings_pending_list_version).
 */
export const effectiveScreeningStatus = sql<string>`(case when exists (select 1 from ${contacts} where ${contacts.id} = ${rpscreenings.contact_id} and ${contacts.screening_pending} = 1) then 'pending' else ${rpscreenings.status} end)`;

/**
 * The default order: what needs a person first (rpscreenings.attention, kept by triggers: failed and
 * undecided, then changed by a list update), then the newest. One expression, so that the
 * (workspace_id, attention || updated_at) index serves it without sorting the whole list.
 */
const attention = sql<string>`(${rpscreenings.attention} || ${rpscreenings.updated_at})`;

/** The screenings list (spec: rpscreening): read-only on the kit; screenings are written by the system. */
export const screeningsEntity: TEntityDefinition = {
  noun: "screening",
  table: rpscreenings,
  columns: {
    name: { column: rpscreenings.name, sortable: true, filter: "text", isNocase: true },
    updated_at: { column: rpscreenings.updated_at, sortable: true, filter: "date" },
    status: { column: effectiveScreeningStatus as unknown as SQLiteColumn, sortable: true, filter: "text" },
    is_changed: { column: rpscreenings.is_changed, filter: "boolean" },
    // A whitelisting past its review date: still passed, due for a person's look (filters[review_due]=1).
    review_due: {
      column:
        sql<boolean>`(${rpscreenings.review_date} is not null and ${rpscreenings.review_date} <= strftime('%Y-%m-%d', 'now'))` as unknown as SQLiteColumn,
      filter: "boolean",
      isTimeDependent: true,
    },
    review_date: { column: rpscreenings.review_date, sortable: true, filter: "date" },
    // The default order (failed and unreviewed first); sort_attention=desc asks for it explicitly.
    attention: { column: attention as unknown as SQLiteColumn, sortable: true },
  },
  defaultSort: { prop: "attention", direction: "desc" },
  input: z.never(),
  editDictionaries: [],
  toItem: (row: TRow) => ({
    id: row.id,
    name: row.name,
    data_screened: row.data_screened,
    results: row.results,
    // Replaced in decorate by results.lists, the lists it names (screening_list_sets).
    list_set_id: row.list_set_id,
    status: row.status,
    is_changed: row.is_changed ? 1 : 0,
    review_date: row.review_date ?? null,
    contact_id: row.contact_id,
    updated_at: row.updated_at,
    created_at: row.created_at,
  }),
  /**
   * A contact changed since this outcome (or whose screening failed to run) shows as 'pending', never
   * as the stale 'passed': the stored row keeps its last real outcome for the audit trail.
   */
  async decorate(db: TDbOrTx, items: Record<string, unknown>[]) {
    const ids = items.map((item) => Number(item.contact_id)).filter((id) => id > 0);
    const pending = await pendingAmong(db as TDb, ids);
    // The lists each outcome was screened against, in results.lists as the screenings list shows them.
    const setIds = [...new Set(items.map((item) => item.list_set_id).filter((id) => typeof id === "number"))];
    const sets = new Map(
      setIds.length
        ? (
            await db
              .select({ id: screening_list_sets.id, lists: screening_list_sets.lists })
              .from(screening_list_sets)
              .where(inArray(screening_list_sets.id, setIds))
          ).map((set) => [set.id, set.lists])
        : [],
    );
    for (const item of items) {
      const lists = sets.get(item.list_set_id as number);
      if (lists && item.results && typeof item.results === "object")
        item.results = { ...item.results, lists };
      delete item.list_set_id;
    }
    for (const item of items) {
      const isPending = pending.has(Number(item.contact_id));
      item.screening_pending = isPending ? 1 : 0;
      if (isPending) item.status = "pending";
    }
  },
};
