import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { inArray, sql } from "drizzle-orm";
import { contact_screening_results, contacts, rpscreenings, screening_audit_log } from "../../../db/schema";
import { createLogger } from "../../lib/logger";
import { createServices } from "../../services";
import { signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { importContacts } from "../contacts/contact-import";
import { RescreenJob, staleContactIds } from "./rescreen";
import { ScreeningWorker, ScreeningWorkerPool, type TQuery, workerOfName } from "./screening-worker";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

const HEADER = "Company,Partner Type,Tax ID,Street,City,Country,Contact,Phone,Email";
// Listed parties (one with its listed address and country, one a near miss), repeated names, clean names.
const NAMES = [
  "Rosoboroneksport OAO",
  "Rosoboronexport",
  "Harbor Timber Ltd",
  "Islamic Revolutionary Guard Corps",
  "Mahan Air",
  "Mahan Airlines",
  "Atlas Pacific Freight GmbH",
  "Banco Nacional de Cuba",
];

/** Imports the same rows into a workspace of their own and screens them: on the worker or here. */
async function importAndScreen(onWorker: boolean) {
  const owner = await signUp(ctx);
  const lines = [HEADER];
  for (let i = 0; i < 60; i++) {
    const company = NAMES[i % NAMES.length];
    const street = i % 3 ? `${i} Harbour Road` : "Gogolevsky Blvd 21";
    lines.push(
      `${company},Customer,W-${i},${street},Moscow,${i % 2 ? "RU" : "DE"},Ann,+1 555,a${i}@x.example`,
    );
  }
  const primed: string[] = [];
  const worker = onWorker
    ? ScreeningWorker.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold)
    : null;
  if (onWorker) expect(worker).not.toBeNull();
  try {
    const report = await importContacts(
      ctx.database.db,
      { workspaceId: owner.user.workspace_id, userId: owner.user.id },
      [lines.join("\n")],
      {
        onWritten: (names) => {
          primed.push(...names);
          worker?.prime(names);
        },
      },
    );
    expect(report.created).toBe(60);
    // Every new contact's name was handed over once written.
    expect(primed).toHaveLength(60);
    const ids = await staleContactIds(ctx.database.db, owner.user.workspace_id);
    const services = createServices(ctx.env, createLogger("silent"), ctx.database.db);
    const job = new RescreenJob(
      { db: ctx.database.db, registry: services.screening.registry, threshold: services.screening.threshold },
      createLogger("silent"),
    );
    const state = await job.run(ids, "contact import", undefined, { worker: worker ?? undefined });
    expect(state).toMatchObject({ total: 60, done: 60, failed: 0 });
    return ids;
  } finally {
    worker?.stop();
  }
}

/** What was recorded for these contacts, by position (ids differ between the two runs). */
async function recorded(ids: number[]) {
  const db = ctx.database.db;
  const byContact = <T extends { contact_id: number | null }>(rows: T[]) =>
    ids.map((id) => rows.filter((r) => r.contact_id === id).map(({ contact_id: _, ...rest }) => rest));
  const results = await db
    .select({
      contact_id: contact_screening_results.contact_id,
      status: contact_screening_results.status,
      multiple: contact_screening_results.multiple,
      best_score: contact_screening_results.best_score,
      matches: contact_screening_results.matches,
      address: contact_screening_results.address,
    })
    .from(contact_screening_results)
    .where(inArray(contact_screening_results.contact_id, ids));
  const audit = await db
    .select({
      contact_id: screening_audit_log.contact_id,
      kind: screening_audit_log.kind,
      outcome: screening_audit_log.outcome,
      matches: screening_audit_log.matches,
      query: screening_audit_log.query,
    })
    .from(screening_audit_log)
    .where(inArray(screening_audit_log.contact_id, ids));
  const listed = await db
    .select({
      contact_id: rpscreenings.contact_id,
      status: rpscreenings.status,
      attention: rpscreenings.attention,
      data_screened: rpscreenings.data_screened,
    })
    .from(rpscreenings)
    .where(inArray(rpscreenings.contact_id, ids));
  const marks = await db
    .select({
      contact_id: contacts.id,
      pending: contacts.screening_pending,
      outcome: contacts.screening_outcome,
    })
    .from(contacts)
    .where(inArray(contacts.id, ids));
  return {
    results: byContact(results),
    audit: byContact(audit),
    listed: byContact(listed),
    marks: byContact(marks),
  };
}

