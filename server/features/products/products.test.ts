import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { ECCN_MESSAGE, HTS_MESSAGE } from "../../../db/contracts/products";
import { licenses, shipment_items, shipments } from "../../../db/schema";
import { describeEntityBasics } from "../../test/entity-suite";
import { buildProduct, call, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";

describeEntityBasics({
  endpoint: "/products",
  build: buildProduct,
  change: { unit_value: "13999.99", has_license: 1 },
  listFilter: (p) => `filters[product_number]=${p.product_number}`,
});

let ctx: TTestContext;
let who: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  ctx = await createTestContext();
  who = await signUp(ctx);
});
afterAll(() => ctx.database.close());

const save = (body: Record<string, unknown>) => call(ctx, who.auth, "POST", "/api/products", body);
const errorsOf = async (res: Response) => ((await res.json()) as { errors: Record<string, string[]> }).errors;

describe("product rules", () => {
  test.each([
    "EAR99",
    "ear99",
    "5A002",
    "5a002",
    "3A090.a",
    "5A992.c",
    "9A610.y.1",
    "0A606",
    "9x515",
    "0y521",
  ])("ECCN %s is accepted", async (eccn) => {
    const res = await save(buildProduct(100, { US_ECCN: eccn, product_number: `E-${eccn}` }));
    expect(res.status).toBe(201);
  });

  test.each(["5F002", "EAR9", "EAR-99", "5A02", "5A0021", "ABCDE", "5A002..a", "X5A002"])(
    "ECCN %s is refused with the expected form in the message",
    async (eccn) => {
      const res = await save(buildProduct(101, { US_ECCN: eccn }));
      expect(res.status).toBe(422);
      expect((await errorsOf(res)).US_ECCN).toEqual([ECCN_MESSAGE]);
    },
  );

  test("ECCNs are stored the way the CCL prints them", async () => {
    const res = await save(buildProduct(102, { US_ECCN: " 3a090.A " }));
    expect(((await res.json()) as { item: { US_ECCN: string } }).item.US_ECCN).toBe("3A090.a");
  });

  test.each(["847130", "8471.30", "8471.30.01", "8471.30.0100", "8471300100"])(
    "HTS %s is accepted",
    async (hts) => {
      expect((await save(buildProduct(103, { HTS: hts }))).status).toBe(201);
    },
  );

  test.each(["84713", "8471.3", "84713001001", ".847130", "8471..30", "HS8471"])(
    "HTS %s is refused",
    async (hts) => {
      const res = await save(buildProduct(104, { HTS: hts }));
      expect((await errorsOf(res)).HTS).toEqual([HTS_MESSAGE]);
    },
  );

  test("money and weight are exact decimals; more precision or negatives are refused", async () => {
    const ok = await save(buildProduct(105, { unit_value: "0.10", net_weight: "0.125" }));
    const { item } = (await ok.json()) as { item: { unit_value: string; net_weight: string } };
    expect(item.unit_value).toBe("0.10");
    expect(item.net_weight).toBe("0.125");
    const commas = await save(buildProduct(106, { unit_value: "1,234,567.89" }));
    expect(((await commas.json()) as { item: { unit_value: string } }).item.unit_value).toBe("1234567.89");
    const bad = await save(buildProduct(107, { unit_value: "10.555", net_weight: "-1" }));
    const errors = await errorsOf(bad);
    expect(errors.unit_value[0]).toContain("at most 2 decimals");
    expect(errors.net_weight).toBeDefined();
  });

  test("net weight defaults to 0 when left empty or out; the sensitive message is required while sensitive", async () => {
    for (const net_weight of ["", " ", null, undefined]) {
      const res = await save(buildProduct(108, { net_weight, product_number: `NW-${String(net_weight)}` }));
      expect(res.status, JSON.stringify(net_weight)).toBe(201);
      expect(((await res.json()) as { item: { net_weight: string } }).item.net_weight).toBe("0.000");
    }
    const sensitive = await save(buildProduct(109, { is_sensitive: 1, sensitive_message: "" }));
    expect((await errorsOf(sensitive)).sensitive_message).toEqual(["This field is required."]);
  });

  test("list: sort by unit value uses the exact amounts", async () => {
    const mine = await signUp(ctx);
    for (const value of ["9.99", "100.00", "10.50"]) {
      await call(
        ctx,
        mine.auth,
        "POST",
        "/api/products",
        buildProduct(200, { unit_value: value, product_number: value }),
      );
    }
    const res = await call(ctx, mine.auth, "GET", "/api/products?sort_unit_value=desc");
    const { data } = (await res.json()) as { data: { unit_value: string }[] };
    expect(data.map((p) => p.unit_value)).toEqual(["100.00", "10.50", "9.99"]);
  });

  test("a product used by a licence and a shipment needs force; force detaches the licence and removes the line", async () => {
    const res = await save(buildProduct(300));
    const { item } = (await res.json()) as { item: { id: number } };
    const ws = who.user.workspace_id;
    const [licence] = await ctx.database.db
      .insert(licenses)
      .values({
        workspace_id: ws,
        licence_name: "L",
        valid_date: "2026-01-01",
        expiration_date: "2026-12-31",
        reference_number_1: "1",
        reference_number_2: "2",
        country_id: 1,
        product_id: item.id,
      })
      .returning();
    const [shipment] = await ctx.database.db
      .insert(shipments)
      .values({ workspace_id: ws, name: "S" })
      .returning();
    await ctx.database.db
      .insert(shipment_items)
      .values({ shipment_id: shipment.id, product_id: item.id, quantity: 2 });
    const refused = await call(ctx, who.auth, "DELETE", `/api/products/${item.id}`);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { messages: string[] }).messages).toEqual([
      "1 licence covers this product.",
      "1 shipment line ships this product.",
    ]);
    expect((await call(ctx, who.auth, "DELETE", `/api/products/${item.id}?force=1`)).status).toBe(200);
    const [l] = await ctx.database.db.select().from(licenses).where(eq(licenses.id, licence.id));
    expect(l.product_id).toBeNull();
    const lines = await ctx.database.db
      .select()
      .from(shipment_items)
      .where(eq(shipment_items.shipment_id, shipment.id));
    expect(lines).toEqual([]);
  });
});
