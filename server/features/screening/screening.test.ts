import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { SEARCH_FILL_ONE, type TContactScreening } from "../../../db/contracts/screening";
import { contact_screening_results, rpscreenings, screening_audit_log } from "../../../db/schema";
import { createLogger } from "../../lib/logger";
import { createServices } from "../../services";
import { buildContact, call, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { listAgeDays, listFreshness } from "./list-freshness";
import { activeLists, parseListFiles, storeList } from "./lists.service";
import { allContactIds, RescreenJob } from "./rescreen";

let ctx: TTestContext;
let who: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  ctx = await createTestContext();
  who = await signUp(ctx);
});
afterAll(() => ctx.database.close());

type TScreeningAnswer = { item: TContactScreening; lists: { source: string; version_date: string }[] };

const createContact = async (overrides: Record<string, unknown>, as = who) => {
  const res = await call(ctx, as.auth, "POST", "/api/contacts", buildContact(overrides));
  expect(res.status).toBe(201);
  return ((await res.json()) as { item: { id: number } }).item;
};
const trade = async (contactId: number, as = who) => {
  const res = await call(ctx, as.auth, "GET", `/api/screenings/trade?itemId=${contactId}`);
  return { status: res.status, body: (await res.json()) as TScreeningAnswer };
};

describe("screening contacts", () => {
  test("a new contact is screened: a listed party fails with the matching entry, list and score", async () => {
    const contact = await createContact({ company: "Rosoboroneksport OAO" });
    const { status, body } = await trade(contact.id);
    expect(status).toBe(200);
    const result = body.item;
    expect(result).toMatchObject({ contact_id: contact.id, status: "failed", name: "Rosoboroneksport OAO" });
    expect(typeof result.id).toBe("number");
    expect(typeof result.multiple).toBe("boolean");
    expect(result.address).toBe("");
    expect(result.best_score).toBeGreaterThanOrEqual(0.85);
    expect(result.matches[0]).toMatchObject({ source_list: "OFAC SDN", name: "ROSOBORONEKSPORT OAO" });
    expect(body.lists.map((l) => l.source).sort()).toEqual(["BIS DPL", "CSL", "OFAC SDN"]);
    expect(result.lists.find((l) => l.source === "OFAC SDN")?.version_date).toBe("2026-08-20");
  });

  test("an ordinary company passes; generic words alone do not match", async () => {
    for (const company of [
      "Sunrise Dental Supplies Inc",
      "General Trading Company",
      "Global Industrial Services LLC",
    ]) {
      const contact = await createContact({ company });
      expect((await trade(contact.id)).body.item.status, company).toBe("passed");
    }
  });

  test("a contact named in Arabic or Chinese script fails on the listed party, and says how it was read", async () => {
    for (const [company, script, listed] of [
      ["فلاديمير بوتين", "Arabic → Latin", "PUTIN, Vladimir Vladimirovich"],
      ["金正恩", "Chinese characters → Korean reading → Latin", "KIM, Jong Un"],
    ] as const) {
      const contact = await createContact({ company });
      const result = (await trade(contact.id)).body.item;
      expect(result.status, company).toBe("failed");
      expect(result.matches[0]?.name, company).toBe(listed);
      expect(result.matches[0]?.matched_name, company).toContain(script);
    }
    // Another person written in the same script passes.
    const other = await createContact({ company: "فلاديمير بوبوف" });
    expect((await trade(other.id)).body.item.status).toBe("passed");
  });

  test("a famous company written with its legal form does not fail on a one-word look-alike", async () => {
    for (const company of ["Apple Inc.", "Shell plc", "The Boeing Company", "Microsoft Corporation"]) {
      const contact = await createContact({ company });
      expect((await trade(contact.id)).body.item.status, company).toBe("passed");
    }
  });

  test("a typo and a dropped legal form still fail", async () => {
    const contact = await createContact({ company: "Rosoboronexport" });
    expect((await trade(contact.id)).body.item.status).toBe("failed");
  });

  test("changing the name re-screens; changing a phone number does not", async () => {
    const contact = await createContact({ company: "Harmless Widgets Ltd" });
    const first = (await trade(contact.id)).body.item;
    expect(first.status).toBe("passed");
    await call(
      ctx,
      who.auth,
      "PUT",
      `/api/contacts/${contact.id}`,
      buildContact({ company: "Harmless Widgets Ltd", phone_1: "+1 555 9999" }),
    );
    expect((await trade(contact.id)).body.item.id).toBe(first.id);
    await call(
      ctx,
      who.auth,
      "PUT",
      `/api/contacts/${contact.id}`,
      buildContact({ company: "Rosoboroneksport" }),
    );
    const second = (await trade(contact.id)).body.item;
    expect(second.id).not.toBe(first.id);
    expect(second.status).toBe("failed");
  });

  test("a contact with no result yet is screened on demand", async () => {
    const contact = await createContact({ company: "On Demand GmbH" });
    await ctx.database.client.execute({
      sql: "delete from rpscreenings where contact_id = ?",
      args: [contact.id],
    });
    // Results cannot be deleted through the API; simulate a contact from before screening existed.
    const before = await ctx.database.db
      .select()
      .from(contact_screening_results)
      .where(eq(contact_screening_results.contact_id, contact.id));
    expect(before.length).toBe(1);
    const { body } = await trade(contact.id);
    expect(body.item.contact_id).toBe(contact.id);
  });

  test("another workspace's contact is a 404; bad itemId is a 422", async () => {
    const contact = await createContact({ company: "Private Partner SA" });
    const other = await signUp(ctx);
    expect((await trade(contact.id, other)).status).toBe(404);
    expect((await call(ctx, who.auth, "GET", "/api/screenings/trade?itemId=abc")).status).toBe(422);
    const theirList = (await (await call(ctx, other.auth, "GET", "/api/screenings")).json()) as {
      total: number;
    };
    expect(theirList.total).toBe(0);
  });
});

