import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TShipment } from "../../../db/contracts/shipments";
import { call, createDraft, createProduct, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";

type TWho = Awaited<ReturnType<typeof signUp>>;
type TSaved = { item: TShipment; errors?: Record<string, string[]>; message?: string };

let ctx: TTestContext;
let owner: TWho;
let router: { id: number; product_number: string };
let antenna: { id: number; product_number: string };
let stranger: { id: number; product_number: string };

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx);
  const make = (i: number) => createProduct(ctx, owner.auth, i);
  router = await make(1);
  antenna = await make(2);
  stranger = await make(3);
});
afterAll(() => ctx.database.close());

const draft = () => createDraft(ctx, owner.auth);

const put = (id: number, body: Record<string, unknown>) =>
  call(ctx, owner.auth, "PUT", `/api/shipments/${id}`, body);

const box = (overrides: Record<string, unknown>) => ({
  package_id: 1,
  quantity: 2,
  net_weight: "4.5",
  gross_weight: "5",
  length: "24",
  width: "16",
  height: "12",
  ...overrides,
});

/** PUTs the 10 routers and 4 antennas packed in 2 cartons holding `contents`. */
const pack = (shipment: { id: number; updated_at: string }, contents: unknown[]) =>
  put(shipment.id, { updated_at: shipment.updated_at, items: items(), packages: [box({ contents })] });

/** 10 routers and 4 antennas. */
const items = () => [
  { product_id: router.id, quantity: 10 },
  { product_id: antenna.id, quantity: 4 },
];

