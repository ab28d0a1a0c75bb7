import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { importOffThread } from "./contact-import-off-thread";
import {
  bigFile,
  contactsOf,
  expectWriteWaitsForUpload,
  uploadLikeInProcess,
  uploadTo,
} from "./upload-test-kit";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

const upload = (who: Awaited<ReturnType<typeof signUp>>, text: string) => uploadTo(ctx.app, who, text);

describe("a big web import runs on a worker thread", () => {
  test("the worker imports exactly what this thread imports: report and contacts", async () => {
    const { text, rows } = bigFile("OT", { repeats: true });
    const { report: reportHere } = await uploadLikeInProcess(ctx, ctx.app, text);
    expect(reportHere.rows).toBe(rows);
    expect(reportHere.rejected).toBeGreaterThan(0);
    expect(reportHere.updated + reportHere.unchanged).toBeGreaterThan(0);
  }, 60_000);

  test("the worker really runs it: an in-memory database cannot, and says so with null", async () => {
    const { text } = bigFile("MEM", { repeats: true });
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
    const { text } = bigFile("BAD", { repeats: true });
    // A binary byte far into the file: refused whole after many rows were written in the transaction.
    const broken = `${text}\nEvil Co,Customer,E1,Al,1,al@evil.example,DE,no,\u0000`;
    const res = await upload(who, broken);
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain("binary data");
    expect(await contactsOf(ctx, who.user.workspace_id)).toEqual([]);
  }, 60_000);

  test("a write of this process during the import waits for it instead of failing", async () => {
    await expectWriteWaitsForUpload(ctx, ctx.app, "Q");
  }, 60_000);
});