describe("overrides and the audit trail", () => {
  test("an override with a note is a new result pointing at the old one; the old one is unchanged", async () => {
    const contact = await createContact({ company: "Rosoboroneksport" });
    const original = (await trade(contact.id)).body.item;
    const res = await call(
      ctx,
      who.auth,
      "GET",
      `/api/screenings/override?id=${original.id}&status=passed&note=${encodeURIComponent("Different entity: Russian sister company checked by counsel")}`,
    );
    expect(res.status).toBe(200);
    const override = (await res.json()) as TContactScreening;
    expect(override).toMatchObject({
      status: "passed",
      override_of_id: original.id,
      user_id: who.user.id,
      contact_id: contact.id,
    });
    expect(override.note).toContain("counsel");
    expect((await trade(contact.id)).body.item.id).toBe(override.id);
    const [old] = await ctx.database.db
      .select()
      .from(contact_screening_results)
      .where(eq(contact_screening_results.id, original.id));
    expect(old.status).toBe("failed");
    const log = await ctx.database.db
      .select()
      .from(screening_audit_log)
      .where(eq(screening_audit_log.kind, "override"));
    expect(log.at(-1)).toMatchObject({
      outcome: "passed",
      previous_status: "failed",
      user_email: who.email,
      contact_id: contact.id,
    });
    const [row] = await ctx.database.db
      .select()
      .from(rpscreenings)
      .where(eq(rpscreenings.contact_id, contact.id));
    expect(row.status).toBe("passed");
  });

  test("an override needs a note, a valid status and a result of one's own", async () => {
    const contact = await createContact({ company: "Note Needed Ltd" });
    const result = (await trade(contact.id)).body.item;
    const noNote = await call(ctx, who.auth, "POST", "/api/screenings/override", {
      id: result.id,
      status: "failed",
      note: " ",
    });
    expect(noNote.status).toBe(422);
    expect(((await noNote.json()) as { errors: Record<string, string[]> }).errors.note).toEqual([
      "An override needs a note saying why.",
    ]);
    const badStatus = await call(
      ctx,
      who.auth,
      "GET",
      `/api/screenings/override?id=${result.id}&status=cleared&note=x`,
    );
    expect(badStatus.status).toBe(422);
    const other = await signUp(ctx);
    const foreign = await call(ctx, other.auth, "POST", "/api/screenings/override", {
      id: result.id,
      status: "failed",
      note: "mine now",
    });
    expect(foreign.status).toBe(404);
  });

  test("a cookie-authenticated override GET from another site is refused", async () => {
    const contact = await createContact({ company: "Csrf Target Co" });
    const result = (await trade(contact.id)).body.item;
    const res = await ctx.app.request(`/api/screenings/override?id=${result.id}&status=passed&note=x`, {
      headers: { cookie: who.cookie, "sec-fetch-site": "cross-site" },
    });
    expect(res.status).toBe(403);
  });

  test("the audit log and past results cannot be altered, by the API or in SQL", async () => {
    expect(ctx.database.client.execute("update screening_audit_log set outcome = 'passed'")).rejects.toThrow(
      "append-only",
    );
    expect(ctx.database.client.execute("delete from screening_audit_log")).rejects.toThrow("append-only");
    expect(
      ctx.database.client.execute("update contact_screening_results set status = 'passed'"),
    ).rejects.toThrow("never edited");
    for (const method of ["PUT", "DELETE", "POST"]) {
      const res = await call(
        ctx,
        who.auth,
        method,
        "/api/screenings/1",
        method === "DELETE" ? undefined : {},
      );
      expect(res.status, method).toBe(404);
    }
    const count = await ctx.database.db.select({ n: sql<number>`count(*)` }).from(screening_audit_log);
    expect(count[0].n).toBeGreaterThan(0);
  });

  test("the audit log exports as CSV", async () => {
    const res = await call(ctx, who.auth, "GET", "/api/screenings/audit");
    expect(res.headers.get("content-type")).toContain("text/csv");
    const text = await res.text();
    expect(text.split("\r\n")[0]).toBe(
      "Time,User,Kind,Contact id,Query,Lists,Top matches,Outcome,Previous status,Note",
    );
    expect(text).toContain("override");
  });
});

