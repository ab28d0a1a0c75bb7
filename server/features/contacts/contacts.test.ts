import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { contacts, licenses, shipments } from "../../../db/schema";
import { buildContact, call, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";

let ctx: TTestContext;
let owner: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx);
});
afterAll(() => ctx.database.close());

type TItem = Record<string, unknown> & { id: number };
type TList = { data: TItem[]; total: number; current_page: number; per_page: number; last_page: number };

const create = async (overrides: Record<string, unknown> = {}, who = owner) => {
  const res = await call(ctx, who.auth, "POST", "/api/contacts", buildContact(overrides));
  expect(res.status).toBe(201);
  return ((await res.json()) as { item: TItem }).item;
};
const list = async (query: string, who = owner) => {
  const res = await call(ctx, who.auth, "GET", `/api/contacts${query}`);
  return {
    status: res.status,
    body: (await res.json()) as TList & { message: string; errors: Record<string, string[]> },
  };
};

describe("contacts CRUD", () => {
  test("create answers 201 {item, status}; the server sets user_id and timestamps; flags travel as 1/0", async () => {
    const res = await call(ctx, owner.auth, "POST", "/api/contacts", {
      ...buildContact({
        company: "  Nordic Timber AB  ",
        is_restricted: 1,
        restricted_note: "Denied in 2021",
      }),
      user_id: 999,
      created_at: "1999-01-01",
      updated_at: "1999-01-01",
      workspace_id: 999,
      id: 12345,
      unknown_field: "ignored",
    });
    expect(res.status).toBe(201);
    const { item, status } = (await res.json()) as { item: TItem; status: { error: boolean } };
    expect(status).toEqual({ error: false });
    expect(item.company).toBe("Nordic Timber AB");
    expect(item.user_id).toBe(owner.user.id);
    expect(item.id).not.toBe(12345);
    expect(item.created_at).not.toBe("1999-01-01");
    expect(item.is_restricted).toBe(1);
    expect(item.is_sensitive).toBe(0);
    expect(item.sensitive_note).toBe("-");
    expect(item).not.toHaveProperty("workspace_id");
    expect(item).not.toHaveProperty("unknown_field");
  });

  test("party identifiers are labelled: the tax ID's type and a second identifier with its type", async () => {
    const plain = await create();
    expect(plain).toMatchObject({ tax_id_type: "", other_id_type: "", other_id: "" });
    const item = await create({
      tax_id: "DE811234567",
      tax_id_type: "vat",
      other_id_type: "eori",
      other_id: "DE123456789012345",
    });
    expect(item).toMatchObject({ tax_id_type: "vat", other_id_type: "eori", other_id: "DE123456789012345" });
    const bad = await call(
      ctx,
      owner.auth,
      "POST",
      "/api/contacts",
      buildContact({ tax_id_type: "passport", other_id: "X-1", other_id_type: "" }),
    );
    expect(bad.status).toBe(422);
    const { errors } = (await bad.json()) as { errors: Record<string, string[]> };
    expect(errors.tax_id_type?.[0]).toContain("ein, eori, vat, uscc, other");
    expect(errors.other_id_type?.[0]).toContain("Say what the second identifier is");
  });

  test("get, edit (with dictionaries), update and delete", async () => {
    const item = await create();
    const got = await call(ctx, owner.auth, "GET", `/api/contacts/${item.id}`);
    expect(((await got.json()) as { item: TItem }).item.company).toBe(item.company as string);
    const edit = await call(ctx, owner.auth, "GET", `/api/contacts/${item.id}/edit`);
    const editBody = (await edit.json()) as { item: TItem; dictionaries: Record<string, unknown[]> };
    expect(editBody.dictionaries.partner_types.length).toBeGreaterThanOrEqual(7);
    expect(editBody.dictionaries.countries.length).toBeGreaterThan(200);
    const blank = (await (await call(ctx, owner.auth, "GET", "/api/contacts/edit")).json()) as { item: null };
    expect(blank.item).toBeNull();
    const put = await call(
      ctx,
      owner.auth,
      "PUT",
      `/api/contacts/${item.id}`,
      buildContact({ company: "Renamed Ltd", country_id: 1 }),
    );
    expect(put.status).toBe(200);
    const updated = ((await put.json()) as { item: TItem }).item;
    expect(updated.company).toBe("Renamed Ltd");
    expect(updated.country_id).toBe(1);
    expect(updated.updated_at).not.toBe(item.updated_at);
    const del = await call(ctx, owner.auth, "DELETE", `/api/contacts/${item.id}`);
    expect(await del.json()).toEqual({ result: true, messages: ["Operation successful"] });
    expect((await call(ctx, owner.auth, "GET", `/api/contacts/${item.id}`)).status).toBe(404);
  });

  test("every required field answers 'This field is required.'; e-mails 'E-mail is invalid'", async () => {
    const res = await call(ctx, owner.auth, "POST", "/api/contacts", { email_2: "nope" });
    expect(res.status).toBe(422);
    const body = (await res.json()) as {
      status: { error: boolean; errorMessage: string };
      errors: Record<string, string[]>;
    };
    expect(body.status.error).toBe(true);
    for (const field of ["company", "partner_type_id", "tax_id", "contact_1", "phone_1", "email_1"]) {
      expect(body.errors[field]).toEqual(["This field is required."]);
    }
    expect(body.errors.email_2).toEqual(["E-mail is invalid"]);
    // A message shared by many fields is said once in the summary, naming the first few.
    expect(body.status.errorMessage).toContain(
      "company, partner_type_id, tax_id and 3 more: This field is required.",
    );
    expect(body.status.errorMessage.split("This field is required.").length).toBe(2);
    const bad = await call(ctx, owner.auth, "POST", "/api/contacts", buildContact({ email_1: "not@valid" }));
    expect(((await bad.json()) as { errors: Record<string, string[]> }).errors.email_1).toEqual([
      "E-mail is invalid",
    ]);
  });

  test("notes are required while their flag is on, and stored as '-' when empty", async () => {
    const res = await call(
      ctx,
      owner.auth,
      "POST",
      "/api/contacts",
      buildContact({ is_sensitive: 1, is_restricted: true, sensitive_note: "-" }),
    );
    expect(res.status).toBe(422);
    const { errors } = (await res.json()) as { errors: Record<string, string[]> };
    expect(errors.sensitive_note).toEqual(["This field is required."]);
    expect(errors.restricted_note).toEqual(["This field is required."]);
    const ok = await create({ is_sensitive: 1, sensitive_note: "Dual-use buyer", restricted_note: "" });
    expect(ok.sensitive_note).toBe("Dual-use buyer");
    expect(ok.restricted_note).toBe("-");
  });

  test("wrong types and unknown references are 422s, not 500s", async () => {
    const wrong = await call(
      ctx,
      owner.auth,
      "POST",
      "/api/contacts",
      buildContact({ company: 42, is_sensitive: "maybe", tax_id: ["T-1"] }),
    );
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      company: ["Must be text."],
      tax_id: ["Must be text."],
      is_sensitive: ["Must be 1 or 0."],
    });
    // Ids are whole numbers or digit strings: true and [2] are not coerced into ids.
    for (const partner_type_id of [true, [2], "2x", 1.5]) {
      const res = await call(ctx, owner.auth, "POST", "/api/contacts", buildContact({ partner_type_id }));
      expect(res.status, JSON.stringify(partner_type_id)).toBe(422);
      expect(((await res.json()) as { errors: Record<string, string[]> }).errors).toEqual({
        partner_type_id: ["Must be an id."],
      });
    }
    const badCountry = await call(
      ctx,
      owner.auth,
      "POST",
      "/api/contacts",
      buildContact({ country_id: true }),
    );
    expect(((await badCountry.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      country_id: ["Must be an id."],
    });
    // What a form or a CSV cell sends still works: ids as digit strings, blank optional ids.
    const asText = await create({ partner_type_id: "2", country_id: "" });
    expect(asText.partner_type_id).toBe(2);
    expect(asText.country_id).toBeNull();
    const ref = await call(
      ctx,
      owner.auth,
      "POST",
      "/api/contacts",
      buildContact({ partner_type_id: 9999, country_id: 9999 }),
    );
    expect(ref.status).toBe(422);
    const { errors } = (await ref.json()) as { errors: Record<string, string[]> };
    expect(errors.partner_type_id).toEqual(["Choose a partner type from the list."]);
    expect(errors.country_id).toEqual(["Choose a country from the list."]);
    const notJson = await ctx.app.request("/api/contacts", {
      method: "POST",
      headers: { ...owner.auth, "content-type": "application/json" },
      body: "{oops",
    });
    expect(notJson.status).toBe(400);
    const array = await call(ctx, owner.auth, "POST", "/api/contacts", [1, 2]);
    expect(array.status).toBe(422);
    const before = await list("?per_page=100");
    expect(before.body.data.some((c) => c.company === 42)).toBe(false);
  });

  test("without a session every contacts call is a 401", async () => {
    for (const [method, path] of [
      ["GET", "/api/contacts"],
      ["GET", "/api/contacts/1"],
      ["POST", "/api/contacts"],
      ["PUT", "/api/contacts/1"],
      ["DELETE", "/api/contacts/1"],
      ["POST", "/api/contacts/upload"],
      ["GET", "/api/partner-types"],
    ]) {
      const res = await ctx.app.request(path, { method });
      expect(res.status).toBe(401);
    }
  });
});

