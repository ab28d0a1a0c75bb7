import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, count, eq, sql } from "drizzle-orm";
import { openDatabase } from "../../../db/client";
import { contact_screening_results, contacts, rpscreenings } from "../../../db/schema";
import { buildContact, call, signUp } from "../../test/factories";
import { appOver, createTestContext, type TTestContext } from "../../test/setup";
import { emptyReport, importContacts } from "./contact-import";
import { importInChild } from "./contact-import-child";
import { bigFile, contactsOf, HEADER, uploadLikeInProcess, uploadTo } from "./upload-test-kit";

const SELF = [process.execPath, path.resolve(import.meta.dir, "../../main.ts")];

let ctx: TTestContext;
/** The app as the server builds it: big uploads import in a child process. */
let app: TTestContext["app"];
beforeAll(async () => {
  ctx = await createTestContext();
  app = appOver(ctx, { self: SELF });
});
afterAll(() => ctx.database.close());

/** A listed party (OFAC SDN, in the bundled lists): its contact must come out failed. */
const LISTED = "Banco Nacional de Cuba";

/** A file with the listed party first and, last, the first company again with its phone changed. */
function fileWith(prefix: string, repeats = false) {
  const { text } = bigFile(prefix, {
    repeats,
    first: [`${LISTED},Customer,${prefix}-LISTED,Ana,+53 7 1,ana@bnc.example,Cuba,no,`],
  });
  return `${text}\n${prefix} Trading 0,Customer,${prefix}-0,Ann 0,+1 555 999,a0@x.example,DE,no,`;
}

/**
 * A stand-in for the upload's child (the real one imports in the other tests): it reads the file as
 * the child does, says started, waits `beforeReady` ms, says ready, waits for "go", prints `noise`,
 * waits `hold` ms and answers with an empty report.
 */
function fakeChild(options: { beforeReady: number; hold: number; noise?: string[] }) {
  const report = emptyReport();
  return [
    process.execPath,
    "-e",
    `const say = (m) => console.log(typeof m === "string" ? m : JSON.stringify(m));
     say({ type: "started" });
     const reader = Bun.stdin.stream().getReader();
     let text = "";
     await Bun.sleep(${options.beforeReady});
     say({ type: "ready" });
     while (!text.endsWith("go\\n")) {
       const { done, value } = await reader.read();
       if (done) break;
       text += new TextDecoder().decode(value);
     }
     for (const line of ${JSON.stringify(options.noise ?? [])}) say(line);
     await Bun.sleep(${options.hold});
     say({ type: "done", report: ${JSON.stringify(report)} });`,
  ];
}

const countIn = async (workspaceId: number, filter = sql`1`) =>
  (
    await ctx.database.db.all<{ n: number }>(
      sql`select count(*) as n from contacts where workspace_id = ${workspaceId} and ${filter}`,
    )
  )[0]?.n;
const rowsOf = async (table: typeof rpscreenings | typeof contact_screening_results, workspaceId: number) =>
  (await ctx.database.db.select({ n: count() }).from(table).where(eq(table.workspace_id, workspaceId)))[0]?.n;