describe("the screenings list and its download", () => {
  test("lists entity name, date screened and status through the kit", async () => {
    const res = await call(ctx, who.auth, "GET", "/api/screenings?sort_name=asc&per_page=100");
    const { data } = (await res.json()) as {
      data: {
        id: number;
        name: string;
        status: string;
        updated_at: string;
        results: { best_score: number; lists: { source: string; version_date: string }[] };
      }[];
    };
    expect(data.length).toBeGreaterThan(3);
    expect(data[0]).toHaveProperty("updated_at");
    // Each row names the lists it was screened against (stored once per set, screening_list_sets).
    for (const row of data) {
      expect(row.results.lists.map((l) => l.source).sort()).toEqual(["BIS DPL", "CSL", "OFAC SDN"]);
      expect(row).not.toHaveProperty("list_set_id");
    }
    const one = (await (await call(ctx, who.auth, "GET", `/api/screenings/${data[0]?.id}`)).json()) as {
      item?: (typeof data)[number];
    } & Partial<(typeof data)[number]>;
    expect((one.item ?? one).results?.lists).toEqual(data[0]?.results.lists as never);
    const failed = (await (
      await call(ctx, who.auth, "GET", "/api/screenings?filters[status]=failed")
    ).json()) as { total: number };
    expect(failed.total).toBeGreaterThan(0);
  });

  test("the CSV download escapes spreadsheet formulas", async () => {
    await createContact({ company: '=HYPERLINK("http://evil","x")' });
    await createContact({ company: "+1 Cmd Corp" });
    const res = await call(ctx, who.auth, "GET", "/api/screenings/download");
    expect(res.headers.get("content-disposition")).toMatch(
      /attachment; filename="screening-results-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const text = await res.text();
    expect(text).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(text).toContain("'+1 Cmd Corp");
    expect(text).not.toMatch(/^[=+@-]/m);
  });
});

describe("free search", () => {
  test("finds a listed name typed with a typo, with score, list and programs", async () => {
    const res = await call(ctx, who.auth, "GET", "/api/screenings/find-contact?name=Rosoboronexprt");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      headers: string[];
      data: { name: string; score: number; source_list: string; programs: string[] }[];
    };
    expect(body.headers).toContain("Score");
    expect(body.data[0].name).toBe("ROSOBORONEKSPORT OAO");
    expect(body.data[0].source_list).toBe("OFAC SDN");
    expect(body.data[0].programs.length).toBeGreaterThan(0);
  });

  test("keywords split on whitespace or commas", async () => {
    const res = await call(
      ctx,
      who.auth,
      "GET",
      "/api/screenings/find-contact?keywords=rosoboroneksport,oao",
    );
    const body = (await res.json()) as { data: { name: string }[] };
    expect(body.data[0].name).toBe("ROSOBORONEKSPORT OAO");
  });

  test("validation: at least one input, each 2 to 255 characters", async () => {
    const none = await call(ctx, who.auth, "GET", "/api/screenings/find-contact");
    expect(none.status).toBe(422);
    expect(((await none.json()) as { message: string }).message).toContain(SEARCH_FILL_ONE);
    const short = await call(ctx, who.auth, "GET", "/api/screenings/find-contact?name=R");
    expect(((await short.json()) as { errors: Record<string, string[]> }).errors.name).toEqual([
      "Entity name must be 2 to 255 characters.",
    ]);
    const long = await call(ctx, who.auth, "GET", `/api/screenings/find-contact?address=${"x".repeat(256)}`);
    expect(long.status).toBe(422);
  });
});

