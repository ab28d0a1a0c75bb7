// The lists a screening was made against, stored once per distinct set (screening_list_sets). Kept
// apart from screening.service so that code without the engine (fixtures the browser tests load
// under Node, where the engine's Bun-only module paths do not resolve) can name a set too.
import { sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { TDb } from "../../../db/client";
import { screening_list_sets } from "../../../db/schema";

/**
 * The id of this set of lists in screening_list_sets, stored the first time a screening uses it.
 * Call it in the write transaction that records the screening (every caller does: libSQL's
 * transactions begin IMMEDIATE), so no other writer can store the same set between the read and
 * the insert, and a screening that rolls back leaves no set behind. Sets are append-only: an id,
 * once read, keeps meaning these lists.
 */
export async function listSetId(db: TDb, lists: unknown[]): Promise<number> {
  const json = JSON.stringify(lists);
  const [known] = await db.all<{ id: number }>(
    sql`select id from ${screening_list_sets} where lists = ${json}`,
  );
  if (known) return known.id;
  const [stored] = await db.all<{ id: number }>(
    sql`insert into ${screening_list_sets} (lists) values (${json}) returning id`,
  );
  return (stored as { id: number }).id;
}

/**
 * The lists of a row's list_set_id, as a column to select. Every result and audit row has one (a
 * trigger refuses a row without), but a screenings-list row whose old JSON held no lists has none:
 * an empty list then (drizzle does not map SQL NULL, so the fallback is SQL's).
 */
export const listsOfSet = (listSetId: SQLiteColumn) =>
  sql<
    unknown[]
  >`coalesce((select ${screening_list_sets.lists} from ${screening_list_sets} where ${screening_list_sets.id} = ${listSetId}), '[]')`.mapWith(
    (value: string) => JSON.parse(value) as unknown[],
  );
