import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import {
  RETENTION_MESSAGE,
  SHIPMENT_LIST_COLUMNS,
  STALE_MESSAGE,
  type TShipment,
} from "../../../db/contracts/shipments";
import { documents, shipment_items, shipments } from "../../../db/schema";
import { buildContact, buildProduct, call, signUp } from "../../test/factories";
import { appOver, createTestContext, storedBytes, type TTestContext } from "../../test/setup";
import { attachDocuments } from "../documents/documents.service";
import { ELF, PDF, PNG } from "../documents/test-files";
import { shipmentsEntity } from "./shipments.entity";

type TWho = Awaited<ReturnType<typeof signUp>>;
type TSaved = { item: TShipment; status: { error: boolean; errorMessage?: string } };

let ctx: TTestContext;
let owner: TWho;
let stranger: TWho;
let exporter: number;
let importer: number;
let consignee: number;
let productA: number;
let productB: number;
let productC: number;
let strangerProduct: number;

async function created(who: TWho, path: string, body: unknown): Promise<number> {
  const res = await call(ctx, who.auth, "POST", path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { item: { id: number } }).item.id;
}

async function newDraft(who: TWho = owner): Promise<TShipment> {
  const res = await call(ctx, who.auth, "POST", "/api/shipments");
  expect(res.status).toBe(201);
  return ((await res.json()) as TSaved).item;
}

async function put(id: number, body: Record<string, unknown>, who: TWho = owner) {
  return call(ctx, who.auth, "PUT", `/api/shipments/${id}`, body);
}

