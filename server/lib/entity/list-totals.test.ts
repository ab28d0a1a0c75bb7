import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createClient } from "@libsql/client";
import { licenses } from "../../../db/schema";
import { buildContact, call, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";

// List totals are cached per table version (list_versions, bumped by triggers). These tests prime the
// cache with a list, write through every path that changes a table, and expect the next list's
// 'x-y of N' total to be exact: a stale cache shows the old number and fails them.

let ctx: TTestContext;
let who: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  ctx = await createTestContext();
  who = await signUp(ctx);
  for (let i = 0; i < 12; i++) await create({ is_sensitive: i % 4 === 0 ? 1 : 0, sensitive_note: "watch" });
});
afterAll(() => ctx.database.close());

async function create(overrides: Record<string, unknown> = {}, as = who) {
  const res = await call(ctx, as.auth, "POST", "/api/contacts", buildContact(overrides));
  expect(res.status).toBe(201);
  return ((await res.json()) as { item: { id: number } }).item;
}

/** The list's total, asked twice: the second answer comes from the cache when nothing changed. */
async function total(query = "", as = who) {
  const ask = async () => {
    const res = await call(ctx, as.auth, "GET", `/api/contacts?per_page=5${query}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { total: number; data: unknown[] }).total;
  };
  const first = await ask();
  expect(await ask()).toBe(first);
  return first;
}

const SENSITIVE = "&filters[is_sensitive]=1";

describe("exact list totals under the count cache", () => {
  test("a create adds one to the total and to a filter it matches, not to one it misses", async () => {
    const [all, sensitive, plain] = [
      await total(),
      await total(SENSITIVE),
      await total("&filters[is_sensitive]=0"),
    ];
    await create({ is_sensitive: 1, sensitive_note: "watch" });
    expect(await total()).toBe(all + 1);
    expect(await total(SENSITIVE)).toBe(sensitive + 1);
    expect(await total("&filters[is_sensitive]=0")).toBe(plain);
  });

  test("an update that changes a filtered column moves the row between filtered totals", async () => {
    const contact = await create({ is_sensitive: 0 });
    const sensitive = await total(SENSITIVE);
    const res = await call(
      ctx,
      who.auth,
      "PUT",
      `/api/contacts/${contact.id}`,
      buildContact({ is_sensitive: 1, sensitive_note: "now watched" }),
    );
    expect(res.status).toBe(200);
    expect(await total(SENSITIVE)).toBe(sensitive + 1);
  });

  test("a delete takes one off", async () => {
    const contact = await create();
    const all = await total();
    expect((await call(ctx, who.auth, "DELETE", `/api/contacts/${contact.id}`)).status).toBe(200);
    expect(await total()).toBe(all - 1);
  });

  test("a CSV import adds every created row", async () => {
    const all = await total();
    const csv = [
      "Company,Partner Type,Tax ID,Contact,Phone,Email",
      "Imported One GmbH,Customer,IMP-1,Ann,+49 1,ann@one.example",
      "Imported Two GmbH,Customer,IMP-2,Ben,+49 2,ben@two.example",
      "Imported Three GmbH,Customer,IMP-3,Cy,+49 3,cy@three.example",
    ].join("\n");
    const res = await ctx.app.request("/api/contacts/upload", {
      method: "POST",
      headers: { ...who.auth, "content-type": "application/json" },
      body: JSON.stringify({ csv_upload: `data:text/csv;base64,${Buffer.from(csv).toString("base64")}` }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { created: number }).created).toBe(3);
    expect(await total()).toBe(all + 3);
    expect(await total("&filters[company]=Imported")).toBe(3);
  });

  test("a forced delete of a contact with dependants takes one off", async () => {
    const contact = await create();
    await ctx.database.db.insert(licenses).values({
      workspace_id: who.user.workspace_id,
      licence_name: "Totals licence",
      valid_date: "2026-01-01",
      expiration_date: "2027-01-01",
      reference_number_1: "T1",
      reference_number_2: "T2",
      country_id: 1,
      contact_id: contact.id,
    });
    const all = await total();
    expect((await call(ctx, who.auth, "DELETE", `/api/contacts/${contact.id}`)).status).toBe(422);
    expect(await total()).toBe(all);
    expect((await call(ctx, who.auth, "DELETE", `/api/contacts/${contact.id}?force=1`)).status).toBe(200);
    expect(await total()).toBe(all - 1);
  });

  test("another process writing to the same database file is seen at the next list", async () => {
    const all = await total();
    const sensitive = await total(SENSITIVE);
    // A second libSQL client on the same file stands for another process (a CLI import, a second server).
    const other = createClient({ url: ctx.env.databaseUrl, timeout: 5_000 });
    await other.execute({
      sql: `insert into contacts (workspace_id, company, partner_type_id, tax_id, contact_1, phone_1, email_1, is_sensitive, sensitive_note)
            values (?, 'Other Process Ltd', 1, 'OP-1', 'Olga', '+1 1', 'olga@op.example', 1, 'watch')`,
      args: [who.user.workspace_id],
    });
    expect(await total()).toBe(all + 1);
    expect(await total(SENSITIVE)).toBe(sensitive + 1);
    await other.execute({ sql: "update contacts set is_sensitive = 0 where tax_id = 'OP-1'", args: [] });
    expect(await total(SENSITIVE)).toBe(sensitive);
    await other.execute({ sql: "delete from contacts where tax_id = 'OP-1'", args: [] });
    expect(await total()).toBe(all);
    other.close();
  });

  test("totals stay per workspace: another workspace's writes do not show", async () => {
    const stranger = await signUp(ctx);
    const mine = await total();
    await create({}, stranger);
    expect(await total("", stranger)).toBe(1);
    expect(await total()).toBe(mine);
  });
});

describe("substring filters served by the trigram index (contacts_fts)", () => {
  const companies = async (query: string) => {
    const res = await call(ctx, who.auth, "GET", `/api/contacts?per_page=100&${query}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { company: string }[] }).data.map((c) => c.company).sort();
  };

  test("finds substrings in any case, beyond ASCII too, and follows renames and deletes", async () => {
    const a = await create({ company: "Kühne Spedition GMBH" });
    await create({ company: "KÜHNE LOGISTIK AG" });
    expect(await companies("filters[company]=kühne")).toEqual(["KÜHNE LOGISTIK AG", "Kühne Spedition GMBH"]);
    expect(await companies("filters[company]=SPEDITION")).toEqual(["Kühne Spedition GMBH"]);
    const renamed = await call(
      ctx,
      who.auth,
      "PUT",
      `/api/contacts/${a.id}`,
      buildContact({ company: "Nordsee Freight GmbH" }),
    );
    expect(renamed.status).toBe(200);
    expect(await companies("filters[company]=spedition")).toEqual([]);
    expect(await companies("filters[company]=nordsee")).toEqual(["Nordsee Freight GmbH"]);
    expect((await call(ctx, who.auth, "DELETE", `/api/contacts/${a.id}`)).status).toBe(200);
    expect(await companies("filters[company]=nordsee")).toEqual([]);
  });

  test("quotes and FTS syntax in a filter are taken literally", async () => {
    await create({ company: 'The "Quoted" Company' });
    await create({ company: "Alpha OR Beta NEAR Gamma*" });
    expect(await companies('filters[company]="Quoted"')).toEqual(['The "Quoted" Company']);
    expect(await companies("filters[company]=OR Beta NEAR")).toEqual(["Alpha OR Beta NEAR Gamma*"]);
    expect(await companies("filters[company]=a*")).toEqual(["Alpha OR Beta NEAR Gamma*"]);
  });

  test("a filter of the tax id column uses it as well; two letters still match through LIKE", async () => {
    await create({ company: "Taxed Ltd", tax_id: "DE-998877" });
    expect(await companies("filters[tax_id]=998877")).toEqual(["Taxed Ltd"]);
    expect((await companies("filters[company]=xd")).length).toBe(0);
    expect(await companies("filters[company]=ed Lt")).toContain("Taxed Ltd");
  });
});

