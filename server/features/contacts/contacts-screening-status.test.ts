/**
 * The address book shows each contact's screening state (failed, review due, pending,
 * passed) and filters on it; the filtered totals stay exact through screenings, overrides and the
 * clock; the screenings list puts failed-and-unreviewed first.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import type { TContactScreening } from "../../../db/contracts/screening";
import { contacts } from "../../../db/schema";
import type { TEntityDefinition } from "../../lib/entity/entity";
import { listSql } from "../../lib/entity/entity.service";
import { parseListQuery } from "../../lib/entity/list-query";
import { buildContact, call, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { screeningsEntity } from "../screening/screenings.entity";
import { contactsEntity } from "./contacts.entity";

let ctx: TTestContext;
let who: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let failed: number;
let passed: number;
beforeAll(async () => {
  ctx = await createTestContext();
  who = await signUp(ctx);
  stranger = await signUp(ctx);
  failed = (await create({ company: "Rosoboroneksport OAO" })).id;
  passed = (await create({ company: "Harmless Widgets Ltd" })).id;
}, 120_000);
afterAll(() => ctx.database.close());

async function create(overrides: Record<string, unknown>, as = who) {
  const res = await call(ctx, as.auth, "POST", "/api/contacts", buildContact(overrides));
  expect(res.status).toBe(201);
  return ((await res.json()) as { item: { id: number } }).item;
}

type TPage = { total: number; data: { id: number; company: string; screening_status: string }[] };
async function list(query: string, as = who) {
  const res = await call(ctx, as.auth, "GET", `/api/contacts?per_page=100${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as TPage;
}
/** Asked twice: the second answer may come from the totals cache, and must equal the first. */
async function total(state: string) {
  const first = (await list(`&filters[screening]=${state}`)).total;
  expect((await list(`&filters[screening]=${state}`)).total).toBe(first);
  return first;
}
const stateOf = async (id: number) => (await list("")).data.find((row) => row.id === id)?.screening_status;