describe("the generic list", () => {
  let lister: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    lister = await signUp(ctx);
    const names = ["delta", "Alpha", "charlie", "Bravo", "echo"];
    for (let i = 0; i < 25; i++) {
      await create(
        {
          company: `${names[i % 5]} Trading ${String(i).padStart(2, "0")}`,
          is_sensitive: i % 3 === 0 ? 1 : 0,
          sensitive_note: "watch",
          partner_type_id: (i % 2) + 1,
        },
        lister,
      );
    }
    await ctx.database.db
      .update(contacts)
      .set({ last_shipment_date: "2024-03-15" })
      .where(eq(contacts.company, "Alpha Trading 01"));
  });

  test("pages of 10 with totals, default sort by company case-insensitively", async () => {
    const { status, body } = await list("", lister);
    expect(status).toBe(200);
    expect(body.total).toBe(25);
    expect(body.per_page).toBe(10);
    expect(body.current_page).toBe(1);
    expect(body.last_page).toBe(3);
    expect(body.data).toHaveLength(10);
    expect(body.data[0].company).toBe("Alpha Trading 01");
    expect(body.data[5].company).toStartWith("Bravo");
    const last = await list("?page=3", lister);
    expect(last.body.data).toHaveLength(5);
    expect(last.body.data[4].company).toBe("echo Trading 24");
    const beyond = await list("?page=9", lister);
    expect(beyond.body.data).toEqual([]);
  });

  test("per_page above 100 is capped at 100, not refused", async () => {
    for (const perPage of ["101", "5000", "99999999999999999999"]) {
      const { status, body } = await list(`?per_page=${perPage}`, lister);
      expect(status).toBe(200);
      expect(body.per_page).toBe(100);
      expect(body.data).toHaveLength(25);
      expect(body.last_page).toBe(1);
    }
  });

  test("sort_<prop>=desc and the spec's sortProp/sortDirection give the same order", async () => {
    const a = await list("?sort_company=desc&per_page=5", lister);
    const b = await list("?sortProp=company&sortDirection=desc&per_page=5", lister);
    expect(a.body.data.map((c) => c.id)).toEqual(b.body.data.map((c) => c.id));
    expect(a.body.data[0].company).toBe("echo Trading 24");
  });

  test("text filters match substrings case-insensitively; % and _ are literal", async () => {
    const { body } = await list("?filters[company]=ALPHA", lister);
    expect(body.total).toBe(5);
    expect((await list("?filters[company]=%25", lister)).body.total).toBe(0);
  });

  test("text filters fold letters beyond ASCII too: müller finds MÜLLER and Müller", async () => {
    const other = await signUp(ctx);
    for (const company of ["MÜLLER GMBH", "Müller Söhne", "Mueller Inc", "ÇELIK A.Ş."])
      await create({ company }, other);
    const companies = async (value: string) =>
      (await list(`?filters[company]=${encodeURIComponent(value)}`, other)).body.data
        .map((c) => c.company)
        .sort();
    expect(await companies("müller")).toEqual(["MÜLLER GMBH", "Müller Söhne"]);
    expect(await companies("MÜLLER")).toEqual(["MÜLLER GMBH", "Müller Söhne"]);
    expect(await companies("söhne")).toEqual(["Müller Söhne"]);
    expect(await companies("çelik")).toEqual(["ÇELIK A.Ş."]);
  });

  test("boolean filters take 1/0; number and date filters work; filters combine", async () => {
    expect((await list("?filters[is_sensitive]=1", lister)).body.total).toBe(9);
    expect((await list("?filters[is_sensitive]=0", lister)).body.total).toBe(16);
    expect((await list("?filters[is_sensitive]=1&filters[partner_type_id]=1", lister)).body.total).toBe(5);
    const dated = await list("?filters[last_shipment_date]=2024-01-01..2024-12-31", lister);
    expect(dated.body.data.map((c) => c.company)).toEqual(["Alpha Trading 01"]);
    expect((await list("?filters[last_shipment_date]=..2024-03-14", lister)).body.total).toBe(0);
    expect((await list("?filters[last_shipment_date]=2024-03-15", lister)).body.total).toBe(1);
  });

  test.each([
    ["?page=0", "page"],
    ["?page=abc", "page"],
    ["?per_page=0", "per_page"],
    ["?per_page=ten", "per_page"],
    ["?sort_email_1=asc", "sort_email_1"],
    ["?sort_company=sideways", "sort_company"],
    ["?sortProp=nope", "sortProp"],
    ["?filters[email_1]=x", "filters[email_1]"],
    ["?filters[is_sensitive]=yes", "filters[is_sensitive]"],
    ["?filters[last_shipment_date]=15/03/2024", "filters[last_shipment_date]"],
    ["?filters[last_shipment_date]=2024-02-30", "filters[last_shipment_date]"],
    ["?filters[company]=", "filters[company]"],
    ["?filters=company", "filters"],
  ])("%s is a 422 naming %s", async (query, parameter) => {
    const { status, body } = await list(query, lister);
    expect(status).toBe(422);
    expect(Object.keys(body.errors)).toEqual([parameter]);
    expect(body.message).toStartWith(`${parameter}:`);
  });
});

