import { and, Column, eq, getTableColumns, getTableName, isNull, or, type SQL, sql } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { readerOf } from "../../../db/reader";
import type { TAuth } from "../context";
import { AppError, notFound, type TFieldErrors } from "../errors";
import { oversizeArrayErrors } from "../input-bounds";
import { summarize, toFieldErrors } from "../validate";
import { defaultToItem, type TDbOrTx, type TEntityDefinition, type TRow } from "./entity";
import type { TListQuery } from "./list-query";
import { listOrder, listWhere } from "./list-where";

// The list filters' text matching lives in ./list-where; re-exported for the services that search alike.
export { caseVariants, containsPattern } from "./list-where";

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

/** The parts of an entity's list SQL that depend only on the entity and the sort, built once. */
type TListShape = {
  /** `select <every column>, <version> from <table(s)> where [<join> and ]` */
  head: string;
  /** Every column of the table, qualified. */
  select: string;
  /** The table's change counter (a subquery) and a statement that reads only it. */
  version: string;
  versionQuery: string;
  /** The table and its id column, quoted and qualified. */
  table: string;
  id: string;
  /** ` order by …` */
  order: string;
  /** `select count(*), <version> from <table> where ` */
  countHead: string;
  /** A row of the select as the object drizzle would give (columns decoded), without the version. */
  decode: (raw: unknown[]) => TRow;
  /**
   * For a sort on a NOT NULL column of the table: where the sort value and the id sit in a selected
   * row, and ` and <sort> >= ? and (<sort>, <id>) >= (?, ?)` (<= descending), the rows from a known one on in sort
   * order. Null otherwise (a label sort, or a column that may be NULL: NULLs fall outside these
   * comparisons).
   */
  seek: { valueAt: number; idAt: number; condition: string } | null;
};

const SHAPES = new WeakMap<TEntityDefinition, Map<string, TListShape>>();

/** Renders a drizzle SQL fragment to text and parameters with the database's own dialect. */
const render = (db: TDb, fragment: SQL) =>
  (
    db as unknown as { dialect: { sqlToQuery: (s: SQL) => { sql: string; params: unknown[] } } }
  ).dialect.sqlToQuery(fragment);

/** The table's change counter as SQL, NULL for a table without list_versions triggers (never cached). */
const versionSql = (def: TEntityDefinition) =>
  `(select version from list_versions where table_name = '${getTableName(def.table).replaceAll("'", "''")}')`;

/**
 * What every page of one entity in one sort order shares, rendered once: the select list, the FROM
 * and the ORDER BY. Sorting by a reference's label crosses the referenced table first (CROSS JOIN
 * keeps SQLite from reordering the loops), so rows come out in label order.
 */
