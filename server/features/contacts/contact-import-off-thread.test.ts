import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import type { TImportAnswer, TImportReport } from "../../../db/contracts/contacts";
import { contacts } from "../../../db/schema";
import { buildContact, call, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { importContacts } from "./contact-import";
import { importOffThread, OFF_THREAD_MIN_BYTES } from "./contact-import-off-thread";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

type TReport = TImportAnswer & TImportReport;
const HEADER = "Company,Partner Type,Tax ID,Contact,Phone,Email,Country,Sensitive,Sensitive Note";

/** A file big enough to import on the worker, with rejected rows and a row repeated. */
function bigFile(prefix: string) {
  const lines = [HEADER];
  let i = 0;
  while (lines.join("\n").length < OFF_THREAD_MIN_BYTES + 10_000) {
    const bad = i % 97 === 5 ? "Alien" : "Customer";
    lines.push(
      `${prefix} Trading ${i % 1500},${bad},${prefix}-${i % 1500},Ann ${i},+1 555 ${i},a${i}@x.example,DE,no,`,
    );
    i++;
  }
  return { text: lines.join("\n"), rows: i };
}

async function uploadMultipart(who: Awaited<ReturnType<typeof signUp>>, text: string) {
  const form = new FormData();
  form.append("csv_upload", new Blob([text], { type: "text/csv" }), "big.csv");
  const res = await ctx.app.request("/api/contacts/upload", {
    method: "POST",
    headers: who.auth,
    body: form,
  });
  return { status: res.status, body: (await res.json()) as TReport };
}

const contactsOf = async (workspaceId: number) =>
  (
    await ctx.database.db
      .select({ company: contacts.company, tax_id: contacts.tax_id, email_1: contacts.email_1 })
      .from(contacts)
      .where(eq(contacts.workspace_id, workspaceId))
      .orderBy(contacts.tax_id)
  ).map((c) => `${c.company}|${c.tax_id}|${c.email_1}`);

describe("a big web import runs on a worker thread", () => {
  test("the worker imports exactly what this thread imports: report and contacts", async () => {
    const { text, rows } = bigFile("OT");
    const here = await signUp(ctx);
    const reportHere = await importContacts(
      ctx.database.db,
      { workspaceId: here.user.workspace_id, userId: here.user.id },
      [text],
    );
    const there = await signUp(ctx);
    const uploaded = await uploadMultipart(there, text);
    expect(uploaded.status).toBe(200);
    const { message: _, ...reportThere } = uploaded.body;
    expect(reportThere).toEqual(reportHere);
    expect(reportHere.rows).toBe(rows);
    expect(reportHere.rejected).toBeGreaterThan(0);
    expect(reportHere.updated + reportHere.unchanged).toBeGreaterThan(0);
    expect(await contactsOf(there.user.workspace_id)).toEqual(await contactsOf(here.user.workspace_id));
  }, 60_000);

  test("the worker really runs it: an in-memory database cannot, and says so with null", async () => {
    const { text } = bigFile("MEM");
    const bytes = new TextEncoder().encode(text);
    const who = await signUp(ctx);
    const target = { workspaceId: who.user.workspace_id, userId: who.user.id };
    expect(await importOffThread(ctx.database.db, { url: ":memory:" }, target, bytes)).toBeNull();
    // Small files stay on this thread too.
    expect(
      await importOffThread(ctx.database.db, { url: ctx.env.databaseUrl }, target, bytes.subarray(0, 100)),
    ).toBeNull();
    const report = await importOffThread(ctx.database.db, { url: ctx.env.databaseUrl }, target, bytes);
    expect(report?.created).toBeGreaterThan(1000);
  }, 60_000);

  test("a file the worker refuses is a 422 with the reason, and nothing is imported", async () => {
    const who = await signUp(ctx);
    const { text } = bigFile("BAD");
    // A binary byte far into the file: refused whole after many rows were written in the transaction.
    const broken = `${text}\nEvil Co,Customer,E1,Al,1,al@evil.example,DE,no,\u0000`;
    const res = await uploadMultipart(who, broken);
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain("binary data");
    expect(await contactsOf(who.user.workspace_id)).toEqual([]);
  }, 60_000);

  test("a write of this process during the import waits for it instead of failing", async () => {
    const who = await signUp(ctx);
    const { text } = bigFile("Q");
    const importing = uploadMultipart(who, text);
    // Issued while the worker holds the database: it queues on the in-process write lock.
    await Bun.sleep(50);
    const created = await call(
      ctx,
      who.auth,
      "POST",
      "/api/contacts",
      buildContact({ company: "Queued Co" }),
    );
    expect(created.status).toBe(201);
    const { item } = (await created.json()) as { item: { id: number } };
    expect((await importing).status).toBe(200);
    // It waited for the import's commit: its id comes after every imported contact's.
    const [{ last }] = await ctx.database.db.all<{ last: number }>(
      sql`select max(id) as last from contacts where workspace_id = ${who.user.workspace_id} and company <> 'Queued Co'`,
    );
    expect(item.id).toBeGreaterThan(last);
  }, 60_000);
});