describe("screening on a worker", () => {
  test("records exactly what screening on this thread records, for every contact", async () => {
    const here = await recorded(await importAndScreen(false));
    const there = await recorded(await importAndScreen(true));
    expect(there).toEqual(here);
    // The comparison is not empty-handed: listed parties failed, the rest passed, all were recorded.
    const statuses = here.results.map((r) => r[0]?.status);
    expect(statuses.filter((s) => s === "failed").length).toBeGreaterThan(10);
    expect(statuses.filter((s) => s === "passed").length).toBeGreaterThan(10);
    expect(here.audit.every((a) => a.length === 1)).toBe(true);
    expect(here.marks.every((m) => m[0]?.pending === false)).toBe(true);
    // The worker builds its own index of the lists: seconds of CPU on a busy machine.
  }, 120_000);

  test("a batch to screen is answered without waiting for every name primed before it", async () => {
    const worker = ScreeningWorker.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold);
    expect(worker).not.toBeNull();
    try {
      await worker?.ready;
      // Many distinct names primed (a second or more of scoring), then one batch of two names.
      const primed = Array.from({ length: 1_500 }, (_, i) => `Qworvel ${i.toString(36)} Brenthax`);
      for (let i = 0; i < primed.length; i += 300) worker?.prime(primed.slice(i, i + 300));
      const outcomes = await worker?.screen([
        ["Mahan Air", "", "IR"],
        ["Harbor Timber Ltd", "", "DE"],
      ]);
      expect(outcomes?.map((o) => o.status)).toEqual(["failed", "passed"]);
      // Answered while most primed names were still waiting to be scored.
      expect(worker?.primedWaiting).toBeGreaterThan(500);
      // The primed names are still scored: a later batch of them finds nothing left waiting.
      await worker?.screen(
        primed.slice(-2).map((name): [string, string, undefined] => [name, "", undefined]),
      );
      for (;;) {
        await worker?.screen([["Mahan Air", "", "IR"]]);
        if (worker?.primedWaiting === 0) break;
        await Bun.sleep(50);
      }
      expect(worker?.primedWaiting).toBe(0);
    } finally {
      worker?.stop();
    }
  }, 120_000);

  test("a pool of two workers answers each batch as one worker does, in order", async () => {
    const one = ScreeningWorker.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold);
    const pool = ScreeningWorkerPool.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold, {
      workers: 2,
    });
    try {
      expect(pool?.size).toBe(2);
      expect(await pool?.ready).toEqual((await one?.ready) ?? []);
      // Listed and clean names interleaved, repeats included, with and without country and address.
      const queries: TQuery[] = Array.from({ length: 40 }, (_, i) => [
        NAMES[(i * 3) % NAMES.length] as string,
        i % 4 ? "" : "Gogolevsky Blvd 21, Moscow",
        i % 2 ? "RU" : undefined,
      ]);
      // Both workers get a share of the batch.
      const shares = new Set(queries.map(([name]) => workerOfName(name, 2)));
      expect(shares.size).toBe(2);
      pool?.prime(queries.slice(0, 10).map(([name]) => name));
      const alone = await one?.screen(queries);
      const shared = await pool?.screen(queries);
      expect(shared).toEqual(alone ?? []);
      const statuses = (shared ?? []).map((o) => o.status);
      expect(statuses.filter((s) => s === "failed").length).toBeGreaterThan(5);
      expect(statuses.filter((s) => s === "passed").length).toBeGreaterThan(5);
      expect(await pool?.screen([])).toEqual([]);
    } finally {
      one?.stop();
      pool?.stop();
    }
  }, 120_000);

  test("a pool whose workers cannot open the database fails its callers", async () => {
    const pool = ScreeningWorkerPool.start(
      "file:/nonexistent-folder/for/sure/app.db?mode=ro",
      undefined,
      0.85,
      {
        workers: 2,
      },
    );
    await expect(pool?.ready).rejects.toThrow();
    await expect(pool?.screen([["Mahan Air", "", undefined]]) ?? Promise.resolve()).rejects.toThrow();
    pool?.stop();
  });

  test("a worker that cannot open the database fails its callers instead of hanging", async () => {
    const worker = ScreeningWorker.start("file:/nonexistent-folder/for/sure/app.db?mode=ro", undefined, 0.85);
    expect(worker).not.toBeNull();
    await expect(worker?.ready).rejects.toThrow();
    await expect(worker?.screen([["Mahan Air", "", undefined]]) ?? Promise.resolve()).rejects.toThrow();
    worker?.stop();
  });

  test("a job whose worker failed screens on this thread instead", async () => {
    const owner = await signUp(ctx);
    await importContacts(ctx.database.db, { workspaceId: owner.user.workspace_id, userId: owner.user.id }, [
      `${HEADER}\nMahan Air,Customer,F-1,,Tehran,IR,Ann,+1 555,f@x.example`,
    ]);
    const ids = await staleContactIds(ctx.database.db, owner.user.workspace_id);
    const services = createServices(ctx.env, createLogger("silent"), ctx.database.db);
    const broken = ScreeningWorker.start("file:/nonexistent-folder/for/sure/app.db?mode=ro", undefined, 0.85);
    const job = new RescreenJob(
      { db: ctx.database.db, registry: services.screening.registry, threshold: services.screening.threshold },
      createLogger("silent"),
    );
    const state = await job.run(ids, "contact import", undefined, { worker: broken ?? undefined });
    expect(state).toMatchObject({ done: 1, failed: 0 });
    const [row] = await ctx.database.db.all<{ status: string }>(
      sql`select status from contact_screening_results where contact_id = ${ids[0]}`,
    );
    expect(row?.status).toBe("failed");
  }, 60_000);
});