function listShape(db: TDb, def: TEntityDefinition, sort: TListQuery["sort"]): TListShape {
  let shapes = SHAPES.get(def);
  if (!shapes) {
    shapes = new Map();
    SHAPES.set(def, shapes);
  }
  const key = `${sort.prop}|${sort.direction}`;
  let shape = shapes.get(key);
  if (shape) return shape;
  const columns = Object.entries(getTableColumns(def.table));
  const select = render(
    db,
    sql.join(
      columns.map(([, column]) => sql`${column}`),
      sql`, `,
    ),
  ).sql;
  const table = render(db, sql`${def.table}`).sql;
  const byLabel = def.columns[sort.prop].sortByLabel;
  const from = byLabel
    ? `${render(db, sql`${byLabel.table} cross join ${def.table}`).sql} where ${
        render(db, eq(def.columns[sort.prop].column, byLabel.table.id)).sql
      } and `
    : `${table} where `;
  const keys = columns.map(([key]) => key);
  // Most columns (integers, text) hand the driver's value over as it is: those are not called.
  const decoders = columns.map(([, column]) =>
    column.mapFromDriverValue === Column.prototype.mapFromDriverValue ? null : column,
  );
  const spec = def.columns[sort.prop];
  const valueAt = columns.findIndex(([, column]) => column === spec.column);
  const idAt = columns.findIndex(([, column]) => column === def.table.id);
  const sortKey = spec.isNocase ? sql`${spec.column} collate nocase` : sql`${spec.column}`;
  const op = sort.direction === "desc" ? "<=" : ">=";
  const seek =
    !byLabel && spec.column.notNull && valueAt >= 0 && idAt >= 0
      ? {
          valueAt,
          idAt,
          // The single-column bound is what SQLite seeks the index with (it does not seek by a row
          // value that ends in the rowid); the row value then drops the ties before the mark.
          condition: ` and ${render(db, sortKey).sql} ${op} ? and (${render(db, sql`${sortKey}, ${def.table.id}`).sql}) ${op} (?, ?)`,
        }
      : null;
  shape = {
    head: `select ${select}, ${versionSql(def)} from ${from}`,
    select,
    version: versionSql(def),
    versionQuery: `select ${versionSql(def)}`,
    table,
    id: render(db, sql`${def.table.id}`).sql,
    order: ` order by ${render(db, sql.join(listOrder(def, sort), sql`, `)).sql}`,
    countHead: `select count(*), ${versionSql(def)} from ${table} where `,
    decode: (raw) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const value = raw[i];
        const decoder = decoders[i];
        row[keys[i]] =
          value === null || value === undefined ? null : decoder ? decoder.mapFromDriverValue(value) : value;
      }
      return row as TRow;
    },
    seek,
  };
  shapes.set(key, shape);
  return shape;
}

type TKeptWhere = { where: ReturnType<typeof listWhere>; all?: { sql: string; params: unknown[] } };
/** WHERE clauses built and rendered for recent lists, per entity; the oldest goes first past this many. */
const WHERES = new WeakMap<TEntityDefinition, Map<string, TKeptWhere>>();
const WHERES_KEPT = 1_000;

/**
 * A list's WHERE clause (and its rendered text, once asked for), built once per workspace, sort
 * column and filters: listWhere depends on nothing else (the list scope reads the filters only, and
 * a clock-reading filter compares in SQL), and drizzle's building and rendering cost as much as
 * SQLite's reading of a page.
 */
function keptWhere(def: TEntityDefinition, workspaceId: number, query: TListQuery): TKeptWhere {
  let wheres = WHERES.get(def);
  if (!wheres) {
    wheres = new Map();
    WHERES.set(def, wheres);
  }
  const key = `${workspaceId}|${query.sort.prop}|${JSON.stringify(query.filters)}`;
  let kept = wheres.get(key);
  if (!kept) {
    kept = { where: listWhere(def, workspaceId, query) };
    wheres.set(key, kept);
    if (wheres.size > WHERES_KEPT) wheres.delete(wheres.keys().next().value as string);
  }
  return kept;
}

/**
 * The statements of a list query: the page, its count and, when it applies, the sort-order walk.
 * Each is rendered only when asked for (a kept total needs no count statement).
 */
