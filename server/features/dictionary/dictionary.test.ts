import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DICTIONARY_NAMES, type TDictionary } from "../../../db/contracts/dictionary";
import { createTestContext, type TTestContext } from "../../test/setup";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

const get = async (query: string) => {
  const res = await ctx.app.request(`/api/dictionary${query}`);
  return { status: res.status, body: (await res.json()) as { data: TDictionary; message?: string } };
};

describe("GET /api/dictionary", () => {
  test("answers every name of spec section 7 as {id, label} lists", async () => {
    const query = DICTIONARY_NAMES.map((n) => `dropdown_values[]=${n}`).join("&");
    const { status, body } = await get(`?${query}`);
    expect(status).toBe(200);
    expect(Object.keys(body.data).sort()).toEqual([...DICTIONARY_NAMES].sort());
    for (const name of DICTIONARY_NAMES) {
      for (const option of body.data[name]!) {
        expect(typeof option.id).toBe("number");
        expect(typeof option.label).toBe("string");
      }
    }
  });

  test("reference dictionaries are seeded; workspace ones are empty without a workspace", async () => {
    const { body } = await get("");
    expect(body.data.countries!.length).toBeGreaterThanOrEqual(240);
    expect(body.data.countries!.find((c) => c.label === "Germany")).toBeTruthy();
    expect(body.data.incoterms!.map((i) => i.label.slice(0, 3))).toEqual([
      "EXW",
      "FCA",
      "CPT",
      "CIP",
      "DAP",
      "DPU",
      "DDP",
      "FAS",
      "FOB",
      "CFR",
      "CIF",
    ]);
    expect(body.data.carriers!.map((c) => c.label)).toContain("Hapag-Lloyd");
    expect(body.data.mode_of_transports!.length).toBe(8);
    expect(body.data.partner_types!.map((p) => p.label)).toEqual([
      "Customer",
      "Supplier",
      "Freight forwarder",
      "Carrier",
      "Bank",
      "Ultimate consignee",
      "Other",
    ]);
    for (const name of ["contacts", "products", "licenses", "users", "templates"] as const) {
      expect(body.data[name]).toEqual([]);
    }
  });

  test("shipping statuses keep their fixed ids", async () => {
    const { body } = await get("?dropdown_values[]=shipping_statuses");
    expect(body.data.shipping_statuses).toEqual([
      { id: 1, label: "Template" },
      { id: 2, label: "Draft" },
      { id: 3, label: "In Transit" },
      { id: 4, label: "Customs" },
      { id: 5, label: "Delayed" },
      { id: 6, label: "Delivered" },
    ]);
  });

  test("currencies: USD first, then alphabetical case-insensitively", async () => {
    const { body } = await get("?dropdown_values[]=currencies");
    const labels = body.data.currencies!.map((c) => c.label);
    expect(labels[0]).toStartWith("USD");
    const rest = labels.slice(1);
    expect(rest).toEqual([...rest].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(labels.filter((l) => l.startsWith("USD"))).toHaveLength(1);
    expect(labels.length).toBeGreaterThan(100);
  });

  test("accepts a comma-separated dropdown_values and returns only what was asked", async () => {
    const { status, body } = await get("?dropdown_values=carriers,packages");
    expect(status).toBe(200);
    expect(Object.keys(body.data).sort()).toEqual(["carriers", "packages"]);
  });

  test("an unknown name is a 422 naming it", async () => {
    const { status, body } = await get("?dropdown_values[]=countries&dropdown_values[]=spaceships");
    expect(status).toBe(422);
    expect(body.message).toContain("spaceships");
  });
});
