/**
 * A contact can never end up saved but silently unscreened. The write marks it pending (in
 * the same statement), a failed screening leaves the mark, it shows as pending (never passed), it is
 * not cleared for paperwork, and the sweep finishes it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, inArray, sql } from "drizzle-orm";
import {
  contact_screening_results,
  contacts,
  screening_audit_log,
  screening_lists,
} from "../../../db/schema";
import { createLogger } from "../../lib/logger";
import { createServices } from "../../services";
import { buildContact, call, signUp } from "../../test/factories";
import { appOver, createTestContext, type TTestContext } from "../../test/setup";
import { ScreeningRegistry } from "./lists.service";
import { startPendingSweep, sweepPendingScreenings } from "./pending-sweep";
import { RescreenJob } from "./rescreen";
import { isContactCleared, pendingContactIds } from "./screening.service";

let ctx: TTestContext;
let who: Awaited<ReturnType<typeof signUp>>;
/** An app whose screenings fail: it was started while no list was active (a real failure path). */
let failingApp: ReturnType<typeof appOver>;
beforeAll(async () => {
  ctx = await createTestContext();
  who = await signUp(ctx);
  await ctx.database.db.update(screening_lists).set({ is_active: false });
  const registry = new ScreeningRegistry(ctx.database.db);
  await registry.get();
  await ctx.database.db.update(screening_lists).set({ is_active: true });
  const logger = createLogger("silent");
  const services = createServices(ctx.env, logger, ctx.database.db);
  failingApp = appOver(ctx, {
    screening: {
      registry,
      threshold: ctx.env.screeningThreshold,
      rescreen: new RescreenJob(
        { db: ctx.database.db, registry, threshold: ctx.env.screeningThreshold },
        logger,
      ),
    },
    mailer: services.mailer,
  });
  // The index over the bundled lists is built once per process and shared; build it up front.
  await new ScreeningRegistry(ctx.database.db).get();
}, 120_000);
afterAll(() => ctx.database.close());

const sweepDeps = () => {
  const registry = new ScreeningRegistry(ctx.database.db);
  const threshold = ctx.env.screeningThreshold;
  const logger = createLogger("silent");
  return {
    db: ctx.database.db,
    registry,
    logger,
    rescreen: new RescreenJob({ db: ctx.database.db, registry, threshold }, logger),
  };
};
const pendingOf = async (id: number) =>
  (
    await ctx.database.db.select({ p: contacts.screening_pending }).from(contacts).where(eq(contacts.id, id))
  )[0].p;
