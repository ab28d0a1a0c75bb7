import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inArray, sql } from "drizzle-orm";
import { contact_screening_results, contacts, rpscreenings, screening_audit_log } from "../../../db/schema";
import { createLogger } from "../../lib/logger";
import { createServices } from "../../services";
import { signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { deferralStats, importContacts } from "../contacts/contact-import";
import { setIndexCacheDir } from "./index-cache";
import { RescreenJob, staleContactIds } from "./rescreen";
import {
  QueryScreener,
  ScreeningWorker,
  ScreeningWorkerPool,
  type TQuery,
  workerOfName,
} from "./screening-worker";

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

/** 60 rows: listed parties and clean names, repeated, with differing addresses and countries. */
function sampleRows(rows = 60) {
  const lines = [HEADER];
  for (let i = 0; i < rows; i++) {
    const company = NAMES[i % NAMES.length];
    const street = i % 3 ? `${i} Harbour Road` : "Gogolevsky Blvd 21";
    lines.push(
      `${company},Customer,W-${i},${street},Moscow,${i % 2 ? "RU" : "DE"},Ann,+1 555,a${i}@x.example`,
    );
  }
  return lines;
}

/** The workspace's contacts, by id. */
async function contactIdsOf(workspaceId: number) {
  const rows = await ctx.database.db.all<{ id: number }>(
    sql`select id from contacts where workspace_id = ${workspaceId} order by id`,
  );
  return rows.map((r) => r.id);
}

/**
 * Imports the sample rows screening them WHILE importing (the CLI's way): outcomes from these
 * workers, each new contact written with its outcome and recorded in the import's transaction.
 */
async function importScreeningWhileImporting(
  workers: (ScreeningWorker | null)[],
  owner?: Awaited<ReturnType<typeof signUp>>,
  lines: string[] = sampleRows(),
  /** Sends the file as two chunks, cut before this line (the first is the header). */
  cutAt?: number,
) {
  owner ??= await signUp(ctx);
  const screener = new QueryScreener(workers.filter((w): w is ScreeningWorker => w !== null));
  let screened = 0;
  try {
    const report = await importContacts(
      ctx.database.db,
      { workspaceId: owner.user.workspace_id, userId: owner.user.id },
      cutAt === undefined
        ? [lines.join("\n")]
        : [`${lines.slice(0, cutAt).join("\n")}\n`, lines.slice(cutAt).join("\n")],
      {
        screening: {
          screener,
          threshold: ctx.env.screeningThreshold,
          onScreened: (n) => {
            screened += n;
          },
        },
      },
    );
    return {
      ids: await contactIdsOf(owner.user.workspace_id),
      screened,
      report,
      submitted: screener.submitted,
    };
  } finally {
    screener.stop();
  }
}

/** Imports the same rows into a workspace of their own and screens them: on the worker or here. */
async function importAndScreen(onWorker: boolean) {
  const owner = await signUp(ctx);
  const lines = sampleRows();
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

  test("screening while importing records what screening after the import records, at insert", async () => {
    const here = await recorded(await importAndScreen(false));
    const start = () => ScreeningWorker.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold);
    // Two workers: each name goes to one of them.
    const first = await importScreeningWhileImporting([start(), start()]);
    const { ids, screened } = first;
    expect(first.report.created).toBe(60);
    expect(screened).toBe(60);
    const during = await recorded(ids);
    expect(during).toEqual(here);
    expect(here.results.map((r) => r[0]?.status)).toContain("failed");
    // Nothing was left for a run after the import: no contact is pending, none was screened twice.
    expect(during.marks.every((m) => m[0]?.pending === false && m[0]?.outcome !== null)).toBe(true);
    expect(during.results.every((r) => r.length === 1)).toBe(true);
    expect(first.submitted).toBeGreaterThan(10);
    // The same file again: nothing is new, so nothing is sent to the workers or recorded.
    const owner = await signUp(ctx);
    await importScreeningWhileImporting([start()], owner);
    const again = await importScreeningWhileImporting([start()], owner);
    expect(again.report.unchanged).toBe(60);
    expect(again.submitted).toBe(0);
    expect(again.screened).toBe(0);
  }, 180_000);

  test("a file of several batches, written while the worker warms up, records each contact once as screened", async () => {
    // Small first batches are written as soon as their outcomes are back, bigger ones after: the
    // cuts change when rows are written, never what is recorded for them.
    const here = await recorded(await importAndScreen(false));
    const start = () => ScreeningWorker.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold);
    const big = await importScreeningWhileImporting([start()], undefined, sampleRows(2_600));
    expect(big.report.created).toBe(2_600);
    expect(big.screened).toBe(2_600);
    const during = await recorded(big.ids);
    expect(during.results.every((r) => r.length === 1)).toBe(true);
    expect(during.audit.every((r) => r.length === 1)).toBe(true);
    expect(during.listed.every((r) => r.length === 1)).toBe(true);
    expect(
      during.marks.every(
        (m, i) => m[0]?.pending === false && m[0]?.outcome === during.results[i]?.[0]?.status,
      ),
    ).toBe(true);
    // The first 60 rows are the sample's: recorded as screening them after the import records them.
    expect(during.results.slice(0, 60)).toEqual(here.results);
    // A row 24 further on with the listed street has the same name, address and country (8 names,
    // every third row, two countries): the same outcome, early batch or late.
    let compared = 0;
    for (let i = 60; i < 2_600; i += 3) {
      expect(during.results[i]).toEqual(during.results[i - 24] as never);
      compared++;
    }
    expect(compared).toBeGreaterThan(800);
    expect(during.results.filter((r) => r[0]?.status === "failed").length).toBeGreaterThan(300);
  }, 180_000);

  test("contacts written before their outcomes are back are recorded once they are, unless a later row changes what is screened", async () => {
    const start = () => ScreeningWorker.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold);
    const fillers = Array.from(
      { length: 1_200 },
      (_, i) =>
        `Qworvel ${i} Brenthax,Customer,F-${i},${i} Harbour Road,Hamburg,DE,Ann,+1 555,f${i}@x.example`,
    );
    const lines = [
      HEADER,
      "Mahan Air,Customer,D-1,Azadi Square,Tehran,IR,Ann,+1 555,m@x.example",
      "Harbor Timber Ltd,Customer,D-2,1 Quay,Hamburg,DE,Ann,+1 555,h@x.example",
      "Atlas Pacific Freight GmbH,Customer,D-3,2 Quay,Hamburg,DE,Ann,+1 555,a@x.example",
      ...fillers,
      // Parsed after the first batch was written (a chunk of its own): one changes the street, which
      // screening reads; the other only the phone, which it does not.
      "Harbor Timber Ltd,Customer,D-2,9 Other Street,Hamburg,DE,Ann,+1 555,h@x.example",
      "Atlas Pacific Freight GmbH,Customer,D-3,2 Quay,Hamburg,DE,Ann,+1 999,a@x.example",
    ];
    const deferredBefore = deferralStats.contacts;
    const { ids, screened, report } = await importScreeningWhileImporting(
      [start()],
      undefined,
      lines,
      1 + 3 + 1_200,
    );
    expect(report).toMatchObject({ created: 1_203, updated: 2, rejected: 0 });
    // The first batch was written at once, before the worker could answer for it.
    expect(deferralStats.contacts - deferredBefore).toBeGreaterThanOrEqual(250);
    expect(screened).toBe(1_202);
    const during = await recorded(ids);
    const [mahan, harbor, atlas] = [0, 1, 2].map((i) => ({
      results: during.results[i] ?? [],
      audit: during.audit[i] ?? [],
      listed: during.listed[i] ?? [],
      mark: during.marks[i]?.[0],
    }));
    expect(mahan?.mark).toEqual({ pending: false, outcome: "failed" });
    expect(mahan?.results.map((r) => r.status)).toEqual(["failed"]);
    expect(mahan?.listed.map((r) => r.attention)).toEqual([2]);
    // Changed where screening looks after it was written: left pending, nothing recorded for its old street.
    expect(harbor?.mark).toEqual({ pending: true, outcome: null });
    expect([harbor?.results, harbor?.audit, harbor?.listed]).toEqual([[], [], []]);
    // Changed elsewhere: recorded as it was screened.
    expect(atlas?.mark).toEqual({ pending: false, outcome: "passed" });
    expect(atlas?.results).toHaveLength(1);
    for (const i of ids.keys()) {
      if (i === 1) continue;
      expect([during.results[i]?.length, during.audit[i]?.length, during.listed[i]?.length]).toEqual([
        1, 1, 1,
      ]);
      expect(during.marks[i]?.[0]?.pending).toBe(false);
    }
    // The run after the import screens the one left, at its new street.
    const services = createServices(ctx.env, createLogger("silent"), ctx.database.db);
    const job = new RescreenJob(
      { db: ctx.database.db, registry: services.screening.registry, threshold: services.screening.threshold },
      createLogger("silent"),
    );
    expect(await job.run(ids, "contact import", undefined, { pendingOnly: true })).toMatchObject({ done: 1 });
    const after = await recorded([ids[1] as number]);
    expect(after.results[0]?.map((r) => r.address)).toEqual(["9 Other Street, Hamburg, Germany"]);
    expect(after.marks[0]?.[0]?.pending).toBe(false);
  }, 120_000);

  test("a contact written ahead of its outcome is not recorded while a row read ahead may still change it", async () => {
    // The file arrives in two chunks, the second only once the worker has answered for the first:
    // the first batch's contacts then have their outcomes while the second chunk's rows are read
    // but not yet written, and one of those rows moves a contact of the first batch.
    const owner = await signUp(ctx);
    const worker = ScreeningWorker.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold);
    if (!worker) throw new Error("no worker");
    const screener = new QueryScreener([worker]);
    const filler = (from: number, n: number) =>
      Array.from(
        { length: n },
        (_, i) =>
          `Qworvel ${from + i} Brenthax,Customer,G-${from + i},${i} Quay,Hamburg,DE,Ann,+1 555,g${i}@x.example`,
      );
    async function* chunks() {
      yield `${[HEADER, "Harbor Timber Ltd,Customer,E-1,1 Quay,Hamburg,DE,Ann,+1 555,h@x.example", ...filler(0, 1_200)].join("\n")}\n`;
      // Everything submitted so far is answered before the next rows arrive.
      screener.flush();
      for (let waited = 0; screener.backlog > 0 && waited < 60_000; waited += 20) await Bun.sleep(20);
      expect(screener.backlog).toBe(0);
      // Its last row ends with a line end: it is read, and waits to be written, with the rest.
      yield `${[
        ...filler(1_200, 1_000),
        "Harbor Timber Ltd,Customer,E-1,9 Other Street,Hamburg,DE,Ann,+1 555,h@x.example",
      ].join("\n")}\n`;
    }
    try {
      const report = await importContacts(
        ctx.database.db,
        { workspaceId: owner.user.workspace_id, userId: owner.user.id },
        chunks(),
        { screening: { screener, threshold: ctx.env.screeningThreshold } },
      );
      expect(report).toMatchObject({ created: 2_201, updated: 1, rejected: 0 });
    } finally {
      screener.stop();
    }
    const ids = await contactIdsOf(owner.user.workspace_id);
    const during = await recorded(ids);
    // Nothing was recorded for the street it no longer has: it is pending, for the run after.
    expect(during.marks[0]?.[0]).toEqual({ pending: true, outcome: null });
    expect([during.results[0], during.audit[0], during.listed[0]]).toEqual([[], [], []]);
    expect(during.results.slice(1).every((r) => r.length === 1)).toBe(true);
  }, 120_000);

  test("an import whose screening workers fail writes its contacts pending, for the run after", async () => {
    const broken = ScreeningWorker.start("file:/nonexistent-folder/for/sure/app.db?mode=ro", undefined, 0.85);
    const { ids, screened, report } = await importScreeningWhileImporting([broken]);
    expect(report.created).toBe(60);
    expect(screened).toBe(0);
    const before = await recorded(ids);
    expect(before.results.every((r) => r.length === 0)).toBe(true);
    expect(before.marks.every((m) => m[0]?.pending === true && m[0]?.outcome === null)).toBe(true);
    // The run after the import (or the sweep) screens them, once each.
    const services = createServices(ctx.env, createLogger("silent"), ctx.database.db);
    const job = new RescreenJob(
      { db: ctx.database.db, registry: services.screening.registry, threshold: services.screening.threshold },
      createLogger("silent"),
    );
    const state = await job.run(ids, "contact import", undefined, { pendingOnly: true });
    expect(state).toMatchObject({ total: 60, done: 60, failed: 0 });
    const after = await recorded(ids);
    expect(after.results.every((r) => r.length === 1)).toBe(true);
    expect(after.marks.every((m) => m[0]?.pending === false)).toBe(true);
  }, 120_000);

  test("identical queries are screened once; each outcome is kept under the key submit gives", async () => {
    const worker = ScreeningWorker.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold);
    const screener = new QueryScreener(worker ? [worker] : []);
    try {
      const a = screener.submit(["Mahan Air", "Tehran", "IR"]);
      const again = screener.submit(["Mahan Air", "Tehran", "IR"]);
      const b = screener.submit(["Mahan Air", "Hamburg", "DE"]);
      const c = screener.submit(["Harbor Timber Ltd", "", undefined]);
      expect(again).toBe(a);
      // Three distinct queries in flight, not four.
      expect(screener.backlog).toBe(3);
      expect(screener.isKnown([a, b, c])).toBe(false);
      expect(await screener.whenKnown([a, b, c])).toBe(true);
      expect(screener.backlog).toBe(0);
      expect(screener.outcome(a)?.status).toBe("failed");
      expect(screener.outcome(c)?.status).toBe("passed");
      // Known already: not sent again.
      screener.submit(["Mahan Air", "Tehran", "IR"]);
      expect(screener.backlog).toBe(0);
    } finally {
      screener.stop();
    }
  }, 120_000);

  test("a screener adds a worker once most names prove distinct, and the names not sent yet go to both", async () => {
    // The index stored once, so the added worker is ready in a fraction of a second, as in the CLI.
    const cacheDir = mkdtempSync(path.join(tmpdir(), "tw-index-"));
    setIndexCacheDir(cacheDir);
    const start = () => ScreeningWorker.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold);
    const policy = (started: ScreeningWorker[], startOne = start) => ({
      steps: [{ afterQueries: 100, minShare: 0.5 }],
      // Few in flight, so that many wait unsent when the second worker is ready.
      inFlight: 20,
      start: () => {
        const worker = startOne();
        if (worker) started.push(worker);
        return worker;
      },
    });
    const distinctNames = (from: number, n: number, listed = 0): TQuery[] =>
      Array.from({ length: n }, (_, i) => [
        i < listed ? "Mahan Air" : `Qworvel ${(from + i).toString(36)} Brenthax`,
        `${from + i} Quay`,
        "IR",
      ]);
    try {
      const first = start();
      if (!first) throw new Error("no worker");
      await first.ready;
      // Names the file repeats (each of four, at 200 addresses): the worker had scored them.
      const repeats: ScreeningWorker[] = [];
      const repeating = new QueryScreener([first], policy(repeats));
      try {
        const keys = Array.from({ length: 200 }, (_, i) =>
          repeating.submit([NAMES[i % 4] as string, `${i} Quay, Hamburg`, "DE"]),
        );
        expect(await repeating.whenKnown(keys)).toBe(true);
        expect([repeating.added, repeats.length, repeating.routed]).toEqual([0, 0, 1]);
      } finally {
        repeating.stop();
      }

      // Distinct names: a second worker starts after the first 100 answers; the 4,000 queries not
      // sent by the time it is ready are shared between both, and every outcome comes back.
      const added: ScreeningWorker[] = [];
      const second = start();
      if (!second) throw new Error("no worker");
      const distinct = new QueryScreener([second], policy(added));
      try {
        const firstKeys = distinctNames(0, 100).map((q) => distinct.submit(q));
        expect(await distinct.whenKnown(firstKeys)).toBe(true);
        expect([distinct.added, added.length]).toEqual([1, 1]);
        const rest = distinctNames(100, 4_000, 40).map((q) => distinct.submit(q));
        distinct.flush();
        expect(await distinct.whenKnown(rest)).toBe(true);
        expect(distinct.routed).toBe(2);
        expect(distinct.answeredBy[1]).toBeGreaterThan(0);
        expect(rest.filter((key) => distinct.outcome(key)?.status === "failed").length).toBe(40);
        expect(distinct.backlog).toBe(0);
      } finally {
        distinct.stop();
      }
      expect(added[0]?.isStopped).toBe(true);

      // A worker added that fails before it is ready takes no names: the first screens them all.
      const third = start();
      if (!third) throw new Error("no worker");
      const broken: ScreeningWorker[] = [];
      const withBroken = new QueryScreener(
        [third],
        policy(broken, () =>
          ScreeningWorker.start("file:/nonexistent-folder/for/sure/app.db?mode=ro", undefined, 0.85),
        ),
      );
      try {
        const keys = distinctNames(0, 600, 6).map((q) => withBroken.submit(q));
        expect(await withBroken.whenKnown(keys)).toBe(true);
        expect([withBroken.added, withBroken.routed]).toEqual([1, 1]);
        expect(keys.filter((key) => withBroken.outcome(key)?.status === "failed").length).toBe(6);
        await expect(broken[0]?.ready).rejects.toThrow();
      } finally {
        withBroken.stop();
      }
    } finally {
      setIndexCacheDir(undefined);
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }, 120_000);

  test("a screener stopped as soon as it started lets its worker load first, then stops it", async () => {
    const worker = ScreeningWorker.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold);
    if (!worker) throw new Error("no worker");
    let loaded = false;
    worker.ready.then(() => {
      loaded = true;
    });
    const screener = new QueryScreener([worker]);
    // As after an import that wrote nothing: the worker is still opening its database and index.
    await screener.stopWhenLoaded(60_000);
    expect(loaded).toBe(true);
    expect(worker.isStopped).toBe(true);
    // A worker that cannot load does not hold the stop up.
    const broken = ScreeningWorker.start("file:/nonexistent-folder/for/sure/app.db?mode=ro", undefined, 0.85);
    if (!broken) throw new Error("no worker");
    await new QueryScreener([broken]).stopWhenLoaded(60_000);
    expect(broken.isStopped).toBe(true);
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

  test("a worker of the pool that stops is dropped: the other screens its share, with the same outcomes", async () => {
    const one = ScreeningWorker.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold);
    const pool = ScreeningWorkerPool.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold, {
      workers: 2,
    });
    try {
      await pool?.ready;
      const queries: TQuery[] = Array.from({ length: 24 }, (_, i) => [
        NAMES[i % NAMES.length] as string,
        "",
        i % 2 ? "RU" : undefined,
      ]);
      const alone = await one?.screen(queries);
      // One worker dies (as a crash would leave it): the batch still comes back whole and right.
      (pool as unknown as { workers: ScreeningWorker[] }).workers[0]?.stop();
      expect(await pool?.screen(queries)).toEqual(alone ?? []);
      expect(pool?.size).toBe(1);
      expect(await pool?.screen(queries.slice(0, 5))).toEqual((alone ?? []).slice(0, 5));
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

  test("a contact the file names twice is recorded once, as it ends up, not at its first row", async () => {
    const worker = ScreeningWorker.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold);
    const lines = [
      HEADER,
      "Mahan Airlines,Customer,D-1,Old Street 1,Hamburg,DE,Ann,+1 555,a@x.example",
      "Harbor Timber Ltd,Customer,D-2,1 Quay,Hamburg,DE,Ann,+1 555,b@x.example",
      "Mahan Airlines,Customer,D-1,Azadegan Street,Tehran,IR,Ann,+1 555,a@x.example",
      "Atlas Pacific Freight GmbH,Customer,D-3,2 Quay,Bremen,DE,Ann,+1 555,c@x.example",
    ];
    const { ids, report, screened } = await importScreeningWhileImporting([worker], undefined, lines);
    expect(report).toMatchObject({ created: 3, updated: 1 });
    // The two contacts named once were recorded while importing; the repeated one was left pending.
    expect(screened).toBe(2);
    const services = createServices(ctx.env, createLogger("silent"), ctx.database.db);
    const job = new RescreenJob(
      { db: ctx.database.db, registry: services.screening.registry, threshold: services.screening.threshold },
      createLogger("silent"),
    );
    expect(await job.run(ids, "contact import", undefined, { pendingOnly: true })).toMatchObject({
      done: 1,
      failed: 0,
    });
    const after = await recorded(ids);
    expect(after.results.map((r) => r.length)).toEqual([1, 1, 1]);
    expect(after.audit.map((a) => a.map((row) => row.kind))).toEqual([["screen"], ["screen"], ["screen"]]);
    expect(after.results[0]?.[0]?.address).toContain("Tehran");
    expect(after.results[0]?.[0]?.status).toBe("failed");
  }, 120_000);

  test("a job whose worker stops after starting screens the rest on this thread, nothing failed", async () => {
    const owner = await signUp(ctx);
    await importContacts(ctx.database.db, { workspaceId: owner.user.workspace_id, userId: owner.user.id }, [
      sampleRows().join("\n"),
    ]);
    const ids = await staleContactIds(ctx.database.db, owner.user.workspace_id);
    const services = createServices(ctx.env, createLogger("silent"), ctx.database.db);
    const worker = ScreeningWorker.start(ctx.env.databaseUrl, undefined, ctx.env.screeningThreshold);
    await worker?.ready;
    // Started and ready, then gone (as a crash mid-run leaves it): every chunk it held is refused.
    worker?.stop();
    const job = new RescreenJob(
      { db: ctx.database.db, registry: services.screening.registry, threshold: services.screening.threshold },
      createLogger("silent"),
    );
    const state = await job.run(ids, "contact import", undefined, { worker: worker ?? undefined });
    expect(state).toMatchObject({ total: 60, done: 60, failed: 0 });
    const pending = await ctx.database.db.all<{ n: number }>(
      sql`select count(*) as n from contacts where workspace_id = ${owner.user.workspace_id} and screening_pending = 1`,
    );
    expect(pending[0]?.n).toBe(0);
  }, 120_000);

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