describe("a big web upload imports in a child process, screening every new contact", () => {
  test("the child imports what this process imports, and screens each new contact once, in the import", async () => {
    const { report, workspaceId: ws } = await uploadLikeInProcess(ctx, app, fileWith("CH"));
    expect(report.rejected).toBeGreaterThan(0);
    expect(report.updated).toBe(1);
    // Screened while importing: not one contact is left pending (the in-process import leaves every
    // one pending for the screening after it), and each has exactly one result, one audit row and
    // one screenings-list row.
    const created = await countIn(ws);
    expect(created).toBe(report.created);
    expect(await countIn(ws, sql`screening_pending = 1`)).toBe(0);
    expect(await rowsOf(contact_screening_results, ws)).toBe(created);
    expect(await rowsOf(rpscreenings, ws)).toBe(created);
    const [{ audited }] = await ctx.database.db.all<{ audited: number }>(
      sql`select count(*) as audited from screening_audit_log where workspace_id = ${ws} and kind = 'screen'`,
    );
    expect(audited).toBe(created);
    const [listed] = await ctx.database.db
      .select({ outcome: contacts.screening_outcome })
      .from(contacts)
      .where(and(eq(contacts.workspace_id, ws), eq(contacts.company, LISTED)));
    expect(listed?.outcome).toBe("failed");
    expect(await countIn(ws, sql`screening_outcome = 'failed'`)).toBe(1);
  }, 120_000);

  test("a file that changes contacts it created itself: the same report and contacts, every contact screened after", async () => {
    const { report, workspaceId: ws } = await uploadLikeInProcess(ctx, app, fileWith("REP", true));
    expect(report.updated).toBeGreaterThan(1000);
    // Contacts a later row changed are left pending by the import, and the server's screening of
    // the upload screens them after it (as for an upload imported in the server): none is missed.
    for (let waited = 0; waited < 30_000 && (await countIn(ws, sql`screening_pending = 1`)); waited += 100)
      await Bun.sleep(100);
    expect(await countIn(ws, sql`screening_pending = 1`)).toBe(0);
    expect(await rowsOf(rpscreenings, ws)).toBe(await countIn(ws));
  }, 120_000);

  test("small files, in-memory databases and a program that cannot start are left to this process (null)", async () => {
    const bytes = new TextEncoder().encode(fileWith("NUL"));
    const who = await signUp(ctx);
    const target = { workspaceId: who.user.workspace_id, userId: who.user.id };
    const db = ctx.database.db;
    expect(await importInChild(db, SELF, ctx.env, target, bytes.subarray(0, 1000))).toBeNull();
    expect(await importInChild(db, SELF, { ...ctx.env, databaseUrl: ":memory:" }, target, bytes)).toBeNull();
    expect(await importInChild(db, undefined, ctx.env, target, bytes)).toBeNull();
    expect(await importInChild(db, ["/nonexistent/tradewinds"], ctx.env, target, bytes)).toBeNull();
    // A child that starts but never gets to import (here: a script that exits at once) is no import.
    const exits = [process.execPath, "-e", "process.exit(0)"];
    expect(await importInChild(db, exits, ctx.env, target, bytes)).toBeNull();
    expect(await contactsOf(ctx, who.user.workspace_id)).toEqual([]);
  }, 60_000);

  test("a child that stops mid-import is the import's failure, not a silent success", async () => {
    const who = await signUp(ctx);
    const bytes = new TextEncoder().encode(fileWith("DIE"));
    const dies = [
      process.execPath,
      "-e",
      `console.log(JSON.stringify({ type: "started" })); console.error("out of memory"); process.exit(3)`,
    ];
    const target = { workspaceId: who.user.workspace_id, userId: who.user.id };
    await expect(importInChild(ctx.database.db, dies, ctx.env, target, bytes)).rejects.toThrow(
      "the import process stopped (exit 3): out of memory",
    );
  }, 60_000);

  test("a file the child refuses is a 422 with the reason, and nothing is imported or screened", async () => {
    const who = await signUp(ctx);
    // A binary byte far into the file: refused whole after many rows were written in the transaction.
    const broken = `${fileWith("BAD")}\nEvil Co,Customer,E1,Al,1,al@evil.example,DE,no,\u0000`;
    const res = await uploadTo(app, who, broken);
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain("binary data");
    expect(await contactsOf(ctx, who.user.workspace_id)).toEqual([]);
    expect(await rowsOf(contact_screening_results, who.user.workspace_id)).toBe(0);
  }, 60_000);

  test("the child's commit leaves the log's copy into the database file for after its answer", async () => {
    // A copy of the database that nothing else has open: a reader elsewhere (this file's app builds
    // its screening index in the background) would hold back any checkpoint.
    const who = await signUp(ctx);
    const target = { workspaceId: who.user.workspace_id, userId: who.user.id };
    await ctx.database.client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    const dir = mkdtempSync(path.join(tmpdir(), "tradewinds-wal-"));
    const file = path.join(dir, "app.db");
    copyFileSync(path.join(ctx.dataDir, "app.db"), file);
    // The file's bytes (its size may not change: new pages can reuse free ones).
    const contentOf = () => Bun.hash(readFileSync(file));
    // Thousands of pages of new contacts: SQLite copies the log into the file when a commit leaves
    // more than 1,000 pages in it, unless told to leave it, as the child does (it checkpoints once
    // the server has its answer, and its connections end with it).
    const many = (prefix: string) =>
      [
        HEADER,
        ...Array.from(
          { length: 20_000 },
          (_, i) => `${prefix} Co ${i},Customer,${prefix}${i},A,1,a@x.example,DE,no,`,
        ),
      ].join("\n");
    try {
      const before = contentOf();
      const deferring = await openDatabase(`file:${file}`);
      await importContacts(deferring.db, target, [many("WAL")], { deferCheckpoint: true });
      expect(contentOf()).toBe(before);
      await deferring.client.execute("PRAGMA wal_checkpoint(PASSIVE)");
      deferring.close();
      const copied = contentOf();
      expect(copied).not.toBe(before);
      // Without the option, the commit itself copies it.
      const plain = await openDatabase(`file:${file}`);
      await importContacts(plain.db, target, [many("ALSO")]);
      expect(contentOf()).not.toBe(copied);
      plain.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test("GET /contacts/upload/progress says how far the caller's upload has got while its child imports it", async () => {
    const done = { ...emptyReport(), unchanged: 2, rows: 2 };
    // A stand-in for the child that reports progress, then takes its time before answering.
    const slow = appOver(ctx, {
      self: [
        process.execPath,
        "-e",
        `const say = (m) => console.log(JSON.stringify(m));
         say({ type: "started" }); say({ type: "progress", rows: 1234, percent: 40 });
         await Bun.sleep(1500); say({ type: "done", report: ${JSON.stringify(done)} });`,
      ],
    });
    const who = await signUp(ctx);
    const other = await signUp(ctx);
    const progressOf = async (auth: Record<string, string>) => {
      const res = await slow.request("/api/contacts/upload/progress", { headers: auth });
      return { status: res.status, body: await res.json() };
    };
    expect(await progressOf(who.auth)).toEqual({ status: 200, body: { rows: null, percent: null } });
    const uploading = uploadTo(slow, who, fileWith("PRG"));
    let seen: unknown = null;
    for (let waited = 0; waited < 1200 && !seen; waited += 50) {
      await Bun.sleep(50);
      const { body } = await progressOf(who.auth);
      if (body.rows !== null) seen = body;
    }
    expect(seen).toEqual({ rows: 1234, percent: 40 });
    // Another user's progress is their own.
    expect((await progressOf(other.auth)).body).toEqual({ rows: null, percent: null });
    const answered = await uploading;
    expect(answered.status).toBe(200);
    expect(answered.body.unchanged).toBe(2);
    expect(await progressOf(who.auth)).toEqual({ status: 200, body: { rows: null, percent: null } });
    expect((await slow.request("/api/contacts/upload/progress")).status).toBe(401);
  }, 60_000);

  test("this process's writes go ahead until the child is ready to import, then wait for its answer", async () => {
    // A stand-in child: started, 1.5 s before it is ready, then it waits for "go" and holds the
    // lock 1.5 s before it answers.
    const held = appOver(ctx, { self: fakeChild({ beforeReady: 1500, hold: 1500 }) });
    const who = await signUp(ctx);
    const order: string[] = [];
    const create = (company: string) =>
      Promise.resolve(call(ctx, who.auth, "POST", "/api/contacts", buildContact({ company }))).then((res) => {
        order.push(`${company} ${res.status}`);
      });
    const uploading = uploadTo(held, who, fileWith("ORD")).then((res) => {
      order.push(`upload ${res.status}`);
    });
    await Bun.sleep(300);
    const early = create("Early Co");
    await Bun.sleep(1800);
    const late = create("Late Co");
    await Promise.all([uploading, early, late]);
    expect(order).toEqual(["Early Co 201", "upload 200", "Late Co 201"]);
  }, 60_000);

  test("a child that says nothing useful is stopped at the deadline, and this process's writes go on", async () => {
    const who = await signUp(ctx);
    const target = { workspaceId: who.user.workspace_id, userId: who.user.id };
    const bytes = new TextEncoder().encode(fileWith("HANG"));
    // Lines that are not answers (JSON that is not a message among them), then silence.
    const hangs = fakeChild({
      beforeReady: 0,
      hold: 60_000,
      noise: ["null", "42", "{}", '{"type":"nope"}', "not json"],
    });
    const started = performance.now();
    await expect(
      importInChild(ctx.database.db, hangs, ctx.env, target, bytes, undefined, 1500),
    ).rejects.toThrow("the import did not finish within");
    expect(performance.now() - started).toBeLessThan(30_000);
    // The lock it took at "ready" is free again.
    const res = await call(ctx, who.auth, "POST", "/api/contacts", buildContact({ company: "After Co" }));
    expect(res.status).toBe(201);
  }, 60_000);
});