async function get(id: number, who: TWho = owner): Promise<TShipment> {
  const res = await call(ctx, who.auth, "GET", `/api/shipments/${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as TSaved).item;
}

/** A complete shipment body based on `base` (its updated_at). */
function fullBody(base: TShipment, overrides: Record<string, unknown> = {}) {
  return {
    updated_at: base.updated_at,
    name: "Spectrum analysers to Rotterdam",
    exporter_of_record_id: exporter,
    importer_of_record_id: importer,
    ultimate_consignee_id: consignee,
    ship_date: "2026-03-14",
    shipper_reference_number: "PO-7781",
    consignee_reference_number: "SO-1200",
    carrier_id: 1,
    currency_id: 1,
    tracking_number_1: "1Z999AA10123456784",
    freight: "125.50",
    insurance: "30.25",
    shipping_status_id: 2,
    items: [
      { product_id: productA, quantity: 2 },
      { product_id: productB, quantity: 3 },
    ],
    packages: [
      {
        package_id: 1,
        quantity: 2,
        net_weight: "10.5",
        gross_weight: "12",
        length: 20,
        width: 15,
        height: "10.25",
      },
      { package_id: 4, quantity: 1, net_weight: 1, gross_weight: 1, length: 1, width: 1, height: 1 },
    ],
    ...overrides,
  };
}

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx);
  stranger = await signUp(ctx);
  exporter = await created(owner, "/api/contacts", buildContact({ company: "Tradewinds Instruments Inc." }));
  importer = await created(owner, "/api/contacts", buildContact({ company: "Rotterdam Meettechniek B.V." }));
  consignee = await created(owner, "/api/contacts", buildContact({ company: "Delft University Lab" }));
  productA = await created(owner, "/api/products", buildProduct(1, { unit_value: "0.10" }));
  productB = await created(owner, "/api/products", buildProduct(2, { unit_value: "0.20" }));
  productC = await created(owner, "/api/products", buildProduct(3, { unit_value: "999999.99" }));
  strangerProduct = await created(stranger, "/api/products", buildProduct(9));
});
afterAll(() => ctx.database.close());

describe("create, blank form, get", () => {
  test("POST with no body creates a draft signed by the caller; GET answers it with its embedded objects", async () => {
    const res = await call(ctx, owner.auth, "POST", "/api/shipments");
    expect(res.status).toBe(201);
    const body = (await res.json()) as TSaved & { id: number };
    expect(body.status).toEqual({ error: false });
    expect(body.id).toBe(body.item.id);
    expect(body.item.shipping_status_id).toBe(2);
    expect(body.item.status).toEqual({ id: 2, name: "draft", label: "DRAFT", color: "yellow" });
    expect(body.item.user?.id).toBe(owner.user.id);
    expect(body.item.user?.signature_url).toBeNull();
    expect(body.item.user_name).toBe(`${owner.name} ${owner.surname}`);
    expect(body.item).not.toHaveProperty("workspace_id");
    expect(body.item.items).toEqual([]);
    expect(body.item.packages).toEqual([]);
    expect(body.item.documents).toEqual([]);
    expect(await get(body.id)).toEqual(body.item);
  });

  test("GET /create answers blank values and dictionaries without writing anything", async () => {
    const before = (await ctx.database.client.execute("select count(*) as n from shipments")).rows[0].n;
    const res = await call(ctx, owner.auth, "GET", "/api/shipments/create");
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      item: Record<string, unknown>;
      dictionaries: Record<string, { id: number; label: string }[]>;
      unit_values: Record<string, string>;
    };
    expect(body.item.id).toBeNull();
    expect(body.item.shipping_status_id).toBe(2);
    expect(body.item.freight).toBe("0.00");
    expect(body.dictionaries.contacts.map((c) => c.id)).toContain(exporter);
    expect(body.dictionaries.packages.length).toBeGreaterThan(0);
    expect(body.dictionaries.shipping_statuses.map((s) => s.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(body.unit_values[String(productC)]).toBe("999999.99");
    expect(body.unit_values[String(strangerProduct)]).toBeUndefined();
    const after = (await ctx.database.client.execute("select count(*) as n from shipments")).rows[0].n;
    expect(after).toBe(before);
  });
});

describe("PUT: the whole shipment", () => {
  test("stores fields and lines, computes totals itself and ignores the client's", async () => {
    const draft = await newDraft();
    const res = await put(
      draft.id,
      fullBody(draft, { total_value: "1.00", total_invoice_value: "2.00", total_pieces: 99 }),
    );
    expect(res.status).toBe(200);
    const { item, status } = (await res.json()) as TSaved;
    expect(status).toEqual({ error: false });
    expect(item.items.map((l) => [l.product_id, l.quantity, l.extended_value])).toEqual([
      [productA, 2, "0.20"],
      [productB, 3, "0.60"],
    ]);
    expect(item.total_value).toBe("0.80");
    expect(item.total_invoice_value).toBe("156.55");
    expect(item.total_pieces).toBe(3);
    expect(item.packages[0]).toMatchObject({
      package_id: 1,
      package_name: "Box",
      net_weight: "10.500",
      gross_weight: "12.000",
      length: "20.00",
      height: "10.25",
    });
    expect(item.exporter_of_record).toMatchObject({ id: exporter, company: "Tradewinds Instruments Inc." });
    expect(item.carrier).toEqual({ id: 1, name: "FedEx" });
    expect(item.currency?.id).toBe(1);
    expect(item.ship_date).toBe("2026-03-14");
    expect(item.updated_at > draft.updated_at).toBe(true);
    expect(await get(draft.id)).toEqual(item);
  });

  test("what GET answers, PUT takes back unchanged (package weights in grams: '12.500', '0.125')", async () => {
    const draft = await newDraft();
    const first = await put(
      draft.id,
      fullBody(draft, {
        packages: [
          {
            package_id: 1,
            quantity: 1,
            net_weight: "0.125",
            gross_weight: "12.5",
            length: 1,
            width: 1,
            height: 1,
          },
        ],
      }),
    );
    expect(first.status).toBe(200);
    const stored = await get(draft.id);
    expect(stored.packages[0]).toMatchObject({ net_weight: "0.125", gross_weight: "12.500" });
    const again = await put(draft.id, { ...stored } as unknown as Record<string, unknown>);
    expect(again.status).toBe(200);
    expect(((await again.json()) as TSaved).item.packages[0]).toMatchObject({
      net_weight: "0.125",
      gross_weight: "12.500",
    });
    // A fourth decimal is still refused, naming the field.
    const latest = await get(draft.id);
    const bad = await put(draft.id, {
      ...latest,
      packages: [{ ...latest.packages[0], net_weight: "1.0005" }],
    } as unknown as Record<string, unknown>);
    expect(bad.status).toBe(422);
    const { errors } = (await bad.json()) as { errors: Record<string, string[]> };
    expect(errors["packages.0.net_weight"]?.[0]).toContain("at most 3 decimals");
  });

  test("a notify party from the address book is saved and embedded; another workspace's contact is refused", async () => {
    const draft = await newDraft();
    expect(draft).toMatchObject({ notify_party_id: null, notify_party: null });
    const res = await put(draft.id, fullBody(draft, { notify_party_id: consignee }));
    expect(res.status).toBe(200);
    const stored = await get(draft.id);
    expect(stored.notify_party_id).toBe(consignee);
    expect(stored.notify_party).toMatchObject({ id: consignee, company: "Delft University Lab" });
    const theirs = await created(stranger, "/api/contacts", buildContact({ company: "Not Yours Ltd" }));
    const bad = await put(draft.id, { ...stored, notify_party_id: theirs } as unknown as Record<
      string,
      unknown
    >);
    expect(bad.status).toBe(422);
    const { errors } = (await bad.json()) as { errors: Record<string, string[]> };
    expect(errors.notify_party_id?.[0]).toContain("notify party from your address book");
    expect((await get(draft.id)).notify_party_id).toBe(consignee);
  });

  test("invoice date, reason for export, Incoterm named place and marks are saved and answered", async () => {
    const draft = await newDraft();
    expect(draft).toMatchObject({
      invoice_date: null,
      reason_for_export: "",
      incoterm_place: "",
      marks_and_numbers: "",
    });
    const res = await put(
      draft.id,
      fullBody(draft, {
        invoice_date: "2026-12-10",
        reason_for_export: "repair_and_return",
        incoterm_place: "Rotterdam, Europoort terminal",
        marks_and_numbers: "RMT / ROTTERDAM / 1-3",
      }),
    );
    expect(res.status).toBe(200);
    expect(await get(draft.id)).toMatchObject({
      invoice_date: "2026-12-10",
      reason_for_export: "repair_and_return",
      incoterm_place: "Rotterdam, Europoort terminal",
      marks_and_numbers: "RMT / ROTTERDAM / 1-3",
    });
    const latest = await get(draft.id);
    const bad = await put(draft.id, {
      ...latest,
      reason_for_export: "smuggling",
      invoice_date: "2026-13-40",
    } as unknown as Record<string, unknown>);
    expect(bad.status).toBe(422);
    const { errors } = (await bad.json()) as { errors: Record<string, string[]> };
    expect(errors.reason_for_export?.[0]).toContain("repair_and_return");
    expect(errors.invoice_date?.[0]).toContain("YYYY-MM-DD");
  });

  test("totals are exact to the cent on awkward values (0.1 + 0.2, 999,999.99 × 1,000)", async () => {
    const draft = await newDraft();
    const res = await put(
      draft.id,
      fullBody(draft, {
        items: [
          { product_id: productA, quantity: 1 },
          { product_id: productB, quantity: 1 },
          { product_id: productC, quantity: 1000 },
        ],
        freight: "0.1",
        insurance: "0.2",
      }),
    );
    const { item } = (await res.json()) as TSaved;
    expect(item.items.map((l) => l.extended_value)).toEqual(["0.10", "0.20", "999999990.00"]);
    expect(item.total_value).toBe("999999990.30");
    expect(item.total_invoice_value).toBe("999999990.60");
  });

  test("lines are replaced as sent: kept ids stay, missing ones go, new ones are added", async () => {
    const draft = await newDraft();
    const first = ((await (await put(draft.id, fullBody(draft))).json()) as TSaved).item;
    const [lineA, lineB] = first.items;
    const second = await put(
      draft.id,
      fullBody(first, {
        items: [
          { id: lineB.id, product_id: productB, quantity: 5 },
          { product_id: productC, quantity: 1 },
        ],
        packages: [],
      }),
    );
    expect(second.status).toBe(200);
    const { item } = (await second.json()) as TSaved;
    expect(item.items.map((l) => l.product_id)).toEqual([productB, productC]);
    expect(item.items[0].id).toBe(lineB.id);
    expect(item.items.map((l) => l.id)).not.toContain(lineA.id);
    expect(item.items[0].extended_value).toBe("1.00");
    expect(item.packages).toEqual([]);
    expect(item.total_pieces).toBe(0);
    const rows = await ctx.database.db
      .select()
      .from(shipment_items)
      .where(eq(shipment_items.shipment_id, draft.id));
    expect(rows).toHaveLength(2);
  });

  test("two lines may swap products in one save", async () => {
    const draft = await newDraft();
    const first = ((await (await put(draft.id, fullBody(draft))).json()) as TSaved).item;
    const [a, b] = first.items;
    const res = await put(
      draft.id,
      fullBody(first, {
        items: [
          { id: a.id, product_id: productB, quantity: 1 },
          { id: b.id, product_id: productA, quantity: 1 },
        ],
      }),
    );
    expect(res.status).toBe(200);
    const { item } = (await res.json()) as TSaved;
    expect(item.items.map((l) => [l.id, l.product_id])).toEqual([
      [a.id, productB],
      [b.id, productA],
    ]);
  });

  test("leaving items and packages out keeps the stored lines (the list's status drop-down)", async () => {
    const draft = await newDraft();
    const first = ((await (await put(draft.id, fullBody(draft))).json()) as TSaved).item;
    const { items: _i, packages: _p, ...rest } = fullBody(first, { shipping_status_id: 3 });
    const res = await put(draft.id, rest);
    expect(res.status).toBe(200);
    const { item } = (await res.json()) as TSaved;
    expect(item.shipping_status_id).toBe(3);
    expect(item.status.label).toBe("IN TRANSIT");
    expect(item.items.map((l) => l.id)).toEqual(first.items.map((l) => l.id));
    expect(item.packages.map((l) => l.id)).toEqual(first.packages.map((l) => l.id));
    expect(item.total_value).toBe(first.total_value);
  });

  test("a draft saves whatever is filled, even nothing", async () => {
    const draft = await newDraft();
    const res = await put(draft.id, { updated_at: draft.updated_at, shipping_status_id: 2 });
    expect(res.status).toBe(200);
    const { item } = (await res.json()) as TSaved;
    expect(item.name).toBe("");
    expect(item.total_value).toBe("0.00");
  });

  test("the stored status is the one sent: an in-transit shipment is not turned back into a draft", async () => {
    const draft = await newDraft();
    const transit = (
      (await (await put(draft.id, fullBody(draft, { shipping_status_id: 3 }))).json()) as TSaved
    ).item;
    expect(transit.shipping_status_id).toBe(3);
    const { shipping_status_id: _s, ...withoutStatus } = fullBody(transit, { name: "Renamed" });
    const edited = ((await (await put(draft.id, withoutStatus)).json()) as TSaved).item;
    expect(edited.shipping_status_id).toBe(3);
    expect(edited.name).toBe("Renamed");
    const delivered = (
      (await (await put(draft.id, fullBody(edited, { shipping_status_id: 6 }))).json()) as TSaved
    ).item;
    expect(delivered.status).toEqual({ id: 6, name: "delivered", label: "DELIVERED", color: "green" });
  });
});

describe("PUT: 422s name the field and the line", () => {
  const errorsOf = async (res: Response) => {
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: Record<string, string[]>; status: { error: boolean } };
    expect(body.status.error).toBe(true);
    return body.errors;
  };

  test("duplicate product, quantity 0, weight 0.001, a duplicate package type", async () => {
    const draft = await newDraft();
    const errors = await errorsOf(
      await put(
        draft.id,
        fullBody(draft, {
          items: [
            { product_id: productA, quantity: 1 },
            { product_id: productB, quantity: 0 },
            { product_id: productA, quantity: 1.5 },
          ],
          packages: [
            {
              package_id: 1,
              quantity: 1,
              net_weight: "0.001",
              gross_weight: 1,
              length: 1,
              width: 1,
              height: 1,
            },
            { package_id: 1, quantity: 1, net_weight: 1, gross_weight: 1, length: 0, width: 1, height: 1 },
          ],
        }),
      ),
    );
    expect(errors["items.1.quantity"]).toEqual(["Enter a whole number of at least 1."]);
    expect(errors["items.2.quantity"]).toEqual(["Enter a whole number of at least 1."]);
    expect(errors["items.2.product_id"]?.[0]).toContain("already on line 1");
    expect(errors["packages.0.net_weight"]?.[0]).toContain("at least 0.01");
    expect(errors["packages.1.length"]?.[0]).toContain("at least 0.01");
    expect(errors["packages.1.package_id"]?.[0]).toContain("already on line 1");
    expect(await get(draft.id)).toEqual(draft);
  });

  test("a product of another workspace or one that does not exist names its line; nothing is stored", async () => {
    const draft = await newDraft();
    const errors = await errorsOf(
      await put(
        draft.id,
        fullBody(draft, {
          items: [
            { product_id: productA, quantity: 1 },
            { product_id: strangerProduct, quantity: 1 },
            { product_id: 987654, quantity: 1 },
          ],
          packages: [
            { package_id: 999, quantity: 1, net_weight: 1, gross_weight: 1, length: 1, width: 1, height: 1 },
          ],
          exporter_of_record_id: 987654,
        }),
      ),
    );
    expect(Object.keys(errors).sort()).toEqual([
      "exporter_of_record_id",
      "items.1.product_id",
      "items.2.product_id",
      "packages.0.package_id",
    ]);
    expect(errors["items.1.product_id"][0]).toContain("Line 2");
    expect(await get(draft.id)).toEqual(draft);
  });

  test("leaving draft without the required fields lists everything missing at once", async () => {
    const draft = await newDraft();
    const errors = await errorsOf(
      await put(draft.id, { updated_at: draft.updated_at, shipping_status_id: 3 }),
    );
    expect(Object.keys(errors).sort()).toEqual([
      "exporter_of_record_id",
      "importer_of_record_id",
      "items",
      "name",
      "total_value",
    ]);
    expect((await get(draft.id)).shipping_status_id).toBe(2);
  });

  test("asking for paperwork checks the required fields too; a complete shipment stores the selection", async () => {
    const draft = await newDraft();
    const errors = await errorsOf(
      await put(draft.id, { updated_at: draft.updated_at, name: "x", generate_documents: ["packing_list"] }),
    );
    expect(errors).toHaveProperty("items");
    // Without the paperwork generator (tested in server/features/paperwork) only the selection is stored.
    const bare = appOver(ctx, { shipments: { generateDocuments: undefined } });
    const ok = await bare.request(`/api/shipments/${draft.id}`, {
      method: "PUT",
      headers: { ...owner.auth, "content-type": "application/json" },
      body: JSON.stringify(fullBody(draft, { generate_documents: ["packing_list", "commercial_invoice"] })),
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as TSaved).item.generate_documents).toEqual([
      "packing_list",
      "commercial_invoice",
    ]);
  });

  test("bad body shapes: not an object, unknown status, a bad date, no updated_at", async () => {
    const draft = await newDraft();
    expect((await put(draft.id, [] as never)).status).toBe(422);
    const errors = await errorsOf(await put(draft.id, { shipping_status_id: 9, ship_date: "2026-02-30" }));
    expect(Object.keys(errors).sort()).toEqual(["ship_date", "shipping_status_id", "updated_at"]);
    const raw = await ctx.app.request(`/api/shipments/${draft.id}`, {
      method: "PUT",
      headers: { ...owner.auth, "content-type": "application/json" },
      body: "{not json",
    });
    expect(raw.status).toBe(400);
  });
});

describe("the paperwork hook (the paperwork generator plugs in here)", () => {
  test("is called after the save with only the types that have no document yet; its documents come back", async () => {
    const calls: string[][] = [];
    const app = appOver(ctx, {
      shipments: {
        async generateDocuments(c, shipment, types) {
          calls.push(types);
          await attachDocuments(
            c.var,
            {
              ownerColumn: "shipment_id",
              ownerId: shipment.id,
              workspaceId: owner.user.workspace_id,
              documentType: types[0],
            },
            [new File([new Uint8Array(PDF)], `${types[0]}.pdf`, { type: "application/pdf" })],
          );
        },
      },
    });
    const send = (id: number, body: unknown) =>
      app.request(`/api/shipments/${id}`, {
        method: "PUT",
        headers: { ...owner.auth, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const draft = await newDraft();
    const first = await send(draft.id, fullBody(draft, { generate_documents: ["packing_list"] }));
    expect(first.status).toBe(200);
    const saved = ((await first.json()) as TSaved).item;
    expect(calls).toEqual([["packing_list"]]);
    expect(saved.documents.map((d) => d.document_type)).toEqual(["packing_list"]);
    const second = await send(
      draft.id,
      fullBody(saved, { generate_documents: ["packing_list", "commercial_invoice"] }),
    );
    expect(second.status).toBe(200);
    expect(calls).toEqual([["packing_list"], ["commercial_invoice"]]);
    // Nothing new asked: no call.
    const third = ((await second.json()) as TSaved).item;
    expect((await send(draft.id, fullBody(third, { name: "again" }))).status).toBe(200);
    expect(calls).toHaveLength(2);
  });
});

describe("totals beyond what can be stored", () => {
  test("are a 422 naming total_value, not a crash", async () => {
    const huge = await created(owner, "/api/products", buildProduct(77, { unit_value: "9999999999999.99" }));
    const draft = await newDraft();
    const res = await put(draft.id, fullBody(draft, { items: [{ product_id: huge, quantity: 1_000_000 }] }));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors.total_value[0]).toContain(
      "too large",
    );
    expect(await get(draft.id)).toEqual(draft);
  });
});

describe("no lost updates", () => {
  test("a PUT based on an old updated_at is a 409 with the current shipment, and changes nothing", async () => {
    const draft = await newDraft();
    const tabA = ((await (await put(draft.id, fullBody(draft))).json()) as TSaved).item;
    // Tab B still holds the draft as first loaded.
    const stale = await put(draft.id, fullBody(draft, { name: "Tab B's edit", items: [] }));
    expect(stale.status).toBe(409);
    const body = (await stale.json()) as TSaved;
    expect(body.status).toEqual({ error: true, errorMessage: STALE_MESSAGE });
    expect(body.item).toEqual(tabA);
    expect(await get(draft.id)).toEqual(tabA);
    // Based on the current version, the same edit goes through.
    expect((await put(draft.id, fullBody(tabA, { name: "Tab B's edit" }))).status).toBe(200);
  });

  test("two saves in a row each get a new updated_at", async () => {
    const draft = await newDraft();
    const one = ((await (await put(draft.id, { updated_at: draft.updated_at })).json()) as TSaved).item;
    const two = ((await (await put(draft.id, { updated_at: one.updated_at })).json()) as TSaved).item;
    expect(two.updated_at > one.updated_at).toBe(true);
  });
});

describe("templates", () => {
  test("save as template copies parties, lines, details, freight and insurance; not ship date, tracking or documents", async () => {
    const draft = await newDraft();
    const source = ((await (await put(draft.id, fullBody(draft))).json()) as TSaved).item;
    await ctx.app.request(`/api/shipments/custom-docs/${draft.id}`, upload(owner, "note.png"));
    const res = await call(ctx, owner.auth, "POST", `/api/shipments/${draft.id}/template`, {
      name: "Rotterdam run",
    });
    expect(res.status).toBe(201);
    const { id, item } = (await res.json()) as TSaved & { id: number };
    expect(id).not.toBe(draft.id);
    expect(item).toMatchObject({
      name: "Rotterdam run",
      shipping_status_id: 1,
      exporter_of_record_id: exporter,
      importer_of_record_id: importer,
      ultimate_consignee_id: consignee,
      freight: "125.50",
      insurance: "30.25",
      shipper_reference_number: "PO-7781",
      total_value: source.total_value,
      ship_date: null,
      tracking_number_1: "",
      tracking_number_2: "",
      documents: [],
    });
    expect(item.items.map((l) => [l.product_id, l.quantity])).toEqual(
      source.items.map((l) => [l.product_id, l.quantity]),
    );
    expect(item.packages.map((l) => l.package_id)).toEqual(source.packages.map((l) => l.package_id));

    const templates = (await (
      await call(ctx, owner.auth, "GET", "/api/shipments?page=1&per_page=100&filters[status]=template")
    ).json()) as { data: TShipment[] };
    expect(templates.data.map((t) => t.id)).toContain(id);
    expect(templates.data.every((t) => t.shipping_status_id === 1)).toBe(true);
    const mine = (await (await call(ctx, owner.auth, "GET", "/api/shipments?per_page=100")).json()) as {
      data: TShipment[];
    };
    expect(mine.data.map((t) => t.id)).not.toContain(id);
    const dict = (await (
      await call(ctx, owner.auth, "GET", "/api/dictionary?dropdown_values[]=templates")
    ).json()) as { data: { templates: { id: number; label: string }[] } };
    expect(dict.data.templates).toContainEqual({ id, label: "Rotterdam run" });
  });

  test("a template needs a name", async () => {
    const draft = await newDraft();
    const res = await call(ctx, owner.auth, "POST", `/api/shipments/${draft.id}/template`, { name: " " });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors.name).toEqual([
      "This field is required.",
    ]);
  });
});

describe("list", () => {
  test("filters by reference, tracking number, ship-date range and status; sorts; rows embed parties", async () => {
    const draft = await newDraft();
    const saved = (
      (await (
        await put(
          draft.id,
          fullBody(draft, {
            shipper_reference_number: "LIST-REF-42",
            tracking_number_2: "TRK-ZZ-9",
            ship_date: "2025-07-04",
            shipping_status_id: 5,
          }),
        )
      ).json()) as TSaved
    ).item;
    const list = async (query: string) => {
      const res = await call(ctx, owner.auth, "GET", `/api/shipments?${query}`);
      expect(res.status, query).toBe(200);
      return (await res.json()) as { data: (TShipment & Record<string, unknown>)[]; total: number };
    };
    for (const query of [
      "filters[shipper_reference_number]=list-ref-42",
      "filters[tracking_number_2]=zz-9",
      "filters[ship_date]=2025-07-01..2025-07-31",
      "filters[status]=delayed",
      "filters[status]=5",
    ]) {
      expect(
        (await list(query)).data.map((d) => d.id),
        query,
      ).toContain(saved.id);
    }
    expect((await list("filters[ship_date]=2025-08-01..")).data.map((d) => d.id)).not.toContain(saved.id);
    expect((await list("filters[status]=delivered")).data.map((d) => d.id)).not.toContain(saved.id);
    const row = (await list("filters[shipper_reference_number]=LIST-REF-42")).data[0];
    expect(row.importer_of_record).toMatchObject({ id: importer, company: "Rotterdam Meettechniek B.V." });
    expect(row.status.label).toBe("DELAYED");
    expect(row).not.toHaveProperty("items");
    const byDate = (await list("sort_ship_date=asc&per_page=100")).data.map((d) => d.ship_date ?? "");
    expect(byDate).toEqual([...byDate].sort());
    const res = await call(ctx, owner.auth, "GET", "/api/shipments?filters[status]=lost");
    expect(res.status).toBe(422);
    expect((await call(ctx, owner.auth, "GET", "/api/shipments?sort_bogus=asc")).status).toBe(422);
    expect((await list("")).data.every((d) => d.shipping_status_id !== 1)).toBe(true);
  });
});

describe("list totals", () => {
  test("follow every create, status change and delete at once (the count cache is retired by writes)", async () => {
    const total = async (query = "") =>
      ((await (await call(ctx, owner.auth, "GET", `/api/shipments?${query}`)).json()) as { total: number })
        .total;
    const before = await total();
    const beforeDelayed = await total("filters[status]=5");
    const draft = await newDraft();
    expect(await total()).toBe(before + 1);
    await put(draft.id, fullBody(draft, { shipping_status_id: 5 }));
    expect(await total("filters[status]=5")).toBe(beforeDelayed + 1);
    await call(ctx, owner.auth, "DELETE", `/api/shipments/${draft.id}`);
    expect(await total()).toBe(before);
    expect(await total("filters[status]=5")).toBe(beforeDelayed);
  });
});

describe("the contract's list columns", () => {
  test("are exactly the ones the server sorts and filters by", () => {
    const served = Object.fromEntries(
      Object.entries(shipmentsEntity.columns).map(([key, c]) => [
        key,
        { sortable: Boolean(c.sortable), filter: c.filter === "custom" ? "status" : c.filter },
      ]),
    );
    const promised = Object.fromEntries(
      Object.entries(SHIPMENT_LIST_COLUMNS).map(([key, c]) => [
        key,
        { sortable: "sortable" in c && c.sortable, filter: "filter" in c ? (c.filter as string) : undefined },
      ]),
    );
    expect(promised).toEqual(served);
  });
});

describe("contacts' last_shipment_date", () => {
  const lastDate = async (id: number) =>
    (
      (await (await call(ctx, owner.auth, "GET", `/api/contacts/${id}`)).json()) as {
        item: { last_shipment_date: string | null };
      }
    ).item.last_shipment_date;

  test("follows every save and delete; templates do not count", async () => {
    const partyA = await created(owner, "/api/contacts", buildContact());
    const partyB = await created(owner, "/api/contacts", buildContact());
    const one = await newDraft();
    const two = await newDraft();
    const oneSaved = (
      (await (
        await put(one.id, fullBody(one, { exporter_of_record_id: partyA, ship_date: "2026-01-10" }))
      ).json()) as TSaved
    ).item;
    await put(two.id, fullBody(two, { exporter_of_record_id: partyA, ship_date: "2026-02-20" }));
    expect(await lastDate(partyA)).toBe("2026-02-20");
    // Template copies of a later date do not count.
    await call(ctx, owner.auth, "POST", `/api/shipments/${one.id}/template`, { name: "T" });
    expect(await lastDate(partyA)).toBe("2026-02-20");
    // Moving shipment two to another party updates both.
    const twoNow = await get(two.id);
    await put(two.id, fullBody(twoNow, { exporter_of_record_id: partyB, ship_date: "2026-02-20" }));
    expect(await lastDate(partyA)).toBe("2026-01-10");
    expect(await lastDate(partyB)).toBe("2026-02-20");
    expect((await call(ctx, owner.auth, "DELETE", `/api/shipments/${two.id}`)).status).toBe(200);
    expect(await lastDate(partyB)).toBeNull();
    await put(one.id, fullBody(oneSaved, { exporter_of_record_id: partyA, ship_date: "2026-05-01" }));
    expect(await lastDate(partyA)).toBe("2026-05-01");
  });
});

function upload(who: TWho, ...names: string[]) {
  const form = new FormData();
  for (const name of names)
    form.append("documents[]", new File([new Uint8Array(PNG)], name, { type: "image/png" }));
  return { method: "POST", headers: who.auth, body: form };
}

describe("documents", () => {
  test("custom documents upload as type custom, download, and delete with their file", async () => {
    const draft = await newDraft();
    const res = await ctx.app.request(
      `/api/shipments/custom-docs/${draft.id}`,
      upload(owner, "a.png", "b.png"),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as TSaved & { documents: { id: number }[]; failed: unknown[] };
    expect(body.failed).toEqual([]);
    expect(body.item.documents.map((d) => [d.original_name, d.document_type])).toEqual([
      ["a.png", "custom"],
      ["b.png", "custom"],
    ]);
    const doc = body.item.documents[0];
    expect(doc.url).toBe(`/api/shipments/documents/${doc.id}`);
    const download = await call(ctx, owner.auth, "GET", doc.url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/png");
    const [row] = await ctx.database.db.select().from(documents).where(eq(documents.id, doc.id));
    expect(await storageHas(row.storage_key)).toBe(true);
    const del = await call(ctx, owner.auth, "DELETE", `/api/shipments/documents/${draft.id}/${doc.id}`);
    expect(del.status).toBe(200);
    expect(((await del.json()) as TSaved).item.documents.map((d) => d.id)).toEqual([
      body.item.documents[1].id,
    ]);
    expect(await storageHas(row.storage_key)).toBe(false);
    expect((await call(ctx, owner.auth, "GET", doc.url)).status).toBe(404);
  });

  test("an upload without files or of a refused type is a 422", async () => {
    const draft = await newDraft();
    const empty = await ctx.app.request(`/api/shipments/custom-docs/${draft.id}`, {
      method: "POST",
      headers: owner.auth,
      body: new FormData(),
    });
    expect(empty.status).toBe(422);
    const form = new FormData();
    form.append("documents[]", new File([new Uint8Array(ELF)], "run.sh"));
    const bad = await ctx.app.request(`/api/shipments/custom-docs/${draft.id}`, {
      method: "POST",
      headers: owner.auth,
      body: form,
    });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { failed: { message: string }[] }).failed[0].message).toBe(
      "run.sh file upload failed.",
    );
  });
});

/** Whether the app's upload storage still holds the key. */
async function storageHas(key: string): Promise<boolean> {
  return (await storedBytes(ctx, key)) !== null;
}

describe("line deletes", () => {
  test("deleting an item or package line recomputes the totals; a line of another shipment is a 404", async () => {
    const draft = await newDraft();
    const saved = ((await (await put(draft.id, fullBody(draft))).json()) as TSaved).item;
    const other = await newDraft();
    const otherSaved = ((await (await put(other.id, fullBody(other))).json()) as TSaved).item;
    const res = await call(
      ctx,
      owner.auth,
      "DELETE",
      `/api/shipments/items/${draft.id}/${saved.items[1].id}`,
    );
    expect(res.status).toBe(200);
    const { item } = (await res.json()) as TSaved;
    expect(item.items.map((l) => l.id)).toEqual([saved.items[0].id]);
    expect(item.total_value).toBe("0.20");
    expect(item.total_invoice_value).toBe("155.95");
    const pkg = await call(
      ctx,
      owner.auth,
      "DELETE",
      `/api/shipments/packages/${draft.id}/${saved.packages[0].id}`,
    );
    expect(((await pkg.json()) as TSaved).item.total_pieces).toBe(1);
    expect(
      (await call(ctx, owner.auth, "DELETE", `/api/shipments/items/${draft.id}/${otherSaved.items[0].id}`))
        .status,
    ).toBe(404);
    expect((await get(other.id)).items).toHaveLength(2);
  });
});

describe("delete and the 15 CFR 762 rule", () => {
  async function withGeneratedPaperwork(status: number) {
    const draft = await newDraft();
    await put(draft.id, fullBody(draft, { shipping_status_id: status }));
    // Paperwork generation is tested in server/features/paperwork; a generated document is a documents row of a generated type.
    await ctx.database.db.insert(documents).values({
      workspace_id: owner.user.workspace_id,
      shipment_id: draft.id,
      document_type: "commercial_invoice",
      original_name: "commercial-invoice.pdf",
      extension: "pdf",
      content_type: "application/pdf",
      size: 10,
      storage_key: `documents/test-${draft.id}-${Math.random()}`,
    });
    return draft.id;
  }

  test("a shipment that left draft with generated paperwork needs force; forcing deletes it", async () => {
    const id = await withGeneratedPaperwork(6);
    const res = await call(ctx, owner.auth, "DELETE", `/api/shipments/${id}`);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      result: false,
      messages: [RETENTION_MESSAGE],
      metadata: { force_flag: true },
    });
    expect(RETENTION_MESSAGE).toContain("15 CFR part 762");
    expect((await get(id)).id).toBe(id);
    const forced = await call(ctx, owner.auth, "DELETE", `/api/shipments/${id}?force=1`);
    expect(forced.status).toBe(200);
    expect((await call(ctx, owner.auth, "GET", `/api/shipments/${id}`)).status).toBe(404);
    expect(await ctx.database.db.select().from(documents).where(eq(documents.shipment_id, id))).toEqual([]);
    expect(
      await ctx.database.db.select().from(shipment_items).where(eq(shipment_items.shipment_id, id)),
    ).toEqual([]);
  });

  test("drafts (even with paperwork), templates and shipments without paperwork delete directly", async () => {
    const draftWithPaper = await withGeneratedPaperwork(2);
    expect((await call(ctx, owner.auth, "DELETE", `/api/shipments/${draftWithPaper}`)).status).toBe(200);
    const plain = await newDraft();
    await put(plain.id, fullBody(plain, { shipping_status_id: 3 }));
    expect((await call(ctx, owner.auth, "DELETE", `/api/shipments/${plain.id}`)).status).toBe(200);
    const template = await call(ctx, owner.auth, "POST", `/api/shipments/${(await newDraft()).id}/template`, {
      name: "T",
    });
    const templateId = ((await template.json()) as { id: number }).id;
    expect((await call(ctx, owner.auth, "DELETE", `/api/shipments/${templateId}`)).status).toBe(200);
  });
});

describe("workspace isolation", () => {
  test("every shipment endpoint answers 404 for another workspace's shipment, line or document", async () => {
    const draft = await newDraft();
    const saved = ((await (await put(draft.id, fullBody(draft))).json()) as TSaved).item;
    await ctx.app.request(`/api/shipments/custom-docs/${draft.id}`, upload(owner, "c.png"));
    const doc = (await get(draft.id)).documents[0];
    for (const [method, path, body] of [
      ["GET", `/api/shipments/${draft.id}`, undefined],
      ["GET", `/api/shipments/${draft.id}/edit`, undefined],
      ["GET", `/api/shipments/${draft.id}/signature`, undefined],
      ["PUT", `/api/shipments/${draft.id}`, fullBody(saved, { items: [], packages: [] })],
      ["PUT", `/api/shipments/${draft.id}`, { updated_at: saved.updated_at, shipping_status_id: 9 }],
      ["POST", `/api/shipments/${draft.id}/template`, { name: "Mine now" }],
      ["DELETE", `/api/shipments/items/${draft.id}/${saved.items[0].id}`, undefined],
      ["DELETE", `/api/shipments/packages/${draft.id}/${saved.packages[0].id}`, undefined],
      ["DELETE", `/api/shipments/documents/${draft.id}/${doc.id}`, undefined],
      ["GET", `/api/shipments/documents/${doc.id}`, undefined],
      ["DELETE", `/api/shipments/${draft.id}?force=1`, undefined],
    ] as const) {
      expect((await call(ctx, stranger.auth, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    const upload404 = await ctx.app.request(
      `/api/shipments/custom-docs/${draft.id}`,
      upload(stranger, "x.png"),
    );
    expect(upload404.status).toBe(404);
    const theirList = (await (
      await call(ctx, stranger.auth, "GET", "/api/shipments?per_page=100")
    ).json()) as {
      data: { id: number }[];
    };
    expect(theirList.data.map((d) => d.id)).not.toContain(draft.id);
    // The stranger's own party ids are refused too.
    const theirDraft = await newDraft(stranger);
    const res = await put(
      theirDraft.id,
      {
        updated_at: theirDraft.updated_at,
        exporter_of_record_id: exporter,
        items: [{ product_id: productA, quantity: 1 }],
      },
      stranger,
    );
    expect(res.status).toBe(422);
    expect(await get(draft.id)).toEqual({ ...saved, documents: [doc] });
    const rows = await ctx.database.db.select().from(shipments).where(eq(shipments.id, draft.id));
    expect(rows).toHaveLength(1);
  });

  test("without a session every endpoint is a 401", async () => {
    for (const [method, path] of [
      ["GET", "/api/shipments"],
      ["POST", "/api/shipments"],
      ["GET", "/api/shipments/create"],
      ["GET", "/api/shipments/1"],
      ["PUT", "/api/shipments/1"],
      ["DELETE", "/api/shipments/1"],
      ["DELETE", "/api/shipments/items/1/1"],
      ["POST", "/api/shipments/custom-docs/1"],
    ] as const) {
      expect((await ctx.app.request(path, { method })).status, `${method} ${path}`).toBe(401);
    }
  });
});
