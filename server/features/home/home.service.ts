import { type SQL, sql } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import {
  largestRemainder,
  PERFORMANCE_STATUSES,
  type TCommonDestination,
  type TMapAnswer,
  type TMapDestination,
  type TMapEntry,
  type TPerformance,
  type TPeriod,
  type TRecentShipment,
} from "../../../db/contracts/home";
import { caseVariants, containsPattern } from "../../lib/entity/entity.service";
import type { TListColumn, TListQuery } from "../../lib/entity/list-query";

const TEMPLATE_STATUS = 1;

/**
 * Answers kept per database, keyed by workspace, its home_versions counter, today and the validated,
 * normalised query (never the raw query string: junk parameters must not make new entries), and
 * bounded by the bytes of the answers as JSON, not by their number.
 */
const answers = new WeakMap<
  TDb,
  { entries: Map<string, { value: unknown; bytes: number }>; bytes: number }
>();
/** What the home cache may hold in all, per database (answers measured as their JSON text). */
export const HOME_CACHE_MAX_BYTES = 16 * 1024 * 1024;

/** What the cache of `db` holds now: its entries and their bytes (for tests and diagnostics). */
export function homeCacheSize(db: TDb): { entries: number; bytes: number } {
  const store = answers.get(db);
  return { entries: store?.entries.size ?? 0, bytes: store?.bytes ?? 0 };
}

/**
 * An answer from the cache when nothing the dashboard reads has changed since it was computed: SQL
 * triggers raise the workspace's home_versions counter on every shipment write and contact change,
 * from this process or any other, and the day is part of the key because periods move with it.
 * `query` is the route and its validated parameters, serialised as the key.
 */
export async function cachedAnswer<T>(
  db: TDb,
  workspaceId: number,
  query: Record<string, unknown>,
  compute: () => Promise<T>,
): Promise<T> {
  const [row] = await db.all<{ version: number }>(
    sql`select version from home_versions where workspace_id = ${workspaceId}`,
  );
  const key = `${workspaceId}:${row?.version ?? 0}:${day(new Date())}:${JSON.stringify(query)}`;
  let store = answers.get(db);
  if (!store) {
    store = { entries: new Map(), bytes: 0 };
    answers.set(db, store);
  }
  const hit = store.entries.get(key);
  if (hit) {
    // Least recently used goes first: re-insert on every hit.
    store.entries.delete(key);
    store.entries.set(key, hit);
    return hit.value as T;
  }
  const answer = await compute();
  // UTF-16 code units of the JSON plus the key: close enough to the memory an entry holds.
  const bytes = 2 * (JSON.stringify(answer).length + key.length) + 64;
  if (bytes > HOME_CACHE_MAX_BYTES / 4) return answer;
  const previous = store.entries.get(key);
  if (previous) store.bytes -= previous.bytes;
  store.entries.delete(key);
  store.entries.set(key, { value: answer, bytes });
  store.bytes += bytes;
  while (store.bytes > HOME_CACHE_MAX_BYTES) {
    const [oldestKey, oldest] = store.entries.entries().next().value as [string, { bytes: number }];
    store.entries.delete(oldestKey);
    store.bytes -= oldest.bytes;
  }
  return answer;
}

/**
 * Whose dashboard: the workspace's, or one member's (the shipments they created). A member's
 * counts come from shipments_ws_user_home_idx, which holds the creator, the date, the status and the
 * destination, instead of home_counts (kept per workspace only).
 */
export type THomeScope = { workspaceId: number; userId?: number };

/** A period as a half-open range of days [from, until), UTC; both null for "all". */
export type TPeriodRange = { from: string | null; until: string | null };

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The calendar period containing `today` (UTC): the week starts on Monday (ISO 8601), the month
 * on its 1st, the year on 1 January. The range ends where the next period starts, so a shipment
 * dated later in the current period (a planned ship date) still counts in it.
 */
