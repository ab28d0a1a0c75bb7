import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { openDatabase } from "../../../db/client";
import type {
  TCommonDestination,
  TMapAnswer,
  TPerformance,
  TRecentShipment,
} from "../../../db/contracts/home";
import { largestRemainder } from "../../../db/contracts/home";
import { readerOf } from "../../../db/reader";
import { countries, shipments } from "../../../db/schema";
import { caseVariants } from "../../lib/entity/entity.service";
import { parseListQuery } from "../../lib/entity/list-query";
import { buildContact, call, joinAs, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import {
  bucketRuns,
  countsSql,
  destinationSql,
  mostRecentShipments,
  performanceSql,
  periodRange,
  RECENT_COLUMNS,
  recentIndex,
} from "./home.service";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

type TWho = Pick<Awaited<ReturnType<typeof signUp>>, "user" | "auth">;

const countryIds = new Map<string, number>();
async function countryId(code: string): Promise<number> {
  if (!countryIds.has(code)) {
    const [row] = await ctx.database.db.select().from(countries).where(eq(countries.code_iso_2, code));
    countryIds.set(code, row.id);
  }
  return countryIds.get(code)!;
}

/** A contact of the caller's workspace in the given country (null: no country). */
async function contactIn(who: TWho, code: string | null, company?: string): Promise<number> {
  const body = buildContact({
    country_id: code ? await countryId(code) : null,
    ...(company ? { company } : {}),
  });
  const res = await call(ctx, who.auth, "POST", "/api/contacts", body);
  expect(res.status).toBe(201);
  return ((await res.json()) as { item: { id: number } }).item.id;
}

/** A shipment row of the caller's workspace, written straight to the database; overrides win. */
async function shipment(who: TWho, overrides: Partial<typeof shipments.$inferInsert> = {}): Promise<number> {
  const [row] = await ctx.database.db
    .insert(shipments)
    .values({
      workspace_id: who.user.workspace_id,
      shipping_status_id: 3,
      ship_date: "2025-06-15",
      ...overrides,
    })
    .returning({ id: shipments.id });
  return row.id;
}

const get = async <T>(who: TWho, path: string): Promise<T> => {
  const res = await call(ctx, who.auth, "GET", path);
  expect(res.status, `${path}: ${res.status}`).toBe(200);
  return (await res.json()) as T;
};

const shiftDay = (dayText: string, days: number) => {
  const d = new Date(`${dayText}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

describe("periods", () => {
  test("weeks start on Monday; months and years on their first day (UTC)", () => {
    // 2026-11-22 is a Sunday: its week began on Monday 2026-11-16.
    const sunday = new Date("2026-11-22T23:59:00Z");
    expect(periodRange("week", sunday)).toEqual({ from: "2026-11-16", until: "2026-11-23" });
    expect(periodRange("week", new Date("2026-11-16T00:00:00Z"))).toEqual({
      from: "2026-11-16",
      until: "2026-11-23",
    });
    expect(periodRange("month", sunday)).toEqual({ from: "2026-11-01", until: "2026-12-01" });
    expect(periodRange("month", new Date("2026-12-31T12:00:00Z"))).toEqual({
      from: "2026-12-01",
      until: "2027-01-01",
    });
    expect(periodRange("year", sunday)).toEqual({ from: "2026-01-01", until: "2027-01-01" });
    expect(periodRange("all", sunday)).toEqual({ from: null, until: null });
  });

  for (const period of ["week", "month", "year"] as const) {
    test(`${period}: a shipment on the period's first day counts, the day before does not`, async () => {
      const who = await signUp(ctx);
      const { from, until } = periodRange(period);
      await shipment(who, { ship_date: from!, shipping_status_id: 3 });
      await shipment(who, { ship_date: shiftDay(until!, -1), shipping_status_id: 6 });
      await shipment(who, { ship_date: shiftDay(from!, -1), shipping_status_id: 5 });
      await shipment(who, { ship_date: until!, shipping_status_id: 5 });
      // Without a ship date the creation day decides: created at the very start of the period.
      await shipment(who, { ship_date: null, created_at: `${from}T00:00:00.000Z`, shipping_status_id: 2 });
      await shipment(who, {
        ship_date: null,
        created_at: `${shiftDay(from!, -1)}T23:59:59.999Z`,
        shipping_status_id: 2,
      });

      const perf = await get<TPerformance>(who, `/api/home/shipping-performance?filter=${period}`);
      expect(perf.filter).toBe(period);
      expect(perf.from).toBe(from);
      expect(perf.until).toBe(until);
      expect(perf.total).toBe(3);
      const counts = Object.fromEntries(perf.data[0].shipments.map((e) => [e.status, e.count]));
      expect(counts).toEqual({ draft: 1, "in transit": 1, customs: 0, delayed: 0, delivered: 1 });

      const all = await get<TPerformance>(who, "/api/home/shipping-performance");
      expect(all.filter).toBe("all");
      expect(all.total).toBe(6);
    });
  }
});

describe("GET /api/home/shipping-performance", () => {
  test("counts and percentages per status sum to 100; templates are not shipments", async () => {
    const who = await signUp(ctx);
    for (const status of [2, 3, 3, 5, 6, 6, 6]) await shipment(who, { shipping_status_id: status });
    await shipment(who, { shipping_status_id: 1, name: "A template" });
    const perf = await get<TPerformance>(who, "/api/home/shipping-performance?filter=all");
    expect(perf.total).toBe(7);
    const entries = perf.data[0].shipments;
    expect(entries.map((e) => e.status)).toEqual(["draft", "in transit", "customs", "delayed", "delivered"]);
    expect(entries.map((e) => e.count)).toEqual([1, 2, 0, 1, 3]);
    // 1/7 = 14.29, 2/7 = 28.57, 0, 14.29, 3/7 = 42.86 → floors 14+28+0+14+42 = 98; the two largest remainders get +1.
    expect(perf.data[1].percentage.map((e) => e.percentage)).toEqual([14, 29, 0, 14, 43]);
    expect(perf.data[1].percentage.reduce((s, e) => s + e.percentage, 0)).toBe(100);
  });

  test("an empty period answers every status with 0 and 0 %", async () => {
    const who = await signUp(ctx);
    await shipment(who, { ship_date: "2001-01-01" });
    const perf = await get<TPerformance>(who, "/api/home/shipping-performance?filter=week");
    expect(perf.total).toBe(0);
    expect(perf.has_shipments).toBe(true);
    expect(perf.data[0].shipments.every((e) => e.count === 0 && e.percentage === 0)).toBe(true);
    expect(perf.data[1].percentage).toHaveLength(5);
  });

  test("largest remainder: thirds make 34/33/33, and any mix sums to exactly 100", () => {
    expect(largestRemainder([1, 1, 1])).toEqual([34, 33, 33]);
    expect(largestRemainder([0, 0])).toEqual([0, 0]);
    expect(largestRemainder([5])).toEqual([100]);
    for (const counts of [
      [1, 2, 3, 4, 5],
      [99999, 1, 1],
      [7, 7, 7, 7, 7, 7],
      [1, 0, 0, 2],
    ]) {
      expect(largestRemainder(counts).reduce((a, b) => a + b, 0)).toBe(100);
    }
  });
});

