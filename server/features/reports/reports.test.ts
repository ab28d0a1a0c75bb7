import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type Table, Type, tableFromIPC } from "apache-arrow";
import {
  ARROW_STREAM_TYPE,
  REPORT_ATTRIBUTES,
  REPORT_GROUPABLE,
  REPORT_JSON_MAX_LINES,
  REPORT_SUMMABLE,
  REPORT_SUMMARY_MAX_RECORDS,
  type TReportRecord,
} from "../../../db/contracts/reports";
import { exportLimiter } from "../../lib/heavy-work";
import { signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import {
  insertBulkLines,
  insertReportContact,
  insertReportProduct,
  insertReportShipment,
} from "./report-fixtures";
import { offThreadRowSource, reportReadsOffThread, stopReportReadPool } from "./report-read-pool";
import {
  reportArrowStream,
  reportJsonRecords,
  reportRowSource,
  reportSummaryLines,
  reportSummaryRowSource,
  SHIPMENTS_SQL,
  summaryDrive,
} from "./reports.service";

let ctx: TTestContext;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;
let ids: Record<string, number>;

const getJson = async (auth: Record<string, string>, query = "") => {
  const res = await ctx.app.request(`/api/reports-data${query}`, { headers: auth });
  return { res, body: (await res.json()) as { data: TReportRecord[]; total: number; message?: string } };
};

const getArrow = async (auth: Record<string, string>, how: "accept" | "query" = "accept") => {
  const res = await ctx.app.request(
    how === "accept" ? "/api/reports-data" : "/api/reports-data?format=arrow",
    { headers: how === "accept" ? { ...auth, accept: ARROW_STREAM_TYPE } : auth },
  );
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe(ARROW_STREAM_TYPE);
  return tableFromIPC(new Uint8Array(await res.arrayBuffer()));
};

/** An Arrow cell in the JSON's terms: DateDay → YYYY-MM-DD, everything else as read. */
function arrowCell(table: Table, row: number, name: string): unknown {
  const column = table.getChild(name)!;
  const value = column.get(row);
  if (value === null) return null;
  if (column.type.typeId === Type.Date) return new Date(value as number).toISOString().slice(0, 10);
  return value;
}

/** Every Arrow cell equals its JSON counterpart; floats equal the double nearest the exact decimal. */
function expectAgreement(table: Table, records: TReportRecord[]) {
  expect(table.numRows).toBe(records.length);
  const byLine = new Map<string, number>();
  for (let i = 0; i < table.numRows; i++) {
    byLine.set(`${table.getChild("shipment_id")!.get(i)}:${table.getChild("product_number")!.get(i)}`, i);
  }
  for (const record of records) {
    const row = byLine.get(`${record.shipment_id}:${record.product_number}`)!;
    expect(row).toBeDefined();
    for (const attribute of REPORT_ATTRIBUTES) {
      const json = record[attribute.name];
      const arrow = arrowCell(table, row, attribute.name);
      if (attribute.type === "float" && json !== null) expect(arrow).toBe(Number(json));
      else expect(arrow).toEqual(json);
    }
  }
}

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx);
  stranger = await signUp(ctx);
  const db = ctx.database.db;
  const ws = owner.user.workspace_id;
  const exporter = await insertReportContact(db, ws, { company: "Northwind Exports", screening: "passed" });
  const importer = await insertReportContact(db, ws, {
    company: "Hanse Import GmbH",
    country_id: 3,
    screening: "failed",
  });
  const consignee = await insertReportContact(db, ws, { company: "Lyon Labs — Ελλάδα", country_id: 4 });
  const cheap = await insertReportProduct(db, ws, { unit_value: "0.10", net_weight: "0.333", name: "Fuse" });
  const pricey = await insertReportProduct(db, ws, {
    unit_value: "999999.99",
    net_weight: "18.5",
    has_license: true,
    name: "Oscilloscope",
  });
  const third = await insertReportProduct(db, ws, { name: "Probe" });
  const inTransit = await insertReportShipment(db, ws, {
    name: "März to Łódź, 北京",
    status: 3,
    ship_date: "2026-03-14",
    exporter,
    importer,
    consignee,
    total_invoice_value: "999999990.30",
    items: [
      { product_id: cheap, quantity: 3, extended_value: "0.30" },
      { product_id: pricey, quantity: 1000, extended_value: "999999990.00" },
      { product_id: third, quantity: 1, extended_value: "100.00" },
    ],
    packages: [
      { package_id: 1, gross_weight: "10.125" },
      { package_id: 2, gross_weight: "0.01" },
    ],
  });
  const delivered = await insertReportShipment(db, ws, {
    status: 6,
    ship_date: "2025-12-31",
    exporter,
    importer,
    items: [
      { product_id: cheap, quantity: 1, extended_value: "0.10" },
      { product_id: third, quantity: 2, extended_value: "200.00" },
    ],
  });
  // A draft without parties or a date still has lines; a template has none in the report.
  const draft = await insertReportShipment(db, ws, {
    status: 2,
    ship_date: null,
    items: [{ product_id: third, quantity: 1, extended_value: "100.00" }],
  });
  await insertReportShipment(db, ws, {
    status: 1,
    name: "Template: Hamburg",
    items: [
      { product_id: cheap, quantity: 5, extended_value: "0.50" },
      { product_id: third, quantity: 5, extended_value: "500.00" },
    ],
  });
  const foreignProduct = await insertReportProduct(db, stranger.user.workspace_id, { name: "Foreign" });
  const foreign = await insertReportShipment(db, stranger.user.workspace_id, {
    items: [{ product_id: foreignProduct, quantity: 7, extended_value: "700.00" }],
  });
  ids = { inTransit, delivered, draft, foreign, cheap, pricey, third };
});

