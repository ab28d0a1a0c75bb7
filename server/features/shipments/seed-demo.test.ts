import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { computeShipmentTotals } from "../../../db/contracts/shipments";
import { runCli } from "../../cli";
import { json } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemo } from "./seed-demo";

const OPTIONS = { shipments: 300, seed: 42, today: "2026-11-22" };

/** Everything the demo wrote, without the timestamps the database sets on the login itself. */
async function dump(ctx: TTestContext) {
  const query = async (sql: string) => (await ctx.database.client.execute(sql)).rows.map((r) => ({ ...r }));
  return {
    contacts: await query("select * from contacts order by id"),
    products: await query("select * from products order by id"),
    licenses: await query("select * from licenses order by id"),
    shipments: await query("select * from shipments order by id"),
    items: await query("select * from shipment_items order by id"),
    packages: await query("select * from shipment_packages order by id"),
  };
}

let one: TTestContext;
let two: TTestContext;
beforeAll(async () => {
  [one, two] = await Promise.all([createTestContext(), createTestContext()]);
});
afterAll(() => {
  one.database.close();
  two.database.close();
});

describe("seed-demo", () => {
  test("the same seed and day give the same data; another seed gives other data", async () => {
    await seedDemo(one.database.db, one.database.client, OPTIONS);
    await seedDemo(two.database.db, two.database.client, OPTIONS);
    const first = await dump(one);
    expect(first.shipments).toHaveLength(300 + 3);
    expect(await dump(two)).toEqual(first);
    const other = await seedDemo(two.database.db, two.database.client, {
      ...OPTIONS,
      seed: 43,
      email: "other@tradewinds.local",
    });
    const otherShipments = (
      await two.database.client.execute({
        sql: "select name, total_value from shipments where workspace_id = ? order by id",
        args: [other.workspaceId],
      })
    ).rows.map((r) => ({ ...r }));
    expect(otherShipments).not.toEqual(
      first.shipments.map((s) => ({ name: s.name, total_value: s.total_value })),
    );
  });

  test("every status, two years of ship dates, 3 items and 2 packages each, totals by the shared arithmetic", async () => {
    const { shipments, items, packages, contacts } = await dump(one);
    expect(new Set(shipments.map((s) => s.shipping_status_id))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    const dates = shipments.map((s) => s.ship_date).filter(Boolean) as string[];
    expect(dates.every((d) => d >= "2024-11-21" && d <= "2026-11-22")).toBe(true);
    expect(dates.some((d) => d < "2025-06-01")).toBe(true);
    expect(shipments.filter((s) => s.shipping_status_id === 1).every((s) => s.ship_date === null)).toBe(true);
    // 'Last Updated' is never in the future, whenever on `today` the data is seeded or read.
    expect(shipments.every((s) => String(s.updated_at) < "2026-11-22")).toBe(true);
    expect(shipments.every((s) => String(s.created_at) <= String(s.updated_at))).toBe(true);
    for (const shipment of shipments) {
      const lines = items.filter((i) => i.shipment_id === shipment.id);
      const pieces = packages.filter((p) => p.shipment_id === shipment.id);
      expect(lines).toHaveLength(3);
      expect(pieces).toHaveLength(2);
      const totals = computeShipmentTotals({
        items: lines.map((l) => ({ unit_value: (Number(l.extended_value) / 100).toFixed(2), quantity: 1 })),
        packages: pieces.map((p) => ({ quantity: Number(p.quantity) })),
        freight: (Number(shipment.freight) / 100).toFixed(2),
        insurance: (Number(shipment.insurance) / 100).toFixed(2),
      });
      expect(Number(shipment.total_value)).toBe(lines.reduce((sum, l) => sum + Number(l.extended_value), 0));
      expect((Number(shipment.total_invoice_value) / 100).toFixed(2)).toBe(totals.total_invoice_value);
      expect(Number(shipment.total_pieces)).toBe(totals.total_pieces);
    }
    const countries = new Set(contacts.map((c) => c.country_id));
    expect(countries.size).toBeGreaterThan(20);
    expect(contacts.some((c) => c.last_shipment_date !== null)).toBe(true);
  });

  test("the printed login works, its workspace sees the shipments, and a second run refuses the same login", async () => {
    const login = await one.app.request(
      "/api/login",
      json({ email: DEMO_EMAIL, password: DEMO_PASSWORD, rememberMe: false }),
    );
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const list = await one.app.request("/api/shipments?per_page=5", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(((await list.json()) as { total: number }).total).toBe(300);
    await expect(seedDemo(one.database.db, one.database.client, OPTIONS)).rejects.toThrow("already exists");
  });

  test("tradewinds seed-demo --help explains the options without touching a database", async () => {
    const lines: string[] = [];
    const log = console.log;
    console.log = (line: string) => lines.push(line);
    const noRuntime = () => {
      throw new Error("--help must not need the runtime");
    };
    try {
      const code = await runCli(["seed-demo", "--help"], {
        migrationsFolder: noRuntime,
        screeningListsFolder: noRuntime,
        assets: noRuntime,
        render: noRuntime,
        self: [],
      });
      expect(code).toBe(0);
    } finally {
      console.log = log;
    }
    expect(lines.join("\n")).toContain("--shipments N");
  });
});