export function periodRange(period: TPeriod, today: Date = new Date()): TPeriodRange {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  const d = today.getUTCDate();
  if (period === "week") {
    const sinceMonday = (today.getUTCDay() + 6) % 7;
    return {
      from: day(new Date(Date.UTC(y, m, d - sinceMonday))),
      until: day(new Date(Date.UTC(y, m, d - sinceMonday + 7))),
    };
  }
  if (period === "month")
    return { from: day(new Date(Date.UTC(y, m, 1))), until: day(new Date(Date.UTC(y, m + 1, 1))) };
  if (period === "year")
    return { from: day(new Date(Date.UTC(y, 0, 1))), until: day(new Date(Date.UTC(y + 1, 0, 1))) };
  return { from: null, until: null };
}

/**
 * The shipments the dashboard lists: the workspace's, not templates, dated inside the period (the
 * rows behind home_counts). Every index the recent list uses holds these three columns, so the
 * check never reads a row.
 */
function inPeriod(scope: THomeScope, range: TPeriodRange): SQL {
  const parts: SQL[] = [sql`s.workspace_id = ${scope.workspaceId}`];
  if (scope.userId !== undefined) parts.push(sql`s.user_id = ${scope.userId}`);
  if (range.from) parts.push(sql`s.effective_date >= ${range.from}`);
  if (range.until) parts.push(sql`s.effective_date < ${range.until}`);
  parts.push(sql`s.shipping_status_id <> ${TEMPLATE_STATUS}`);
  return sql.join(parts, sql` and `);
}

