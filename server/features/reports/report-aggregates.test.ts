// The pivot's aggregates on report lines: Perspective's own engine (the one the /reports viewer runs,
// here under Bun) fed the Arrow stream the screen downloads, checked against SQL written
// independently over the same database.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import perspective from "@perspective-dev/client/node";
import { signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import {
  insertBulkLines,
  insertReportContact,
  insertReportProduct,
  LINE_AGGREGATE_CASES,
} from "./report-fixtures";

let ctx: TTestContext;
let ws: number;
type TTable = Awaited<ReturnType<typeof perspective.table>>;
let table: TTable;

beforeAll(async () => {
  ctx = await createTestContext();
  const owner = await signUp(ctx);
  ws = owner.user.workspace_id;
  const db = ctx.database.db;
  const productIds: number[] = [];
  for (let i = 0; i < 7; i++) productIds.push(await insertReportProduct(db, ws, { name: `Part ${i}` }));
  const contactIds: number[] = [];
  for (let i = 0; i < 5; i++) contactIds.push(await insertReportContact(db, ws, { country_id: 1 + i }));
  // 97 shipments × 4 lines, five statuses, USD and AED (at 0.2723) alternating.
  await insertBulkLines(db, ws, { shipments: 97, itemsPer: 4, productIds, contactIds });
  const res = await ctx.app.request("/api/reports-data?format=arrow", { headers: owner.auth });
  expect(res.status).toBe(200);
  table = await perspective.table(await res.arrayBuffer());
});

afterAll(async () => {
  await table?.delete();
  ctx.database.close();
});

/** One row per status, by SQL: the lines of the workspace (templates aside) in item-id order. */
async function sqlByStatus(select: string): Promise<Map<string, number>> {
  const result = await ctx.database.client.execute({
    sql: `select upper(st.label), ${select}
      from shipment_items i
      join shipments s on s.id = i.shipment_id
      join shipping_statuses st on st.id = s.shipping_status_id
      join products p on p.id = i.product_id
      join currencies c on c.id = s.currency_id
      where s.workspace_id = ? and s.shipping_status_id <> 1
      group by 1`,
    args: [ws],
  });
  return new Map(result.rows.map((r) => [String(r[0]), Number(r[1])]));
}

/** The engine's value per status for one column and aggregate (the grand total row left out). */
async function pivotByStatus(column: string, aggregate: string): Promise<Map<string, number>> {
  const view = await table.view({
    group_by: ["status"],
    columns: [column],
    aggregates: { [column]: aggregate },
  });
  const columns = (await view.to_columns()) as Record<string, unknown[]>;
  await view.delete();
  const paths = columns.__ROW_PATH__ as unknown[][];
  const out = new Map<string, number>();
  paths.forEach((path, i) => {
    if (path.length === 1) out.set(String(path[0]), Number(columns[column][i]));
  });
  return out;
}

// The first and last line of each status, by item id (the order the stream sends lines in).
const FIRST = (expr: string) =>
  `(select ${expr} from shipment_items i2 join shipments s2 on s2.id = i2.shipment_id join products p on p.id = i2.product_id
    where s2.workspace_id = s.workspace_id and s2.shipping_status_id = s.shipping_status_id order by i2.id limit 1)`;
const LAST = (expr: string) => FIRST(expr).replace("order by i2.id", "order by i2.id desc");
const CASES: [column: string, aggregate: string, sql: string][] = [
  ...LINE_AGGREGATE_CASES,
  ["product_name", "distinct count", "count(distinct p.name)"],
  ["shipment_id", "distinct count", "count(distinct s.id)"],
  ["quantity", "first", FIRST("i2.quantity")],
  ["quantity", "last", LAST("i2.quantity")],
  ["extended_value", "first", FIRST("i2.extended_value / 100.0")],
];

describe("the viewer's aggregates over report lines agree with SQL", () => {
  for (const [column, aggregate, select] of CASES) {
    test(`${aggregate} of ${column} by status`, async () => {
      const expected = await sqlByStatus(select);
      const actual = await pivotByStatus(column, aggregate);
      expect(expected.size).toBe(5);
      expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [status, value] of expected) expect(actual.get(status)!).toBeCloseTo(value, 6);
    });
  }
});