async function currentResult(contactId: number) {
  const res = await call(ctx, who.auth, "GET", `/api/screenings/trade?itemId=${contactId}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { item: TContactScreening }).item;
}
async function override(contactId: number, status: "passed" | "failed", reviewDate?: string) {
  const result = await currentResult(contactId);
  const res = await call(ctx, who.auth, "POST", "/api/screenings/override", {
    id: result.id,
    status,
    note: "Checked by hand",
    ...(reviewDate ? { review_date: reviewDate } : {}),
  });
  expect(res.status).toBe(200);
}
/** The contacts counter trigger as migration 0015 creates it. */
const TRIGGER = readFileSync(
  new URL("../../../db/migrations/0015_list_version_triggers.sql", import.meta.url),
  "utf8",
)
  .split("--> statement-breakpoint")
  .map((statement) => statement.trim())
  .find((statement) => statement.startsWith("CREATE TRIGGER contacts_list_version_upd")) as string;
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("the address book's screening column and filter", () => {
  test("each contact carries its screening state, on the list and on the record", async () => {
    expect(await stateOf(failed)).toBe("failed");
    expect(await stateOf(passed)).toBe("passed");
    const res = await call(ctx, who.auth, "GET", `/api/contacts/${failed}`);
    expect(((await res.json()) as { item: { screening_status: string } }).item.screening_status).toBe(
      "failed",
    );
  });

  test("filters[screening] keeps only contacts in that state", async () => {
    const failedPage = await list("&filters[screening]=failed");
    expect(failedPage.data.map((row) => row.id)).toContain(failed);
    expect(failedPage.data.map((row) => row.id)).not.toContain(passed);
    expect(failedPage.data.every((row) => row.screening_status === "failed")).toBe(true);
    const passedPage = await list("&filters[screening]=passed");
    expect(passedPage.data.map((row) => row.id)).toEqual([passed]);
    // 'review due' as people write it
    expect((await list("&filters[screening]=Review%20due")).total).toBe(0);
  });

  test("an unknown state is a 422 naming the filter and the allowed states", async () => {
    const res = await call(ctx, who.auth, "GET", "/api/contacts?filters[screening]=cleared");
    expect(res.status).toBe(422);
    const body = (await res.json()) as { message: string };
    expect(body.message).toContain("filters[screening]");
    expect(body.message).toContain("failed, review_due, pending, passed");
  });

  test("a contact changed since its screening is pending, never passed", async () => {
    const contact = await create({ company: "Quiet Pending Traders" });
    expect(await stateOf(contact.id)).toBe("passed");
    // What a save that the screening could not follow (or a crash) leaves behind.
    await ctx.database.db
      .update(contacts)
      .set({ screening_pending: true })
      .where(eq(contacts.id, contact.id));
    expect(await stateOf(contact.id)).toBe("pending");
    const pendingPage = await list("&filters[screening]=pending");
    expect(pendingPage.data.map((row) => row.id)).toContain(contact.id);
    expect((await list("&filters[screening]=passed")).data.map((row) => row.id)).not.toContain(contact.id);
  });

  test("an override moves the contact between the filtered totals at once (no stale cached total)", async () => {
    const contact = await create({ company: "Rosoboronexport" });
    const [failedBefore, passedBefore] = [await total("failed"), await total("passed")];
    await override(contact.id, "passed");
    expect(await stateOf(contact.id)).toBe("passed");
    expect(await total("failed")).toBe(failedBefore - 1);
    expect(await total("passed")).toBe(passedBefore + 1);
    await override(contact.id, "failed");
    expect(await total("failed")).toBe(failedBefore);
    expect(await total("passed")).toBe(passedBefore);
  });

  test("a whitelisting whose review day arrives counts as review due without any write to contacts", async () => {
    const contact = await create({ company: "Rosoboroneksport" });
    await override(contact.id, "passed", inDays(30));
    const [dueBefore, passedBefore] = [await total("review_due"), await total("passed")];
    expect(await stateOf(contact.id)).toBe("passed");
    // The clock moves on: the whitelisting is now past its review day while nothing is written. The
    // same state is made by moving the contact's copied review day back with the counter trigger off:
    // no write the totals cache could notice.
    const db = ctx.database.db;
    await db.run(sql`drop trigger contacts_list_version_upd`);
    await db
      .update(contacts)
      .set({ screening_review_date: inDays(-1) })
      .where(eq(contacts.id, contact.id));
    await db.run(sql.raw(TRIGGER));
    expect(await stateOf(contact.id)).toBe("review_due");
    expect(await total("review_due")).toBe(dueBefore + 1);
    expect(await total("passed")).toBe(passedBefore - 1);
  });

  test("another workspace sees none of it", async () => {
    const page = await list("&filters[screening]=failed", stranger);
    expect(page.total).toBe(0);
  });
});

describe("the screenings list puts what needs a person first", () => {
  test("failed and unreviewed come before passed and before failed ones a person confirmed", async () => {
    const confirmed = await create({ company: "Rosoboroneksport O.A.O." });
    await override(confirmed.id, "failed");
    // The newest screening of all: by date alone it would be first.
    await create({ company: "Newest Harmless Goods Ltd" });
    const res = await call(ctx, who.auth, "GET", "/api/screenings?per_page=100");
    expect(res.status).toBe(200);
    const rows = ((await res.json()) as { data: { contact_id: number; status: string }[] }).data;
    const firstNotUnreviewed = rows.findIndex((row) => row.contact_id === confirmed.id);
    expect(rows[0]).toMatchObject({ status: "failed" });
    expect(rows.findIndex((row) => row.contact_id === failed)).toBeLessThan(firstNotUnreviewed);
    const firstPassed = rows.findIndex((row) => row.status === "passed");
    expect(rows.slice(0, firstPassed).every((row) => row.status === "failed")).toBe(true);
    const explicit = await call(ctx, who.auth, "GET", "/api/screenings?per_page=100&sort_attention=desc");
    expect(((await explicit.json()) as { data: unknown[] }).data).toEqual(rows as unknown[]);
  });
});

describe("both read indexes, not the whole list (EXPLAIN QUERY PLAN)", () => {
  const planOf = async (def: TEntityDefinition, query: string) => {
    const parsed = parseListQuery(new URLSearchParams(query), def.columns, def.defaultSort);
    const { sql: text, params } = listSql(ctx.database.db, def, 1, parsed);
    const plan = await ctx.database.client.execute({
      sql: `EXPLAIN QUERY PLAN ${text}`,
      args: params as never,
    });
    return plan.rows.map((r) => String(r.detail)).join(" | ");
  };

  test("the screenings list's default order walks its attention index", async () => {
    const plan = await planOf(screeningsEntity, "");
    expect(plan).toContain("rpscreenings_ws_attention_idx");
    expect(plan).not.toContain("TEMP B-TREE");
  });

  test("the address book filtered on a screening state walks the screening index in company order", async () => {
    const plan = await planOf(contactsEntity, "filters[screening]=failed");
    expect(plan).toContain("contacts_ws_screening_company_idx");
    expect(plan).not.toContain("TEMP B-TREE");
  });
});