const send = (app: typeof failingApp, method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { ...who.auth, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
type TList = { data: { contact_id: number; status: string }[] };
const screeningRowOf = async (contactId: number) => {
  const res = await call(ctx, who.auth, "GET", "/api/screenings?per_page=100");
  return ((await res.json()) as TList).data.find((row) => row.contact_id === contactId);
};

describe("screening that cannot be skipped", () => {
  test("a contact saved while screening fails is recorded as pending, not cleared, and never shown as passed", async () => {
    const res = await send(
      failingApp,
      "POST",
      "/api/contacts",
      buildContact({ company: "Quiet Harbour Traders" }),
    );
    expect(res.status).toBe(201);
    const { id } = ((await res.json()) as { item: { id: number } }).item;
    expect(await pendingOf(id)).toBe(true);
    expect(await pendingContactIds(ctx.database.db)).toContain(id);
    expect(await isContactCleared(ctx.database.db, who.user.workspace_id, id)).toBe(false);
    // Without lists the party switch cannot answer: an error, not a pass.
    const answer = await send(failingApp, "GET", `/api/screenings/trade?itemId=${id}`);
    expect(answer.status).toBe(409);
    expect(await screeningRowOf(id)).toBeUndefined();

    expect(await sweepPendingScreenings(sweepDeps())).toBeGreaterThanOrEqual(1);
    expect(await pendingOf(id)).toBe(false);
    expect((await screeningRowOf(id))?.status).toBe("passed");
    expect(await isContactCleared(ctx.database.db, who.user.workspace_id, id)).toBe(true);
  });

  test("renaming a screened contact marks it pending in the same write; the list shows PENDING until it is screened", async () => {
    const created = await call(
      ctx,
      who.auth,
      "POST",
      "/api/contacts",
      buildContact({ company: "Plain Valves Inc" }),
    );
    const { id } = ((await created.json()) as { item: { id: number } }).item;
    expect(await pendingOf(id)).toBe(false);
    expect((await screeningRowOf(id))?.status).toBe("passed");

    const renamed = await send(
      failingApp,
      "PUT",
      `/api/contacts/${id}`,
      buildContact({ company: "Rosoboroneksport" }),
    );
    expect(renamed.status).toBe(200);
    expect(await pendingOf(id)).toBe(true);
    expect((await screeningRowOf(id))?.status).toBe("pending");
    expect(await isContactCleared(ctx.database.db, who.user.workspace_id, id)).toBe(false);

    // The party switch screens a pending contact again instead of answering with the old pass.
    const trade = await call(ctx, who.auth, "GET", `/api/screenings/trade?itemId=${id}`);
    expect(((await trade.json()) as { item: { status: string } }).item.status).toBe("failed");
    expect(await pendingOf(id)).toBe(false);
    expect(await isContactCleared(ctx.database.db, who.user.workspace_id, id)).toBe(false);
  });

  test("a pending contact never lists, filters, sorts or downloads as passed; filtered totals follow the flag", async () => {
    type TPage = { total: number; data: { contact_id: number; status: string }[] };
    const page = async (query: string) =>
      (await (await call(ctx, who.auth, "GET", `/api/screenings?per_page=100&${query}`)).json()) as TPage;
    const created = await call(
      ctx,
      who.auth,
      "POST",
      "/api/contacts",
      buildContact({ company: "Filtered Pending Lines Ltd" }),
    );
    const { id } = ((await created.json()) as { item: { id: number } }).item;
    const passedBefore = await page("filters[status]=passed");
    const pendingBefore = await page("filters[status]=pending");
    expect(passedBefore.data.map((r) => r.contact_id)).toContain(id);

    // Renamed while screening fails: no new outcome is stored, only the contact's pending mark changes.
    await send(
      failingApp,
      "PUT",
      `/api/contacts/${id}`,
      buildContact({ company: "Filtered Pending Lines Two" }),
    );
    expect(await pendingOf(id)).toBe(true);
    const passed = await page("filters[status]=passed");
    expect(passed.data.map((r) => r.contact_id)).not.toContain(id);
    expect(passed.data.every((r) => r.status === "passed")).toBe(true);
    expect(passed.total).toBe(passedBefore.total - 1);
    const pending = await page("filters[status]=pending");
    expect(pending.data.find((r) => r.contact_id === id)?.status).toBe("pending");
    expect(pending.total).toBe(pendingBefore.total + 1);
    // Sorted by status, it sits with the pending rows, not the passed ones.
    const sorted = (await page("sort_status=asc")).data.map((r) => r.status);
    expect(sorted).toEqual([...sorted].sort());
    const csv = await (await call(ctx, who.auth, "GET", "/api/screenings/download")).text();
    const line = csv.split("\n").find((l) => l.includes("Filtered Pending Lines Ltd"));
    expect(line).toContain(",pending,");

    // Another process clearing the mark straight in the database: the same filters count it again.
    await ctx.database.client.execute({
      sql: "update contacts set screening_pending = 0 where id = ?",
      args: [id],
    });
    expect((await page("filters[status]=passed")).total).toBe(passedBefore.total);
    expect((await page("filters[status]=pending")).total).toBe(pendingBefore.total);
  });

  test("a change to a field that is not screened leaves the outcome standing", async () => {
    const created = await call(
      ctx,
      who.auth,
      "POST",
      "/api/contacts",
      buildContact({ company: "Phone Change Ltd" }),
    );
    const { id } = ((await created.json()) as { item: { id: number } }).item;
    expect(await pendingOf(id)).toBe(false);
    await send(
      failingApp,
      "PUT",
      `/api/contacts/${id}`,
      buildContact({ company: "Phone Change Ltd", phone_1: "+1 555 0199" }),
    );
    expect(await pendingOf(id)).toBe(false);
    await ctx.database.db.update(contacts).set({ city: "Riga" }).where(eq(contacts.id, id));
    expect(await pendingOf(id)).toBe(true);
  });

  test("a result for values that changed meanwhile does not clear the mark", async () => {
    const created = await send(
      failingApp,
      "POST",
      "/api/contacts",
      buildContact({ company: "Race Condition AG" }),
    );
    const { id } = ((await created.json()) as { item: { id: number } }).item;
    const [snapshot] = await ctx.database.db.select().from(contacts).where(eq(contacts.id, id));
    await ctx.database.db
      .update(contacts)
      .set({ company: "Race Condition AG (renamed)" })
      .where(eq(contacts.id, id));
    const { screenContact } = await import("./screening.service");
    const deps = sweepDeps();
    await screenContact(
      { db: ctx.database.db, registry: deps.registry, threshold: ctx.env.screeningThreshold },
      { workspaceId: who.user.workspace_id, userId: who.user.id, userEmail: who.email },
      snapshot,
    );
    expect(await pendingOf(id)).toBe(true);
  });

  test("CSV imports mark new and changed contacts pending with the write", async () => {
    const csv =
      "company,partner type,tax id,contact,phone,email\nImported Pending Co,Customer,IMP-1,Pat,+1 555,pat@imp.example\n";
    const form = new FormData();
    form.append("csv_upload", new File([csv], "c.csv", { type: "text/csv" }));
    const res = await failingApp.request("/api/contacts/upload", {
      method: "POST",
      headers: who.auth,
      body: form,
    });
    expect(res.status).toBe(200);
    const [row] = await ctx.database.db.select().from(contacts).where(eq(contacts.tax_id, "IMP-1"));
    expect(row.screening_pending).toBe(true);
  });

  test("the periodic sweep finishes pending contacts on its own", async () => {
    const res = await send(failingApp, "POST", "/api/contacts", buildContact({ company: "Swept Later Ltd" }));
    const { id } = ((await res.json()) as { item: { id: number } }).item;
    expect(await pendingOf(id)).toBe(true);
    const stop = startPendingSweep(sweepDeps(), 50);
    try {
      for (let i = 0; i < 200 && (await pendingOf(id)); i++) await Bun.sleep(50);
    } finally {
      stop();
    }
    expect(await pendingOf(id)).toBe(false);
  }, 30_000);
});

describe("listing many pending contacts", () => {
  test("pendingContactIds reads page by page and still returns every pending contact once, in id order", async () => {
    // More than two pages (ID_PAGE = 2,000) in a workspace of its own; the failing app leaves them pending.
    const other = await signUp(ctx);
    const lines = ["company,partner type,tax id,contact,phone,email"];
    for (let i = 0; i < 4_500; i++)
      lines.push(`Paged Pending ${i},Customer,PP-${i},Pat,+1 555 ${i},p${i}@pp.example`);
    const form = new FormData();
    form.append("csv_upload", new File([lines.join("\n")], "many.csv", { type: "text/csv" }));
    const res = await failingApp.request("/api/contacts/upload", {
      method: "POST",
      headers: other.auth,
      body: form,
    });
    expect(res.status).toBe(200);
    const expected = (
      await ctx.database.db
        .select({ id: contacts.id })
        .from(contacts)
        .where(eq(contacts.workspace_id, other.user.workspace_id))
    )
      .map((r) => r.id)
      .sort((a, b) => a - b);
    expect(expected.length).toBe(4_500);
    expect(await pendingContactIds(ctx.database.db, other.user.workspace_id)).toEqual(expected);
    // Across workspaces too: these are among all pending contacts, each once.
    const all = await pendingContactIds(ctx.database.db);
    expect(new Set(all).size).toBe(all.length);
    expect(all.filter((id) => expected.includes(id)).length).toBe(4_500);
  }, 120_000);

  test("a sweep and an import's screening queued for the same pending contacts screen each contact once", async () => {
    // The sweep can fire between an import's commit and the import's own run: both read the same
    // pending ids and queue a run. The second finds them screened and records nothing again.
    const other = await signUp(ctx);
    const ids: number[] = [];
    for (const company of ["Twice Queued Traders", "Once Only Shipping", "Single Record Logistics"]) {
      const res = await send(failingApp, "POST", "/api/contacts", buildContact({ company }));
      const { item } = (await res.json()) as { item: { id: number } };
      await ctx.database.db
        .update(contacts)
        .set({ workspace_id: other.user.workspace_id })
        .where(eq(contacts.id, item.id));
      ids.push(item.id);
    }
    const deps = sweepDeps();
    const first = deps.rescreen.run(ids, "pending screenings", undefined, { pendingOnly: true });
    const second = deps.rescreen.run(ids, "contact import", undefined, { pendingOnly: true });
    await Promise.all([first, second]);
    const counts = await ctx.database.db
      .select({ id: contact_screening_results.contact_id, n: sql<number>`count(*)` })
      .from(contact_screening_results)
      .where(inArray(contact_screening_results.contact_id, ids))
      .groupBy(contact_screening_results.contact_id);
    expect(counts.map((row) => row.n)).toEqual([1, 1, 1]);
    const audited = await ctx.database.db
      .select({ n: sql<number>`count(*)` })
      .from(screening_audit_log)
      .where(inArray(screening_audit_log.contact_id, ids));
    expect(audited[0]?.n).toBe(3);
    for (const id of ids) expect(await pendingOf(id)).toBe(false);
    // A run that is not about pending marks (a list update) still screens whom it is given.
    await deps.rescreen.run(ids, "list update");
    const after = await ctx.database.db
      .select({ n: sql<number>`count(*)` })
      .from(contact_screening_results)
      .where(inArray(contact_screening_results.contact_id, ids));
    expect(after[0]?.n).toBe(6);
  }, 60_000);
});