describe("destinations", () => {
  let who: TWho;
  let germany = 0;
  let japan = 0;
  let usImporter = 0;
  beforeAll(async () => {
    who = await signUp(ctx);
    germany = await contactIn(who, "DE", "Berlin Optics GmbH");
    japan = await contactIn(who, "JP", "Osaka Trading KK");
    usImporter = await contactIn(who, "US", "Austin Imports LLC");
    const nowhere = await contactIn(who, null, "Nowhere Ltd");
    // Consignee's country wins over the importer's.
    await shipment(who, {
      importer_of_record_id: usImporter,
      ultimate_consignee_id: germany,
      shipper_reference_number: "REF-1",
    });
    await shipment(who, { importer_of_record_id: usImporter, ultimate_consignee_id: germany, carrier_id: 1 });
    // No consignee: the importer's country.
    await shipment(who, { importer_of_record_id: japan });
    // A consignee without a country: the importer's.
    await shipment(who, { importer_of_record_id: usImporter, ultimate_consignee_id: nowhere });
    // No destination at all: not on the map nor in the destinations.
    await shipment(who, { importer_of_record_id: nowhere });
    await shipment(who, {});
    // Templates never count.
    await shipment(who, { shipping_status_id: 1, importer_of_record_id: japan });
  });

  test("most common: the consignee's country, else the importer's, with count and percent, most first", async () => {
    const body = await get<{ data: TCommonDestination[]; total: number; shipments: number }>(
      who,
      "/api/home/most-common-shipments?filter=all",
    );
    expect(body.data.map((d) => [d.destination, d.order_number, d.order_percent])).toEqual([
      ["Germany", 2, 50],
      ["Japan", 1, 25],
      ["United States", 1, 25],
    ]);
    expect(body.total).toBe(3);
    expect(body.shipments).toBe(4);
  });

  test("map: destinations at their reference centroid with counts, and the entries in the spec's shape", async () => {
    const map = await get<TMapAnswer>(who, "/api/home/map");
    const [de] = await ctx.database.db.select().from(countries).where(eq(countries.code_iso_2, "DE"));
    expect(map.destinations[0]).toEqual({
      country_id: de.id,
      name: "Germany",
      code_iso_2: "DE",
      lat: de.lat,
      lng: de.lng,
      count: 2,
    });
    expect(map.total).toBe(4);
    expect(map.data).toHaveLength(4);
    const entry = map.data.find((e) => e.shiper_ref === "REF-1")!;
    expect(Object.keys(entry).sort()).toEqual([
      "carrier",
      "id",
      "lat",
      "lng",
      "name",
      "ship_date",
      "shiper_ref",
    ]);
    expect(entry).toMatchObject({ lat: de.lat, lng: de.lng, ship_date: "2025-06-15", name: "in transit" });
    expect(map.data.some((e) => e.carrier !== null)).toBe(true);
  });

  test("map: one country's entries, paged (what a cluster lists at max zoom)", async () => {
    const deId = await countryId("DE");
    const first = await get<TMapAnswer>(who, `/api/home/map?country_id=${deId}&per_page=1`);
    expect(first.total).toBe(2);
    expect(first.last_page).toBe(2);
    expect(first.data).toHaveLength(1);
    const second = await get<TMapAnswer>(who, `/api/home/map?country_id=${deId}&per_page=1&page=2`);
    expect(second.data).toHaveLength(1);
    expect(second.data[0].id).not.toBe(first.data[0].id);
    expect(second.destinations).toHaveLength(3);
    const only = await get<TMapAnswer>(who, "/api/home/map?per_page=0");
    expect(only.data).toEqual([]);
    expect(only.total).toBe(4);
    expect(only.destinations.map((d) => d.count)).toEqual([2, 1, 1]);
  });

  test("a contact's new country moves its shipments; a deleted consignee falls back to the importer", async () => {
    const other = await signUp(ctx);
    const consignee = await contactIn(other, "FR", "Lyon Labs SA");
    const importer = await contactIn(other, "BR", "São Paulo Importadora");
    await shipment(other, { importer_of_record_id: importer, ultimate_consignee_id: consignee });
    const names = async () =>
      (await get<{ data: TCommonDestination[] }>(other, "/api/home/most-common-shipments")).data.map(
        (d) => d.destination,
      );
    expect(await names()).toEqual(["France"]);
    const res = await call(ctx, other.auth, "PUT", `/api/contacts/${consignee}`, {
      ...buildContact({ company: "Lyon Labs SA", country_id: await countryId("IT") }),
      id: consignee,
    });
    expect(res.status).toBe(200);
    expect(await names()).toEqual(["Italy"]);
    const del = await call(ctx, other.auth, "DELETE", `/api/contacts/${consignee}?force=1`);
    expect(del.status).toBe(200);
    expect(await names()).toEqual(["Brazil"]);
  });
});

