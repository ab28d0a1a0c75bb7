import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TSearchAnswer } from "../../../db/contracts/search";
import { buildContact, buildLicense, buildProduct, call, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

async function created(auth: Record<string, string>, path: string, body: unknown): Promise<number> {
  const res = await call(ctx, auth, "POST", path, body);
  if (res.status !== 201 && res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const answer = (await res.json()) as { id?: number; item?: { id: number } };
  return answer.id ?? (answer.item?.id as number);
}

const search = async (auth: Record<string, string>, q: string) => {
  const res = await call(ctx, auth, "GET", `/api/search?q=${encodeURIComponent(q)}`);
  return { status: res.status, body: (await res.json()) as TSearchAnswer & { message?: string } };
};

describe("GET /api/search", () => {
  test("finds contacts, products, licences and shipments (by reference, tracking number and counterpart)", async () => {
    const who = await signUp(ctx);
    const hanse = await created(
      who.auth,
      "/api/contacts",
      buildContact({ company: "Hanseatic Imports GmbH" }),
    );
    await created(
      who.auth,
      "/api/products",
      buildProduct(901, { name: "Hanseatic sextant", product_number: "HX-1" }),
    );
    await created(
      who.auth,
      "/api/licenses",
      buildLicense(902, hanse, { licence_name: "Hanseatic export licence" }),
    );
    const shipment = await created(who.auth, "/api/shipments", undefined);
    const item = (await (await call(ctx, who.auth, "GET", `/api/shipments/${shipment}`)).json()) as {
      item: { updated_at: string };
    };
    const put = await call(ctx, who.auth, "PUT", `/api/shipments/${shipment}`, {
      updated_at: item.item.updated_at,
      shipper_reference_number: "PO-77123",
      tracking_number_1: "1Z999AA10123456784",
      importer_of_record_id: hanse,
      shipping_status_id: 2,
      items: [],
      packages: [],
    });
    expect(put.status).toBe(200);

    const { status, body } = await search(who.auth, "hanseatic");
    expect(status).toBe(200);
    const kinds = body.hits.map((h) => `${h.kind}:${h.title}`);
    expect(kinds).toContain("contact:Hanseatic Imports GmbH");
    expect(kinds).toContain("product:HX-1 · Hanseatic sextant");
    expect(kinds).toContain("license:Hanseatic export licence");
    // The shipment to that counterpart.
    expect(body.hits.find((h) => h.kind === "shipment")).toMatchObject({
      id: shipment,
      title: "PO-77123",
      path: `/shipments/edit-shipment/${shipment}`,
    });
    expect((await search(who.auth, "77123")).body.hits.map((h) => h.id)).toEqual([shipment]);
    expect((await search(who.auth, "AA1012345")).body.hits.map((h) => h.kind)).toEqual(["shipment"]);
    expect((await search(who.auth, "nothing like this")).body.hits).toEqual([]);
  });

  test("another workspace's records are never found", async () => {
    const owner = await signUp(ctx);
    await created(owner.auth, "/api/contacts", buildContact({ company: "Zanzibar Spice Traders" }));
    const stranger = await signUp(ctx);
    expect((await search(stranger.auth, "zanzibar")).body.hits).toEqual([]);
    expect((await search(owner.auth, "zanzibar")).body.hits).toHaveLength(1);
  });

  test("401 without a session; 422 with an actionable message for a missing or too short query", async () => {
    expect((await ctx.app.request("/api/search?q=acme")).status).toBe(401);
    const who = await signUp(ctx);
    const short = await search(who.auth, "a");
    expect(short.status).toBe(422);
    expect(JSON.stringify(short.body)).toContain("Type at least 2 characters to search.");
    const missing = await call(ctx, who.auth, "GET", "/api/search");
    expect(missing.status).toBe(422);
    expect((await search(who.auth, "x".repeat(101))).status).toBe(422);
  });
});
