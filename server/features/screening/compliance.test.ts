import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import {
  isReviewDue,
  REVIEW_DATE_ONLY_PASSED,
  type TContactScreening,
  type TScreeningHistoryEntry,
} from "../../../db/contracts/screening";
import { rpscreenings, screening_audit_log } from "../../../db/schema";
import { createLogger } from "../../lib/logger";
import { createServices } from "../../services";
import { buildContact, call, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { diffEntries, explainChange, parseListFiles, storeList } from "./lists.service";
import { allContactIds, RescreenJob } from "./rescreen";

let ctx: TTestContext;
let who: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  ctx = await createTestContext();
  who = await signUp(ctx);
});
afterAll(() => ctx.database.close());

const createContact = async (context: TTestContext, as: typeof who, overrides: Record<string, unknown>) => {
  const res = await call(context, as.auth, "POST", "/api/contacts", buildContact(overrides));
  expect(res.status).toBe(201);
  return ((await res.json()) as { item: { id: number } }).item;
};
const trade = async (context: TTestContext, as: typeof who, contactId: number) => {
  const res = await call(context, as.auth, "GET", `/api/screenings/trade?itemId=${contactId}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { item: TContactScreening }).item;
};
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("whitelisting with a review date", () => {
  test("review is due from the review date on, not before", () => {
    expect(isReviewDue(null, "2026-11-22")).toBe(false);
    expect(isReviewDue("2026-11-23", "2026-11-22")).toBe(false);
    expect(isReviewDue("2026-11-22", "2026-11-22")).toBe(true);
    expect(isReviewDue("2026-05-01", "2026-11-22")).toBe(true);
  });

  test("an override to passed keeps its review date; past it the screening shows in the review-due filter, still passed", async () => {
    const contact = await createContact(ctx, who, { company: "Rosoboroneksport OAO" });
    const first = await trade(ctx, who, contact.id);
    expect(first.status).toBe("failed");
    const reviewDate = dayFromToday(30);
    const res = await call(ctx, who.auth, "POST", "/api/screenings/override", {
      id: first.id,
      status: "passed",
      note: "Different company, checked the registry",
      review_date: reviewDate,
    });
    expect(res.status).toBe(200);
    const override = (await res.json()) as TContactScreening;
    expect(override).toMatchObject({ status: "passed", review_date: reviewDate, override_of_id: first.id });
    expect((await trade(ctx, who, contact.id)).review_date).toBe(reviewDate);

    const due = async () => {
      const list = await call(ctx, who.auth, "GET", "/api/screenings?filters[review_due]=1");
      expect(list.status).toBe(200);
      return ((await list.json()) as { data: { contact_id: number; status: string; review_date: string }[] })
        .data;
    };
    expect((await due()).map((r) => r.contact_id)).not.toContain(contact.id);
    // The review date passes (the database's clock cannot be moved, so the date is).
    const yesterday = dayFromToday(-1);
    await ctx.database.db
      .update(rpscreenings)
      .set({ review_date: yesterday })
      .where(eq(rpscreenings.contact_id, contact.id));
    const rows = await due();
    expect(rows.find((r) => r.contact_id === contact.id)).toMatchObject({
      status: "passed",
      review_date: yesterday,
    });
    const notDue = await call(ctx, who.auth, "GET", "/api/screenings?filters[review_due]=0");
    const notDueRows = ((await notDue.json()) as { data: { contact_id: number }[] }).data;
    expect(notDueRows.map((r) => r.contact_id)).not.toContain(contact.id);
  });

  test("a review date must be a future day and only goes with PASSED", async () => {
    const contact = await createContact(ctx, who, { company: "Rosoboronexport" });
    const result = await trade(ctx, who, contact.id);
    const attempt = async (body: Record<string, unknown>) => {
      const res = await call(ctx, who.auth, "POST", "/api/screenings/override", {
        id: result.id,
        status: "passed",
        note: "why",
        ...body,
      });
      return { status: res.status, text: await res.text() };
    };
    expect(await attempt({ review_date: dayFromToday(0) })).toMatchObject({ status: 422 });
    expect((await attempt({ review_date: dayFromToday(-3) })).text).toContain("must be after today");
    expect((await attempt({ review_date: "2027-02-30" })).text).toContain("must be a date");
    const failed = await attempt({ status: "failed", review_date: dayFromToday(10) });
    expect(failed.status).toBe(422);
    expect(failed.text).toContain(REVIEW_DATE_ONLY_PASSED);
    // Nothing was written by the refused attempts.
    expect((await trade(ctx, who, contact.id)).id).toBe(result.id);
    // An empty review date is no review date.
    expect(await attempt({ review_date: "" })).toMatchObject({ status: 200 });
  });
});

describe("screening history per contact", () => {
  test("every screening and override, newest first, with who, why and the lists; another workspace gets 404", async () => {
    const contact = await createContact(ctx, who, { company: "Rosoboroneksport" });
    const first = await trade(ctx, who, contact.id);
    const reviewDate = dayFromToday(90);
    await call(ctx, who.auth, "POST", "/api/screenings/override", {
      id: first.id,
      status: "passed",
      note: "Cleared by counsel",
      review_date: reviewDate,
    });
    const renamed = await call(ctx, who.auth, "PUT", `/api/contacts/${contact.id}`, {
      ...buildContact({ company: "Rosoboroneksport Trading" }),
      id: contact.id,
    });
    expect(renamed.status).toBe(200);

    const res = await call(ctx, who.auth, "GET", `/api/screenings/contact/${contact.id}/history`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      contact: { id: number; company: string };
      current: TContactScreening;
      data: TScreeningHistoryEntry[];
    };
    expect(body.contact).toEqual({ id: contact.id, company: "Rosoboroneksport Trading" });
    expect(body.data.map((e) => e.kind)).toEqual(["screen", "override", "screen"]);
    const ids = body.data.map((e) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const [renamedScreen, override, original] = body.data;
    expect(renamedScreen).toMatchObject({ name: "Rosoboroneksport Trading", outcome: "failed" });
    expect(override).toMatchObject({
      outcome: "passed",
      previous_status: "failed",
      note: "Cleared by counsel",
      review_date: reviewDate,
      user: who.email.toLowerCase(),
    });
    expect(original.best_match).toMatchObject({ name: "ROSOBORONEKSPORT OAO", source_list: "OFAC SDN" });
    expect(original.lists.map((l) => l.source)).toContain("OFAC SDN");
    expect(body.current.status).toBe("failed");

    const stranger = await signUp(ctx);
    const foreign = await call(ctx, stranger.auth, "GET", `/api/screenings/contact/${contact.id}/history`);
    expect(foreign.status).toBe(404);
    const missing = await call(ctx, who.auth, "GET", "/api/screenings/contact/99999999/history");
    expect(missing.status).toBe(404);
  });
});

const CSL_HEADER =
  "_id,source,entity_number,type,programs,name,title,addresses,federal_register_notice,start_date,end_date,standard_order,license_requirement,license_policy,call_sign,vessel_type,gross_tonnage,gross_registered_tonnage,vessel_flag,vessel_owner,remarks,source_list_url,alt_names,citizenships,dates_of_birth,nationalities,places_of_birth,source_information_url,ids";
const cslRow = (id: string, name: string, aliases = "") =>
  `${id},Entity List (EL) - Bureau of Industry and Security,,Entity,,${name},,"1 Harbour Road, Hong Kong",,2026-10-01,,,,,,,,,,,,,${aliases},,,,,,`;
const cslFile = (...rows: string[]) =>
  parseListFiles("csl", [
    { name: "consolidated.csv", bytes: new TextEncoder().encode(`${CSL_HEADER}\n${rows.join("\n")}\n`) },
  ]);

describe("delta screening after a list re-import", () => {
  test("diffEntries finds new, removed and re-aliased entries", () => {
    const e = (id: string, name: string, aliases: string[] = []) => ({
      sourceList: "L",
      sourceId: id,
      name,
      aliases,
    });
    const delta = diffEntries(
      [e("1", "A"), e("2", "B", ["B2"]), e("3", "C")],
      [e("2", "B", ["B3"]), e("3", "C"), e("4", "D")],
    );
    expect([...delta.added.values()]).toEqual(["D"]);
    expect([...delta.removed.values()]).toEqual(["A"]);
    expect([...delta.aliases.values()]).toEqual([{ name: "B", added: ["B3"], removed: ["B2"] }]);
  });

  test("each changed outcome says why: new entry, changed alias, removed entry — in the audit log and on the screenings list", async () => {
    const isolated = await createTestContext();
    const owner = await signUp(isolated);
    const listed = await createContact(isolated, owner, { company: "Brand New Sanctioned Trading Ltd" });
    const aliased = await createContact(isolated, owner, { company: "Quiet Harbour Shipping Ltd" });
    expect((await trade(isolated, owner, listed.id)).status).toBe("passed");
    expect((await trade(isolated, owner, aliased.id)).status).toBe("passed");
    const services = createServices(isolated.env, createLogger("silent"), isolated.database.db);
    const deps = { db: isolated.database.db, registry: services.screening.registry, threshold: 0.85 };

    const importVersion = async (...rows: string[]) => {
      const stored = await storeList(isolated.database.db, "csl", cslFile(...rows), "consolidated.csv");
      await services.screening.registry.rebuild();
      const job = new RescreenJob(deps, createLogger("silent"));
      await job.run(await allContactIds(isolated.database.db), "list import", undefined, {
        changeReason: explainChange(stored.delta),
      });
      return job.changes;
    };

    // Version 1: a new entry lists the first company.
    const v1 = await importVersion(
      cslRow("x1", "Brand New Sanctioned Trading Ltd"),
      cslRow("x2", "Unrelated Widgets Corp"),
    );
    expect(v1).toHaveLength(1);
    expect(v1[0]).toMatchObject({ contact_id: listed.id, previous: "passed", status: "failed" });
    expect(v1[0]?.reason).toContain("new entry: Brand New Sanctioned Trading Ltd");

    // Version 2: the second entry gains an alias that is the other contact's name.
    const v2 = await importVersion(
      cslRow("x1", "Brand New Sanctioned Trading Ltd"),
      cslRow("x2", "Unrelated Widgets Corp", "Quiet Harbour Shipping Ltd"),
    );
    expect(v2).toHaveLength(1);
    expect(v2[0]).toMatchObject({ contact_id: aliased.id, status: "failed" });
    expect(v2[0]?.reason).toContain("changed alias: Unrelated Widgets Corp");
    expect(v2[0]?.reason).toContain('now also "Quiet Harbour Shipping Ltd"');

    // Version 3: the first entry is removed.
    const v3 = await importVersion(cslRow("x2", "Unrelated Widgets Corp", "Quiet Harbour Shipping Ltd"));
    expect(v3).toHaveLength(1);
    expect(v3[0]).toMatchObject({ contact_id: listed.id, previous: "failed", status: "passed" });
    expect(v3[0]?.reason).toContain("removed entry: Brand New Sanctioned Trading Ltd");

    // The audit log keeps each reason with the re-screen that changed the outcome.
    const audit = await isolated.database.db
      .select()
      .from(screening_audit_log)
      .where(eq(screening_audit_log.contact_id, listed.id));
    const reasons = audit.filter((a) => a.kind === "rescreen" && a.note).map((a) => a.note);
    expect(reasons).toHaveLength(2);
    // The screenings screen's feed of changes: newest first, with the reason.
    const res = await call(isolated, owner.auth, "GET", "/api/screenings/changes");
    expect(res.status).toBe(200);
    const changes = ((await res.json()) as { data: TScreeningHistoryEntry[] }).data;
    expect(changes.map((c) => [c.contact_id, c.outcome])).toEqual([
      [listed.id, "passed"],
      [aliased.id, "failed"],
      [listed.id, "failed"],
    ]);
    expect(changes[0]?.note).toContain("removed entry");
    // The flagged row in the screenings list carries the reason too.
    const [row] = await isolated.database.db
      .select()
      .from(rpscreenings)
      .where(eq(rpscreenings.contact_id, listed.id));
    expect(row).toMatchObject({ is_changed: true, status: "passed" });
    expect((row?.results as { change_reason?: string } | undefined)?.change_reason).toContain(
      "removed entry",
    );
    // Another workspace sees none of it.
    const stranger = await signUp(isolated);
    const foreign = await call(isolated, stranger.auth, "GET", "/api/screenings/changes");
    expect(((await foreign.json()) as { data: unknown[] }).data).toEqual([]);
    isolated.database.close();
    // Three list versions mean three index builds over the whole lists.
  }, 300_000);
});