describe("GET /api/home/most-recent-shipments", () => {
  let who: TWho;
  beforeAll(async () => {
    who = await signUp(ctx);
    const zurich = await contactIn(who, "CH", "Zürich Präzision AG");
    const acme = await contactIn(who, "CA", "Acme Canada Inc");
    for (let i = 1; i <= 12; i++) {
      await shipment(who, {
        ship_date: `2025-03-${String(i).padStart(2, "0")}`,
        importer_of_record_id: i % 2 ? zurich : acme,
        tracking_number_1: `1Z-${i}`,
        tracking_number_2: i === 7 ? "SECOND-777" : "",
      });
    }
    await shipment(who, {
      ship_date: null,
      created_at: "2025-04-01T08:00:00.000Z",
      tracking_number_1: "NO-SHIP-DATE",
    });
  });

  test("newest first, pages of 10 with the list totals; the date falls back to the creation day", async () => {
    const first = await get<{ data: TRecentShipment[]; total: number; last_page: number }>(
      who,
      "/api/home/most-recent-shipments",
    );
    expect(first.total).toBe(13);
    expect(first.last_page).toBe(2);
    expect(first.data).toHaveLength(10);
    expect(first.data[0]).toMatchObject({
      date: "2025-04-01",
      ship_date: null,
      tracking_number: "NO-SHIP-DATE",
    });
    expect(first.data[1]).toMatchObject({
      date: "2025-03-12",
      addressee: "Acme Canada Inc",
      destination: "Canada",
      tracking_number: "1Z-12",
    });
    const second = await get<{ data: TRecentShipment[] }>(who, "/api/home/most-recent-shipments?page=2");
    expect(second.data.map((r) => r.tracking_number)).toEqual(["1Z-3", "1Z-2", "1Z-1"]);
  });

  test("sort_{prop}=asc|desc on each column", async () => {
    const byDate = await get<{ data: TRecentShipment[] }>(
      who,
      "/api/home/most-recent-shipments?sort_date=asc",
    );
    expect(byDate.data[0].date).toBe("2025-03-01");
    const byAddressee = await get<{ data: TRecentShipment[] }>(
      who,
      "/api/home/most-recent-shipments?sort_addressee=desc&per_page=20",
    );
    expect(byAddressee.data[0].addressee).toBe("Zürich Präzision AG");
    // Shipments without an importer sort first ascending (SQL NULLs first) and last descending.
    expect(byAddressee.data.at(-1)!.addressee).toBeNull();
    const byDestination = await get<{ data: TRecentShipment[] }>(
      who,
      "/api/home/most-recent-shipments?sort_destination=asc&per_page=20",
    );
    expect(byDestination.data.map((r) => r.destination).filter(Boolean)[0]).toBe("Canada");
    const byTracking = await get<{ data: TRecentShipment[] }>(
      who,
      "/api/home/most-recent-shipments?sort_tracking_number=asc",
    );
    expect(byTracking.data[0].tracking_number).toBe("1Z-1");
  });

  test("filters: addressee, destination, tracking number (either one), date range", async () => {
    const list = (q: string) =>
      get<{ data: TRecentShipment[]; total: number }>(who, `/api/home/most-recent-shipments?${q}`);
    expect((await list("filters[addressee]=zürich")).total).toBe(6);
    expect((await list("filters[destination]=canada")).total).toBe(6);
    const second = await list("filters[tracking_number]=second-777");
    expect(second.data.map((r) => r.tracking_number)).toEqual(["1Z-7"]);
    const range = await list("filters[date]=2025-03-10..2025-03-11");
    expect(range.data.map((r) => r.date)).toEqual(["2025-03-11", "2025-03-10"]);
    expect((await list("filters[date]=2025-04-01")).total).toBe(1);
  });

  test("unknown sorts, filters and malformed values are 422s naming the parameter", async () => {
    for (const [query, key] of [
      ["sort_company=asc", "sort_company"],
      ["sort_date=up", "sort_date"],
      ["filters[carrier]=x", "filters[carrier]"],
      ["filters[date]=03/01/2025", "filters[date]"],
      ["page=0", "page"],
    ]) {
      const res = await call(ctx, who.auth, "GET", `/api/home/most-recent-shipments?${query}`);
      expect(res.status, query).toBe(422);
      const body = (await res.json()) as { errors: Record<string, string[]> };
      expect(Object.keys(body.errors), query).toEqual([key]);
    }
  });
});

describe("cached answers", () => {
  test("every write the dashboard can see shows at once: a new, changed or deleted shipment, a renamed contact", async () => {
    const who = await signUp(ctx);
    const importer = await contactIn(who, "NO", "Bergen Marine AS");
    const total = async () => (await get<TPerformance>(who, "/api/home/shipping-performance")).total;
    const addressees = async () =>
      (await get<{ data: TRecentShipment[] }>(who, "/api/home/most-recent-shipments")).data.map(
        (r) => r.addressee,
      );
    const id = await shipment(who, { importer_of_record_id: importer });
    expect(await total()).toBe(1);
    expect(await total()).toBe(1);
    await shipment(who, {});
    expect(await total()).toBe(2);
    await ctx.database.db.update(shipments).set({ shipping_status_id: 1 }).where(eq(shipments.id, id));
    expect(await total()).toBe(1);
    await ctx.database.db.update(shipments).set({ shipping_status_id: 3 }).where(eq(shipments.id, id));
    expect(await addressees()).toContain("Bergen Marine AS");
    const res = await call(ctx, who.auth, "PUT", `/api/contacts/${importer}`, {
      ...buildContact({ company: "Bergen Maritime AS", country_id: await countryId("NO") }),
      id: importer,
    });
    expect(res.status).toBe(200);
    expect(await addressees()).toContain("Bergen Maritime AS");
    await ctx.database.db.delete(shipments).where(eq(shipments.id, id));
    expect(await total()).toBe(1);
  });
});

describe("validation and access", () => {
  const ENDPOINTS = ["shipping-performance", "most-recent-shipments", "most-common-shipments", "map"];

  test("an unknown filter is a 422 naming the allowed values, on every endpoint", async () => {
    const who = await signUp(ctx);
    for (const endpoint of ENDPOINTS) {
      const res = await call(ctx, who.auth, "GET", `/api/home/${endpoint}?filter=decade`);
      expect(res.status, endpoint).toBe(422);
      const body = (await res.json()) as { message: string; errors: Record<string, string[]> };
      expect(body.errors.filter, endpoint).toEqual([
        'Unknown filter "decade"; allowed: week, month, year, all',
      ]);
      expect(body.message).toContain("week, month, year, all");
    }
  });

  test("map paging and country_id are checked", async () => {
    const who = await signUp(ctx);
    for (const query of ["per_page=501", "per_page=-1", "page=0", "country_id=abc", "country_id=-3"]) {
      const res = await call(ctx, who.auth, "GET", `/api/home/map?${query}`);
      expect(res.status, query).toBe(422);
    }
  });

  test("without a session every endpoint is a 401", async () => {
    for (const endpoint of ENDPOINTS) {
      const res = await ctx.app.request(`/api/home/${endpoint}`);
      expect(res.status, endpoint).toBe(401);
    }
  });

  test("each workspace sees only its own shipments", async () => {
    const mine = await signUp(ctx);
    const theirs = await signUp(ctx);
    const theirContact = await contactIn(theirs, "MX", "Monterrey SA de CV");
    await shipment(theirs, { importer_of_record_id: theirContact, tracking_number_1: "THEIRS" });
    await shipment(mine, { tracking_number_1: "MINE" });

    const perf = await get<TPerformance>(mine, "/api/home/shipping-performance");
    expect(perf.total).toBe(1);
    const fresh = await signUp(ctx);
    for (const period of ["all", "week"]) {
      const empty = await get<TPerformance>(fresh, `/api/home/shipping-performance?filter=${period}`);
      expect(empty.has_shipments, period).toBe(false);
    }
    const recent = await get<{ data: TRecentShipment[] }>(mine, "/api/home/most-recent-shipments");
    expect(recent.data.map((r) => r.tracking_number)).toEqual(["MINE"]);
    expect((await get<{ data: unknown[] }>(mine, "/api/home/most-common-shipments")).data).toEqual([]);
    const map = await get<TMapAnswer>(mine, "/api/home/map");
    expect(map.destinations).toEqual([]);
    expect(map.data).toEqual([]);
    const mx = await countryId("MX");
    expect((await get<TMapAnswer>(mine, `/api/home/map?country_id=${mx}`)).data).toEqual([]);
    expect((await get<TMapAnswer>(theirs, `/api/home/map?country_id=${mx}`)).total).toBe(1);
  });
});