const addDays = (dayText: string, days: number) => {
  const d = new Date(`${dayText}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return day(d);
};
/** The first day of the month on or after a day. */
const ceilMonth = (d: string) => {
  if (d.endsWith("-01")) return d;
  const date = new Date(`${d.slice(0, 7)}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return day(date);
};
const floorMonth = (d: string) => `${d.slice(0, 7)}-01`;
/** The first day of the year on or after a month's first day. */
const ceilYear = (m: string) => (m.endsWith("-01-01") ? m : `${Number(m.slice(0, 4)) + 1}-01-01`);
const floorYear = (m: string) => `${m.slice(0, 4)}-01-01`;

/** A run of home_counts buckets of one level: [from, until), either end open when undefined. */
export type TBucketRun = { level: 0 | 1 | 2 | 3; from?: string; until?: string };

/**
 * A range of days [from, until) (null: open) as the fewest runs of home_counts buckets: the days
 * before the first whole month, the months before the first whole year, whole years, then months
 * and days after the last whole year. Every day of the range is in exactly one run.
 */
export function bucketRuns(from: string | null, until: string | null): TBucketRun[] {
  if (!from && !until) return [{ level: 0 }];
  if (from && until && from >= until) return [];
  const m1 = from ? ceilMonth(from) : null;
  const m2 = until ? floorMonth(until) : null;
  if (from && until && m1! >= m2!) return [{ level: 3, from, until }];
  const runs: TBucketRun[] = [];
  if (from && from < m1!) runs.push({ level: 3, from, until: m1! });
  const y1 = m1 ? ceilYear(m1) : null;
  const y2 = m2 ? floorYear(m2) : null;
  if (m1 && m2 && y1! >= y2!) runs.push({ level: 2, from: m1.slice(0, 7), until: m2.slice(0, 7) });
  else {
    if (m1 && m1 < y1!) runs.push({ level: 2, from: m1.slice(0, 7), until: y1!.slice(0, 7) });
    runs.push({ level: 1, from: y1?.slice(0, 4), until: y2?.slice(0, 4) });
    if (m2 && y2! < m2) runs.push({ level: 2, from: y2!.slice(0, 7), until: m2.slice(0, 7) });
  }
  if (until && m2! < until) runs.push({ level: 3, from: m2!, until });
  return runs;
}

/**
 * The home_counts rows (status_id, destination_country_id, n) of a workspace's shipments dated in
 * [from, until): one primary-key range per run of buckets, so "all" reads a few hundred rows
 * whatever the number of shipments, and a week or a date filter a few thousand at most.
 */
export function countsSql(workspaceId: number, range: TPeriodRange): SQL {
  const runs = bucketRuns(range.from, range.until);
  if (runs.length === 0) return sql`select status_id, destination_country_id, n from home_counts where 0`;
  return sql.join(
    runs.map((run) => {
      const parts = [sql`workspace_id = ${workspaceId}`, sql`level = ${run.level}`];
      if (run.from !== undefined) parts.push(sql`bucket >= ${run.from}`);
      if (run.until !== undefined) parts.push(sql`bucket < ${run.until}`);
      return sql`select status_id, destination_country_id, n from home_counts where ${sql.join(parts, sql` and `)}`;
    }),
    sql` union all `,
  );
}

/**
 * Rows shaped like home_counts' (status_id, destination_country_id, n) for the scope: home_counts'
 * for a workspace, one member's grouped from their range of shipments_ws_user_home_idx.
 */
export function scopedCountsSql(scope: THomeScope, range: TPeriodRange): SQL {
  if (scope.userId === undefined) return countsSql(scope.workspaceId, range);
  return sql`select s.shipping_status_id as status_id, coalesce(s.destination_country_id, 0) as destination_country_id,
                    count(*) as n
             from shipments s indexed by shipments_ws_user_home_idx
             where ${inPeriod(scope, range)}
             group by s.shipping_status_id, s.destination_country_id`;
}

/** The performance aggregate, from home_counts or a member's index range (exported for the EXPLAIN QUERY PLAN test). */
export const performanceSql = (scope: THomeScope, range: TPeriodRange) =>
  sql`select status_id, sum(n) as n from (${scopedCountsSql(scope, range)}) group by status_id`;

/** The destinations aggregate, from home_counts or a member's index range (exported for the EXPLAIN QUERY PLAN test). */
export const destinationSql = (scope: THomeScope, range: TPeriodRange) =>
  sql`select c.id as country_id, c.name as name, c.code_iso_2 as code_iso_2, c.lat as lat, c.lng as lng, g.n as count
      from (select destination_country_id as d, sum(n) as n from (${scopedCountsSql(scope, range)})
            where destination_country_id <> 0 group by destination_country_id) g
      join countries c on c.id = g.d
      order by g.n desc, c.name asc`;

/** Per status the count and the percentage of the period's shipments (percentages sum to 100, or all 0). */
export async function shippingPerformance(
  db: TDb,
  scope: THomeScope,
  period: TPeriod,
  today?: Date,
): Promise<TPerformance> {
  const range = periodRange(period, today);
  const [rows, any] = await Promise.all([
    db.all<{ status_id: number; n: number }>(performanceSql(scope, range)),
    // Whether the workspace (not only the member) has shipments: an empty dashboard invites creating one.
    range.from || scope.userId !== undefined
      ? db.all(sql`select 1 from home_counts where workspace_id = ${scope.workspaceId} and level = 0 limit 1`)
      : null,
  ]);
  const byStatus = new Map(rows.map((r) => [Number(r.status_id), Number(r.n)]));
  const counts = PERFORMANCE_STATUSES.map((s) => byStatus.get(s.id) ?? 0);
  const percentages = largestRemainder(counts);
  const entries = PERFORMANCE_STATUSES.map((s, i) => ({
    status_id: s.id,
    status: s.name,
    count: counts[i],
    percentage: percentages[i],
  }));
  const total = counts.reduce((a, b) => a + b, 0);
  return {
    filter: period,
    from: range.from,
    until: range.until,
    total,
    has_shipments: any ? any.length > 0 : total > 0,
    data: [{ shipments: entries }, { percentage: entries }],
  };
}

/** Destinations of the period's shipments with their reference centroid and count, most first. */
async function destinationCounts(
  db: TDb,
  scope: THomeScope,
  range: TPeriodRange,
): Promise<TMapDestination[]> {
  const rows = await db.all<TMapDestination>(destinationSql(scope, range));
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

/** Destinations with their order number (count) and order percent, most first; paged. */
export async function mostCommonDestinations(
  db: TDb,
  scope: THomeScope,
  period: TPeriod,
  page: { page: number; perPage: number },
  today?: Date,
) {
  const all = await destinationCounts(db, scope, periodRange(period, today));
  const percents = largestRemainder(all.map((d) => d.count));
  const rows: TCommonDestination[] = all.map((d, i) => ({
    country_id: d.country_id,
    destination: d.name,
    code_iso_2: d.code_iso_2,
    order_number: d.count,
    order_percent: percents[i],
  }));
  const start = (page.page - 1) * page.perPage;
  return {
    filter: period,
    data: rows.slice(start, start + page.perPage),
    total: rows.length,
    /** Shipments with a known destination in the period: what the percentages are of. */
    shipments: rows.reduce((sum, r) => sum + r.order_number, 0),
    current_page: page.page,
    per_page: page.perPage,
    last_page: Math.max(1, Math.ceil(rows.length / page.perPage)),
  };
}

/** The recent list's columns: what sorts and filters (parseListQuery checks requests against it). */
export const RECENT_COLUMNS: Record<string, TListColumn> = {
  date: { sortable: true, filter: "date" },
  addressee: { sortable: true, filter: "text" },
  destination: { sortable: true, filter: "text" },
  tracking_number: { sortable: true, filter: "text" },
};

/** Sort keys kept on shipments by triggers, each served by a (workspace, key collate nocase, id) index. */
const RECENT_SORT: Record<string, SQL> = {
  date: sql`s.effective_date`,
  addressee: sql`s.addressee collate nocase`,
  destination: sql`s.destination_name collate nocase`,
  tracking_number: sql`s.tracking_number_1 collate nocase`,
};

function textMatch(columns: SQL[], value: string): SQL {
  const likes = columns.flatMap((column) =>
    caseVariants(value).map((variant) => sql`${column} like ${containsPattern(variant)} escape '\\'`),
  );
  return sql`(${sql.join(likes, sql` or `)})`;
}

/** Days as YYYY-MM-DD strings order like the days themselves; missing (open) ends are left out. */
const days = (...values: (string | null | undefined)[]) => values.filter((v): v is string => !!v).sort();

/** [from, until) of the period narrowed by the list's date filter (inclusive days). */
function narrowed(range: TPeriodRange, filter: { from?: string; to?: string }): TPeriodRange {
  return {
    from: days(range.from, filter.from).at(-1) ?? null,
    until: days(range.until, filter.to ? addDays(filter.to, 1) : null)[0] ?? null,
  };
}

/** The index of each recent-list key: it orders by the key and holds the key, the date and the status. */
const INDEX_OF: Record<string, string> = {
  date: "shipments_ws_home_idx",
  addressee: "shipments_ws_addressee_idx",
  destination: "shipments_ws_destination_name_idx",
  tracking_number: "shipments_ws_tracking_nocase_idx",
};
/** Reading a row to check a column its index does not hold costs about this many index entries. */
const LOOKUP = 4;
/** Up to this many matches of a text filter are collected by id while counting them. */
const FEW = 2_000;

/**
 * Which index serves a page of the recent list, from exact counts (home_counts and the filtered
 * count), so the choice holds without SQLite statistics (the app never runs ANALYZE):
 * - walk the sort's index in order until the page is full: about wanted × range / matching
 *   entries (the date index walks the period only; the others the whole workspace);
 * - read the period's range of the date index and sort it (every row read for its sort key);
 * - read a text filter's index (it holds the filtered column: the addressee's is sought by company,
 *   the others read whole) and sort the matches.
 * Each is exact; only the cost differs, and the cheapest estimate wins.
 */
export function recentIndex(p: {
  sort: string;
  filters: string[];
  wanted: number;
  matching: number;
  inRange: number;
  inWorkspace: number;
  isBounded: boolean;
}): string {
  const sortIndex = INDEX_OF[p.sort];
  const isDate = p.sort === "date";
  const walked = isDate ? p.inRange : p.inWorkspace;
  const heldBySort = p.filters.every((f) => f === p.sort);
  const options: [string, number][] = [
    [sortIndex, Math.min(walked, (p.wanted * walked) / p.matching) * (heldBySort ? 1 : LOOKUP)],
  ];
  if (!isDate && p.isBounded) options.push([INDEX_OF.date, p.inRange * LOOKUP]);
  if (p.filters.length) {
    const held = p.filters.every((f) => f === p.filters[0]) && (isDate || p.sort === p.filters[0]);
    // The addressee filter seeks its companies (their shipments of every period); others scan.
    const read =
      p.filters[0] === "addressee" ? (p.matching * p.inWorkspace) / Math.max(1, p.inRange) : p.inWorkspace;
    options.push([INDEX_OF[p.filters[0]], read + p.matching * (held ? 1 : LOOKUP)]);
  }
  return options.reduce((best, option) => (option[1] < best[1] ? option : best))[0];
}

/** Tracking-number suffixes kept in home_tracking_suffixes are at least this long (migration home_tracking_suffixes). */
const SUFFIX_MIN = 3;

/**
 * The shipments of the period whose tracking numbers contain `value` (as the recent list's LIKE
 * '%value%' on either number matches them), as a condition on home_tracking_suffixes, or null when
 * that table cannot answer exactly: a value shorter than the kept suffixes, one with non-ASCII
 * characters (LIKE's case variants are tried for those), or a workspace with a number too long to
 * be kept (marked with an empty suffix). LIKE folds ASCII letters only, and so does upper(), with
 * which the suffixes were kept: the value occurs in a number exactly when some kept suffix of it
 * starts with the upper-cased value, i.e. lies in [value, value with its last character + 1).
 * Each match may appear more than once (both numbers, or twice in one): count distinct shipments.
 */
async function trackingMatches(
  db: TDb,
  workspaceId: number,
  range: TPeriodRange,
  value: string,
): Promise<SQL | null> {
  if (value.length < SUFFIX_MIN || /[^\x20-\x7e]/.test(value)) return null;
  const [marker] = await db.all<{ one: number }>(
    sql`select 1 as one from home_tracking_suffixes where workspace_id = ${workspaceId} and suffix = '' limit 1`,
  );
  if (marker) return null;
  const from = value.replace(/[a-z]/g, (letter) => letter.toUpperCase());
  // Printable ASCII only, so the last character's successor is still one character.
  const until = from.slice(0, -1) + String.fromCharCode(from.charCodeAt(from.length - 1) + 1);
  const parts: SQL[] = [
    sql`workspace_id = ${workspaceId}`,
    sql`suffix >= ${from}`,
    sql`suffix < ${until}`,
    sql`shipping_status_id <> ${TEMPLATE_STATUS}`,
  ];
  if (range.from) parts.push(sql`effective_date >= ${range.from}`);
  if (range.until) parts.push(sql`effective_date < ${range.until}`);
  return sql.join(parts, sql` and `);
}

/**
 * One page of the period's shipments, newest first by default: date (ship date, else creation
 * day), addressee (the importer of record's company), destination (the consignee's country, else
 * the importer's) and tracking number (filters match either tracking number). The sorts walk
 * indexes of trigger-kept keys; the total comes from home_counts unless a text filter applies.
 * One member's list is read from their range of shipments_ws_user_home_idx (SQLite plans it).
 */
export async function mostRecentShipments(
  db: TDb,
  scope: THomeScope,
  period: TPeriod,
  query: TListQuery,
  today?: Date,
  /** Up to how many text-filter matches are collected by id (the tests also try 0: always counted). */
  few = FEW,
) {
  const { workspaceId } = scope;
  const byUser = scope.userId !== undefined;
  let range = periodRange(period, today);
  const texts: { prop: string; match: SQL; countries?: SQL }[] = [];
  let trackingValue: string | undefined;
  for (const filter of query.filters) {
    if (filter.kind === "date") range = narrowed(range, filter);
    else if (filter.kind === "text") {
      const value = filter.value;
      // Matched on the trigger-kept keys, inside the sort indexes, without reading the rows.
      // The addressee is an importer's company: match the workspace's few hundred contacts, then
      // seek those companies in the addressee index (NOCASE equality keeps LIKE's ASCII folding).
      if (filter.prop === "addressee")
        texts.push({
          prop: "addressee",
          match: sql`(s.addressee collate nocase) in (select company from contacts where workspace_id = ${workspaceId} and ${textMatch([sql`company`], value)})`,
        });
      if (filter.prop === "destination")
        texts.push({
          prop: "destination",
          match: textMatch([sql`s.destination_name`], value),
          countries: textMatch([sql`name`], value),
        });
      if (filter.prop === "tracking_number") trackingValue = value;
      if (filter.prop === "tracking_number")
        texts.push({
          prop: "tracking_number",
          match: textMatch([sql`s.tracking_number_1`, sql`s.tracking_number_2`], value),
        });
    }
  }
  const where = sql.join([inPeriod(scope, range), ...texts.map((t) => t.match)], sql` and `);
  // Exact counts first: the period's (and the workspace's) from home_counts, then the filtered one.
  const [{ inRange, inWorkspace }] = await db.all<{ inRange: number; inWorkspace: number }>(
    sql`select (select coalesce(sum(n), 0) from (${scopedCountsSql(scope, range)})) as inRange,
               (select coalesce(sum(n), 0) from home_counts where workspace_id = ${workspaceId} and level = 0) as inWorkspace`,
  );
  let count = Number(inRange);
  const tracked =
    texts.length === 1 && texts[0].prop === "tracking_number" && count > 0
      ? await trackingMatches(db, workspaceId, range, trackingValue!)
      : null;
  /** With few matches, all their ids: the page is then read by id. */
  let ids: number[] | null = null;
  if (texts.length && count > 0) {
    const countries = texts.map((t) => t.countries);
    if (countries.every(Boolean)) {
      // Only destination filters: the matching countries' counts (destination_name is the name
      // of destination_country_id, kept by triggers).
      const [{ total }] = await db.all<{ total: number }>(
        sql`select coalesce(sum(n), 0) as total from (${scopedCountsSql(scope, range)})
            where ${sql.join(
              countries.map(
                (match) => sql`destination_country_id in (select id from countries where ${match})`,
              ),
              sql` and `,
            )}`,
      );
      count = Number(total);
    } else if (tracked) {
      // Only a tracking-number filter: its matches are one range of the suffix table; a member's
      // are those matches whose row (looked up by id) they created.
      const matches = byUser
        ? sql`(select distinct shipment_id as id from home_tracking_suffixes where ${tracked}) m
              cross join shipments s on s.id = m.id where s.user_id = ${scope.userId}`
        : null;
      const [{ total }] = await db.all<{ total: number }>(
        matches
          ? sql`select count(*) as total from ${matches}`
          : sql`select count(distinct shipment_id) as total from home_tracking_suffixes where ${tracked}`,
      );
      count = Number(total);
      if (count <= few) {
        const found = await db.all<{ id: number }>(
          matches
            ? sql`select m.id as id from ${matches}`
            : sql`select distinct shipment_id as id from home_tracking_suffixes where ${tracked}`,
        );
        ids = found.map((r) => r.id);
      }
    } else {
      // Found in a filter's index (the addressee's is sought by company, the tracking one read
      // whole in the index, not the rows), or in the period's range when that is smaller.
      const first =
        texts.find((t) => t.prop === "addressee") ?? texts.find((t) => t.prop === "tracking_number")!;
      const isRangeSmaller =
        first.prop !== "addressee" &&
        Boolean(range.from || range.until) &&
        Number(inRange) * LOOKUP < Number(inWorkspace);
      const scan = byUser
        ? sql``
        : sql`indexed by ${sql.raw(isRangeSmaller ? INDEX_OF.date : INDEX_OF[first.prop])}`;
      // Few matches come with their ids (the page is then read by id); more are counted.
      const found = await db.all<{ id: number }>(
        sql`select s.id as id from shipments s ${scan} where ${where} limit ${few + 1}`,
      );
      if (found.length <= few) {
        count = found.length;
        ids = found.map((r) => r.id);
      } else {
        const [{ total }] = await db.all<{ total: number }>(
          sql`select count(*) as total from shipments s ${scan} where ${where}`,
        );
        count = Number(total);
      }
    }
  }
  const offset = (query.page - 1) * query.perPage;
  const index =
    count === 0 || offset >= count || ids || byUser
      ? null
      : recentIndex({
          sort: query.sort.prop,
          filters: texts.map((t) => t.prop),
          wanted: offset + query.perPage,
          matching: count,
          inRange: Number(inRange),
          inWorkspace: Number(inWorkspace),
          isBounded: Boolean(range.from || range.until),
        });
  const direction = query.sort.direction === "desc" ? sql`desc` : sql`asc`;
  // By id: rowid lookups (NOT INDEXED keeps SQLite from walking a sort index instead).
  const byId =
    ids && offset < count ? sql`s.id in (select value from json_each(${JSON.stringify(ids)})) and ` : null;
  const hint = index ? sql`indexed by ${sql.raw(index)}` : byId ? sql`not indexed` : sql``;
  const rows =
    index || byId || (byUser && count > 0 && offset < count)
      ? await db.all<TRecentShipment>(
          sql`select s.id as id, s.effective_date as date, s.ship_date as ship_date, s.addressee as addressee,
               s.destination_name as destination, c.code_iso_2 as destination_code, s.tracking_number_1 as tracking_number,
               s.tracking_number_2 as tracking_number_2, s.shipping_status_id as status_id
        from shipments s ${hint}
          left join countries c on c.id = s.destination_country_id
        where ${byId ?? sql``}${where}
        order by ${RECENT_SORT[query.sort.prop]} ${direction}, s.id ${direction}
        limit ${query.perPage} offset ${offset}`,
        )
      : [];
  return {
    filter: period,
    data: rows,
    total: count,
    current_page: query.page,
    per_page: query.perPage,
    last_page: Math.max(1, Math.ceil(count / query.perPage)),
  };
}

/**
 * The map: every destination of the period once, with its centroid and shipment count (what the
 * markers and clusters draw, however many shipments there are), plus one page of map entries —
 * all destinations, or one country's with `countryId` (the list shown at a cluster).
 */
export async function mapOfShipments(
  db: TDb,
  scope: THomeScope,
  query: { filter: TPeriod; country_id?: number; page: number; per_page: number },
  today?: Date,
): Promise<TMapAnswer> {
  const range = periodRange(query.filter, today);
  const destinations = await destinationCounts(db, scope, range);
  const chosen = query.country_id
    ? destinations.filter((d) => d.country_id === query.country_id)
    : destinations;
  const total = chosen.reduce((sum, d) => sum + d.count, 0);
  const where = query.country_id
    ? sql`${inPeriod(scope, range)} and s.destination_country_id = ${query.country_id}`
    : sql`${inPeriod(scope, range)} and s.destination_country_id is not null`;
  const data =
    total === 0 || query.per_page === 0
      ? []
      : await db.all<TMapEntry>(
          sql`select s.id as id, c.lat as lat, c.lng as lng, s.ship_date as ship_date,
                     s.shipper_reference_number as shiper_ref, car.name as carrier, st.name as name
              from shipments s
              join countries c on c.id = s.destination_country_id
              join shipping_statuses st on st.id = s.shipping_status_id
              left join carriers car on car.id = s.carrier_id
              where ${where}
              order by s.effective_date desc, s.id desc
              limit ${query.per_page} offset ${(query.page - 1) * query.per_page}`,
        );
  return {
    filter: query.filter,
    destinations,
    data,
    total,
    current_page: query.page,
    per_page: query.per_page,
    last_page: query.per_page ? Math.max(1, Math.ceil(total / query.per_page)) : 1,
  };
}
