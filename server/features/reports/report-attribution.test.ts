/**
 * The report's 'by user' dimension: every line names the member who created its shipment and the
 * one who saved it last, in JSON, Arrow (by key and by label) and summaries, and keeps naming a
 * member after they are removed from the workspace.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { tableFromIPC } from "apache-arrow";
import {
  ARROW_STREAM_TYPE,
  REPORT_ATTRIBUTES,
  REPORT_GROUPABLE,
  type TReportRecord,
} from "../../../db/contracts/reports";
import { call, joinAs, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { insertReportProduct, insertReportShipment } from "./report-fixtures";
import { stopReportReadPool } from "./report-read-pool";

let ctx: TTestContext;
let admin: Awaited<ReturnType<typeof signUp>>;
let shipper: Awaited<ReturnType<typeof joinAs>>;
let ids: Record<string, number>;

const label = (name: string) => REPORT_ATTRIBUTES.find((a) => a.name === name)!.label;
const fullName = (who: { name: string; surname: string }) => `${who.name} ${who.surname}`;

/** The list of a shipment's lines in `out`, started when it is the first. */
function linesOf(out: Record<number, [unknown, unknown][]>, id: unknown): [unknown, unknown][] {
  const key = Number(id);
  if (!out[key]) out[key] = [];
  return out[key];
}

/** Per shipment id, its lines' [created_by, last_edited_by], from JSON. */
async function jsonAttribution(): Promise<Record<number, [unknown, unknown][]>> {
  const res = await ctx.app.request("/api/reports-data", { headers: admin.auth });
  expect(res.status).toBe(200);
  const { data } = (await res.json()) as { data: TReportRecord[] };
  const out: Record<number, [unknown, unknown][]> = {};
  for (const r of data) linesOf(out, r.shipment_id).push([r.created_by, r.last_edited_by]);
  return out;
}

/** The same from Arrow, its columns named by key or by label. */
async function arrowAttribution(names: "keys" | "labels"): Promise<Record<number, [unknown, unknown][]>> {
  const res = await ctx.app.request(`/api/reports-data?names=${names}`, {
    headers: { ...admin.auth, accept: ARROW_STREAM_TYPE },
  });
  expect(res.status).toBe(200);
  const table = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
  const column = (name: string) => table.getChild(names === "keys" ? name : label(name))!;
  const out: Record<number, [unknown, unknown][]> = {};
  for (let i = 0; i < table.numRows; i++) {
    linesOf(out, column("shipment_id").get(i)).push([
      column("created_by").get(i),
      column("last_edited_by").get(i),
    ]);
  }
  return out;
}

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await signUp(ctx);
  shipper = await joinAs(ctx, admin, ["shipper"]);
  const db = ctx.database.db;
  const ws = admin.user.workspace_id;
  const fuse = await insertReportProduct(db, ws, { name: "Fuse" });
  const probe = await insertReportProduct(db, ws, { name: "Probe" });
  const lines = [
    { product_id: fuse, quantity: 2, extended_value: "0.20" },
    { product_id: probe, quantity: 1, extended_value: "100.00" },
  ];
  ids = {
    // The admin's, never edited by anyone else.
    byAdmin: await insertReportShipment(db, ws, { items: lines, user_id: admin.user.id }),
    // The shipper's, saved last by the admin.
    byShipper: await insertReportShipment(db, ws, {
      items: lines,
      user_id: shipper.user.id,
      updated_by_user_id: admin.user.id,
    }),
    // The admin's, saved last by the shipper.
    editedByShipper: await insertReportShipment(db, ws, {
      items: [lines[0]],
      user_id: admin.user.id,
      updated_by_user_id: shipper.user.id,
    }),
    // From before attribution: nobody.
    unattributed: await insertReportShipment(db, ws, { items: [lines[1]] }),
  };
});

afterAll(() => {
  stopReportReadPool();
  ctx.database.close();
});

describe("created by and last edited by", () => {
  test("read as 'Created by' and 'Last edited by', both offered to group by", async () => {
    expect(label("created_by")).toBe("Created by");
    expect(label("last_edited_by")).toBe("Last edited by");
    expect(REPORT_GROUPABLE).toContain("created_by");
    expect(REPORT_GROUPABLE).toContain("last_edited_by");
    const res = await ctx.app.request("/api/reports-attributes", { headers: admin.auth });
    const { data } = (await res.json()) as { data: { name: string; label: string; type: string }[] };
    expect(data.filter((a) => a.name === "created_by" || a.name === "last_edited_by")).toEqual([
      expect.objectContaining({ name: "created_by", label: "Created by", type: "string" }),
      expect.objectContaining({ name: "last_edited_by", label: "Last edited by", type: "string" }),
    ]);
  });

  const expected = (): Record<number, [unknown, unknown][]> => ({
    [ids.byAdmin]: [
      [fullName(admin), null],
      [fullName(admin), null],
    ],
    [ids.byShipper]: [
      [fullName(shipper), fullName(admin)],
      [fullName(shipper), fullName(admin)],
    ],
    [ids.editedByShipper]: [[fullName(admin), fullName(shipper)]],
    [ids.unattributed]: [[null, null]],
  });

  test("every line names its shipment's creator and last editor, in JSON and Arrow", async () => {
    expect(await jsonAttribution()).toEqual(expected());
    expect(await arrowAttribution("keys")).toEqual(expected());
    expect(await arrowAttribution("labels")).toEqual(expected());
  });

  test("a summary by creator counts each member's lines and sums their values", async () => {
    const res = await ctx.app.request("/api/reports-data?group_by=created_by&sum=quantity,extended_value", {
      headers: admin.auth,
    });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: TReportRecord[] };
    const byCreator = Object.fromEntries(
      data.map((r) => [String(r.created_by), [Number(r.quantity), String(r.extended_value)]]),
    );
    expect(byCreator).toEqual({
      [fullName(admin)]: [5, "100.40"],
      [fullName(shipper)]: [3, "100.20"],
      null: [1, "100.00"],
    });
  });

  test("a removed member still names the lines they created and edited", async () => {
    const removed = await call(ctx, admin.auth, "DELETE", `/api/workspace/members/${shipper.user.id}`);
    expect(removed.status).toBe(200);
    expect(await jsonAttribution()).toEqual(expected());
    expect(await arrowAttribution("keys")).toEqual(expected());
  });
});