describe("query plans (EXPLAIN QUERY PLAN)", () => {
  // Through the read connection: an EXPLAIN run on the client's connection left a read transaction
  // open there, and the next write on it after a commit elsewhere failed with SQLITE_BUSY_SNAPSHOT.
  const planOf = async (query: ReturnType<typeof sql>) => {
    const { sql: text, params } = new SQLiteAsyncDialect().sqlToQuery(sql`explain query plan ${query}`);
    const rows = await readerOf(ctx.database.db).rows(text, params);
    return rows.map((r) => String(r[3])).join(" | ");
  };

  test("the aggregates read home_counts by primary-key ranges, never the shipments, for every period", async () => {
    for (const period of ["week", "month", "year", "all"] as const) {
      const range = periodRange(period);
      for (const query of [
        performanceSql({ workspaceId: 1 }, range),
        destinationSql({ workspaceId: 1 }, range),
      ]) {
        const plan = await planOf(query);
        expect(plan, `${period}: ${plan}`).toMatch(
          /SEARCH home_counts USING (COVERING )?INDEX sqlite_autoindex_home_counts_1 \(workspace_id=\? AND level=\?/,
        );
        expect(plan, `${period}: ${plan}`).not.toMatch(/SCAN home_counts|\bshipments\b/);
      }
    }
  });

  test("a member's aggregates read their range of shipments_ws_user_home_idx alone, for every period", async () => {
    for (const period of ["week", "month", "year", "all"] as const) {
      const range = periodRange(period);
      const scope = { workspaceId: 1, userId: 1 };
      for (const query of [performanceSql(scope, range), destinationSql(scope, range)]) {
        const plan = await planOf(query);
        expect(plan, `${period}: ${plan}`).toMatch(
          /SEARCH s USING COVERING INDEX shipments_ws_user_home_idx \(workspace_id=\? AND user_id=\?/,
        );
        expect(plan, `${period}: ${plan}`).not.toMatch(/SCAN s\b|home_counts/);
      }
    }
  });

  test("the recent list walks a sort index or the period's range, never the whole table", async () => {
    for (const sort of [
      "s.effective_date",
      "s.addressee collate nocase",
      "s.destination_name collate nocase",
    ]) {
      const plan = await planOf(
        sql`select s.id from shipments s where s.workspace_id = 1 and s.shipping_status_id <> 1
            order by ${sql.raw(sort)} desc, s.id desc limit 10`,
      );
      expect(plan, `${sort}: ${plan}`).toMatch(/SEARCH s USING (COVERING )?INDEX shipments_ws_/);
      expect(plan, `${sort}: ${plan}`).not.toMatch(/SCAN s\b|TEMP B-TREE FOR ORDER BY/);
    }
  });
});

describe("the recent list's plans", () => {
  test("the index follows the exact counts: walk the sort, read the period, or read a filter's index", () => {
    const base = { wanted: 10, inWorkspace: 100_000, isBounded: true, filters: [] as string[] };
    expect(recentIndex({ ...base, sort: "addressee", matching: 50_000, inRange: 50_000 })).toBe(
      "shipments_ws_addressee_idx",
    );
    expect(recentIndex({ ...base, sort: "addressee", matching: 300, inRange: 300 })).toBe(
      "shipments_ws_home_idx",
    );
    expect(recentIndex({ ...base, sort: "date", matching: 900, inRange: 900 })).toBe("shipments_ws_home_idx");
    expect(
      recentIndex({ ...base, sort: "date", filters: ["tracking_number"], matching: 3, inRange: 100_000 }),
    ).toBe("shipments_ws_tracking_nocase_idx");
    expect(
      recentIndex({
        ...base,
        sort: "destination",
        filters: ["destination"],
        matching: 20_000,
        inRange: 100_000,
      }),
    ).toBe("shipments_ws_destination_name_idx");
  });

  test("every sort, direction, period, filter, page and member answers what a plain join and sort answers", async () => {
    const who = await signUp(ctx);
    const colleague = await joinAs(ctx, who, ["shipper"]);
    const parties = [
      await contactIn(who, "DE", "alpha Works GmbH"),
      await contactIn(who, "JP", "Beta KK"),
      await contactIn(who, "US", "Alpha Works Inc"),
      await contactIn(who, null, "Zeta Ltd"),
    ];
    const { from } = periodRange("week");
    for (let i = 0; i < 48; i++) {
      await shipment(who, {
        ship_date: i % 5 === 0 ? null : shiftDay(from!, -((i * 11) % 400)),
        created_at: `${shiftDay(from!, -(i % 9))}T10:00:00.000Z`,
        importer_of_record_id: i % 7 === 0 ? null : parties[i % 4],
        ultimate_consignee_id: i % 3 === 0 ? parties[(i + 1) % 4] : null,
        tracking_number_1: i % 6 === 0 ? "" : `TRK-${(i * 37) % 23}`,
        tracking_number_2: i % 4 === 0 ? `ALT-${i}` : "",
        shipping_status_id: i % 10 === 0 ? 1 : 2 + (i % 5),
        user_id: i % 3 === 1 ? colleague.user.id : who.user.id,
      });
    }
    const SORTS: Record<string, string> = {
      date: "s.effective_date",
      addressee: "imp.company collate nocase",
      destination: "c.name collate nocase",
      tracking_number: "s.tracking_number_1 collate nocase",
    };
    const FILTERS: [string, string][] = [
      ["", "1"],
      ["&filters[addressee]=alpha", "imp.company like '%alpha%'"],
      ["&filters[destination]=an", "c.name like '%an%'"],
      ["&filters[tracking_number]=1", "(s.tracking_number_1 like '%1%' or s.tracking_number_2 like '%1%')"],
      // Long enough for the suffix table to answer (a member's matches then looked up by id).
      [
        "&filters[tracking_number]=rk-1",
        "(s.tracking_number_1 like '%rk-1%' or s.tracking_number_2 like '%rk-1%')",
      ],
      [
        "&filters[addressee]=works&filters[tracking_number]=trk",
        "imp.company like '%works%' and s.tracking_number_1 like '%trk%'",
      ],
    ];
    let compared = 0;
    for (const userId of [undefined, colleague.user.id, who.user.id])
      for (const period of ["all", "year", "week"] as const) {
        const range = periodRange(period);
        for (const [sort, key] of Object.entries(SORTS))
          for (const direction of ["asc", "desc"])
            for (const [query, condition] of FILTERS) {
              const expected = await ctx.database.db.all<{ id: number }>(
                sql.raw(`select s.id from shipments s
                left join contacts imp on imp.id = s.importer_of_record_id
                left join countries c on c.id = coalesce(
                  (select country_id from contacts where id = s.ultimate_consignee_id),
                  (select country_id from contacts where id = s.importer_of_record_id))
                where s.workspace_id = ${who.user.workspace_id} and s.shipping_status_id <> 1
                  and coalesce(s.ship_date, substr(s.created_at, 1, 10)) >= '${range.from ?? ""}'
                  and coalesce(s.ship_date, substr(s.created_at, 1, 10)) < '${range.until ?? "9999"}'
                  and ${condition} and ${userId ? `s.user_id = ${userId}` : "1"}
                order by ${key} ${direction}, s.id ${direction}`),
              );
              // The endpoint (few matches read by id), then the service counting them (any plan).
              const counted = await mostRecentShipments(
                ctx.database.db,
                { workspaceId: who.user.workspace_id, userId },
                period,
                parseListQuery(
                  new URLSearchParams(`sort_${sort}=${direction}&per_page=5&page=2${query}`),
                  RECENT_COLUMNS,
                  { prop: "date", direction: "desc" },
                ),
                undefined,
                0,
              );
              expect(counted.total, `${userId} ${period} ${sort} ${direction} ${query} counted`).toBe(
                expected.length,
              );
              expect(counted.data.map((r) => r.id)).toEqual(expected.slice(5, 10).map((r) => r.id));
              for (const perPage of [20]) {
                const body = await get<{ data: TRecentShipment[]; total: number }>(
                  who,
                  `/api/home/most-recent-shipments?filter=${period}&sort_${sort}=${direction}&per_page=${perPage}&page=2${query}${userId ? `&user_id=${userId}` : ""}`,
                );
                const label = `${userId} ${period} ${sort} ${direction} ${query} per ${perPage}`;
                expect(body.total, label).toBe(expected.length);
                expect(
                  body.data.map((r) => r.id),
                  label,
                ).toEqual(expected.slice(perPage, perPage * 2).map((r) => r.id));
                compared++;
              }
            }
      }
    expect(compared).toBe(3 * 3 * 4 * 2 * 6);
  }, 120_000);
});

describe("the tracking-number filter counts from the suffix table", () => {
  /** The ids a LIKE on either number finds in the period, newest first, straight in SQL. */
  const plain = async (who: TWho, value: string, period: "all" | "year" | "week") => {
    const range = periodRange(period);
    // LIKE folds ASCII letters only; the list also tries a non-ASCII value's case variants.
    const likes = caseVariants(value).flatMap((variant) => {
      const pattern = `%${variant.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      return [
        sql`tracking_number_1 like ${pattern} escape '\\'`,
        sql`tracking_number_2 like ${pattern} escape '\\'`,
      ];
    });
    const rows = await ctx.database.db.all<{ id: number }>(
      sql`select id from shipments where workspace_id = ${who.user.workspace_id} and shipping_status_id <> 1
            and (${range.from} is null or effective_date >= ${range.from}) and (${range.until} is null or effective_date < ${range.until})
            and (${sql.join(likes, sql` or `)})
          order by effective_date desc, id desc`,
    );
    return rows.map((r) => r.id);
  };
  const listed = async (who: TWho, value: string, period: "all" | "year" | "week", few?: number) => {
    const result = await mostRecentShipments(
      ctx.database.db,
      { workspaceId: who.user.workspace_id },
      period,
      parseListQuery(
        new URLSearchParams({ "filters[tracking_number]": value, per_page: "4", page: "2" }),
        RECENT_COLUMNS,
        { prop: "date", direction: "desc" },
      ),
      undefined,
      few,
    );
    return { total: result.total, ids: result.data.map((r) => r.id) };
  };
  const VALUES = [
    "1z-",
    "1Z-00",
    "000",
    "0001",
    "abc",
    "ABC",
    "b-2",
    "x%y",
    "a_c",
    "a\\b",
    "-7",
    "zz",
    "~~~",
    "mÜ",
  ];

  test("every value, period and plan gives LIKE's total and page, after every kind of write", async () => {
    const who = await signUp(ctx);
    const other = await signUp(ctx);
    const { from } = periodRange("week");
    const ids: number[] = [];
    for (let i = 0; i < 60; i++) {
      ids.push(
        await shipment(i % 9 === 0 ? other : who, {
          ship_date: i % 5 === 0 ? null : shiftDay(from!, -((i * 13) % 500)),
          created_at: `${shiftDay(from!, -(i % 4))}T08:00:00.000Z`,
          tracking_number_1: [`1Z-${String(i).padStart(5, "0")}`, `abc-${i}`, "", `x%y_${i}`, `A_C\\B-${i}`][
            i % 5
          ],
          tracking_number_2: i % 3 === 0 ? `aBc-2-${i}-mü` : i % 7 === 0 ? "~~~~" : "",
          shipping_status_id: i % 8 === 0 ? 1 : 2 + (i % 5),
        }),
      );
    }
    const check = async (step: string) => {
      for (const value of VALUES)
        for (const period of ["all", "year", "week"] as const) {
          const want = await plain(who, value, period);
          for (const few of [2_000, 0]) {
            const got = await listed(who, value, period, few);
            expect(got.total, `${step}: ${value} ${period} few ${few}`).toBe(want.length);
            expect(got.ids, `${step}: ${value} ${period} few ${few}`).toEqual(want.slice(4, 8));
          }
        }
    };
    await check("seeded");
    await ctx.database.db
      .update(shipments)
      .set({ tracking_number_1: "NEW-ABC-0001", ship_date: shiftDay(from!, 1) })
      .where(eq(shipments.id, ids[1]));
    await ctx.database.db.update(shipments).set({ shipping_status_id: 1 }).where(eq(shipments.id, ids[2]));
    await ctx.database.db.update(shipments).set({ tracking_number_2: "" }).where(eq(shipments.id, ids[3]));
    await ctx.database.db.delete(shipments).where(eq(shipments.id, ids[4]));
    await check("numbers, a date and a status changed; one deleted");
    // Another process.
    const second = await openDatabase(`file:${path.join(ctx.dataDir, "app.db")}`);
    try {
      await second.client.execute({
        sql: "update shipments set tracking_number_1 = upper(tracking_number_1) || '-000' where workspace_id = ? and id % 2 = 1",
        args: [who.user.workspace_id],
      });
      await second.client.execute({
        sql: `insert into shipments (workspace_id, ship_date, shipping_status_id, tracking_number_1) values (?, ?, 3, '1z-abc-0001')`,
        args: [who.user.workspace_id, from],
      });
    } finally {
      second.close();
    }
    await check("another connection's update and insert");
    // A number longer than the kept suffixes: the workspace scans instead, still exact.
    const long = await shipment(who, { tracking_number_1: `${"9".repeat(1100)}abc-LONG` });
    expect((await listed(who, "c-long", "all")).total).toBe(1);
    await check("a number too long to keep");
    await ctx.database.db.delete(shipments).where(eq(shipments.id, long));
    await check("the long number deleted");
  }, 120_000);

  test("the total comes from the table: a shipment's suffixes removed by hand drop out of it", async () => {
    const who = await signUp(ctx);
    const a = await shipment(who, { tracking_number_1: "PROOF-123" });
    await shipment(who, { tracking_number_1: "proof-456" });
    expect((await listed(who, "proof", "all")).total).toBe(2);
    await ctx.database.db.all(sql`delete from home_tracking_suffixes where shipment_id = ${a}`);
    expect((await listed(who, "proof", "all")).total).toBe(1);
    // Shorter values than the kept suffixes still scan the numbers.
    expect((await listed(who, "pr", "all")).total).toBe(2);
    // Leave the table exact for the other tests: the shipment goes with its (already removed) rows.
    await ctx.database.db.delete(shipments).where(eq(shipments.id, a));
  });
});

describe("home_counts: every day range is whole buckets", () => {
  const inRun = (d: string, run: ReturnType<typeof bucketRuns>[number]) => {
    const key = run.level === 0 ? "" : run.level === 1 ? d.slice(0, 4) : run.level === 2 ? d.slice(0, 7) : d;
    return (run.from === undefined || key >= run.from) && (run.until === undefined || key < run.until);
  };

  test("each day of [from, until) lies in exactly one run, every other day in none", () => {
    const days: string[] = [];
    for (let d = "2023-11-20"; d < "2026-03-10"; d = shiftDay(d, 1)) days.push(d);
    const ends = [
      null,
      "2023-12-01",
      "2023-12-31",
      "2024-01-01",
      "2024-02-29",
      "2024-03-01",
      "2024-12-15",
      "2025-01-01",
      "2025-06-30",
      "2025-07-01",
      "2025-07-02",
      "2026-01-01",
      "2026-02-10",
    ];
    let checked = 0;
    for (const from of ends)
      for (const until of ends) {
        const runs = bucketRuns(from, until);
        for (const d of days) {
          const expected = (from === null || d >= from) && (until === null || d < until) ? 1 : 0;
          expect(runs.filter((run) => inRun(d, run)).length, `${from}..${until} ${d}`).toBe(expected);
          checked++;
        }
      }
    expect(checked).toBeGreaterThan(100_000);
    expect(bucketRuns(null, null)).toEqual([{ level: 0 }]);
    // A calendar year is one bucket; a week inside a month is seven days.
    expect(bucketRuns("2025-01-01", "2026-01-01")).toEqual([{ level: 1, from: "2025", until: "2026" }]);
    expect(bucketRuns("2026-11-16", "2026-11-23")).toEqual([
      { level: 3, from: "2026-11-16", until: "2026-11-23" },
    ]);
  });
});

/** Every tracking-number suffix the triggers should keep, recomputed from the shipments (migration home_tracking_suffixes). */
const suffixTruth = sql`with recursive pos(n) as (select 1 union all select n + 1 from pos where n < 1024)
  select workspace_id, suffix, shipment_id, which, effective_date, shipping_status_id from (
    select s.workspace_id, substr(upper(s.tracking_number_1), pos.n) as suffix, s.id as shipment_id, 1 as which, s.effective_date, s.shipping_status_id
      from shipments s join pos on pos.n <= length(s.tracking_number_1) - 2
    union all select s.workspace_id, substr(upper(s.tracking_number_2), pos.n), s.id, 2, s.effective_date, s.shipping_status_id
      from shipments s join pos on pos.n <= length(s.tracking_number_2) - 2
    union all select s.workspace_id, '', s.id, 1, s.effective_date, s.shipping_status_id from shipments s where length(s.tracking_number_1) > 1026
    union all select s.workspace_id, '', s.id, 2, s.effective_date, s.shipping_status_id from shipments s where length(s.tracking_number_2) > 1026)
  order by 1, 2, 3, 4`;
const suffixesKept = sql`select workspace_id, suffix, shipment_id, which, effective_date, shipping_status_id
  from home_tracking_suffixes order by 1, 2, 3, 4`;

describe("home_counts and the sort keys stay exact on every write path", () => {
  /** Every workspace's counts recomputed from the shipments themselves, level by level. */
  const truth = sql`select workspace_id, level, bucket, status_id, destination_country_id, n from (
      select workspace_id, 0 as level, '' as bucket, shipping_status_id as status_id, coalesce(destination_country_id, 0) as destination_country_id, count(*) as n
        from shipments where effective_date is not null and shipping_status_id <> 1 group by 1, 3, 4, 5
      union all select workspace_id, 1, substr(effective_date, 1, 4), shipping_status_id, coalesce(destination_country_id, 0), count(*)
        from shipments where effective_date is not null and shipping_status_id <> 1 group by 1, 3, 4, 5
      union all select workspace_id, 2, substr(effective_date, 1, 7), shipping_status_id, coalesce(destination_country_id, 0), count(*)
        from shipments where effective_date is not null and shipping_status_id <> 1 group by 1, 3, 4, 5
      union all select workspace_id, 3, substr(effective_date, 1, 10), shipping_status_id, coalesce(destination_country_id, 0), count(*)
        from shipments where effective_date is not null and shipping_status_id <> 1 group by 1, 3, 4, 5)
    order by 1, 2, 3, 4, 5`;
  const kept = sql`select workspace_id, level, bucket, status_id, destination_country_id, n from home_counts order by 1, 2, 3, 4, 5`;
  /** Shipments whose trigger-kept columns differ from what the parties and countries say. */
  const stale = sql`select s.id from shipments s
      left join contacts imp on imp.id = s.importer_of_record_id
      left join contacts con on con.id = s.ultimate_consignee_id
      left join countries c on c.id = s.destination_country_id
    where s.addressee is not imp.company or s.destination_name is not c.name
       or s.destination_country_id is not coalesce(con.country_id, imp.country_id)
       or s.effective_date is not coalesce(s.ship_date, substr(s.created_at, 1, 10))`;

  const expectExact = async (step: string) => {
    const [want, have, wrong, suffixes, keptSuffixes] = await Promise.all([
      ctx.database.db.all(truth),
      ctx.database.db.all(kept),
      ctx.database.db.all(stale),
      ctx.database.db.all(suffixTruth),
      ctx.database.db.all(suffixesKept),
    ]);
    expect(have, step).toEqual(want);
    expect(wrong, step).toEqual([]);
    expect(keptSuffixes, `${step}: tracking suffixes`).toEqual(suffixes);
  };

  test("API creates, saves, templates and deletes; contact edits and deletes; SQL from another connection", async () => {
    const who = await signUp(ctx);
    const other = await signUp(ctx);
    const de = await contactIn(who, "DE", "Hamburg Hafen GmbH");
    const jp = await contactIn(who, "JP", "Kobe Kikai KK");
    const nowhere = await contactIn(who, null, "Nowhere Ltd");
    await expectExact("start");
    const draft = async () => {
      const res = await call(ctx, who.auth, "POST", "/api/shipments");
      expect(res.status).toBe(201);
      return ((await res.json()) as { item: { id: number; updated_at: string } }).item;
    };
    const save = async (id: number, body: Record<string, unknown>) => {
      const current = await call(ctx, who.auth, "GET", `/api/shipments/${id}`);
      const { item } = (await current.json()) as { item: { updated_at: string } };
      const res = await call(ctx, who.auth, "PUT", `/api/shipments/${id}`, {
        updated_at: item.updated_at,
        ...body,
      });
      expect(res.status, await res.clone().text()).toBe(200);
    };

    const a = await draft();
    const b = await draft();
    await expectExact("two drafts created (dated by their creation day, no destination)");
    await save(a.id, { ship_date: "2025-12-31", importer_of_record_id: jp });
    await save(b.id, { ship_date: "2026-01-01", importer_of_record_id: jp, ultimate_consignee_id: de });
    await expectExact("dates and parties saved");
    await save(a.id, { tracking_number_1: "1z-Track-A", tracking_number_2: "alt-a" });
    await save(b.id, { tracking_number_2: "Second-B" });
    await expectExact("tracking numbers saved");
    await save(a.id, { ship_date: null, tracking_number_1: "1Z-TRACK-A2" });
    await save(b.id, { ultimate_consignee_id: nowhere, tracking_number_2: "" });
    await ctx.database.db.update(shipments).set({ shipping_status_id: 6 }).where(eq(shipments.id, b.id));
    await expectExact("ship date cleared; consignee without a country; a status changed");
    const template = await call(ctx, who.auth, "POST", `/api/shipments/${b.id}/template`, {
      name: "Kobe run",
    });
    expect(template.status).toBe(201);
    await ctx.database.db.update(shipments).set({ shipping_status_id: 1 }).where(eq(shipments.id, a.id));
    await expectExact("a template made; a shipment turned into a template");
    await ctx.database.db.update(shipments).set({ shipping_status_id: 5 }).where(eq(shipments.id, a.id));
    await ctx.database.db.update(shipments).set({ ultimate_consignee_id: de }).where(eq(shipments.id, b.id));

    const company = await call(ctx, who.auth, "PUT", `/api/contacts/${jp}`, {
      ...buildContact({ company: "Kobe Machinery KK", country_id: await countryId("KR") }),
      id: jp,
    });
    expect(company.status).toBe(200);
    await expectExact("the importer renamed and moved to Korea");
    const removed = await call(ctx, who.auth, "DELETE", `/api/contacts/${de}?force=1`);
    expect(removed.status).toBe(200);
    await expectExact("the consignee force-deleted: back to the importer's country");

    // Another process writing the same database file: the triggers live in the database.
    const second = await openDatabase(`file:${path.join(ctx.dataDir, "app.db")}`);
    try {
      for (let i = 0; i < 30; i++) {
        await second.client.execute({
          sql: `insert into shipments (workspace_id, importer_of_record_id, ship_date, shipping_status_id, tracking_number_1, tracking_number_2)
                values (?, ?, ?, ?, ?, ?)`,
          args: [
            i % 2 ? who.user.workspace_id : other.user.workspace_id,
            i % 2 ? jp : null,
            shiftDay("2025-11-20", i * 3),
            2 + (i % 5),
            `1Z-${i}-other`,
            i % 3 ? "" : `x${i}`,
          ],
        });
      }
      await second.client.execute({
        sql: "update shipments set ship_date = '2024-02-29', shipping_status_id = 4 where workspace_id = ? and id % 3 = 0",
        args: [who.user.workspace_id],
      });
      await second.client.execute({
        sql: "update shipments set tracking_number_2 = tracking_number_1 || '-b', tracking_number_1 = lower(tracking_number_1) where workspace_id = ? and id % 2 = 0",
        args: [who.user.workspace_id],
      });
      await second.client.execute({
        sql: "delete from shipments where workspace_id = ? and id % 4 = 0",
        args: [other.user.workspace_id],
      });
    } finally {
      second.close();
    }
    await expectExact("inserts, updates and deletes from another connection");
    const direct = async (filter: string, from: string | null, until: string | null) => {
      const [{ n }] = await ctx.database.db.all<{ n: number }>(
        sql`select count(*) as n from shipments where workspace_id = ${who.user.workspace_id} and shipping_status_id <> 1
            and (${from} is null or effective_date >= ${from}) and (${until} is null or effective_date < ${until})`,
      );
      expect(
        (await get<TPerformance>(who, `/api/home/shipping-performance?filter=${filter}`)).total,
        filter,
      ).toBe(n);
    };
    for (const period of ["week", "month", "year", "all"] as const) {
      const { from, until } = periodRange(period);
      await direct(period, from, until);
    }

    expect((await call(ctx, who.auth, "DELETE", `/api/shipments/${a.id}`)).status).toBe(200);
    await ctx.database.db.delete(shipments).where(eq(shipments.workspace_id, other.user.workspace_id));
    await expectExact("deleted through the API and in bulk");
    const [{ rows }] = await ctx.database.db.all<{ rows: number }>(
      sql`select count(*) as rows from home_counts where workspace_id = ${other.user.workspace_id}`,
    );
    expect(rows).toBe(0);
  }, 60_000);

  test("the counts query of an empty range reads nothing", async () => {
    const rows = await ctx.database.db.all(countsSql(1, { from: "2026-02-01", until: "2026-01-01" }));
    expect(rows).toEqual([]);
  });
});

describe("one member's dashboard (user_id)", () => {
  const ENDPOINTS = ["shipping-performance", "most-recent-shipments", "most-common-shipments", "map"];
  type TCommon = { data: TCommonDestination[]; shipments: number };
  const countsOf = (perf: TPerformance) =>
    Object.fromEntries(perf.data[0].shipments.filter((e) => e.count).map((e) => [e.status, e.count]));

  test("every widget counts the shipments the member created, whoever edited them last", async () => {
    const admin = await signUp(ctx);
    const shipper = await joinAs(ctx, admin, ["shipper"]);
    const de = await contactIn(admin, "DE", "Berlin Tools GmbH");
    const fr = await contactIn(admin, "FR", "Lyon Outils SA");
    const { from } = periodRange("week");
    const byAdmin = { user_id: admin.user.id };
    const byShipper = { user_id: shipper.user.id };
    await shipment(admin, {
      ...byAdmin,
      importer_of_record_id: de,
      shipping_status_id: 3,
      tracking_number_1: "A1",
    });
    await shipment(admin, {
      ...byAdmin,
      importer_of_record_id: de,
      shipping_status_id: 3,
      tracking_number_1: "A2",
    });
    // Created by the admin, last edited by the shipper: still the admin's.
    await shipment(admin, {
      ...byAdmin,
      updated_by_user_id: shipper.user.id,
      importer_of_record_id: fr,
      shipping_status_id: 6,
      tracking_number_1: "A3",
    });
    // A template is nobody's shipment.
    await shipment(admin, { ...byAdmin, shipping_status_id: 1, tracking_number_1: "A-TEMPLATE" });
    await shipment(admin, {
      ...byShipper,
      importer_of_record_id: fr,
      shipping_status_id: 5,
      ship_date: from!,
      tracking_number_1: "S1",
    });
    // Through the API: the server records who created it.
    const created = await call(ctx, shipper.auth, "POST", "/api/shipments");
    expect(created.status).toBe(201);

    // Everyone's first, so a cache keyed without the member would answer the others with it.
    const all = await get<TPerformance>(admin, "/api/home/shipping-performance");
    expect(all.total).toBe(5);
    const mine = await get<TPerformance>(admin, `/api/home/shipping-performance?user_id=${admin.user.id}`);
    expect(mine.total).toBe(3);
    expect(countsOf(mine)).toEqual({ "in transit": 2, delivered: 1 });
    expect(mine.data[0].shipments.map((e) => e.percentage)).toEqual([0, 67, 0, 0, 33]);
    const theirs = await get<TPerformance>(
      admin,
      `/api/home/shipping-performance?user_id=${shipper.user.id}`,
    );
    expect(theirs.total).toBe(2);
    expect(countsOf(theirs)).toEqual({ draft: 1, delayed: 1 });
    expect(theirs.has_shipments).toBe(true);
    const theirWeek = await get<TPerformance>(
      shipper,
      `/api/home/shipping-performance?filter=week&user_id=${shipper.user.id}`,
    );
    expect(theirWeek.total).toBe(2);
    const myWeek = await get<TPerformance>(
      shipper,
      `/api/home/shipping-performance?filter=week&user_id=${admin.user.id}`,
    );
    expect(myWeek.total).toBe(0);
    expect(myWeek.has_shipments).toBe(true);

    const common = (id: number) =>
      get<TCommon>(admin, `/api/home/most-common-shipments?user_id=${id}`).then((b) =>
        b.data.map((d) => [d.code_iso_2, d.order_number, d.order_percent]),
      );
    expect(await common(admin.user.id)).toEqual([
      ["DE", 2, 67],
      ["FR", 1, 33],
    ]);
    expect(await common(shipper.user.id)).toEqual([["FR", 1, 100]]);

    const recent = (query: string) =>
      get<{ data: TRecentShipment[]; total: number }>(admin, `/api/home/most-recent-shipments?${query}`).then(
        (b) => [b.total, b.data.map((r) => r.tracking_number).sort()],
      );
    expect(await recent(`user_id=${admin.user.id}`)).toEqual([3, ["A1", "A2", "A3"]]);
    expect(await recent(`user_id=${shipper.user.id}`)).toEqual([2, ["", "S1"]]);
    // The tracking filter and the member together (the suffix table alone cannot tell creators).
    expect(await recent(`user_id=${admin.user.id}&filters[tracking_number]=a`)).toEqual([
      3,
      ["A1", "A2", "A3"],
    ]);
    expect(await recent(`user_id=${shipper.user.id}&filters[tracking_number]=a`)).toEqual([0, []]);
    expect(await recent(`user_id=${shipper.user.id}&filters[destination]=fra&sort_addressee=asc`)).toEqual([
      1,
      ["S1"],
    ]);

    const frId = await countryId("FR");
    const map = await get<TMapAnswer>(admin, `/api/home/map?user_id=${shipper.user.id}`);
    expect(map.destinations.map((d) => [d.code_iso_2, d.count])).toEqual([["FR", 1]]);
    expect(map.total).toBe(1);
    expect(map.data.map((e) => e.id)).toHaveLength(1);
    const cluster = await get<TMapAnswer>(admin, `/api/home/map?country_id=${frId}&user_id=${admin.user.id}`);
    expect(cluster.total).toBe(1);

    // A removed member's shipments stay theirs, and their dashboard can still be read.
    const removed = await call(ctx, admin.auth, "DELETE", `/api/workspace/members/${shipper.user.id}`);
    expect(removed.status).toBe(200);
    const after = await get<TPerformance>(admin, `/api/home/shipping-performance?user_id=${shipper.user.id}`);
    expect(countsOf(after)).toEqual({ draft: 1, delayed: 1 });
  });

  test("a new shipment shows at once on its creator's dashboard, not on the others'", async () => {
    const admin = await signUp(ctx);
    const shipper = await joinAs(ctx, admin, ["shipper"]);
    const total = async (id: number) =>
      (await get<TPerformance>(admin, `/api/home/shipping-performance?user_id=${id}`)).total;
    expect([await total(admin.user.id), await total(shipper.user.id)]).toEqual([0, 0]);
    expect((await call(ctx, shipper.auth, "POST", "/api/shipments")).status).toBe(201);
    expect([await total(admin.user.id), await total(shipper.user.id)]).toEqual([0, 1]);
  });

  test("a malformed user_id is a 422 naming it, on every endpoint", async () => {
    const who = await signUp(ctx);
    for (const endpoint of ENDPOINTS)
      for (const value of ["abc", "0", "-2", "1.5", "99999999999999999999"]) {
        const res = await call(ctx, who.auth, "GET", `/api/home/${endpoint}?user_id=${value}`);
        expect(res.status, `${endpoint} ${value}`).toBe(422);
        const body = (await res.json()) as { errors: Record<string, string[]> };
        expect(body.errors.user_id, `${endpoint} ${value}`).toEqual([
          "user_id must be a member's id (a whole number)",
        ]);
      }
  });

  test("an unknown member and another workspace's member are the same 422, on every endpoint", async () => {
    const who = await signUp(ctx);
    const other = await signUp(ctx);
    await shipment(other, { user_id: other.user.id });
    for (const endpoint of ENDPOINTS) {
      const answers = [];
      for (const id of [other.user.id, 987_654_321]) {
        const res = await call(ctx, who.auth, "GET", `/api/home/${endpoint}?user_id=${id}`);
        expect(res.status, `${endpoint} ${id}`).toBe(422);
        const body = (await res.json()) as { message: string; errors: Record<string, string[]> };
        expect(body.message).toBe(
          `There is no member with id ${id} in this workspace: choose one of its members, or leave user_id out for everyone's shipments.`,
        );
        expect(body.errors.user_id).toEqual([body.message]);
        answers.push(body.message.replace(String(id), "ID"));
      }
      expect(answers[0]).toBe(answers[1]);
    }
  });
});
