import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TShipment } from "../../../db/contracts/shipments";
import { call, createDraft, createProduct, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";

type TWho = Awaited<ReturnType<typeof signUp>>;
type TSaved = { item: TShipment; errors?: Record<string, string[]> };

const GERMANY = 84;
const CHINA = 48;

let ctx: TTestContext;
let owner: TWho;
let productA: { id: number; unit_value: string };
let productB: { id: number; unit_value: string };

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx);
  const make = (i: number, overrides: Record<string, unknown>) =>
    createProduct(ctx, owner.auth, i, overrides);
  productA = await make(1, { unit_value: "19.99", country_of_origin_id: CHINA });
  productB = await make(2, { unit_value: "0.10" });
});
afterAll(() => ctx.database.close());

const draft = () => createDraft(ctx, owner.auth);

const put = (id: number, body: Record<string, unknown>) =>
  call(ctx, owner.auth, "PUT", `/api/shipments/${id}`, body);

describe("item lines: unit of measure, unit price of this sale, origin", () => {
  test("lines default to PCS, the catalogue price and the product's origin", async () => {
    const base = await draft();
    const res = await put(base.id, {
      updated_at: base.updated_at,
      items: [{ product_id: productA.id, quantity: 3 }],
    });
    expect(res.status).toBe(200);
    const { item } = (await res.json()) as TSaved;
    expect(item.items[0]).toMatchObject({
      unit_of_measure: "PCS",
      unit_price: null,
      origin_country_id: null,
      extended_value: "59.97",
    });
    expect(item.total_value).toBe("59.97");
  });

  test("a line's own unit price, unit and origin are stored; extended value = qty × unit price, exactly", async () => {
    const base = await draft();
    const res = await put(base.id, {
      updated_at: base.updated_at,
      items: [
        {
          product_id: productA.id,
          quantity: 3,
          unit_price: "0.07",
          unit_of_measure: "kg",
          origin_country_id: GERMANY,
        },
        { product_id: productB.id, quantity: 7, unit_price: "1234567.89", unit_of_measure: "SET" },
      ],
    });
    expect(res.status).toBe(200);
    const { item } = (await res.json()) as TSaved;
    expect(
      item.items.map((l) => [l.unit_of_measure, l.unit_price, l.origin_country_id, l.extended_value]),
    ).toEqual([
      ["KG", "0.07", GERMANY, "0.21"],
      ["SET", "1234567.89", null, "8641975.23"],
    ]);
    expect(item.total_value).toBe("8641975.44");
    // What GET gives, PUT takes back unchanged; a PUT without items keeps the lines' own values.
    const again = await put(base.id, { ...item, updated_at: item.updated_at });
    expect(again.status).toBe(200);
    const kept = (await again.json()) as TSaved;
    const { items: _items, ...withoutItems } = kept.item;
    const third = await put(base.id, { ...withoutItems, updated_at: kept.item.updated_at });
    expect(third.status).toBe(200);
    expect(((await third.json()) as TSaved).item.items.map((l) => l.unit_price)).toEqual([
      "0.07",
      "1234567.89",
    ]);
  });

  test("bad unit, price and origin are 422s naming the line's field", async () => {
    const base = await draft();
    const res = await put(base.id, {
      updated_at: base.updated_at,
      items: [
        { product_id: productA.id, quantity: 1, unit_of_measure: "BARREL", unit_price: "1.234" },
        { product_id: productB.id, quantity: 1, unit_price: "-1", origin_country_id: 999999 },
      ],
    });
    expect(res.status).toBe(422);
    const { errors } = (await res.json()) as { errors: Record<string, string[]> };
    expect(errors["items.0.unit_of_measure"]?.[0]).toContain("Choose a unit of measure");
    expect(errors["items.0.unit_price"]?.[0]).toContain("at most 2 decimals");
    expect(errors["items.1.unit_price"]?.[0]).toContain("Enter an amount");
    const origin = await put(base.id, {
      updated_at: base.updated_at,
      items: [{ product_id: productB.id, quantity: 1, origin_country_id: 999999 }],
    });
    expect(origin.status).toBe(422);
    expect(
      ((await origin.json()) as { errors: Record<string, string[]> }).errors["items.0.origin_country_id"],
    ).toEqual(["Line 1: choose the country of origin from the list (country 999999 does not exist)."]);
  });
});

describe("discount and other charges", () => {
  test("other charges add to and a discount takes from the invoice total, exactly", async () => {
    const base = await draft();
    const res = await put(base.id, {
      updated_at: base.updated_at,
      freight: "10.10",
      insurance: "0.20",
      other_charges: "5.05",
      other_charges_label: "Export packing",
      discount: "20.01",
      items: [{ product_id: productA.id, quantity: 3 }],
    });
    expect(res.status).toBe(200);
    const { item } = (await res.json()) as TSaved;
    expect(item).toMatchObject({
      total_value: "59.97",
      other_charges: "5.05",
      other_charges_label: "Export packing",
      discount: "20.01",
      total_invoice_value: "55.31",
    });
    // Left out, the stored charges stay and still count.
    const { discount: _d, other_charges: _o, other_charges_label: _l, ...rest } = item;
    const again = await put(base.id, { ...rest, updated_at: item.updated_at });
    expect(((await again.json()) as TSaved).item).toMatchObject({
      discount: "20.01",
      total_invoice_value: "55.31",
    });
  });

  test("a discount larger than the invoice, negative or with 3 decimals is a 422", async () => {
    const base = await draft();
    const tooLarge = await put(base.id, {
      updated_at: base.updated_at,
      discount: "60.00",
      items: [{ product_id: productA.id, quantity: 3 }],
    });
    expect(tooLarge.status).toBe(422);
    expect(((await tooLarge.json()) as { errors: Record<string, string[]> }).errors.discount?.[0]).toContain(
      "cannot be more than",
    );
    const bad = await put(base.id, {
      updated_at: base.updated_at,
      discount: "-1",
      other_charges: "1.005",
      other_charges_label: "x".repeat(65),
    });
    expect(bad.status).toBe(422);
    const { errors } = (await bad.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(errors).sort()).toEqual(["discount", "other_charges", "other_charges_label"]);
  });
});