describe("package contents", () => {
  test("each package line stores what each of its packages holds; GET gives it and PUT takes it back", async () => {
    const base = await draft();
    const res = await put(base.id, {
      updated_at: base.updated_at,
      items: items(),
      packages: [
        // 2 cartons of 5 routers and 1 antenna each, and a pallet with the other 2 antennas.
        box({
          contents: [
            { product_id: router.id, quantity: 5 },
            { product_id: antenna.id, quantity: "1" },
          ],
        }),
        box({ package_id: 2, quantity: 1, contents: [{ product_id: antenna.id, quantity: 2 }] }),
        // Contents are optional: a package with none assigned.
        box({ package_id: 3, quantity: 1 }),
      ],
    });
    expect(res.status).toBe(200);
    const { item } = (await res.json()) as TSaved;
    expect(item.packages.map((p) => p.contents)).toEqual([
      [
        { product_id: router.id, quantity: 5 },
        { product_id: antenna.id, quantity: 1 },
      ],
      [{ product_id: antenna.id, quantity: 2 }],
      [],
    ]);
    const fetched = (await (
      await call(ctx, owner.auth, "GET", `/api/shipments/${base.id}`)
    ).json()) as TSaved;
    expect(fetched.item.packages.map((p) => p.contents)).toEqual(item.packages.map((p) => p.contents));
    const again = await put(base.id, { ...fetched.item, updated_at: fetched.item.updated_at });
    expect(again.status).toBe(200);
    expect(((await again.json()) as TSaved).item.packages.map((p) => p.contents)).toEqual(
      item.packages.map((p) => p.contents),
    );
  });

  test("more pieces packed than shipped is a 422 naming the product and both counts", async () => {
    const base = await draft();
    // 2 cartons × 6 routers = 12 packed, but 10 ship.
    const res = await put(base.id, {
      updated_at: base.updated_at,
      items: items(),
      packages: [box({ contents: [{ product_id: router.id, quantity: 6 }] })],
    });
    expect(res.status).toBe(422);
    const { errors } = (await res.json()) as TSaved;
    expect(errors?.["packages.0.contents.0.quantity"]).toEqual([
      `The packages hold 12 pieces of ${router.product_number}, but its item line ships 10. Lower the pieces per package or raise the item's quantity.`,
    ]);
    // Over several package lines together: 2 × 2 + 1 × 1 = 5 antennas, 4 ship.
    const split = await put(base.id, {
      updated_at: base.updated_at,
      items: items(),
      packages: [
        box({ contents: [{ product_id: antenna.id, quantity: 2 }] }),
        box({ package_id: 2, quantity: 1, contents: [{ product_id: antenna.id, quantity: 1 }] }),
      ],
    });
    expect(split.status).toBe(422);
    expect(Object.keys((await split.json()).errors)).toEqual(["packages.1.contents.0.quantity"]);
  });

  test("a product that is not an item, a product named twice and bad pieces are 422s", async () => {
    const base = await draft();
    const notShipped = await pack(base, [{ product_id: stranger.id, quantity: 1 }]);
    expect(notShipped.status).toBe(422);
    expect((await notShipped.json()).errors["packages.0.contents.0.product_id"]).toEqual([
      `Package line 1: ${stranger.product_number} is not an item of this shipment. Pack only the shipment's items.`,
    ]);
    const twice = await put(base.id, {
      updated_at: base.updated_at,
      items: items(),
      packages: [
        box({
          quantity: 1,
          contents: [
            { product_id: router.id, quantity: 1 },
            { product_id: router.id, quantity: 1 },
          ],
        }),
      ],
    });
    expect(twice.status).toBe(422);
    expect((await twice.json()).errors["packages.0.contents.1.product_id"]?.[0]).toContain("once");
    const zero = await pack(base, [{ product_id: router.id, quantity: 0 }]);
    expect(zero.status).toBe(422);
    expect(Object.keys((await zero.json()).errors)).toEqual(["packages.0.contents.0.quantity"]);
    const notAList = await put(base.id, {
      updated_at: base.updated_at,
      items: items(),
      packages: [box({ contents: "5 routers" })],
    });
    expect(notAList.status).toBe(422);
    expect((await notAList.json()).errors["packages.0.contents"]?.[0]).toContain("list");
    // Nothing was stored by the refusals.
    const stored = (await (await call(ctx, owner.auth, "GET", `/api/shipments/${base.id}`)).json()) as TSaved;
    expect(stored.item.packages).toEqual([]);
  });

  test("contents may name a single package of the line; it counts once, and must exist", async () => {
    const base = await draft();
    // Both cartons hold 2 routers (4 of the 10); carton 2 alone also holds the 4 antennas.
    const res = await pack(base, [
      { product_id: router.id, quantity: 2 },
      { product_id: antenna.id, quantity: 4, package: 2 },
    ]);
    expect(res.status).toBe(200);
    const { item } = (await res.json()) as TSaved;
    expect(item.packages[0].contents).toEqual([
      { product_id: router.id, quantity: 2 },
      { product_id: antenna.id, quantity: 4, package: 2 },
    ]);
    const noSuchPackage = await pack(item, [{ product_id: antenna.id, quantity: 1, package: 3 }]);
    expect(noSuchPackage.status).toBe(422);
    expect((await noSuchPackage.json()).errors["packages.0.contents.0.package"]).toEqual([
      "Package line 1 has 2 packages: there is no package 3.",
    ]);
    // Named for every package and for package 1 as well: once only.
    const both = await pack(item, [
      { product_id: router.id, quantity: 1 },
      { product_id: router.id, quantity: 1, package: 1 },
    ]);
    expect(both.status).toBe(422);
    expect((await both.json()).errors["packages.0.contents.1.product_id"]?.[0]).toContain("once");
    // 4 antennas in package 1 and 1 in package 2: 5 packed, 4 ship.
    const over = await pack(item, [
      { product_id: antenna.id, quantity: 4, package: 1 },
      { product_id: antenna.id, quantity: 1, package: 2 },
    ]);
    expect(over.status).toBe(422);
    expect((await over.json()).errors["packages.0.contents.1.quantity"]?.[0]).toContain("hold 5 pieces");
  });

  test("deleting an item line lets the packages' contents go of its product", async () => {
    const base = await draft();
    const res = await put(base.id, {
      updated_at: base.updated_at,
      items: items(),
      packages: [
        box({
          contents: [
            { product_id: router.id, quantity: 5 },
            { product_id: antenna.id, quantity: 2 },
          ],
        }),
      ],
    });
    expect(res.status).toBe(200);
    const { item } = (await res.json()) as TSaved;
    const antennaLine = item.items.find((l) => l.product_id === antenna.id)!;
    const deleted = await call(
      ctx,
      owner.auth,
      "DELETE",
      `/api/shipments/items/${base.id}/${antennaLine.id}`,
    );
    expect(deleted.status).toBe(200);
    const after = (await deleted.json()) as TSaved;
    expect(after.item.packages[0].contents).toEqual([{ product_id: router.id, quantity: 5 }]);
  });

  test("items sent without packages: contents let go of a dropped product, and over-packing is refused", async () => {
    const base = await draft();
    // 2 cartons of 5 routers and 2 antennas each: 10 routers and 4 antennas packed.
    const packed = await pack(base, [
      { product_id: router.id, quantity: 5 },
      { product_id: antenna.id, quantity: 2 },
    ]);
    expect(packed.status).toBe(200);
    const { item } = (await packed.json()) as TSaved;
    // Fewer routers than the cartons hold: refused, naming the product, and nothing changes.
    const over = await put(base.id, {
      updated_at: item.updated_at,
      items: [
        { product_id: router.id, quantity: 1 },
        { product_id: antenna.id, quantity: 4 },
      ],
    });
    expect(over.status).toBe(422);
    const message = Object.values((await over.json()).errors as Record<string, string[]>).flat();
    expect(message.join(" ")).toContain(`10 pieces of ${router.product_number}`);
    // The antennas no longer ship: the cartons hold routers only.
    const dropped = await put(base.id, {
      updated_at: item.updated_at,
      items: [{ product_id: router.id, quantity: 10 }],
    });
    expect(dropped.status).toBe(200);
    const after = (await dropped.json()) as TSaved;
    expect(after.item.packages[0].contents).toEqual([{ product_id: router.id, quantity: 5 }]);
    const read = await call(ctx, owner.auth, "GET", `/api/shipments/${base.id}`);
    expect(((await read.json()) as TSaved).item.packages[0].contents).toEqual([
      { product_id: router.id, quantity: 5 },
    ]);
  });

  test("another workspace's shipment stays a 404", async () => {
    const base = await draft();
    const other = await signUp(ctx);
    const res = await call(ctx, other.auth, "PUT", `/api/shipments/${base.id}`, {
      updated_at: base.updated_at,
      packages: [box({ contents: [{ product_id: router.id, quantity: 1 }] })],
    });
    expect(res.status).toBe(404);
  });
});