afterAll(() => {
  stopReportReadPool();
  ctx.database.close();
});

describe("GET /api/reports-attributes", () => {
  test("lists every column with a label, one of the five types and a default aggregate", async () => {
    const res = await ctx.app.request("/api/reports-attributes", { headers: owner.auth });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: typeof REPORT_ATTRIBUTES };
    expect(data.map((a) => a.name)).toContain("extended_value");
    expect(data.length).toBe(REPORT_ATTRIBUTES.length);
    for (const a of data) {
      expect(a.label.length).toBeGreaterThan(0);
      expect(["string", "integer", "float", "date", "boolean"]).toContain(a.type);
      expect(a.aggregate.length).toBeGreaterThan(0);
    }
    expect(data.find((a) => a.name === "ship_date")?.type).toBe("date");
    expect(data.find((a) => a.name === "has_license")?.type).toBe("boolean");
  });

  test("needs a session", async () => {
    expect((await ctx.app.request("/api/reports-attributes")).status).toBe(401);
  });
});

describe("GET /api/reports-data", () => {
  test("one JSON record per non-template line of the caller's workspace", async () => {
    const { res, body } = await getJson(owner.auth);
    expect(res.status).toBe(200);
    expect(body.data.length).toBe(6);
    expect(body.total).toBe(6);
    const shipmentIds = new Set(body.data.map((r) => r.shipment_id));
    expect(shipmentIds).toEqual(new Set([ids.inTransit, ids.delivered, ids.draft]));
    expect(body.data.some((r) => String(r.shipment_name).startsWith("Template"))).toBe(false);
  });

  test("values are the stored ones: exact money, weights, parties, screening and dates", async () => {
    const { body } = await getJson(owner.auth);
    const line = (shipment: number, product: string) =>
      body.data.find((r) => r.shipment_id === shipment && r.product_name === product)!;
    const fuse = line(ids.inTransit, "Fuse");
    expect(fuse).toMatchObject({
      shipment_name: "März to Łódź, 北京",
      status: "IN TRANSIT",
      ship_date: "2026-03-14",
      ship_month: "2026-03",
      ship_year: 2026,
      quantity: 3,
      extended_value: "0.30",
      total_invoice_value: "999999990.30",
      net_weight_kg: "0.999",
      gross_weight_kg: "10.135",
      exporter: "Northwind Exports",
      importer: "Hanse Import GmbH",
      ultimate_consignee: "Lyon Labs — Ελλάδα",
      exporter_screening: "passed",
      importer_screening: "failed",
      consignee_screening: "not screened",
      parties_screening: "failed",
      has_license: false,
      eccn: "3A992.a",
      hts: "9030.40.0000",
    });
    const countryName = async (id: number) =>
      String(
        (await ctx.database.client.execute({ sql: "select name from countries where id = ?", args: [id] }))
          .rows[0][0],
      );
    // The ultimate consignee's country wins over the importer's.
    expect(fuse.destination_country).toBe(await countryName(4));
    expect(fuse.country_of_origin).toBe(await countryName(2));
    const scope = line(ids.inTransit, "Oscilloscope");
    expect(scope.extended_value).toBe("999999990.00");
    expect(scope.net_weight_kg).toBe("18500.000");
    expect(scope.has_license).toBe(true);
    const delivered = line(ids.delivered, "Probe");
    expect(delivered.status).toBe("DELIVERED");
    expect(delivered.ultimate_consignee).toBeNull();
    // Without a consignee the destination is the importer's country.
    expect(delivered.destination_country).toBe(await countryName(3));
    expect(delivered.gross_weight_kg).toBe("0.000");
    const draft = line(ids.draft, "Probe");
    expect(draft).toMatchObject({
      status: "DRAFT",
      ship_date: null,
      ship_month: null,
      ship_year: null,
      exporter: null,
      importer: null,
      destination_country: null,
      parties_screening: "not screened",
    });
  });

  test("the USD value: USD lines as they are, others at their shipment's rate (half up), null without a rate", async () => {
    const usdUser = await signUp(ctx);
    const ws = usdUser.user.workspace_id;
    const db = ctx.database.db;
    const product = await insertReportProduct(db, ws, { name: "Gauge" });
    const other = await insertReportProduct(db, ws, { name: "Valve" });
    const inUsd = await insertReportShipment(db, ws, {
      items: [{ product_id: product, quantity: 1, extended_value: "1234.56" }],
    });
    // EUR (currency 43) at 1.0845 USD: 100.05 × 1.0845 = 108.504225 → 108.50; 0.05 × 1.0845 = 0.054225 → 0.05.
    const inEur = await insertReportShipment(db, ws, {
      currency_id: 43,
      usd_exchange_rate: "1.0845",
      items: [
        { product_id: product, quantity: 1, extended_value: "100.05" },
        { product_id: other, quantity: 2, extended_value: "0.05" },
      ],
    });
    const noRate = await insertReportShipment(db, ws, {
      currency_id: 43,
      items: [{ product_id: product, quantity: 1, extended_value: "50.00" }],
    });
    const { body } = await getJson(usdUser.auth);
    const usd = (shipment: number) =>
      body.data.filter((r) => r.shipment_id === shipment).map((r) => r.extended_value_usd);
    expect(usd(inUsd)).toEqual(["1234.56"]);
    expect(usd(inEur)).toEqual(["108.50", "0.05"]);
    expect(usd(noRate)).toEqual([null]);
    const table = await getArrow(usdUser.auth);
    const values = table.getChild("extended_value_usd")!.toArray() as Float64Array;
    const valid = [...Array(table.numRows).keys()].map((i) => table.getChild("extended_value_usd")!.get(i));
    expect(valid).toEqual([1234.56, 108.5, 0.05, null]);
    expect(values.length).toBe(4);
    const label = REPORT_ATTRIBUTES.find((a) => a.name === "extended_value_usd")!;
    expect(label.label).toBe("Extended value (USD)");
    expect(label.aggregate).toBe("sum");
  });

  test("every value has the type its attribute announces", async () => {
    const { body } = await getJson(owner.auth);
    for (const record of body.data) {
      expect(Object.keys(record).sort()).toEqual(REPORT_ATTRIBUTES.map((a) => a.name).sort());
      for (const a of REPORT_ATTRIBUTES) {
        const value = record[a.name];
        if (value === null) continue;
        if (a.type === "string") expect(typeof value).toBe("string");
        if (a.type === "integer") expect(Number.isInteger(value)).toBe(true);
        if (a.type === "float") expect(String(value)).toMatch(/^-?\d+\.\d+$/);
        if (a.type === "date") expect(String(value)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        if (a.type === "boolean") expect(typeof value).toBe("boolean");
      }
    }
    const table = await getArrow(owner.auth);
    const arrowTypes: Record<string, Type[]> = {
      string: [Type.Dictionary, Type.Utf8],
      integer: [Type.Int],
      float: [Type.Float],
      date: [Type.Date],
      boolean: [Type.Bool],
    };
    expect(table.schema.fields.map((f) => f.name)).toEqual(REPORT_ATTRIBUTES.map((a) => a.name));
    for (const a of REPORT_ATTRIBUTES) {
      expect(arrowTypes[a.type]).toContain(table.schema.fields.find((f) => f.name === a.name)!.typeId);
    }
  });

  test("Arrow (by Accept header or ?format=arrow) and JSON agree on every value", async () => {
    const { body } = await getJson(owner.auth);
    expectAgreement(await getArrow(owner.auth, "accept"), body.data);
    expectAgreement(await getArrow(owner.auth, "query"), body.data);
  });

  test("the Arrow stream is gzipped for a client that accepts it, with the same lines", async () => {
    const running = exportLimiter.state().running;
    const res = await ctx.app.request("/api/reports-data?format=arrow", {
      headers: { ...owner.auth, "accept-encoding": "gzip, deflate, br" },
    });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("vary")).toContain("Accept-Encoding");
    const zipped = new Uint8Array(await res.arrayBuffer());
    const table = tableFromIPC(Bun.gunzipSync(zipped));
    const plain = await getArrow(owner.auth);
    expect(table.numRows).toBe(plain.numRows);
    for (const a of REPORT_ATTRIBUTES) {
      expect(table.getChild(a.name)!.toArray()).toEqual(plain.getChild(a.name)!.toArray());
    }
    // Without gzip in Accept-Encoding the stream goes as it is.
    const bare = await ctx.app.request("/api/reports-data?format=arrow", { headers: owner.auth });
    expect(bare.headers.get("content-encoding")).toBeNull();
    // Read to the end: an unread stream holds its export slot.
    expect(tableFromIPC(new Uint8Array(await bare.arrayBuffer())).numRows).toBe(plain.numRows);
    // Both streams, the gzipped one too, gave their export slot back once read.
    await Bun.sleep(10);
    expect(exportLimiter.state().running).toBe(running);
  });

  test("?names=labels names the Arrow columns by their labels, with the same values", async () => {
    const res = await ctx.app.request("/api/reports-data?format=arrow&names=labels", { headers: owner.auth });
    const labelled = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    const keyed = await getArrow(owner.auth);
    expect(labelled.schema.fields.map((f) => f.name)).toEqual(REPORT_ATTRIBUTES.map((a) => a.label));
    for (const a of REPORT_ATTRIBUTES) {
      expect(labelled.getChild(a.label)!.toArray()).toEqual(keyed.getChild(a.name)!.toArray());
    }
  });

  test("?columns= sends only those columns, every line, with the same values as the whole answer", async () => {
    const wanted = ["status", "extended_value", "destination_country", "shipper_reference"] as const;
    const full = await getArrow(owner.auth);
    const res = await ctx.app.request(`/api/reports-data?format=arrow&columns=${wanted.join(",")}`, {
      headers: owner.auth,
    });
    expect(res.status).toBe(200);
    const some = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    // In the attributes' order, whatever order they were asked in.
    expect(some.schema.fields.map((f) => f.name)).toEqual([
      "shipper_reference",
      "status",
      "destination_country",
      "extended_value",
    ]);
    expect(some.numRows).toBe(full.numRows);
    for (const name of wanted) expect(some.getChild(name)!.toArray()).toEqual(full.getChild(name)!.toArray());
    // Labels and JSON too.
    const labelled = tableFromIPC(
      new Uint8Array(
        await (
          await ctx.app.request("/api/reports-data?format=arrow&names=labels&columns=status", {
            headers: owner.auth,
          })
        ).arrayBuffer(),
      ),
    );
    expect(labelled.schema.fields.map((f) => f.name)).toEqual(["Status"]);
    const { body } = await getJson(owner.auth, "?columns=extended_value,status");
    const { body: all } = await getJson(owner.auth);
    expect(body.data as unknown[]).toEqual(
      all.data.map((r) => ({ status: r.status, extended_value: r.extended_value })),
    );
  });

  test("?columns= with an unknown or no column is a 422 that says what to give", async () => {
    for (const query of ["?format=arrow&columns=status,nope", "?columns=", "?columns=,"]) {
      const res = await ctx.app.request(`/api/reports-data${query}`, { headers: owner.auth });
      expect(res.status).toBe(422);
      const { message } = (await res.json()) as { message: string };
      expect(message).toContain("/api/reports-attributes");
      if (query.includes("nope")) expect(message).toContain("nope");
    }
  });

  /** Exact sums by combination of `groupBy`, from records (lines or a summary): cents and units as BigInt. */
  const sumsBy = (records: TReportRecord[], groupBy: readonly string[]) => {
    const out = new Map<string, Record<string, bigint>>();
    for (const r of records) {
      const key = JSON.stringify(groupBy.map((c) => r[c as keyof TReportRecord]));
      const sums = out.get(key) ?? { quantity: 0n, extended_value: 0n, total_invoice_value: 0n, n: 0n };
      if (r.quantity !== undefined) sums.quantity += BigInt(r.quantity as number);
      for (const money of ["extended_value", "total_invoice_value"] as const) {
        if (r[money] === undefined) continue;
        const [whole, cents = ""] = String(r[money]).split(".");
        sums[money] += BigInt(whole + cents.padEnd(2, "0"));
      }
      out.set(key, sums);
    }
    return out;
  };
  const without = (sums: Map<string, Record<string, bigint>>, field: string) =>
    new Map([...sums].map(([key, value]) => [key, { ...value, [field]: 0n }]));

  test("?group_by=&sum= sums the lines of each combination exactly, for every groupable column, in JSON and Arrow", async () => {
    const { body: lines } = await getJson(owner.auth);
    const sum = REPORT_SUMMABLE.join(",");
    const cases: string[][] = [
      ...REPORT_GROUPABLE.map((c) => [c]),
      ["destination_country", "status"],
      ["ship_month", "status"],
      ["product_name", "exporter", "ship_year", "parties_screening"],
      ["ship_date", "ship_month", "has_license"],
    ];
    for (const groupBy of cases) {
      const { res, body } = await getJson(owner.auth, `?group_by=${groupBy.join(",")}&sum=${sum}`);
      expect(res.status).toBe(200);
      // Only the asked columns, in the attributes' order.
      expect(Object.keys(body.data[0])).toEqual(
        REPORT_ATTRIBUTES.map((a) => a.name).filter(
          (n) => groupBy.includes(n) || (REPORT_SUMMABLE as readonly string[]).includes(n),
        ),
      );
      const expected = sumsBy(lines.data, groupBy);
      const got = sumsBy(body.data, groupBy);
      expect(without(got, "n")).toEqual(without(expected, "n"));
      // Fewer records than lines whenever lines share a combination.
      expect(body.data.length).toBe(expected.size);
      // Arrow: the same records, the same types as the lines' columns.
      const res2 = await ctx.app.request(
        `/api/reports-data?format=arrow&group_by=${groupBy.join(",")}&sum=${sum}`,
        {
          headers: owner.auth,
        },
      );
      expect(res2.headers.get("content-type")).toBe(ARROW_STREAM_TYPE);
      const table = tableFromIPC(new Uint8Array(await res2.arrayBuffer()));
      expect(table.numRows).toBe(body.data.length);
      const full = await getArrow(owner.auth);
      for (const field of table.schema.fields) {
        expect(String(field.type)).toBe(String(full.schema.fields.find((f) => f.name === field.name)!.type));
      }
      for (let i = 0; i < table.numRows; i++) {
        for (const field of table.schema.fields) {
          const json = body.data[i][field.name as keyof TReportRecord];
          const arrow = arrowCell(table, i, field.name);
          if (typeof json === "string" && field.typeId === Type.Float) expect(arrow).toBe(Number(json));
          else expect(arrow).toEqual(json);
        }
      }
    }
  });

  test("a summary without sums lists the combinations; with labels it names them by label", async () => {
    const { body } = await getJson(owner.auth, "?group_by=status");
    expect(body.data.map((r) => r.status).sort()).toEqual(["DELIVERED", "DRAFT", "IN TRANSIT"].sort());
    const res = await ctx.app.request(
      "/api/reports-data?format=arrow&names=labels&group_by=destination_country,status&sum=extended_value",
      { headers: owner.auth },
    );
    const table = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    expect(table.schema.fields.map((f) => f.name)).toEqual([
      "Status",
      "Destination country",
      "Extended value",
    ]);
  });

  test("a summary sees only the caller's workspace; an empty one gets no records and an empty Arrow table", async () => {
    const { body } = await getJson(stranger.auth, "?group_by=status&sum=extended_value,quantity");
    expect(body.data).toHaveLength(1);
    expect(body.data[0].extended_value).toBe("700.00");
    expect(body.data[0].quantity).toBe(7);
    const empty = await signUp(ctx);
    const { body: none } = await getJson(empty.auth, "?group_by=status&sum=extended_value");
    expect(none.data).toEqual([]);
    const res = await ctx.app.request("/api/reports-data?format=arrow&group_by=status&sum=extended_value", {
      headers: empty.auth,
    });
    const table = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    expect(table.numRows).toBe(0);
    expect(table.schema.fields.map((f) => f.name)).toEqual(["status", "extended_value"]);
    expect((await ctx.app.request("/api/reports-data?group_by=status", { headers: {} })).status).toBe(401);
  });

  test("a quantity sum beyond Int32 is spread over records of the same combination, still exact", async () => {
    const big = await signUp(ctx);
    const db = ctx.database.db;
    const ws = big.user.workspace_id;
    const product = await insertReportProduct(db, ws, { unit_value: "0.01" });
    for (let i = 0; i < 3; i++) {
      await insertReportShipment(db, ws, {
        status: 3,
        items: [{ product_id: product, quantity: 2_000_000_000, extended_value: "20000000.00" }],
      });
    }
    const { body } = await getJson(big.auth, "?group_by=status&sum=quantity,extended_value");
    expect(body.data.length).toBeGreaterThan(1);
    expect(body.data.every((r) => (r.quantity as number) <= 2 ** 31 - 1)).toBe(true);
    const sums = sumsBy(body.data, ["status"]).get(JSON.stringify(["IN TRANSIT"]))!;
    expect(sums.quantity).toBe(6_000_000_000n);
    expect(sums.extended_value).toBe(6_000_000_000n);
    const res = await ctx.app.request("/api/reports-data?format=arrow&group_by=status&sum=quantity", {
      headers: big.auth,
    });
    const table = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    let total = 0;
    for (let i = 0; i < table.numRows; i++) total += table.getChild("quantity")!.get(i) as number;
    expect(total).toBe(6_000_000_000);
  });

  test("a summary read on the background worker is the one this thread reads", async () => {
    const client = ctx.database.client;
    expect(ctx.env.databaseUrl.startsWith("file:")).toBe(true);
    const here = reportRowSource(client, ctx.env.databaseUrl);
    const offThread = reportSummaryRowSource(client, ctx.env.databaseUrl);
    expect(offThread).not.toBe(here);
    for (const groupBy of [["status"], ["destination_country", "ship_month", "product_name"]] as const) {
      // The worker answered it (had it not started, offThread would quietly have read here).
      const answered = reportReadsOffThread();
      const a = await reportSummaryLines(client, offThread, owner.user.workspace_id, groupBy);
      // Two queries: the shipment counts that pick where the join starts, then the GROUP BY.
      expect(reportReadsOffThread()).toBe(answered + 2);
      const b = await reportSummaryLines(client, here, owner.user.workspace_id, groupBy);
      expect(a!.lines.length).toBeGreaterThan(0);
      expect(a!.lines).toEqual(b!.lines);
    }
    // A query neither the worker nor this thread can run is an error (retried here once), not a hang.
    const failed = await offThread("select * from no_such_table", []).then(
      () => "answered",
      (error: Error) => error.message,
    );
    expect(failed).toContain("no_such_table");
  });

  test("a summary starts its join from items or from the workspace's shipments, with the same lines", async () => {
    const client = ctx.database.client;
    const here = reportRowSource(client, ctx.env.databaseUrl);
    for (const groupBy of [
      ["status"],
      ["destination_country", "status"],
      ["ship_month", "carrier", "product_name"],
      ["shipment_id", "exporter_screening"],
    ] as const) {
      const fromItems = await reportSummaryLines(
        client,
        here,
        owner.user.workspace_id,
        groupBy,
        undefined,
        undefined,
        "items",
      );
      const fromShipments = await reportSummaryLines(
        client,
        here,
        owner.user.workspace_id,
        groupBy,
        undefined,
        undefined,
        "shipments",
      );
      expect(fromItems!.lines.length).toBeGreaterThan(0);
      // The same records; SQLite may hand the groups over in another order.
      const sorted = (lines: unknown[]) => lines.map((line) => JSON.stringify(line)).sort();
      expect(sorted(fromShipments!.lines)).toEqual(sorted(fromItems!.lines));
    }
    // From items only when the workspace holds most of the database's shipments.
    expect(summaryDrive(900, 1000)).toBe("items");
    expect(summaryDrive(500, 1000)).toBe("shipments");
    expect(summaryDrive(100, 1100)).toBe("shipments");
    expect(summaryDrive(0, 0)).toBe("shipments");
  });

  test("a query the worker answers with an error, or still holds when the pool stops, is read on this thread", async () => {
    const file = ctx.env.databaseUrl.slice("file:".length).split("?")[0];
    const hereAsked: string[] = [];
    const here = async (sql: string) => {
      hereAsked.push(sql);
      return [[42]];
    };
    const rows = offThreadRowSource(file, here);
    // The worker's error (a busy or unreadable database looks the same) is retried here once.
    expect(await rows("select * from no_such_table", [])).toEqual([[42]]);
    expect(hereAsked).toEqual(["select * from no_such_table"]);
    // A long query is still on the worker when the pool stops: it settles, from this thread.
    const slow =
      "with recursive c(x) as (select 1 union all select x + 1 from c where x < 5000000) select count(*) from c";
    const held = rows(slow, []);
    stopReportReadPool();
    const settled = await Promise.race([
      held,
      new Promise((resolve) => setTimeout(() => resolve("never settled"), 10_000)),
    ]);
    expect(settled).toEqual([[42]]);
    expect(hereAsked).toEqual(["select * from no_such_table", slow]);
  });

  test("bad summary parameters are 422s that say what to give", async () => {
    for (const [query, words] of [
      ["?group_by=extended_value", "group_by cannot use extended_value"],
      ["?group_by=nope&sum=extended_value", "nope"],
      ["?group_by=", "group_by is empty"],
      ["?group_by=status&sum=net_weight_kg", "sum cannot use net_weight_kg"],
      ["?sum=extended_value", "sum needs group_by"],
      ["?group_by=status&columns=status", "columns cannot be combined with group_by"],
    ] as const) {
      const res = await ctx.app.request(`/api/reports-data${query}`, { headers: owner.auth });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { message: string }).message).toContain(words);
    }
  });

  test("the stream is written batch by batch and still agrees with JSON", async () => {
    const client = ctx.database.client;
    // Both read paths: bun:sqlite over the file (what a file database uses) and the libSQL client.
    for (const rows of [
      reportRowSource(client, ctx.env.databaseUrl),
      reportRowSource(client, "libsql://unused.example"),
    ]) {
      const stream = await reportArrowStream(client, rows, owner.user.workspace_id, { pageSize: 2 });
      const table = tableFromIPC(new Uint8Array(await new Response(stream).arrayBuffer()));
      expect(table.batches.length).toBe(3);
      const records = await reportJsonRecords(client, rows, owner.user.workspace_id, 100);
      expectAgreement(table, records!);
    }
  });

  test("the stream lets other work run between its pages (a fast reader does not hold the server)", async () => {
    const client = ctx.database.client;
    const rows = reportRowSource(client, ctx.env.databaseUrl);
    const stream = await reportArrowStream(client, rows, owner.user.workspace_id, { pageSize: 1 });
    // A request arriving mid-stream is a macrotask, like this timer: it must run before the last page.
    let pagesBeforeTimer = -1;
    let pages = 0;
    setTimeout(() => {
      pagesBeforeTimer = pages;
    }, 0);
    const reader = stream.getReader();
    while (!(await reader.read()).done) pages++;
    expect(pages).toBeGreaterThan(3);
    expect(pagesBeforeTimer).toBeGreaterThanOrEqual(0);
    expect(pagesBeforeTimer).toBeLessThan(pages);
  });

  test("ship months are right whether the dates span a few years or centuries (months by range or by name)", async () => {
    for (const dates of [
      ["2024-11-30", "2026-02-01", null],
      ["1800-01-15", "2026-03-14", "2026-03-01"],
    ]) {
      const user = await signUp(ctx);
      const ws = user.user.workspace_id;
      const product = await insertReportProduct(ctx.database.db, ws);
      for (const ship_date of dates) {
        await insertReportShipment(ctx.database.db, ws, {
          ship_date,
          items: [{ product_id: product, quantity: 1, extended_value: "1.00" }],
        });
      }
      const { body } = await getJson(user.auth);
      expect(body.data.map((r) => r.ship_month).sort()).toEqual(
        dates.map((d) => d?.slice(0, 7) ?? null).sort(),
      );
      expect(body.data.map((r) => r.ship_year).sort()).toEqual(
        dates.map((d) => (d ? Number(d.slice(0, 4)) : null)).sort(),
      );
      const table = await getArrow(user.auth);
      expect(table.getChild("ship_month")!.type.typeId).toBe(Type.Dictionary);
      expectAgreement(table, body.data);
    }
  });

  test("each page's shipments are primary-key look-ups, not a walk of the workspace's shipments", async () => {
    // With `s.id in (select value from json_each(?))` SQLite walked a workspace index for every page
    // (quadratic: ~4.5 s of CPU at a million lines).
    const plan = await ctx.database.client.execute({
      sql: `explain query plan ${SHIPMENTS_SQL}`,
      args: ["[1, 2]", owner.user.workspace_id],
    });
    const steps = plan.rows.map((r) => String(r[3]));
    expect(steps.some((step) => /SEARCH s USING INTEGER PRIMARY KEY/.test(step))).toBe(true);
    expect(steps.some((step) => /\bs USING (COVERING )?INDEX/.test(step))).toBe(false);
    // The gross weight sums come from an index alone, never from the package rows.
    expect(steps).toContain("SEARCH p USING COVERING INDEX shipment_packages_gross_idx (shipment_id=?)");
  });

  test("each workspace sees only its own lines", async () => {
    const { body } = await getJson(stranger.auth);
    expect(body.data.map((r) => r.shipment_id)).toEqual([ids.foreign]);
    expect(body.data[0].product_name).toBe("Foreign");
    const table = await getArrow(stranger.auth);
    expect(table.numRows).toBe(1);
    expect(table.getChild("shipment_id")!.get(0)).toBe(ids.foreign);
    // The owner's contact names are not even in the stranger's dictionaries.
    const exporters = table.getChild("exporter")!.data[0].dictionary;
    expect(exporters ? [...exporters] : []).not.toContain("Northwind Exports");
  });

  test("an empty workspace gets no records, and an Arrow stream with the columns and no rows", async () => {
    const empty = await signUp(ctx);
    const { res, body } = await getJson(empty.auth);
    expect(res.status).toBe(200);
    expect(body.data).toEqual([]);
    const table = await getArrow(empty.auth);
    expect(table.numRows).toBe(0);
    expect(table.schema.fields.length).toBe(REPORT_ATTRIBUTES.length);
  });

  test("without a session, or with a token that is not one, nothing is answered (401)", async () => {
    for (const headers of [{}, { authorization: "Bearer not-a-real-token" }] as Record<string, string>[]) {
      const res = await ctx.app.request("/api/reports-data?format=arrow", { headers });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { message: string }).message).toBe("Authentication failed");
    }
    // A logged-out session's token stops working too.
    const gone = await signUp(ctx);
    expect((await ctx.app.request("/api/logout", { method: "POST", headers: gone.auth })).status).toBe(200);
    expect((await ctx.app.request("/api/reports-data", { headers: gone.auth })).status).toBe(401);
  });

  test("an unknown format is a 422 that names the choices", async () => {
    const res = await ctx.app.request("/api/reports-data?format=xml", { headers: owner.auth });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toContain("json or arrow");
  });

  test("JSON stops at the cap with a 413 that names Arrow; Arrow still answers; so does a summary of as many combinations", async () => {
    const big = await signUp(ctx);
    const db = ctx.database.db;
    const ws = big.user.workspace_id;
    const productIds = [
      await insertReportProduct(db, ws),
      await insertReportProduct(db, ws),
      await insertReportProduct(db, ws),
    ];
    const contactIds = [await insertReportContact(db, ws), await insertReportContact(db, ws)];
    const shipmentCount = Math.ceil((REPORT_JSON_MAX_LINES + 1) / 3);
    await insertBulkLines(db, ws, { shipments: shipmentCount, itemsPer: 3, productIds, contactIds });
    const { res, body } = await getJson(big.auth);
    expect(res.status).toBe(413);
    expect(body.message).toContain("format=arrow");
    const table = await getArrow(big.auth, "query");
    expect(table.numRows).toBe(shipmentCount * 3);
    expect(table.batches.length).toBeGreaterThan(1);
    // A summary by shipment and product is one record per line, built whole in memory: capped in
    // JSON and Arrow alike, with a 413 that says what to ask for instead.
    expect(shipmentCount * 3).toBeGreaterThan(REPORT_SUMMARY_MAX_RECORDS);
    for (const format of ["json", "arrow"]) {
      const res = await ctx.app.request(
        `/api/reports-data?format=${format}&group_by=shipment_id,product_number&sum=extended_value`,
        { headers: big.auth },
      );
      expect(res.status).toBe(413);
      const { message } = (await res.json()) as { message: string };
      expect(message).toContain("Group by fewer");
      expect(message).toContain("format=arrow");
    }
    // A summary of few combinations over the same lines still answers.
    const { res: few, body: summary } = await getJson(big.auth, "?group_by=product_number&sum=quantity");
    expect(few.status).toBe(200);
    expect(summary.data).toHaveLength(3);
  });
});
