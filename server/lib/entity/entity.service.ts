import { and, asc, count, desc, eq, getTableName, gte, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import type { TAuth } from "../context";
import { AppError, notFound, type TFieldErrors } from "../errors";
import { summarize, toFieldErrors } from "../validate";
import { defaultToItem, type TDbOrTx, type TEntityDefinition, type TRow } from "./entity";
import type { TListQuery } from "./list-query";

export type TListResult = {
  data: Record<string, unknown>[];
  total: number;
  current_page: number;
  per_page: number;
  last_page: number;
};

const toItem = (def: TEntityDefinition, row: TRow) => (def.toItem ?? defaultToItem)(row);

/** API items for rows, with the definition's related data added. */
async function toItems(db: TDb, def: TEntityDefinition, rows: TRow[]) {
  const items = rows.map((row) => toItem(def, row));
  if (items.length) await def.decorate?.(db, items);
  return items;
}

/** LIKE pattern for a case-insensitive substring match, with the user's % and _ taken literally. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * Spellings a case-insensitive search must try. SQLite's LIKE folds ASCII letters only, so
 * "müller" would miss "MÜLLER": a value with other letters is also tried in lower case, upper
 * case and with each word capitalised, which covers how names are written in practice.
 */
export function caseVariants(value: string): string[] {
  if (!/[^\p{ASCII}]/u.test(value)) return [value];
  const lower = value.toLowerCase();
  const capitalised = lower.replace(
    /(^|[\s\-'(/&.])(\p{L})/gu,
    (_, before, letter) => before + letter.toUpperCase(),
  );
  return [...new Set([value, lower, value.toUpperCase(), capitalised])];
}

/** The trigram index cannot match fewer characters than this; shorter filters use LIKE. */
const TRIGRAM = 3;

/** The WHERE clause of a list: the caller's workspace and the requested filters. */
function listWhere(def: TEntityDefinition, workspaceId: number, query: TListQuery): SQL {
  const conditions: SQL[] = [eq(def.table.workspace_id, workspaceId)];
  for (const filter of query.filters) {
    const spec = def.columns[filter.prop];
    const column = spec.column;
    if (filter.kind === "custom") {
      if (!spec.where) throw new Error(`column ${filter.prop} has a custom filter but no where()`);
      conditions.push(spec.where(filter.value));
    } else if (filter.kind === "text") {
      const search = def.search;
      if (search?.columns.includes(filter.prop) && [...filter.value].length >= TRIGRAM) {
        const fts = sql.identifier(search.table);
        // A quoted FTS5 phrase on one column: the trigram tokenizer matches it as a substring.
        const phrase = `${filter.prop} : "${filter.value.replaceAll('"', '""')}"`;
        conditions.push(sql`${def.table.id} in (select rowid from ${fts} where ${fts} match ${phrase})`);
        continue;
      }
      const likes = caseVariants(filter.value).map(
        (variant) => sql`${column} like ${containsPattern(variant)} escape '\\'`,
      );
      conditions.push(likes.length === 1 ? (likes[0] as SQL) : sql`(${sql.join(likes, sql` or `)})`);
    } else if (filter.kind === "boolean" || filter.kind === "number")
      conditions.push(eq(column, filter.value));
    else {
      if (filter.from) conditions.push(gte(column, filter.from));
      // A date column may hold a full timestamp; "to" includes the whole day.
      if (filter.to) conditions.push(lte(column, `${filter.to}\uffff`));
    }
  }
  const scope = def.listScope?.(query);
  if (scope) conditions.push(scope);
  return and(...conditions)!;
}

/** The ORDER BY of a list: the chosen column, then the id so equal values page stably. */
function listOrder(def: TEntityDefinition, query: TListQuery): SQL[] {
  const spec = def.columns[query.sort.prop];
  const direction = query.sort.direction === "desc" ? desc : asc;
  const byLabel = spec.sortByLabel;
  if (byLabel) {
    const label = byLabel.isNocase ? sql`${byLabel.label} collate nocase` : byLabel.label;
    return [direction(label), direction(byLabel.table.id), direction(def.table.id)];
  }
  const column = spec.isNocase ? sql`${spec.column} collate nocase` : spec.column;
  return [direction(column), direction(def.table.id)];
}

/**
 * The page query with the given fields. Sorting by a reference's label crosses the referenced
 * table first (CROSS JOIN keeps SQLite from reordering the loops), so rows come out in label order.
 */
function pageQuery(db: TDb, def: TEntityDefinition, workspaceId: number, query: TListQuery, fields: never) {
  const where = listWhere(def, workspaceId, query);
  const byLabel = def.columns[query.sort.prop].sortByLabel;
  const select = byLabel
    ? db
        .select(fields)
        .from(byLabel.table)
        .crossJoin(def.table)
        .where(and(eq(def.columns[query.sort.prop].column, byLabel.table.id), where))
    : db.select(fields).from(def.table).where(where);
  return select
    .orderBy(...listOrder(def, query))
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage);
}

/**
 * Exact totals of recent list queries per database, keyed by table, workspace and filters, each
 * valid for one version of its table (list_versions, bumped by triggers on every write from any
 * process). A page reads the version in the same statement as its rows, so a total is reused only
 * while the table is exactly as it was when counted; otherwise it is counted again.
 */
const TOTALS = new WeakMap<TDb, Map<string, { version: number; total: number }>>();
/** Totals kept per database; the oldest entry goes first. */
const TOTALS_KEPT = 5_000;

function totalsOf(db: TDb) {
  let totals = TOTALS.get(db);
  if (!totals) {
    totals = new Map();
    TOTALS.set(db, totals);
  }
  return totals;
}

/** The table's change counter, or NULL for a table without list_versions triggers (never cached). */
const versionOf = (def: TEntityDefinition) =>
  sql<
    number | null
  >`(select version from list_versions where table_name = ${getTableName(def.table)})`.mapWith(
    (v: unknown) => (v === null ? null : Number(v)),
  );

/** One page of the caller's rows with the totals the table kit shows. */
export async function listRecords(
  db: TDb,
  def: TEntityDefinition,
  workspaceId: number,
  query: TListQuery,
): Promise<TListResult> {
  const where = listWhere(def, workspaceId, query);
  const rows = await pageQuery(db, def, workspaceId, query, {
    row: def.table,
    version: versionOf(def),
  } as never);
  const page = rows as unknown as { row: TRow; version: number | null }[];
  const totals = totalsOf(db);
  const key = `${getTableName(def.table)}|${workspaceId}|${JSON.stringify(query.filters)}`;
  const cached = totals.get(key);
  let total: number;
  if (page.length && cached && page[0].version !== null && cached.version === page[0].version) {
    total = cached.total;
  } else {
    const [counted] = await db
      .select({ total: count(), version: versionOf(def) })
      .from(def.table)
      .where(where);
    total = counted.total;
    const readsClock = query.filters.some((filter) => def.columns[filter.prop]?.isTimeDependent);
    if (counted.version !== null && !readsClock) {
      totals.delete(key);
      totals.set(key, { version: counted.version, total });
      if (totals.size > TOTALS_KEPT) totals.delete(totals.keys().next().value as string);
    }
  }
  return {
    data: await toItems(
      db,
      def,
      page.map((p) => p.row),
    ),
    total,
    current_page: query.page,
    per_page: query.perPage,
    last_page: Math.max(1, Math.ceil(total / query.perPage)),
  };
}

/** The SQL a list runs, for EXPLAIN QUERY PLAN checks in tests. */
export function listSql(db: TDb, def: TEntityDefinition, workspaceId: number, query: TListQuery) {
  return pageQuery(db, def, workspaceId, query, { row: def.table } as never).toSQL();
}

/** A row of the caller's workspace; someone else's id is a 404 like a missing one. */
export async function getRow(
  db: TDb,
  def: TEntityDefinition,
  workspaceId: number,
  id: number,
): Promise<TRow> {
  const [row] = await db
    .select()
    .from(def.table)
    .where(and(eq(def.table.id, id), eq(def.table.workspace_id, workspaceId)))
    .limit(1);
  if (!row) throw notFound(`This ${def.noun} does not exist or is not yours`);
  return row as TRow;
}

/** One of the caller's records as the API shows it, with what only a single-record read carries. */
export async function getRecord(db: TDb, def: TEntityDefinition, workspaceId: number, id: number) {
  const item = (await toItems(db, def, [await getRow(db, def, workspaceId, id)]))[0];
  await def.decorateOne?.(db, item);
  return item;
}

/** 422 in the entity save shape: {message, status:{error, errorMessage}, errors}. */
export function saveFailed(errors: TFieldErrors): AppError {
  const text = summarize(errors);
  return new AppError("VALIDATION", text, { errors, body: { status: { error: true, errorMessage: text } } });
}

/** Parses a body with the entity's contract and checks that every referenced id may be used. */
async function parseValues(db: TDb, def: TEntityDefinition, workspaceId: number, body: unknown) {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw saveFailed({ _: ["The request body must be a JSON object."] });
  }
  const parsed = def.input.safeParse(body);
  if (!parsed.success) throw saveFailed(toFieldErrors(parsed.error));
  const values = parsed.data as Record<string, unknown>;
  const errors = await referenceErrors(db, def.references ?? {}, workspaceId, values);
  if (Object.keys(errors).length) throw saveFailed(errors);
  return values;
}

/** Field errors for every referenced id the caller may not use (missing, or another workspace's); checked in parallel. */
export async function referenceErrors(
  db: TDbOrTx,
  references: NonNullable<TEntityDefinition["references"]>,
  workspaceId: number,
  values: Record<string, unknown>,
): Promise<TFieldErrors> {
  const errors: TFieldErrors = {};
  await Promise.all(
    Object.entries(references).map(async ([field, ref]) => {
      if (!ref) return;
      const id = values[field];
      if (id === null || id === undefined) return;
      const scope =
        ref.scope === "global"
          ? undefined
          : ref.scope === "workspace"
            ? eq((ref.table as unknown as TRow & { workspace_id: never }).workspace_id, workspaceId)
            : or(
                isNull((ref.table as unknown as { workspace_id: never }).workspace_id),
                eq((ref.table as unknown as { workspace_id: never }).workspace_id, workspaceId),
              );
      const [found] = await db
        .select({ id: ref.table.id })
        .from(ref.table)
        .where(and(eq(ref.table.id, id as number), scope))
        .limit(1);
      if (!found) errors[field] = [ref.message];
    }),
  );
  return errors;
}

/** Creates a row in the caller's workspace from a request body. */
export async function createRecord(db: TDb, def: TEntityDefinition, auth: TAuth, body: unknown) {
  const values = await parseValues(db, def, auth.workspaceId, body);
  const [row] = await db
    .insert(def.table)
    .values({ ...values, ...def.onCreate?.(auth), workspace_id: auth.workspaceId })
    .returning();
  return (await toItems(db, def, [row as TRow]))[0];
}

/** Replaces the editable fields of one of the caller's rows. */
export async function updateRecord(
  db: TDb,
  def: TEntityDefinition,
  workspaceId: number,
  id: number,
  body: unknown,
) {
  await getRow(db, def, workspaceId, id);
  const values = await parseValues(db, def, workspaceId, body);
  const [row] = await db
    .update(def.table)
    .set({ ...values, updated_at: new Date().toISOString() })
    .where(and(eq(def.table.id, id), eq(def.table.workspace_id, workspaceId)))
    .returning();
  return (await toItems(db, def, [row as TRow]))[0];
}

/**
 * Deletes one of the caller's rows. When others depend on it the answer is a 422 listing why, with
 * metadata.force_flag so the client can offer 'Force delete'; with force the definition's
 * forceDelete detaches or removes the dependants first, in the same transaction. Returns the
 * storage keys of the row's files, for the caller to remove once the delete has committed.
 */
export async function deleteRecord(
  db: TDb,
  def: TEntityDefinition,
  workspaceId: number,
  id: number,
  force: boolean,
) {
  // libsql's transactions take the write lock when they begin (BEGIN IMMEDIATE), and within this
  // process every write queues behind them (db/write-lock.ts).
  const result = await db.transaction(async (tx) => {
    const row = await getRow(tx as unknown as TDb, def, workspaceId, id);
    const reasons = (await def.dependants?.(tx, workspaceId, id)) ?? [];
    if (reasons.length && !force) {
      throw new AppError("VALIDATION", reasons.join(" "), {
        body: { result: false, messages: reasons, metadata: { force_flag: Boolean(def.forceDelete) } },
      });
    }
    if (reasons.length) await def.forceDelete?.(tx, workspaceId, id);
    // Read in the delete's own transaction, just before the rows go (ON DELETE CASCADE removes the
    // document rows with it): a document recorded before this point is included, and one recorded
    // after waits for the commit, then fails on the missing owner and removes its own file.
    const storageKeys = (await def.storageKeys?.(tx, id)) ?? [];
    await tx.delete(def.table).where(and(eq(def.table.id, id), eq(def.table.workspace_id, workspaceId)));
    await def.afterDelete?.(tx, workspaceId, row);
    return { row, storageKeys };
  });
  return result;
}