describe("delete with dependants", () => {
  test("a contact used by a licence or a shipment needs force; force detaches the dependants", async () => {
    const contact = await create();
    const ws = owner.user.workspace_id;
    const [licence] = await ctx.database.db
      .insert(licenses)
      .values({
        workspace_id: ws,
        licence_name: "BIS licence",
        valid_date: "2026-01-01",
        expiration_date: "2027-01-01",
        reference_number_1: "D123",
        reference_number_2: "X1",
        country_id: 1,
        contact_id: contact.id,
      })
      .returning();
    const [shipment] = await ctx.database.db
      .insert(shipments)
      .values({ workspace_id: ws, name: "To Hamburg", importer_of_record_id: contact.id })
      .returning();
    const refused = await call(ctx, owner.auth, "DELETE", `/api/contacts/${contact.id}`);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      result: false,
      messages: ["1 licence names this contact.", "1 shipment uses this contact."],
      metadata: { force_flag: true },
      message: "1 licence names this contact. 1 shipment uses this contact.",
    });
    expect((await call(ctx, owner.auth, "GET", `/api/contacts/${contact.id}`)).status).toBe(200);
    const forced = await call(ctx, owner.auth, "DELETE", `/api/contacts/${contact.id}?force=1`);
    expect(forced.status).toBe(200);
    const [l] = await ctx.database.db.select().from(licenses).where(eq(licenses.id, licence.id));
    const [s] = await ctx.database.db.select().from(shipments).where(eq(shipments.id, shipment.id));
    expect(l.contact_id).toBeNull();
    expect(s.importer_of_record_id).toBeNull();
  });
});

