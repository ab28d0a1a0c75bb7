import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createClient } from "@libsql/client";
import { and, eq } from "drizzle-orm";
import { contacts } from "../../../db/schema";
import { contactsEntity } from "../../features/contacts/contacts.entity";
import { signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { listMarks, listRecords, listSql } from "./entity.service";
import { parseListQuery } from "./list-query";

// A page after the first seeks a row kept from an earlier page of the same list (entity.service.ts,
// TMark) instead of an OFFSET walk. These tests hold every page, in any order and after writes from
// this and another connection, against the usual plan's SQL run straight on the database, and check
// that the marks were in fact used.

let ctx: TTestContext;
let workspaceId: number;
let userId: number;
const ROWS = 240;

beforeAll(async () => {
  ctx = await createTestContext();
  const who = await signUp(ctx);
  workspaceId = who.user.workspace_id;
  userId = who.user.id;
  await ctx.database.db.insert(contacts).values(
    Array.from({ length: ROWS }, (_, i) => ({
      workspace_id: workspaceId,
      user_id: userId,
      // Many companies share a name in different cases, so ties are broken by id across pages.
      company: `${["atlas", "Pacific", "ZENITH", "Harbor", "Atlas", "pacific"][i % 6]} ${i % 9 === 0 ? "Trading" : "Ltd"}`,
      partner_type_id: 1 + (i % 3),
      tax_id: `MK-${String(i).padStart(4, "0")}`,
      contact_1: "Pat",
      phone_1: "+1 555 0100",
      email_1: `pat${i}@marks.example`,
      is_sensitive: i % 4 === 0,
      sensitive_note: i % 4 === 0 ? "watch" : "-",
    })),
  );
});
afterAll(() => ctx.database.close());

const parse = (query: string) =>
  parseListQuery(new URLSearchParams(query), contactsEntity.columns, contactsEntity.defaultSort);

async function usualPage(query: string) {
  const { sql, params } = listSql(ctx.database.db, contactsEntity, workspaceId, parse(query));
  const result = await ctx.database.client.execute({ sql, args: params as never });
  return result.rows.map((row) => Number(row[0]));
}

async function listed(query: string) {
  const result = await listRecords(ctx.database.db, contactsEntity, workspaceId, parse(query));
  return { ids: result.data.map((item) => Number(item.id)), total: result.total };
}

/** Every page of a list, in the order given, each against the usual plan; the ids seen. */
async function checkPages(query: string, pages: number[]) {
  for (const page of pages) {
    const { ids } = await listed(`${query}&page=${page}`);
    expect(ids, `${query} page ${page}`).toEqual(await usualPage(`${query}&page=${page}`));
  }
}

const CASES = [
  "sort_company=asc",
  "sort_company=desc&per_page=7",
  "sort_updated_at=desc&per_page=9",
  "sort_is_sensitive=asc&per_page=11",
  "filters[is_sensitive]=1&per_page=4",
  "filters[is_sensitive]=0&sort_company=desc&per_page=13",
];

describe("pages served from kept marks are exactly the usual plan's pages", () => {
  for (const query of CASES) {
    test(query, async () => {
      const { total } = await listed(query);
      const last = Math.ceil(total / parse(query).perPage);
      // Forwards, backwards, the same page twice, jumps, and past the end.
      const order = [
        ...Array.from({ length: last }, (_, i) => i + 1),
        ...Array.from({ length: last }, (_, i) => last - i),
        3,
        3,
        last,
        2,
        last - 1,
        last + 2,
      ];
      await checkPages(query, order);
      // The pages were served by seeking: their first and last rows are kept.
      const marks = listMarks(ctx.database.db, contactsEntity, workspaceId, parse(query));
      expect(marks).toContain(parse(query).perPage * 2);
      expect(marks.length).toBeGreaterThan(2);
    });
  }

  test("marks kept from pages of one size serve pages of another", async () => {
    await checkPages("sort_company=desc&per_page=7", [1, 2, 3, 4, 5, 6]);
    await checkPages("sort_company=desc&per_page=10", [2, 4, 3]);
    await checkPages("sort_company=desc&per_page=3", [9, 10, 13, 8]);
  });

  test("a label sort and a column that may be NULL keep no marks (OFFSET as before)", async () => {
    for (const query of ["sort_partner_type_id=asc", "sort_last_shipment_date=desc"]) {
      await checkPages(query, [1, 2, 3, 2]);
      expect(listMarks(ctx.database.db, contactsEntity, workspaceId, parse(query))).toEqual([]);
    }
  });
});

describe("after a write, marks of the old version are not used", () => {
  const query = "sort_company=asc&per_page=10";

  test("an insert before the marks, in this process", async () => {
    await checkPages(query, [1, 2, 3, 4, 5]);
    // Sorts first: every later row moves down one place.
    await ctx.database.db.insert(contacts).values({
      workspace_id: workspaceId,
      user_id: userId,
      company: "AAA First Ltd",
      partner_type_id: 1,
      tax_id: "MK-NEW-1",
      contact_1: "N",
      phone_1: "+1 1",
      email_1: "n@marks.example",
    });
    await checkPages(query, [5, 4, 3, 2, 1]);
  });

  test("a rename and a delete", async () => {
    await checkPages(query, [1, 2, 3, 4]);
    const [first] = await ctx.database.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.workspace_id, workspaceId), eq(contacts.company, "AAA First Ltd")));
    await ctx.database.db.update(contacts).set({ company: "zzz Last Ltd" }).where(eq(contacts.id, first.id));
    await checkPages(query, [4, 3, 2, 1]);
    await ctx.database.db.delete(contacts).where(eq(contacts.id, first.id));
    await checkPages(query, [2, 4, 3]);
  });

  test("a write from another connection (another process) before the marks", async () => {
    await checkPages(query, [1, 2, 3, 4, 5, 6]);
    const other = createClient({ url: ctx.env.databaseUrl, timeout: 5_000 });
    await other.execute({
      sql: `insert into contacts (workspace_id, company, partner_type_id, tax_id, contact_1, phone_1, email_1)
            values (?, 'AAB Other Process', 1, 'MK-OTHER', 'O', '+1 1', 'o@marks.example')`,
      args: [workspaceId],
    });
    other.close();
    await checkPages(query, [6, 5, 4, 3, 2, 1]);
    const { total } = await listed(query);
    expect(total).toBe(ROWS + 1);
  });
});
