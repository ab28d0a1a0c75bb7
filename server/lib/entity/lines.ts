import { and, eq } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { TDbOrTx } from "./entity";

/** A child table of lines (shipment items, package lines): an id and the parent's id. */
export type TLineTable = SQLiteTable & { id: SQLiteColumn };

/**
 * Replaces a record's lines with exactly the ones given, in one delete and one multi-row insert:
 * a line whose id is already one of this parent's keeps its id, any other id (missing, or another
 * record's) becomes a new line. Deleting first lets lines swap unique values (product A ↔ B)
 * without tripping a unique index on the way. Run it inside the parent's write transaction.
 */
export async function replaceLines<TLine extends Record<string, unknown>>(
  tx: TDbOrTx,
  table: TLineTable,
  parentColumn: SQLiteColumn,
  parentId: number,
  lines: (TLine & { id?: number | null })[],
): Promise<void> {
  const existing = await tx.select({ id: table.id }).from(table).where(eq(parentColumn, parentId));
  const owned = new Set(existing.map((row) => row.id as number));
  if (existing.length) await tx.delete(table).where(eq(parentColumn, parentId));
  if (!lines.length) return;
  const rows = lines.map(({ id, ...values }) => ({
    ...values,
    [parentColumn.name]: parentId,
    ...(id && owned.has(id) ? { id } : {}),
  }));
  // SQLite caps bound parameters per statement; 100 lines of ≤ 9 columns stay well below it.
  for (let start = 0; start < rows.length; start += 100) {
    await tx.insert(table).values(rows.slice(start, start + 100) as never);
  }
}

/** Deletes one line when it belongs to the parent; false when there is no such line. */
export async function deleteLine(
  tx: TDbOrTx,
  table: TLineTable,
  parentColumn: SQLiteColumn,
  parentId: number,
  lineId: number,
): Promise<boolean> {
  const deleted = await tx
    .delete(table)
    .where(and(eq(table.id, lineId), eq(parentColumn, parentId)))
    .returning({ id: table.id });
  return deleted.length > 0;
}
