import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createClient } from "@libsql/client";
import { contacts } from "../../../db/schema";
import { contactsEntity } from "../../features/contacts/contacts.entity";
import { signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { listRecords, listSql, listWalkSql } from "./entity.service";
import { parseListQuery } from "./list-query";

// A filter that matches many rows is served by walking the sort order (entity.service.ts,
// walkedPage) instead of the filter's own index. These tests hold every page of such lists against
// the usual plan's SQL run straight on the database, so a walk that skipped, repeated or misordered a
// row, or showed rows the index would not, fails them.

let ctx: TTestContext;
let workspaceId: number;
const ROWS = 300;

beforeAll(async () => {
  ctx = await createTestContext();
  const who = await signUp(ctx);
  workspaceId = who.user.workspace_id;
  const words = ["Trading", "Logistics", "Freight"];
  await ctx.database.db.insert(contacts).values(
    Array.from({ length: ROWS }, (_, i) => ({
      workspace_id: workspaceId,
      user_id: who.user.id,
      // Every third company trades; a few share a date so ties are broken by id.
      company: `${["Atlas", "Pacific", "Zenith", "Harbor"][i % 4]} ${words[i % 3]} ${i % 7 === 0 ? "GMBH" : "Ltd"}`,
      partner_type_id: 1 + (i % 3),
      tax_id: `TX-${String(i).padStart(4, "0")}`,
      contact_1: "Pat",
      phone_1: "+1 555 0100",
      email_1: `pat${i}@walk.example`,
      is_sensitive: i % 5 === 0,
      sensitive_note: i % 5 === 0 ? "watch" : "-",
      last_shipment_date:
        i % 10 === 9
          ? null
          : `2025-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 5)).padStart(2, "0")}`,
    })),
  );
});
afterAll(() => ctx.database.close());

const parse = (query: string) =>
  parseListQuery(new URLSearchParams(query), contactsEntity.columns, contactsEntity.defaultSort);

/** The ids of one page through the usual plan (the filter's index, then a sort), straight in SQL. */
async function usualPage(query: string) {
  const { sql, params } = listSql(ctx.database.db, contactsEntity, workspaceId, parse(query));
  const result = await ctx.database.client.execute({ sql, args: params as never });
  return result.rows.map((row) => Number(row[0]));
}

async function listed(query: string) {
  const result = await listRecords(ctx.database.db, contactsEntity, workspaceId, parse(query));
  return { ids: result.data.map((item) => Number(item.id)), total: result.total };
}

describe("pages found by walking the sort order are exactly the usual plan's pages", () => {
  const cases = [
    "filters[company]=trading&sort_last_shipment_date=desc",
    "filters[company]=trading&sort_last_shipment_date=asc",
    "filters[company]=TRADING&sort_updated_at=desc&per_page=7",
    "filters[company]=gmbh&sort_last_shipment_date=desc",
    "filters[company]=ha&sort_last_shipment_date=desc",
    "filters[last_shipment_date]=2025-03-01..2025-08-31&sort_company=asc",
    "filters[last_shipment_date]=2025-03-01..2025-08-31&sort_company=desc&per_page=25",
    "filters[last_shipment_date]=2025-05-01..&filters[is_sensitive]=0&sort_company=asc",
    "filters[company]=trading&filters[is_sensitive]=0&sort_last_shipment_date=desc",
    "filters[tax_id]=TX-0&sort_company=asc",
    // The matches are the last hundred rows in this order: the walk's window falls short and the
    // usual plan answers (and, remembered, answers at once the next time).
    "filters[tax_id]=TX-00&sort_updated_at=desc",
    "filters[tax_id]=TX-00&sort_updated_at=desc&per_page=10",
  ];
  for (const query of cases) {
    test(query, async () => {
      expect(listWalkSql(ctx.database.db, contactsEntity, workspaceId, parse(query))).not.toBeNull();
      const first = await listed(query);
      expect(first.total).toBeGreaterThan(0);
      const perPage = parse(query).perPage;
      const pages = Math.ceil(first.total / perPage);
      const seen: number[] = [];
      for (let page = 1; page <= pages + 1; page++) {
        const { ids, total } = await listed(`${query}&page=${page}`);
        expect(total).toBe(first.total);
        expect(ids, `${query} page ${page}`).toEqual(await usualPage(`${query}&page=${page}`));
        seen.push(...ids);
      }
      expect(new Set(seen).size).toBe(first.total);
    });
  }
});

describe("when the walk is not used", () => {
  test("a filter on the sort column, a non-ASCII value and a label sort keep the usual plan", () => {
    for (const query of [
      "filters[company]=trading&sort_company=asc",
      "filters[last_shipment_date]=2025-03-01..2025-08-31&sort_last_shipment_date=desc",
      "filters[company]=ründ&sort_last_shipment_date=desc",
      "filters[company]=trading&sort_partner_type_id=asc",
      "filters[is_sensitive]=1",
    ]) {
      expect(listWalkSql(ctx.database.db, contactsEntity, workspaceId, parse(query)), query).toBeNull();
    }
  });

  test("rows only the trigram index matches (a Kelvin sign for K) are still listed, on every page", async () => {
    const query = "filters[company]=kobe&sort_last_shipment_date=desc";
    const other = createClient({ url: ctx.env.databaseUrl, timeout: 5_000 });
    for (let i = 0; i < 100; i++) {
      await other.execute({
        sql: `insert into contacts (workspace_id, company, partner_type_id, tax_id, contact_1, phone_1, email_1, last_shipment_date)
              values (?, ?, 1, ?, 'Kim', '+1 1', 'kim@kobe.example', '2025-06-01')`,
        args: [workspaceId, i === 95 ? "\u212Aobe Freight" : `Kobe Trading ${i}`, `KB-${i}`],
      });
    }
    other.close();
    const { ids, total } = await listed(query);
    expect(total).toBe(100);
    // Enough matches for the walk to be tried: only the LIKE count's mismatch keeps it from being used.
    expect(listWalkSql(ctx.database.db, contactsEntity, workspaceId, parse(query))).not.toBeNull();
    expect(ids).toEqual(await usualPage(query));
    const all: number[] = [];
    for (let page = 1; page <= 10; page++) all.push(...(await listed(`${query}&page=${page}`)).ids);
    expect(all.length).toBe(100);
    expect(new Set(all).size).toBe(100);
  });

  test("a write between two lists is seen by the next one, walked or not", async () => {
    const query = "filters[company]=trading&sort_last_shipment_date=desc";
    const before = await listed(query);
    const [row] = await ctx.database.db
      .insert(contacts)
      .values({
        workspace_id: workspaceId,
        company: "Newest Trading Co",
        partner_type_id: 1,
        tax_id: "NEW-1",
        contact_1: "N",
        phone_1: "+1 1",
        email_1: "n@new.example",
        last_shipment_date: "2099-01-01",
      })
      .returning();
    const after = await listed(query);
    expect(after.total).toBe(before.total + 1);
    expect(after.ids[0]).toBe(row.id);
    expect(after.ids).toEqual(await usualPage(query));
  });
});