describe("list imports", () => {
  test("a malformed file is refused before anything changes", async () => {
    const before = await activeLists(ctx.database.db);
    expect(() =>
      parseListFiles("dpl", [{ name: "dpl.txt", bytes: new TextEncoder().encode("not\ta\tdpl\n") }]),
    ).toThrow();
    expect(() => parseListFiles("csl", [{ name: "csl.csv", bytes: new Uint8Array([0, 1, 2, 3]) }])).toThrow();
    expect(await activeLists(ctx.database.db)).toEqual(before);
  });

  test("importing a newer version replaces the source's entries; a re-screen flags changed outcomes", async () => {
    const isolated = await createTestContext();
    const owner = await signUp(isolated);
    const res = await call(
      isolated,
      owner.auth,
      "POST",
      "/api/contacts",
      buildContact({ company: "Brand New Sanctioned Trading Ltd" }),
    );
    const contact = ((await res.json()) as { item: { id: number } }).item;
    const first = await call(isolated, owner.auth, "GET", `/api/screenings/trade?itemId=${contact.id}`);
    expect(((await first.json()) as TScreeningAnswer).item.status).toBe("passed");
    // A new CSL version that lists this company.
    const header =
      "_id,source,entity_number,type,programs,name,title,addresses,federal_register_notice,start_date,end_date,standard_order,license_requirement,license_policy,call_sign,vessel_type,gross_tonnage,gross_registered_tonnage,vessel_flag,vessel_owner,remarks,source_list_url,alt_names,citizenships,dates_of_birth,nationalities,places_of_birth,source_information_url,ids";
    const row =
      'x1,Entity List (EL) - Bureau of Industry and Security,,Entity,,Brand New Sanctioned Trading Ltd,,"1 Harbour Road, Hong Kong",,2026-10-01,,,,,,,,,,,,,,,,,,,';
    const parsed = parseListFiles("csl", [
      { name: "consolidated.csv", bytes: new TextEncoder().encode(`${header}\n${row}\n`) },
    ]);
    const stored = await storeList(isolated.database.db, "csl", parsed, "consolidated.csv");
    expect(stored.entries).toBe(1);
    const lists = await activeLists(isolated.database.db);
    expect(lists.filter((l) => l.source === "CSL")).toHaveLength(1);
    const services = createServices(isolated.env, createLogger("silent"), isolated.database.db);
    await services.screening.registry.rebuild();
    const job = new RescreenJob(
      { db: isolated.database.db, registry: services.screening.registry, threshold: 0.85 },
      createLogger("silent"),
    );
    const state = await job.run(await allContactIds(isolated.database.db), "list import");
    expect(state).toMatchObject({ isRunning: false, total: 1, done: 1, changed: 1, failed: 0 });
    const [row1] = await isolated.database.db
      .select()
      .from(rpscreenings)
      .where(eq(rpscreenings.contact_id, contact.id));
    expect(row1).toMatchObject({ status: "failed", is_changed: true });
    isolated.database.close();
  });
});

describe("without lists", () => {
  test("nothing is screened as passed: the call says the lists are missing", async () => {
    const empty = await createTestContext();
    await empty.database.client.execute("delete from screening_entries");
    await empty.database.client.execute("delete from screening_lists");
    const owner = await signUp(empty);
    const res = await call(
      empty,
      owner.auth,
      "POST",
      "/api/contacts",
      buildContact({ company: "Rosoboroneksport" }),
    );
    expect(res.status).toBe(201);
    const { item } = (await res.json()) as { item: { id: number } };
    const screening = await call(empty, owner.auth, "GET", `/api/screenings/trade?itemId=${item.id}`);
    expect(screening.status).toBe(409);
    expect(((await screening.json()) as { message: string }).message).toContain(
      "No restricted-party lists are loaded",
    );
    const search = await call(empty, owner.auth, "GET", "/api/screenings/find-contact?name=Rosoboroneksport");
    expect(search.status).toBe(409);
    empty.database.close();
  });
});

