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

/** Answers kept per database, keyed by workspace, its home_versions counter, today and the query. */
const answers = new WeakMap<TDb, Map<string, unknown>>();
const MAX_ANSWERS = 2_000;

/**
 * An answer from the cache when nothing the dashboard reads has changed since it was computed: SQL
 * triggers raise the workspace's home_versions counter on every shipment write and contact change,
 * from this process or any other, and the day is part of the key because periods move with it.
 */
export async function cachedAnswer<T>(
  db: TDb,
  workspaceId: number,
  query: string,
  compute: () => Promise<T>,
): Promise<T> {
  const [row] = await db.all<{ version: number }>(
    sql`select version from home_versions where workspace_id = ${workspaceId}`,
  );
  const key = `${workspaceId}:${row?.version ?? 0}:${day(new Date())}:${query}`;
  let store = answers.get(db);
  if (!store) {
    store = new Map();
    answers.set(db, store);
  }
  if (store.has(key)) {
    const hit = store.get(key) as T;
    // Least recently used goes first: re-insert on every hit.
    store.delete(key);
    store.set(key, hit);
    return hit;
  }
  const answer = await compute();
  store.set(key, answer);
  if (store.size > MAX_ANSWERS) store.delete(store.keys().next().value as string);
  return answer;
}

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
 * The shipments the dashboard counts: the workspace's, not templates, dated inside the period.
 * Written against the covering index shipments_ws_home_idx (workspace, effective_date, status,
 * destination), so every aggregate is an index-only range scan.
 */
function inPeriod(workspaceId: number, range: TPeriodRange): SQL {
  const parts: SQL[] = [sql`s.workspace_id = ${workspaceId}`];
  if (range.from) parts.push(sql`s.effective_date >= ${range.from}`);
  if (range.until) parts.push(sql`s.effective_date < ${range.until}`);
  parts.push(sql`s.shipping_status_id <> ${TEMPLATE_STATUS}`);
  return sql.join(parts, sql` and `);
}

/** The performance aggregate (exported for the EXPLAIN QUERY PLAN test). */
export const performanceSql = (workspaceId: number, range: TPeriodRange) =>
  sql`select s.shipping_status_id as status_id, count(*) as n from shipments s
      where ${inPeriod(workspaceId, range)} group by s.shipping_status_id`;

/** The destinations aggregate (exported for the EXPLAIN QUERY PLAN test). */
export const destinationSql = (workspaceId: number, range: TPeriodRange) =>
  sql`select c.id as country_id, c.name as name, c.code_iso_2 as code_iso_2, c.lat as lat, c.lng as lng, g.n as count
      from (select s.destination_country_id as d, count(*) as n from shipments s
            where ${inPeriod(workspaceId, range)} and s.destination_country_id is not null
            group by s.destination_country_id) g
      join countries c on c.id = g.d
      order by g.n desc, c.name asc`;

/** Per status the count and the percentage of the period's shipments (percentages sum to 100, or all 0). */
export async function shippingPerformance(
  db: TDb,
  workspaceId: number,
  period: TPeriod,
  today?: Date,
): Promise<TPerformance> {
  const range = periodRange(period, today);
  const [rows, any] = await Promise.all([
    db.all<{ status_id: number; n: number }>(performanceSql(workspaceId, range)),
    range.from
      ? db.all(
          sql`select 1 from shipments s where ${inPeriod(workspaceId, { from: null, until: null })} limit 1`,
        )
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
  workspaceId: number,
  range: TPeriodRange,
): Promise<TMapDestination[]> {
  const rows = await db.all<TMapDestination>(destinationSql(workspaceId, range));
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

/** Destinations with their order number (count) and order percent, most first; paged. */
export async function mostCommonDestinations(
  db: TDb,
  workspaceId: number,
  period: TPeriod,
  page: { page: number; perPage: number },
  today?: Date,
) {
  const all = await destinationCounts(db, workspaceId, periodRange(period, today));
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

const RECENT_SORT: Record<string, SQL> = {
  date: sql`s.effective_date`,
  addressee: sql`imp.company collate nocase`,
  destination: sql`c.name collate nocase`,
  tracking_number: sql`s.tracking_number_1 collate nocase`,
};

function textMatch(columns: SQL[], value: string): SQL {
  const likes = columns.flatMap((column) =>
    caseVariants(value).map((variant) => sql`${column} like ${containsPattern(variant)} escape '\\'`),
  );
  return sql`(${sql.join(likes, sql` or `)})`;
}

/**
 * One page of the period's shipments, newest first by default: date (ship date, else creation
 * day), addressee (the importer of record's company), destination (the consignee's country, else
 * the importer's) and tracking number (filters match either tracking number).
 */
export async function mostRecentShipments(
  db: TDb,
  workspaceId: number,
  period: TPeriod,
  query: TListQuery,
  today?: Date,
) {
  const conditions: SQL[] = [inPeriod(workspaceId, periodRange(period, today))];
  for (const filter of query.filters) {
    if (filter.kind === "date") {
      if (filter.from) conditions.push(sql`s.effective_date >= ${filter.from}`);
      if (filter.to) conditions.push(sql`s.effective_date <= ${filter.to}`);
    } else if (filter.kind === "text") {
      const value = filter.value;
      if (filter.prop === "addressee") conditions.push(textMatch([sql`imp.company`], value));
      if (filter.prop === "destination") conditions.push(textMatch([sql`c.name`], value));
      if (filter.prop === "tracking_number")
        conditions.push(textMatch([sql`s.tracking_number_1`, sql`s.tracking_number_2`], value));
    }
  }
  const where = sql.join(conditions, sql` and `);
  const direction = query.sort.direction === "desc" ? sql`desc` : sql`asc`;
  const from = sql`shipments s
    left join contacts imp on imp.id = s.importer_of_record_id
    left join countries c on c.id = s.destination_country_id`;
  const [rows, [{ total }]] = await Promise.all([
    db.all<TRecentShipment>(
      sql`select s.id as id, s.effective_date as date, s.ship_date as ship_date, imp.company as addressee,
                 c.name as destination, c.code_iso_2 as destination_code, s.tracking_number_1 as tracking_number,
                 s.tracking_number_2 as tracking_number_2, s.shipping_status_id as status_id
          from ${from} where ${where}
          order by ${RECENT_SORT[query.sort.prop]} ${direction}, s.id ${direction}
          limit ${query.perPage} offset ${(query.page - 1) * query.perPage}`,
    ),
    // The joins are only needed when a filter reads the importer or the country.
    query.filters.some((f) => f.prop === "addressee" || f.prop === "destination")
      ? db.all<{ total: number }>(sql`select count(*) as total from ${from} where ${where}`)
      : db.all<{ total: number }>(sql`select count(*) as total from shipments s where ${where}`),
  ]);
  const count = Number(total);
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
  workspaceId: number,
  query: { filter: TPeriod; country_id?: number; page: number; per_page: number },
  today?: Date,
): Promise<TMapAnswer> {
  const range = periodRange(query.filter, today);
  const destinations = await destinationCounts(db, workspaceId, range);
  const chosen = query.country_id
    ? destinations.filter((d) => d.country_id === query.country_id)
    : destinations;
  const total = chosen.reduce((sum, d) => sum + d.count, 0);
  const where = query.country_id
    ? sql`${inPeriod(workspaceId, range)} and s.destination_country_id = ${query.country_id}`
    : sql`${inPeriod(workspaceId, range)} and s.destination_country_id is not null`;
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
