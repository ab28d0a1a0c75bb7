import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, inArray, sql } from "drizzle-orm";
import { contact_screening_results, rpscreenings, screening_audit_log } from "../../../db/schema";
import { createLogger } from "../../lib/logger";
import { createServices } from "../../services";
import { buildContact, call, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { importContacts } from "../contacts/contact-import";
import { RescreenJob, staleContactIds } from "./rescreen";

let ctx: TTestContext;
let who: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  ctx = await createTestContext();
  who = await signUp(ctx);
});
afterAll(() => ctx.database.close());

const depsOf = (services: ReturnType<typeof createServices>) => ({
  db: ctx.database.db,
  registry: services.screening.registry,
  threshold: services.screening.threshold,
});

const HEADER = "Company,Partner Type,Tax ID,Country,Contact,Phone,Email";

describe("screening imported contacts in chunks", () => {
  test("every imported contact gets one result, one audit row and one screenings-list row", async () => {
    // 1,100 rows: more than two chunks, with names repeated (shared work) and one listed party.
    const lines = [HEADER];
    for (let i = 0; i < 1100; i++) {
      const company = i === 777 ? "Rosoboroneksport OAO" : `Harbor Timber ${i % 7} Ltd`;
      lines.push(`${company},Customer,BATCH-${i},${i % 2 ? "DE" : "US"},Ann,+1 555,a${i}@x.example`);
    }
    const report = await importContacts(
      ctx.database.db,
      { workspaceId: who.user.workspace_id, userId: who.user.id },
      [lines.join("\n")],
    );
    expect(report.created).toBe(1100);
    const ids = await staleContactIds(ctx.database.db, who.user.workspace_id);
    expect(ids).toHaveLength(1100);

    const services = createServices(ctx.env, createLogger("silent"), ctx.database.db);
    const flagged: number[][] = [];
    const job = new RescreenJob(depsOf(services), createLogger("silent"), async (tx, chunk) => {
      // The hook runs inside the chunk's transaction: what it sees is what the chunk wrote.
      const [{ n }] = await tx.all<{ n: number }>(
        sql`select count(*) as n from contact_screening_results where contact_id in (select value from json_each(${JSON.stringify(chunk)}))`,
      );
      expect(n).toBe(chunk.length);
      flagged.push(chunk);
    });
    const state = await job.run(ids, "contact import");
    expect(state).toMatchObject({ total: 1100, done: 1100, failed: 0, changed: 0 });
    expect(flagged.map((c) => c.length)).toEqual([500, 500, 100]);

    const db = ctx.database.db;
    const results = await db
      .select({ contact_id: contact_screening_results.contact_id, status: contact_screening_results.status })
      .from(contact_screening_results)
      .where(inArray(contact_screening_results.contact_id, ids));
    expect(results).toHaveLength(1100);
    expect(results.filter((r) => r.status === "failed")).toHaveLength(1);
    const audit = await db
      .select({ contact_id: screening_audit_log.contact_id, kind: screening_audit_log.kind })
      .from(screening_audit_log)
      .where(inArray(screening_audit_log.contact_id, ids));
    expect(audit).toHaveLength(1100);
    expect(new Set(audit.map((a) => a.kind))).toEqual(new Set(["screen"]));
    const listed = await db.select().from(rpscreenings).where(inArray(rpscreenings.contact_id, ids));
    expect(listed).toHaveLength(1100);
    const failed = listed.find((r) => r.status === "failed");
    expect(failed?.name).toBe("Rosoboroneksport OAO");
    const best = (failed?.results as { matches: { name: string; source_list: string }[] } | undefined)
      ?.matches[0];
    expect(best).toMatchObject({ name: "ROSOBORONEKSPORT OAO", source_list: "OFAC SDN" });
    // Nothing is stale any more.
    expect(await staleContactIds(db, who.user.workspace_id)).toEqual([]);
  });

  test("a batch gives each contact the outcome a single screening gives it", async () => {
    const single = await call(
      ctx,
      who.auth,
      "POST",
      "/api/contacts",
      buildContact({ company: "Rosoboronexport", country_id: null }),
    );
    const { item } = (await single.json()) as { item: { id: number } };
    const [one] = await ctx.database.db
      .select()
      .from(contact_screening_results)
      .where(eq(contact_screening_results.contact_id, item.id));
    const services = createServices(ctx.env, createLogger("silent"), ctx.database.db);
    const job = new RescreenJob(depsOf(services), createLogger("silent"));
    await job.run([item.id], "again");
    const rows = await ctx.database.db
      .select()
      .from(contact_screening_results)
      .where(eq(contact_screening_results.contact_id, item.id));
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ status: one.status, best_score: one.best_score, matches: one.matches });
    const [audit] = await ctx.database.db
      .select()
      .from(screening_audit_log)
      .where(eq(screening_audit_log.contact_id, item.id))
      .orderBy(sql`id desc`)
      .limit(1);
    expect(audit).toMatchObject({ kind: "rescreen", outcome: "failed", previous_status: "failed" });
  });
});