describe("workspace isolation", () => {
  test("another workspace's contact is a 404 for get, edit, update and delete, and absent from lists", async () => {
    const mine = await create({ company: "Only Mine GmbH" });
    const stranger = await signUp(ctx);
    for (const [method, path, body] of [
      ["GET", `/api/contacts/${mine.id}`, undefined],
      ["GET", `/api/contacts/${mine.id}/edit`, undefined],
      ["PUT", `/api/contacts/${mine.id}`, buildContact()],
      ["DELETE", `/api/contacts/${mine.id}`, undefined],
      ["DELETE", `/api/contacts/${mine.id}?force=1`, undefined],
    ] as const) {
      expect((await call(ctx, stranger.auth, method, path, body)).status).toBe(404);
    }
    const theirs = await list("?filters[company]=Only Mine", stranger);
    expect(theirs.body.total).toBe(0);
    const still = await call(ctx, owner.auth, "GET", `/api/contacts/${mine.id}`);
    expect(((await still.json()) as { item: TItem }).item.company).toBe("Only Mine GmbH");
  });

  test("partner types: a workspace's own type is invisible to others and cannot be used by them", async () => {
    const a = await signUp(ctx);
    const b = await signUp(ctx);
    const created = await call(ctx, a.auth, "POST", "/api/partner-types", { partner_type: "Notify party" });
    expect(created.status).toBe(201);
    const { item } = (await created.json()) as { item: { id: number } };
    const dup = await call(ctx, a.auth, "POST", "/api/partner-types", { partner_type: "notify PARTY" });
    expect(dup.status).toBe(422);
    const empty = await call(ctx, a.auth, "POST", "/api/partner-types", { partner_type: " " });
    expect(((await empty.json()) as { errors: Record<string, string[]> }).errors.partner_type).toEqual([
      "This field is required.",
    ]);
    const aTypes = (await (await call(ctx, a.auth, "GET", "/api/partner-types")).json()) as {
      data: { id: number }[];
    };
    const bTypes = (await (await call(ctx, b.auth, "GET", "/api/partner-types")).json()) as {
      data: { id: number }[];
    };
    expect(aTypes.data.map((t) => t.id)).toContain(item.id);
    expect(bTypes.data.map((t) => t.id)).not.toContain(item.id);
    const misuse = await call(
      ctx,
      b.auth,
      "POST",
      "/api/contacts",
      buildContact({ partner_type_id: item.id }),
    );
    expect(misuse.status).toBe(422);
    expect(
      (await call(ctx, a.auth, "POST", "/api/contacts", buildContact({ partner_type_id: item.id }))).status,
    ).toBe(201);
  });
});