function listStatements(db: TDb, def: TEntityDefinition, workspaceId: number, query: TListQuery) {
  const shape = listShape(db, def, query.sort);
  const kept = keptWhere(def, workspaceId, query);
  const where = kept.where;
  const rendered = () => {
    kept.all ??= render(db, where.all);
    return kept.all;
  };
  const offset = (query.page - 1) * query.perPage;
  const countOf = (condition: SQL) => () => {
    const { sql: text, params } = render(db, condition);
    return { sql: `${shape.countHead}${text}`, args: params };
  };
  const walked = where.walked;
  return {
    shape,
    page: () => ({
      sql: `${shape.head}${rendered().sql}${shape.order} limit ? offset ?`,
      args: [...rendered().params, query.perPage, offset],
    }),
    /** The page from a known row on: the rows from `mark` in sort order, skipping `skip` of them. */
    seekPage: (mark: TMark, skip: number) => ({
      sql: `${shape.head}${rendered().sql}${shape.seek!.condition}${shape.order} limit ? offset ?`,
      args: [...rendered().params, mark.value, mark.value, mark.id, query.perPage, skip],
    }),
    count: () => ({ sql: `${shape.countHead}${rendered().sql}`, args: rendered().params }),
    likeCount: where.likeAll ? countOf(where.likeAll) : null,
    /** The first `size` rows in sort order that pass the window's conditions, then the page of them that match. */
    walk: walked
      ? (size: number) => {
          const window = render(db, where.window);
          const check = render(db, walked);
          const columns = render(db, sql.join([def.table.id, ...where.walkedColumns], sql`, `)).sql;
          // The window (the first rows in sort order, with the id and the filtered columns only) is
          // named like the table, so the rendered conditions apply to it. A co-routine yields its
          // rows in its ORDER BY and the queries over it have none of their own: the page query
          // stops at the page's last match, then the page's rows are read by id, in that order.
          return {
            sql: `select ${shape.select}, ${shape.version} from (select ${shape.id} from (select ${columns} from ${shape.table} where ${window.sql}${shape.order} limit ?) as ${shape.table} where ${check.sql} limit ? offset ?) as list_page cross join ${shape.table} on ${shape.id} = list_page.id`,
            args: [...window.params, size, ...check.params, query.perPage, offset],
          };
        }
      : null,
  };
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

const versionOf = (value: unknown) => (value === null || value === undefined ? null : Number(value));

type TCounted = { total: number; version: number | null };

/** The exact count of a filter at the table's current version: kept from before, or counted now. */
async function countAt(
  db: TDb,
  key: string | null,
  version: number | null,
  statement: () => { sql: string; args: readonly unknown[] },
): Promise<TCounted> {
  const totals = totalsOf(db);
  const cached = key === null ? undefined : totals.get(key);
  if (cached && version !== null && cached.version === version) return cached;
  // The version is read in the same statement as the count: the total is exact at that version.
  const { sql: text, args } = statement();
  const [counted] = await readerOf(db).rows(text, args);
  const result = { total: Number(counted[0]), version: versionOf(counted[1]) };
  if (key !== null && result.version !== null) {
    totals.delete(key);
    totals.set(key, result as { total: number; version: number });
    if (totals.size > TOTALS_KEPT) totals.delete(totals.keys().next().value as string);
  }
  return result;
}

/** A row of a list at a known position of its sort order (0 is the first): its sort value and id. */
type TMark = { position: number; value: unknown; id: unknown };

/**
 * Rows seen at known positions of recent lists, per database, keyed by table, workspace, filters and
 * sort, each list's valid for one version of its table like the kept totals. A deep page seeks its
 * nearest mark at or before it through the sort index, (sort value, id) >= (mark's) (<= descending),
 * and skips only the rows between, instead of an OFFSET walk over every row before it: the marks are
 * the first and last rows of the pages served, so the same page again, or the next one, starts at
 * one. The rows are used only when the statement that read them saw the marks' version.
 */
const MARKS = new WeakMap<TDb, Map<string, { version: number; marks: TMark[] }>>();
/** Lists whose marks are kept per database (the oldest out first), and marks kept per list. */
const MARKED_LISTS = 1_000;
const MARKS_PER_LIST = 64;

function marksOf(db: TDb) {
  let marks = MARKS.get(db);
  if (!marks) {
    marks = new Map();
    MARKS.set(db, marks);
  }
  return marks;
}

/** The kept mark nearest before (or at) `offset` at this version, or null. */
function nearestMark(db: TDb, key: string, version: number | null, offset: number): TMark | null {
  const kept = marksOf(db).get(key);
  if (!kept || version === null || kept.version !== version) return null;
  let best: TMark | null = null;
  for (const mark of kept.marks) {
    if (mark.position <= offset && mark.position > (best?.position ?? 0)) best = mark;
  }
  return best;
}

/** Keeps the first and last rows of a page read at `version` as marks of its list. */
function keepMarks(
  db: TDb,
  key: string,
  version: number,
  offset: number,
  rows: unknown[][],
  seek: NonNullable<TListShape["seek"]>,
) {
  const lists = marksOf(db);
  let kept = lists.get(key);
  if (!kept || kept.version !== version) {
    kept = { version, marks: [] };
    lists.delete(key);
    lists.set(key, kept);
    if (lists.size > MARKED_LISTS) lists.delete(lists.keys().next().value as string);
  }
  for (const at of rows.length > 1 ? [0, rows.length - 1] : [0]) {
    const position = offset + at;
    if (position === 0 || kept.marks.some((mark) => mark.position === position)) continue;
    kept.marks.push({ position, value: rows[at][seek.valueAt], id: rows[at][seek.idAt] });
    if (kept.marks.length > MARKS_PER_LIST) kept.marks.shift();
  }
}

/** The most rows a sort-order walk reads before the usual plan is used instead. */
const WALK_ROWS = 3_000;

/**
 * A page found by walking the sort order (see listWhere), or null when the usual plan should serve
 * it. A filter matching many rows finds its page in the first few hundred rows of the sort order,
 * while the usual plan (the filter's own index, then sorting every match) reads every match: at
 * 50,000 contacts 'trading' matches 2,502 (1.4 ms), a quarter's ship dates 11,757 of 100,000
 * shipments (26 ms). The walk is tried only when the exact counts say the page lies within a few
 * hundred rows, it reads a bounded window, and its rows are used only when they are provably the
 * page: the window's first matches in sort order are the list's first matches, so a full page (or
 * the list's last rows) from it is exact; a short one means the window was too small and the usual
 * plan answers. A trigram filter walked as LIKE must count the same as through the index.
 */
async function walkedPage(
  db: TDb,
  def: TEntityDefinition,
  workspaceId: number,
  query: TListQuery,
  statements: ReturnType<typeof listStatements>,
  counted: TCounted,
  key: string,
): Promise<unknown[][] | null> {
  const { walk, likeCount } = statements;
  const { version, total } = counted;
  if (!walk || version === null || total === 0) return null;
  const offset = (query.page - 1) * query.perPage;
  const end = offset + query.perPage;
  const unfiltered = await countAt(db, `${getTableName(def.table)}|${workspaceId}|[]`, version, () =>
    listStatements(db, def, workspaceId, { ...query, filters: [] }).count(),
  );
  if (unfiltered.version !== version) return null;
  // Rows of the sort order read to reach the page's end, if matches are spread evenly.
  const expected = (Math.min(end, total) * unfiltered.total) / total;
  if (expected > total || expected > WALK_ROWS / 3) return null;
  if (likeCount) {
    const like = await countAt(db, `${key}|like`, version, likeCount);
    if (like.version !== version || like.total !== total) return null;
  }
  // A walk that fell short (the matches bunch up further down the sort order) is not tried again
  // for this page until the table changes.
  const missed = `${key}|${query.sort.prop}|${query.sort.direction}|${query.page}|${query.perPage}|missed`;
  const totals = totalsOf(db);
  if (totals.get(missed)?.version === version) return null;
  const statement = walk(Math.min(WALK_ROWS, Math.ceil(expected * 3) + query.perPage));
  const rows = await readerOf(db).rows(statement.sql, statement.args);
  if (rows.length && versionOf(rows[0][rows[0].length - 1]) !== version) return null;
  if (rows.length && (rows.length === query.perPage || offset + rows.length === total)) return rows;
  totals.set(missed, { version, total: 0 });
  if (totals.size > TOTALS_KEPT) totals.delete(totals.keys().next().value as string);
  return null;
}

/** One page of the caller's rows with the totals the table kit shows. */
export async function listRecords(
  db: TDb,
  def: TEntityDefinition,
  workspaceId: number,
  query: TListQuery,
): Promise<TListResult> {
  const statements = listStatements(db, def, workspaceId, query);
  const { shape } = statements;
  const reader = readerOf(db);
  const [[current]] = await reader.rows(shape.versionQuery, []);
  const key = `${getTableName(def.table)}|${workspaceId}|${JSON.stringify(query.filters)}`;
  // A filter on a column that depends on today's date (review due) changes with no write: such
  // totals are always counted, never kept, and never walked.
  const readsClock = query.filters.some((filter) => def.columns[filter.prop]?.isTimeDependent);
  const kept = readsClock ? null : key;
  let counted = await countAt(db, kept, versionOf(current), statements.count);
  let rows = readsClock ? null : await walkedPage(db, def, workspaceId, query, statements, counted, key);
  if (!rows) {
    const offset = (query.page - 1) * query.perPage;
    // Marks are kept like totals: not for a filter that reads the clock, not without a version.
    const marked = kept !== null && shape.seek ? `${key}|${query.sort.prop}|${query.sort.direction}` : null;
    const mark = marked ? nearestMark(db, marked, counted.version, offset) : null;
    if (mark) {
      const page = statements.seekPage(mark, offset - mark.position);
      rows = await reader.rows(page.sql, page.args);
      // Exact only at the mark's version (a write since may have moved rows before the mark); an
      // empty answer (past the end) cannot say its version. Either way the usual plan answers.
      if (!rows.length || versionOf(rows[0][rows[0].length - 1]) !== counted.version) rows = null;
    }
    if (!rows) {
      const page = statements.page();
      rows = await reader.rows(page.sql, page.args);
    }
    // The page's version comes from the same statement as its rows: if a write came between the
    // count and the page, count again so the total is at least as new as the rows. (A table without
    // a version was just counted: both are null.)
    const version = rows.length ? versionOf(rows[0][rows[0].length - 1]) : counted.version;
    if (version !== counted.version) counted = await countAt(db, kept, null, statements.count);
    if (marked && version !== null && rows.length) keepMarks(db, marked, version, offset, rows, shape.seek!);
  }
  const total = counted.total;
  return {
    data: await toItems(
      db,
      def,
      rows.map((raw) => shape.decode(raw)),
    ),
    total,
    current_page: query.page,
    per_page: query.perPage,
    last_page: Math.max(1, Math.ceil(total / query.perPage)),
  };
}

/** The SQL a list page runs with the usual plan, for EXPLAIN QUERY PLAN checks in tests. */
export function listSql(db: TDb, def: TEntityDefinition, workspaceId: number, query: TListQuery) {
  const page = listStatements(db, def, workspaceId, query).page();
  return { sql: page.sql, params: page.args };
}

/** Positions of the rows kept as marks of a list at its current kept version (tests check they are used). */
export function listMarks(db: TDb, def: TEntityDefinition, workspaceId: number, query: TListQuery) {
  const key = `${getTableName(def.table)}|${workspaceId}|${JSON.stringify(query.filters)}|${query.sort.prop}|${query.sort.direction}`;
  return (marksOf(db).get(key)?.marks ?? []).map((mark) => mark.position).sort((a, b) => a - b);
}

/** The SQL of the sort-order walk of a list (null when it does not apply), for EXPLAIN QUERY PLAN checks. */
export function listWalkSql(db: TDb, def: TEntityDefinition, workspaceId: number, query: TListQuery) {
  const statement = listStatements(db, def, workspaceId, query).walk?.(WALK_ROWS);
  return statement ? { sql: statement.sql, params: statement.args } : null;
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
  const oversize = oversizeArrayErrors(def.input, body);
  if (oversize) throw saveFailed(oversize);
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
    .values({ ...values, ...def.onCreate?.(auth), ...def.onSave?.(auth), workspace_id: auth.workspaceId })
    .returning();
  return (await toItems(db, def, [row as TRow]))[0];
}

/** Replaces the editable fields of one of the caller's rows. */
export async function updateRecord(db: TDb, def: TEntityDefinition, auth: TAuth, id: number, body: unknown) {
  const { workspaceId } = auth;
  await getRow(db, def, workspaceId, id);
  const values = await parseValues(db, def, workspaceId, body);
  const [row] = await db
    .update(def.table)
    .set({ ...values, ...def.onSave?.(auth), updated_at: new Date().toISOString() })
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
