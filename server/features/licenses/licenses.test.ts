import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EXPIRY_BEFORE_VALID } from "../../../db/contracts/licenses";
import { describeEntityBasics } from "../../test/entity-suite";
import { buildContact, buildLicense as buildLicenseBody, call, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";

let contactId = 0;
const buildLicense = (i: number, overrides: Record<string, unknown> = {}) =>
  buildLicenseBody(i, contactId, overrides);

describeEntityBasics({
  endpoint: "/licenses",
  build: buildLicense,
  change: { status: "expired", expiration_date: "2026-06-30" },
  listFilter: (l) => `filters[licence_name]=${l.licence_name}`,
  prepare: async (ctx, who) => {
    const res = await call(ctx, who.auth, "POST", "/api/contacts", buildContact());
    contactId = ((await res.json()) as { item: { id: number } }).item.id;
  },
});

let ctx: TTestContext;
let who: Awaited<ReturnType<typeof signUp>>;
let myContact = 0;
beforeAll(async () => {
  ctx = await createTestContext();
  who = await signUp(ctx);
  const res = await call(ctx, who.auth, "POST", "/api/contacts", buildContact());
  myContact = ((await res.json()) as { item: { id: number } }).item.id;
});
afterAll(() => ctx.database.close());

const errorsOf = async (res: Response) => ((await res.json()) as { errors: Record<string, string[]> }).errors;

describe("licence rules", () => {
  test("the expiry may equal but not precede the valid date", async () => {
    const same = await call(
      ctx,
      who.auth,
      "POST",
      "/api/licenses",
      buildLicense(1, { contact_id: myContact, expiration_date: "2026-01-01" }),
    );
    expect(same.status).toBe(201);
    const before = await call(
      ctx,
      who.auth,
      "POST",
      "/api/licenses",
      buildLicense(2, { contact_id: myContact, expiration_date: "2025-12-31" }),
    );
    expect(before.status).toBe(422);
    expect((await errorsOf(before)).expiration_date).toEqual([EXPIRY_BEFORE_VALID]);
  });

  test("dates must be real YYYY-MM-DD dates", async () => {
    const res = await call(
      ctx,
      who.auth,
      "POST",
      "/api/licenses",
      buildLicense(3, { contact_id: myContact, valid_date: "01/02/2026", expiration_date: "2026-02-30" }),
    );
    const errors = await errorsOf(res);
    expect(errors.valid_date).toEqual(["Enter a date as YYYY-MM-DD."]);
    expect(errors.expiration_date).toEqual(["Enter a date as YYYY-MM-DD."]);
  });

  test("every required field of spec section 5", async () => {
    const res = await call(ctx, who.auth, "POST", "/api/licenses", {});
    const errors = await errorsOf(res);
    for (const field of [
      "licence_name",
      "status",
      "valid_date",
      "expiration_date",
      "reference_number_1",
      "reference_number_2",
      "country_id",
      "contact_id",
    ]) {
      expect(errors[field], field).toEqual(["This field is required."]);
    }
  });

  test("the contact and product must be the caller's", async () => {
    const other = await signUp(ctx);
    const theirContact = (
      (await (await call(ctx, other.auth, "POST", "/api/contacts", buildContact())).json()) as {
        item: { id: number };
      }
    ).item.id;
    const res = await call(
      ctx,
      who.auth,
      "POST",
      "/api/licenses",
      buildLicense(4, { contact_id: theirContact, product_id: 99999 }),
    );
    const errors = await errorsOf(res);
    expect(errors.contact_id).toEqual(["Choose a contact from your address book."]);
    expect(errors.product_id).toEqual(["Choose a product from your catalogue."]);
  });

  test("create defaults: valid today, expiring tomorrow, pending; no country or contact picked for the user", async () => {
    const res = await call(ctx, who.auth, "GET", "/api/licenses/edit");
    const { defaults, dictionaries } = (await res.json()) as {
      defaults: Record<string, unknown>;
      dictionaries: Record<string, unknown[]>;
    };
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(defaults).toEqual({
      valid_date: today,
      expiration_date: tomorrow,
      status: "pending",
    });
    expect(Object.keys(dictionaries).sort()).toEqual(["contacts", "countries", "products"]);
    // Saved without a country or contact, the licence is refused with a message for each.
    const res2 = await call(ctx, who.auth, "POST", "/api/licenses", {
      licence_name: "No country",
      valid_date: today,
      expiration_date: tomorrow,
      reference_number_1: "R1",
      reference_number_2: "R2",
      status: "pending",
    });
    expect(res2.status).toBe(422);
    expect(Object.keys(await errorsOf(res2))).toEqual(expect.arrayContaining(["country_id", "contact_id"]));
  });

  test("the list sorts by expiry, soonest first, by default", async () => {
    const mine = await signUp(ctx);
    const c = (
      (await (await call(ctx, mine.auth, "POST", "/api/contacts", buildContact())).json()) as {
        item: { id: number };
      }
    ).item.id;
    for (const exp of ["2027-05-01", "2026-02-01", "2026-09-01"]) {
      await call(
        ctx,
        mine.auth,
        "POST",
        "/api/licenses",
        buildLicense(5, { contact_id: c, expiration_date: exp }),
      );
    }
    const { data } = (await (await call(ctx, mine.auth, "GET", "/api/licenses")).json()) as {
      data: { expiration_date: string }[];
    };
    expect(data.map((l) => l.expiration_date)).toEqual(["2026-02-01", "2026-09-01", "2027-05-01"]);
    const filtered = (await (
      await call(ctx, mine.auth, "GET", "/api/licenses?filters[expiration_date]=..2026-12-31")
    ).json()) as { total: number };
    expect(filtered.total).toBe(2);
  });
});
