// What the upload tests share (contact-import-off-thread.test.ts, contact-import-child.test.ts): a
// file big enough to leave the event loop, an upload through an app, and the proof that a write of
// this process made during an upload's import waits for its commit instead of failing.
import { expect } from "bun:test";
import { eq, sql } from "drizzle-orm";
import type { TImportAnswer, TImportReport } from "../../../db/contracts/contacts";
import { contacts } from "../../../db/schema";
import { buildContact, call, signUp } from "../../test/factories";
import type { TTestContext } from "../../test/setup";
import { importContacts } from "./contact-import";
import { OFF_THREAD_MIN_BYTES } from "./contact-import-off-thread";

type TReport = TImportAnswer & TImportReport;
type TWho = Awaited<ReturnType<typeof signUp>>;
export const HEADER = "Company,Partner Type,Tax ID,Contact,Phone,Email,Country,Sensitive,Sensitive Note";

/**
 * A file just over OFF_THREAD_MIN_BYTES after `first` (lines placed at the top), with a rejected row
 * every 97; with `repeats`, 1,500 companies come back again and again (updates of contacts the same
 * file created), else every company is new.
 */
export function bigFile(prefix: string, options: { repeats?: boolean; first?: string[] } = {}) {
  const lines = [HEADER, ...(options.first ?? [])];
  let i = 0;
  while (lines.join("\n").length < OFF_THREAD_MIN_BYTES + 10_000) {
    const bad = i % 97 === 5 ? "Alien" : "Customer";
    const n = options.repeats ? i % 1500 : i;
    lines.push(`${prefix} Trading ${n},${bad},${prefix}-${n},Ann ${i},+1 555 ${i},a${i}@x.example,DE,no,`);
    i++;
  }
  return { text: lines.join("\n"), rows: lines.length - 1 };
}

export async function uploadTo(app: TTestContext["app"], who: TWho, text: string) {
  const form = new FormData();
  form.append("csv_upload", new Blob([text], { type: "text/csv" }), "big.csv");
  const res = await app.request("/api/contacts/upload", { method: "POST", headers: who.auth, body: form });
  return { status: res.status, body: (await res.json()) as TReport };
}

export const contactsOf = async (ctx: TTestContext, workspaceId: number) =>
  (
    await ctx.database.db
      .select({ company: contacts.company, tax_id: contacts.tax_id, email_1: contacts.email_1 })
      .from(contacts)
      .where(eq(contacts.workspace_id, workspaceId))
      .orderBy(contacts.tax_id)
  ).map((c) => `${c.company}|${c.tax_id}|${c.email_1}`);

/**
 * Imports `text` in this process into one new workspace and uploads it through `app` into another:
 * the answer must be the same report, and the two workspaces the same contacts.
 */
export async function uploadLikeInProcess(ctx: TTestContext, app: TTestContext["app"], text: string) {
  const here = await signUp(ctx);
  const report = await importContacts(
    ctx.database.db,
    { workspaceId: here.user.workspace_id, userId: here.user.id },
    [text],
  );
  const there = await signUp(ctx);
  const uploaded = await uploadTo(app, there, text);
  expect(uploaded.status).toBe(200);
  const { message, ...reportThere } = uploaded.body;
  expect(message).toBe("Import completed");
  expect(reportThere).toEqual(report);
  expect(await contactsOf(ctx, there.user.workspace_id)).toEqual(
    await contactsOf(ctx, here.user.workspace_id),
  );
  return { report, workspaceId: there.user.workspace_id };
}

/** Creates a contact through ctx.app while `app` imports a big upload: it must wait, then land after it. */
export async function expectWriteWaitsForUpload(ctx: TTestContext, app: TTestContext["app"], prefix: string) {
  const who = await signUp(ctx);
  const importing = uploadTo(app, who, bigFile(prefix).text);
  // Issued while the import holds the database: it queues on the in-process write lock.
  await Bun.sleep(100);
  const created = await call(ctx, who.auth, "POST", "/api/contacts", buildContact({ company: "Queued Co" }));
  expect(created.status).toBe(201);
  const { item } = (await created.json()) as { item: { id: number } };
  expect((await importing).status).toBe(200);
  // It waited for the import's commit: its id comes after every imported contact's.
  const [{ last }] = await ctx.database.db.all<{ last: number }>(
    sql`select max(id) as last from contacts where workspace_id = ${who.user.workspace_id} and company <> 'Queued Co'`,
  );
  expect(item.id).toBeGreaterThan(last);
}