describe("the threshold", () => {
  test("SCREENING_THRESHOLD decides: a near match fails at 0.85 and passes when the bar is raised", async () => {
    const strict = await createTestContext({ SCREENING_THRESHOLD: "0.99" });
    const owner = await signUp(strict);
    const company = "Rosboroneksport"; // a letter missing from the listed "ROSOBORONEKSPORT OAO" (≈0.95)
    const res = await call(strict, owner.auth, "POST", "/api/contacts", buildContact({ company }));
    const { item } = (await res.json()) as { item: { id: number } };
    const answer = (await (
      await call(strict, owner.auth, "GET", `/api/screenings/trade?itemId=${item.id}`)
    ).json()) as TScreeningAnswer;
    expect(answer.item.best_score).toBeGreaterThanOrEqual(0.85);
    expect(answer.item.best_score).toBeLessThan(0.99);
    expect(answer.item.status).toBe("passed");
    const normal = await createContact({ company });
    expect((await trade(normal.id)).body.item.status).toBe("failed");
    strict.database.close();
  });
});

describe("OFAC raw files", () => {
  test("sdn.csv + alt.csv + add.csv (CP1252, -0-, trailing 0x1A) import as one OFAC SDN version", async () => {
    const { readFileSync } = await import("node:fs");
    const dir = new URL("../../../db/screening-lists/", import.meta.url).pathname;
    const read = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(`${dir}${name}`)) });
    const files = [
      read("ofac_sdn_raw_2024-05-03.csv"),
      read("ofac_alt_raw_2026-06.csv"),
      read("ofac_add_raw_2026-06.csv"),
    ];
    const parsed = parseListFiles("ofac-sdn", files);
    expect(parsed.entries.length).toBeGreaterThan(14_000);
    expect(parsed.entries.some((e) => e.aliases.length > 0 && e.addresses.length > 0)).toBe(true);
    const isolated = await createTestContext();
    const stored = await storeList(
      isolated.database.db,
      "ofac-sdn",
      parsed,
      files.map((f) => f.name).join(" + "),
    );
    expect(stored.source).toBe("OFAC SDN");
    const ofac = (await activeLists(isolated.database.db)).filter((l) => l.source === "OFAC SDN");
    expect(ofac).toHaveLength(1);
    expect(ofac[0].row_count).toBe(parsed.rowCount);
    isolated.database.close();
  }, 60_000);
});

describe("the lists' freshness", () => {
  test("each loaded list has its age and a stale flag past 30 days; the Entity List sample is counted", async () => {
    const res = await call(ctx, who.auth, "GET", "/api/screenings/lists");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      lists: { source: string; version_date: string; age_days: number; is_stale: boolean }[];
      stale_after_days: number;
      entity_list_entries: number;
    };
    expect(body.stale_after_days).toBe(30);
    const dpl = body.lists.find((l) => l.source === "BIS DPL");
    expect(dpl?.version_date.startsWith("2022")).toBe(true);
    expect(dpl?.is_stale).toBe(true);
    expect(dpl?.age_days).toBeGreaterThan(365);
    for (const l of body.lists) expect(l.is_stale).toBe(l.age_days > 30);
    // The bundled Consolidated Screening List is a sample: one Entity List row, not the list.
    expect(body.entity_list_entries).toBeLessThan(100);
  });

  test("age is counted in whole days from the publication date", () => {
    const today = new Date("2026-11-28T15:00:00Z");
    expect(listAgeDays("2026-11-28", today)).toBe(0);
    expect(listAgeDays("2026-10-29", today)).toBe(30);
    expect(
      listFreshness(
        [{ source: "X", version_date: "2026-10-28", row_count: 1, checksum: "", imported_at: "" }],
        today,
      )[0],
    ).toMatchObject({ age_days: 31, is_stale: true });
    expect(listAgeDays("not a date", today)).toBe(0);
  });
});
