import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { TShipment } from "../../../db/contracts/shipments";
import { countries } from "../../../db/schema";
import { buildContact, buildProduct, call, joinAs, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { solidPng } from "./test-png";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

const put = (body: unknown, headers: Record<string, string>) =>
  ctx.app.request("/api/exporter-profile", {
    method: "PUT",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

type TBody = { item: Record<string, unknown>; errors?: Record<string, string[]> };

describe("exporter profile", () => {
  test("GET before any save answers blank fields the owner may edit", async () => {
    const who = await signUp(ctx);
    const res = await ctx.app.request("/api/exporter-profile", { headers: who.auth });
    expect(res.status).toBe(200);
    const { item } = (await res.json()) as TBody;
    expect(item).toMatchObject({ company: "", ein: "", eori: "", country_id: null, editable: true });
  });

  test("PUT stores the legal entity, normalises EIN and EORI, and GET gives it back", async () => {
    const who = await signUp(ctx);
    const [us] = await ctx.database.db.select().from(countries).where(eq(countries.code_iso_2, "US"));
    const body = {
      company: "Acme Export LLC",
      street: "1 Harbor Way",
      city: "Seattle",
      state_province: "WA",
      postal_code: "98101",
      country_id: us.id,
      ein: "12 3456789",
      eori: "de 123456789012345",
      other_id_type: "vat",
      other_id: "DE999999999",
      phone: "+1 206 555 0100",
      email: "export@acme.example",
      letterhead: "Makers of fine valves since 1921",
      signatory_name: "Ada Lovelace",
      signatory_title: "Export Manager",
    };
    const res = await put(body, who.auth);
    expect(res.status).toBe(200);
    const again = (await (
      await ctx.app.request("/api/exporter-profile", { headers: who.auth })
    ).json()) as TBody;
    expect(again.item).toMatchObject({
      ...body,
      ein: "12-3456789",
      eori: "DE123456789012345",
      country: us.name,
    });
    // What GET gives, PUT takes back.
    expect((await put(again.item, who.auth)).status).toBe(200);
  });

  test("bad identifiers, e-mail, kind, country and over-long text are 422s naming the field", async () => {
    const who = await signUp(ctx);
    const res = await put(
      {
        ein: "12-345",
        eori: "123",
        email: "not-an-address",
        other_id_type: "passport",
        company: "x".repeat(300),
        country_id: "abc",
      },
      who.auth,
    );
    expect(res.status).toBe(422);
    const { errors } = (await res.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(errors).sort()).toEqual(
      ["company", "country_id", "ein", "email", "eori", "other_id_type"].sort(),
    );
    expect(errors.ein[0]).toContain("9 digits");
    const unknownCountry = await put({ country_id: 999999 }, who.auth);
    expect(unknownCountry.status).toBe(422);
    expect(((await unknownCountry.json()) as { errors: Record<string, string[]> }).errors.country_id).toEqual(
      ["Choose a country from the list."],
    );
    const notJson = await ctx.app.request("/api/exporter-profile", {
      method: "PUT",
      headers: { "content-type": "application/json", ...who.auth },
      body: "[1,2",
    });
    expect(notJson.status).toBeGreaterThanOrEqual(400);
    expect(notJson.status).toBeLessThan(500);
  });

  test("each workspace sees only its own profile", async () => {
    const a = await signUp(ctx);
    const b = await signUp(ctx);
    expect((await put({ company: "Alpha Exports" }, a.auth)).status).toBe(200);
    const seen = (await (
      await ctx.app.request("/api/exporter-profile", { headers: b.auth })
    ).json()) as TBody;
    expect(seen.item.company).toBe("");
  });

  test("only an admin may change it; other members read it", async () => {
    const who = await signUp(ctx);
    const shipper = await joinAs(ctx, who, ["shipper"]);
    const res = await put({ company: "Not mine" }, shipper.auth);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toContain("Admin role");
    const seen = (await (
      await ctx.app.request("/api/exporter-profile", { headers: shipper.auth })
    ).json()) as TBody;
    expect(seen.item).toMatchObject({ company: "", editable: false });
  });

  test("without a session it is 401", async () => {
    expect((await ctx.app.request("/api/exporter-profile")).status).toBe(401);
  });

  test("a shipment may leave draft without an exporter of record once the profile names the exporter", async () => {
    const who = await signUp(ctx);
    const importer = await call(
      ctx,
      who.auth,
      "POST",
      "/api/contacts",
      buildContact({ company: "Buyer GmbH" }),
    );
    const product = await call(
      ctx,
      who.auth,
      "POST",
      "/api/products",
      buildProduct(1, { unit_value: "5.00" }),
    );
    const importerId = ((await importer.json()) as { item: { id: number } }).item.id;
    const productId = ((await product.json()) as { item: { id: number } }).item.id;
    const draft = (
      (await (await call(ctx, who.auth, "POST", "/api/shipments")).json()) as { item: TShipment }
    ).item;
    const body = (updated_at: string) => ({
      updated_at,
      name: "No exporter chosen",
      importer_of_record_id: importerId,
      shipping_status_id: 3,
      items: [{ product_id: productId, quantity: 2 }],
    });
    const refused = await call(ctx, who.auth, "PUT", `/api/shipments/${draft.id}`, body(draft.updated_at));
    expect(refused.status).toBe(422);
    expect(
      ((await refused.json()) as { errors: Record<string, string[]> }).errors.exporter_of_record_id,
    ).toBeTruthy();
    expect((await put({ company: "Own Exports Ltd" }, who.auth)).status).toBe(200);
    const saved = await call(ctx, who.auth, "PUT", `/api/shipments/${draft.id}`, body(draft.updated_at));
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as { item: TShipment }).item.shipping_status_id).toBe(3);
  });

  test("the owner uploads a PNG logo, it is served back and can be removed; other files are 422s", async () => {
    const who = await signUp(ctx);
    const upload = (file: File) => {
      const form = new FormData();
      form.append("logo", file);
      return ctx.app.request("/api/exporter-profile/logo", { method: "POST", body: form, headers: who.auth });
    };
    expect((await ctx.app.request("/api/exporter-profile/logo", { headers: who.auth })).status).toBe(404);
    const png = solidPng(40, 16, [20, 60, 120]);
    const ok = await upload(new File([png], "logo.png", { type: "image/png" }));
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as TBody).item.logo_url).toStartWith("/api/exporter-profile/logo");
    const served = await ctx.app.request("/api/exporter-profile/logo", { headers: who.auth });
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
    const text = await upload(new File(["not an image"], "logo.png", { type: "image/png" }));
    expect(text.status).toBe(422);
    expect(((await text.json()) as { errors: Record<string, string[]> }).errors.logo).toEqual([
      "You can only upload JPG/PNG file!",
    ]);
    const none = await ctx.app.request("/api/exporter-profile/logo", {
      method: "POST",
      body: new FormData(),
      headers: who.auth,
    });
    expect(none.status).toBe(422);
    const removed = await ctx.app.request("/api/exporter-profile/logo", {
      method: "DELETE",
      headers: who.auth,
    });
    expect(((await removed.json()) as TBody).item.logo_url).toBeNull();
    expect((await ctx.app.request("/api/exporter-profile/logo", { headers: who.auth })).status).toBe(404);
  });
});