describe("reference columns sort by the name shown", () => {
  test("partner type sorts contacts by the type's name (both ways), and pages cover every contact once", async () => {
    const owner = await signUp(ctx);
    const dict = await call(ctx, owner.auth, "GET", "/api/dictionary?dropdown_values[]=partner_types");
    const types = ((await dict.json()) as { data: { partner_types: { id: number; label: string }[] } }).data
      .partner_types;
    expect(types.length).toBeGreaterThan(2);
    // Ids in an order that is not the names' order.
    for (const type of [...types].reverse()) await create({ partner_type_id: type.id }, owner);
    await create({ partner_type_id: types[0].id }, owner);
    const labelOf = new Map(types.map((t) => [t.id, t.label]));
    const names = async (direction: string, page = 1, perPage = 100) => {
      const res = await call(
        ctx,
        owner.auth,
        "GET",
        `/api/contacts?sort_partner_type_id=${direction}&per_page=${perPage}&page=${page}`,
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { id: number; partner_type_id: number }[]; total: number };
      return { body, labels: body.data.map((c) => labelOf.get(c.partner_type_id)!) };
    };
    const byName = (a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase());
    const asc = await names("asc");
    expect(asc.body.total).toBe(types.length + 1);
    expect(asc.labels).toEqual([...asc.labels].sort(byName));
    // The seeded ids are not in name order, so an id sort would fail the line above; prove it.
    const ids = asc.body.data.map((c) => c.partner_type_id);
    expect(ids).not.toEqual([...ids].sort((a, b) => a - b));
    const desc = await names("desc");
    expect(desc.labels).toEqual([...asc.labels].reverse());
    const paged = [];
    for (let page = 1; page <= Math.ceil((types.length + 1) / 3); page++)
      paged.push(...(await names("asc", page, 3)).body.data.map((c) => c.id));
    expect(paged).toEqual(asc.body.data.map((c) => c.id));
  });
});
