// The report pivot socket (/api/reports/pivot): who may open it, what a connection can see, fresh
// data on a new connection, and the aggregates it offers checked against SQL written independently,
// through a real Perspective client over a real WebSocket to the app served by Bun.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as perspective from "@perspective-dev/client/node";
import { REPORT_ATTRIBUTES } from "../../../../db/contracts/reports";
import { loadEnv } from "../../../env";
import { signUp } from "../../../test/factories";
import { createTestContext, type TTestContext } from "../../../test/setup";
import { invalidateUserSessions } from "../../auth/session.service";
import {
  insertBulkLines,
  insertReportContact,
  insertReportProduct,
  insertReportShipment,
  LINE_AGGREGATE_CASES,
} from "../report-fixtures";
import { reportRowSource } from "../report-row-source";
import { reportJsonRecords } from "../reports.service";
import { PIVOT_MAX_MESSAGE_BYTES, pivotWebSocket, SESSION_RECHECK_MS } from "./pivot.routes";
import { PivotEngine } from "./pivot-engine";
import { isOneStatement, REPORT_TABLE } from "./pivot-handler";
import { stopPivotService } from "./pivot-service";

/** A column's name in the pivot: its label, as in the Arrow stream the browser pivots. */
const L = (key: string) => REPORT_ATTRIBUTES.find((a) => a.name === key)?.label ?? key;

type TClient = ReturnType<typeof perspective.make_client>;
type TOwner = Awaited<ReturnType<typeof signUp>>;

let ctx: TTestContext;
let server: ReturnType<typeof Bun.serve>;
let origin: string;
let owner: TOwner;
let other: TOwner;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  server = Bun.serve({ port: 0, fetch: ctx.app.fetch, websocket: pivotWebSocket });
  origin = `http://localhost:${server.port}`;
  owner = await signUp(ctx);
  other = await signUp(ctx);
  const db = ctx.database.db;
  for (const who of [owner, other]) {
    const ws = who.user.workspace_id;
    const productIds: number[] = [];
    for (let i = 0; i < 5; i++)
      productIds.push(await insertReportProduct(db, ws, { name: `Part ${ws}-${i}` }));
    const contactIds: number[] = [];
    for (let i = 0; i < 3; i++) contactIds.push(await insertReportContact(db, ws, { country_id: 1 + i }));
    // 61 (owner) or 13 (other) shipments × 4 lines, five statuses, USD and AED alternating.
    await insertBulkLines(db, ws, {
      shipments: who === owner ? 61 : 13,
      itemsPer: 4,
      productIds,
      contactIds,
    });
  }
}, 60_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  stopPivotService();
  server?.stop(true);
  ctx.database.close();
});

/** Opens the socket as `who` (by its cookie, from the app's own origin unless told otherwise). */
function openSocket(who: TOwner, headers: Record<string, string> = { origin: "" }): WebSocket {
  const socket = new WebSocket(`ws://localhost:${server.port}/api/reports/pivot`, {
    headers: { cookie: who.cookie, origin, ...headers, ...(headers.origin === "" ? { origin } : {}) },
  } as never);
  socket.binaryType = "arraybuffer";
  sockets.push(socket);
  return socket;
}

/** The code the socket closes with. */
function closeCode(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.addEventListener("close", (event) => resolve(event.code)));
}

/** A Perspective client over a fresh socket: the viewer's side of the protocol. */
async function connect(who: TOwner): Promise<TClient> {
  const socket = openSocket(who);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve());
    socket.addEventListener("error", () => reject(new Error("socket did not open")));
  });
  const client = perspective.make_client(async (bytes: Uint8Array) =>
    socket.send(bytes as Uint8Array<ArrayBuffer>),
  );
  socket.addEventListener("message", (event) => {
    void client.handle_response(new Uint8Array(event.data as ArrayBuffer));
  });
  return client;
}

describe("GET /api/reports/pivot", () => {
  test("answers 401 without a session", async () => {
    const res = await fetch(`${origin}/api/reports/pivot`, { headers: { upgrade: "websocket", origin } });
    expect(res.status).toBe(401);
  });

  test("refuses a cookie from another origin, or with no Origin, with 403 and a message", async () => {
    for (const headers of [{ origin: "https://evil.example" }, {}] as Record<string, string>[]) {
      const res = await fetch(`${origin}/api/reports/pivot`, {
        headers: { cookie: owner.cookie, ...headers },
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toContain("Cross-origin");
    }
  });

  test("answers 426 to a request that is not a WebSocket upgrade", async () => {
    const res = await fetch(`${origin}/api/reports/pivot`, { headers: { cookie: owner.cookie, origin } });
    expect(res.status).toBe(426);
    expect(((await res.json()) as { message: string }).message).toContain("WebSocket");
  });

  test("a WebSocket from another origin does not open", async () => {
    const socket = openSocket(owner, { origin: "https://evil.example" });
    expect(await closeCode(socket)).not.toBe(1000);
  });

  test("closes on a frame over the size cap (1009) and on a text frame (1008)", async () => {
    const big = openSocket(owner);
    await new Promise((resolve) => big.addEventListener("open", resolve));
    big.send(new Uint8Array(PIVOT_MAX_MESSAGE_BYTES + 1));
    expect(await closeCode(big)).toBe(1009);
    const text = openSocket(owner);
    await new Promise((resolve) => text.addEventListener("open", resolve));
    text.send("hello");
    expect(await closeCode(text)).toBe(1008);
  });
});

describe("where a workspace pivots", () => {
  test("GET /api/reports-attributes says server from REPORTS_SERVER_PIVOT_LINES lines on, 0 = always", async () => {
    const pivotOf = async (who: TOwner) =>
      (
        (await (await ctx.app.request("/api/reports-attributes", { headers: who.auth })).json()) as {
          pivot: string;
        }
      ).pivot;
    const threshold = ctx.env.reportsServerPivotLines;
    try {
      expect(await pivotOf(owner)).toBe("browser");
      ctx.env.reportsServerPivotLines = 100;
      expect(await pivotOf(owner)).toBe("server");
      expect(await pivotOf(other)).toBe("browser");
      ctx.env.reportsServerPivotLines = 0;
      expect(await pivotOf(other)).toBe("server");
    } finally {
      ctx.env.reportsServerPivotLines = threshold;
    }
  });

  test("REPORTS_SERVER_PIVOT_LINES must be a whole number of lines", () => {
    expect(loadEnv({}).reportsServerPivotLines).toBe(200_000);
    expect(loadEnv({ REPORTS_SERVER_PIVOT_LINES: "0" }).reportsServerPivotLines).toBe(0);
    for (const bad of ["-1", "1.5", "many"]) {
      expect(() => loadEnv({ REPORTS_SERVER_PIVOT_LINES: bad })).toThrow(
        "REPORTS_SERVER_PIVOT_LINES must be a whole number of report lines",
      );
    }
  });
});

describe("a pivot connection", () => {
  test("hosts only its workspace's lines", async () => {
    const mine = await connect(owner);
    expect(await mine.get_hosted_table_names()).toEqual([REPORT_TABLE]);
    expect(await (await mine.open_table(REPORT_TABLE)).size()).toBe(61 * 4);
    const theirs = await connect(other);
    const table = await theirs.open_table(REPORT_TABLE);
    expect(await table.size()).toBe(13 * 4);
    const view = await table.view({ group_by: [L("product_name")], columns: [L("quantity")] });
    const names = (((await view.to_columns()) as Record<string, unknown>).__ROW_PATH__ as string[][]).flat();
    expect(names.length).toBe(5);
    for (const name of names) expect(name).toStartWith(`Part ${other.user.workspace_id}-`);
    await view.delete();
  }, 30_000);

  test("an empty workspace opens with no lines", async () => {
    const empty = await signUp(ctx);
    const table = await (await connect(empty)).open_table(REPORT_TABLE);
    expect(await table.size()).toBe(0);
    expect(Object.keys(await table.schema())).toContain(L("extended_value_usd"));
  }, 30_000);

  test("refuses expressions and columns it does not have, with a message", async () => {
    const table = await (await connect(owner)).open_table(REPORT_TABLE);
    const refused = async (config: Record<string, unknown>) => {
      try {
        await table.view(config as never);
      } catch (error) {
        return String(error);
      }
      return "accepted";
    };
    expect(await refused({ expressions: { x: "(select count(*) from duckdb_tables())" } })).toContain(
      "Expressions are not available",
    );
    expect(await refused({ group_by: ['status" from x; --'] })).toContain("is not a column of this report");
    expect(await refused({ columns: [L("quantity")], aggregates: { [L("quantity")]: "first" } })).toContain(
      "is not available on Quantity",
    );
    // A window's column is written into SQL as it is: windows are refused whole.
    const sneaky = `${L("quantity")}") FROM duckdb_tables() --`;
    expect(
      await refused({
        columns: [L("quantity")],
        windows: { w: { column: sneaky, aggregate: "sum" } },
      }),
    ).toContain("Window aggregates are not available");
  }, 30_000);

  test("a min/max request names only the view's columns", async () => {
    const table = await (await connect(owner)).open_table(REPORT_TABLE);
    const view = await table.view({ group_by: [L("status")], columns: [L("quantity")] } as never);
    const [min, max] = (await view.get_min_max(L("quantity"))) as unknown as [number, number];
    expect(min).toBeGreaterThan(0);
    expect(max).toBeGreaterThanOrEqual(min);
    let message = "answered";
    try {
      await view.get_min_max(`${L("quantity")}"), (SELECT count(*) FROM duckdb_tables()) --`);
    } catch (error) {
      message = String(error);
    }
    expect(message).toContain("is not a column of this view");
    await view.delete();
  }, 30_000);

  test("a split by values holding a double quote is refused with a message, not run as SQL", async () => {
    const quoted = await signUp(ctx);
    const ws = quoted.user.workspace_id;
    const product = await insertReportProduct(ctx.database.db, ws, { name: 'Widget "Pro"' });
    await insertReportShipment(ctx.database.db, ws, {
      items: [{ product_id: product, quantity: 2, extended_value: "10.00" }],
    });
    const table = await (await connect(quoted)).open_table(REPORT_TABLE);
    let message = "answered";
    try {
      await table.view({
        group_by: [L("status")],
        split_by: [L("product_name")],
        columns: [L("quantity")],
      } as never);
    } catch (error) {
      message = String(error);
    }
    expect(message).toContain("contains a double quote");
    // The connection still works, and grouping by that column (no split) is fine.
    const view = await table.view({ group_by: [L("product_name")], columns: [L("quantity")] } as never);
    const paths = ((await view.to_columns()) as { __ROW_PATH__: string[][] }).__ROW_PATH__.flat();
    expect(paths).toContain('Widget "Pro"');
    await view.delete();
  }, 30_000);

  test("a socket whose session ended (signed out, removed) closes on its next request", async () => {
    const leaving = await signUp(ctx);
    const socket = openSocket(leaving);
    await new Promise<void>((resolve) => socket.addEventListener("open", () => resolve()));
    const client = perspective.make_client(async (bytes: Uint8Array) =>
      socket.send(bytes as Uint8Array<ArrayBuffer>),
    );
    socket.addEventListener("message", (event) => {
      void client.handle_response(new Uint8Array(event.data as ArrayBuffer));
    });
    expect(await client.get_hosted_table_names()).toEqual([REPORT_TABLE]);
    const closed = closeCode(socket);
    await invalidateUserSessions(ctx.database.db, leaving.user.id);
    await Bun.sleep(SESSION_RECHECK_MS + 200);
    void client.get_hosted_table_names().catch(() => undefined);
    expect(await closed).toBe(1008);
  }, 30_000);

  test("a new connection sees a shipment saved a moment ago", async () => {
    const ws = owner.user.workspace_id;
    const before = await (await (await connect(owner)).open_table(REPORT_TABLE)).size();
    const product = await insertReportProduct(ctx.database.db, ws, { name: "Fresh part" });
    await insertReportShipment(ctx.database.db, ws, {
      name: "Saved just now",
      items: [{ product_id: product, quantity: 3, extended_value: "12.50" }],
    });
    const table = await (await connect(owner)).open_table(REPORT_TABLE);
    expect(await table.size()).toBe(before + 1);
    const view = await table.view({
      filter: [[L("shipment_name"), "==", "Saved just now"]],
      columns: [L("product_name")],
    });
    expect(((await view.to_columns()) as Record<string, unknown>)[L("product_name")]).toEqual(["Fresh part"]);
    await view.delete();
  }, 30_000);
});

describe("the server pivot's lines", () => {
  let who: TOwner;
  let expected: string[];

  /** One line as comparable text: decimals as numbers, dates as YYYY-MM-DD, values in column order. */
  const canonical = (record: Record<string, unknown>, byLabel: boolean) =>
    JSON.stringify(
      REPORT_ATTRIBUTES.map(({ name, label }) => {
        const value = record[byLabel ? label : name];
        if (value === null || value === undefined) return null;
        if (name === "ship_date") {
          return typeof value === "number" ? new Date(value).toISOString().slice(0, 10) : value;
        }
        return typeof value === "string" && /^-?\d+\.\d+$/.test(value) ? Number(value) : value;
      }),
    );

  /** Every line of a flat view over the client's table, as comparable text, sorted. */
  async function servedLines(client: TClient): Promise<string[]> {
    const table = await client.open_table(REPORT_TABLE);
    const view = await table.view({ columns: REPORT_ATTRIBUTES.map((a) => a.label) });
    const rows = (await view.to_json()) as Record<string, unknown>[];
    await view.delete();
    return rows.map((r) => canonical(r, true)).sort();
  }

  beforeAll(async () => {
    who = await signUp(ctx);
    const ws = who.user.workspace_id;
    const db = ctx.database.db;
    const licensed = await insertReportProduct(db, ws, { name: "Licensed 'part'", has_license: true });
    const plain = await insertReportProduct(db, ws, { name: "Plain part", has_license: false });
    const partner = await insertReportContact(db, ws, { company: "Ünïcode Trading ☃", country_id: 3 });
    await insertReportShipment(db, ws, {
      name: "Dated, in USD",
      importer: partner,
      items: [
        { product_id: licensed, quantity: 2, extended_value: "1234.56" },
        { product_id: plain, quantity: 7, extended_value: "0.10" },
      ],
    });
    // No date (null date and year), another currency without a rate (a null USD value).
    await insertReportShipment(db, ws, {
      name: "Undated, no rate",
      ship_date: null,
      currency_id: 2,
      usd_exchange_rate: "",
      items: [{ product_id: plain, quantity: 1, extended_value: "99.99" }],
    });
    const third = await insertReportProduct(db, ws, { name: "Third part" });
    await insertBulkLines(db, ws, {
      shipments: 700,
      itemsPer: 3,
      productIds: [licensed, plain, third],
      contactIds: [partner],
    });
    const records = await reportJsonRecords(
      ctx.database.client,
      reportRowSource(ctx.database.client, ctx.env.databaseUrl),
      ws,
      1_000_000,
    );
    expected = (records ?? []).map((r) => canonical(r as Record<string, unknown>, false)).sort();
  }, 60_000);

  test("every cell of every line is the JSON report's (text, dates, money, booleans, nulls)", async () => {
    const served = await servedLines(await connect(who));
    expect(served.length).toBeGreaterThan(2048);
    expect(served).toEqual(expected);
    expect(expected.some((line) => line.includes("Ünïcode Trading ☃"))).toBe(true);
    expect(expected.some((line) => line.includes('"Undated, no rate"'))).toBe(true);
  }, 60_000);

  test("read on the engine's own thread (where no reader worker runs), the lines are the same", async () => {
    const engine = await PivotEngine.start({ databaseUrl: ctx.env.databaseUrl, readOnThisThread: true });
    try {
      await engine.open(1, who.user.workspace_id);
      const client: TClient = perspective.make_client(async (bytes: Uint8Array) => {
        await client.handle_response(await engine.handle(1, bytes));
      });
      expect(await servedLines(client)).toEqual(expected);
      expect(engine.loadsReadOffThread()).toBe(0);
    } finally {
      await engine.stop();
    }
  }, 60_000);
});

describe("the pivot engine", () => {
  test("each workspace's lines are in a DuckDB of their own", async () => {
    const engine = await PivotEngine.start({ databaseUrl: ctx.env.databaseUrl });
    try {
      await engine.open(1, owner.user.workspace_id);
      await engine.open(2, other.user.workspace_id);
      expect(engine.openStores()).toBe(2);
      await engine.close(1);
      await engine.close(2);
    } finally {
      await engine.stop();
    }
    expect(engine.openStores()).toBe(0);
  }, 30_000);

  test("an unused table goes when idle, also one loaded by a warm-up after a change, and its DuckDB with it", async () => {
    let idle = 0;
    const engine = await PivotEngine.start({
      databaseUrl: ctx.env.databaseUrl,
      idleMs: 300,
      onIdle: () => idle++,
    });
    try {
      const who = await signUp(ctx);
      const ws = who.user.workspace_id;
      const product = await insertReportProduct(ctx.database.db, ws, {});
      const ship = () =>
        insertReportShipment(ctx.database.db, ws, {
          items: [{ product_id: product, quantity: 1, extended_value: "1.00" }],
        });
      await ship();
      await engine.open(1, ws);
      const [first] = engine.loadedTables();
      await engine.close(1);
      // The data changes and a page warms the workspace before its idle time is up.
      await Bun.sleep(20);
      await ship();
      await engine.warm(ws);
      const [second] = engine.loadedTables();
      expect(second).not.toBe(first);
      expect(engine.openStores()).toBe(1);
      await Bun.sleep(700);
      expect(engine.loadedTables()).toEqual([]);
      expect(engine.openStores()).toBe(0);
      expect(idle).toBe(1);
    } finally {
      await engine.stop();
    }
  }, 30_000);

  test("loads a workspace once per change, and stops (DuckDB closed) so that another can start", async () => {
    const source = { databaseUrl: ctx.env.databaseUrl };
    const engine = await PivotEngine.start(source);
    const ws = other.user.workspace_id;
    await engine.warm(ws);
    const [first] = engine.loadedTables();
    await engine.warm(ws);
    expect(engine.loadedTables()).toEqual([first]);
    // Read by the lines reader worker while this thread appended.
    expect(engine.loadsReadOffThread()).toBe(1);
    await engine.open(1, ws);
    await engine.close(1);
    await engine.stop();
    const again = await PivotEngine.start(source);
    await again.warm(ws);
    expect(again.loadedTables()).toHaveLength(1);
    await again.stop();
  }, 30_000);
});

describe("the server pivot's aggregates agree with SQL", () => {
  let table: Awaited<ReturnType<TClient["open_table"]>>;

  beforeAll(async () => {
    table = await (await connect(other)).open_table(REPORT_TABLE);
  });

  /** One value per group of `by` (a SQL expression), as independent SQL over the database. */
  async function sqlBy(by: string, select: string, where = "1 = 1"): Promise<Map<string, number>> {
    const result = await ctx.database.client.execute({
      sql: `select ${by}, ${select}
        from shipment_items i
        join shipments s on s.id = i.shipment_id
        join shipping_statuses st on st.id = s.shipping_status_id
        join products p on p.id = i.product_id
        join currencies c on c.id = s.currency_id
        where s.workspace_id = ? and s.shipping_status_id <> 1 and ${where}
        group by 1`,
      args: [other.user.workspace_id],
    });
    return new Map(result.rows.map((r) => [String(r[0]), Number(r[1])]));
  }

  /** The server's value per group for one column and aggregate (the total row left out). */
  async function pivot(config: Record<string, unknown>, column: string): Promise<Map<string, number>> {
    const view = await table.view(config as never);
    const columns = (await view.to_columns()) as Record<string, unknown[]>;
    await view.delete();
    const out = new Map<string, number>();
    (columns.__ROW_PATH__ as unknown[][]).forEach((path, i) => {
      if (path.length === 1) out.set(String(path[0]), Number(columns[column][i]));
    });
    return out;
  }

  const STATUS = "upper(st.label)";

  const CASES: [column: string, aggregate: string, sql: string][] = [
    ...LINE_AGGREGATE_CASES,
    ["product_name", "distinct count", "count(distinct p.name)"],
    ["shipment_id", "distinct count", "count(distinct s.id)"],
  ];

  for (const [column, aggregate, select] of CASES) {
    test(`${aggregate} of ${column} by status`, async () => {
      const expected = await sqlBy(STATUS, select);
      const actual = await pivot(
        { group_by: [L("status")], columns: [L(column)], aggregates: { [L(column)]: aggregate } },
        L(column),
      );
      expect(expected.size).toBe(5);
      expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [status, value] of expected) expect(actual.get(status)!).toBeCloseTo(value, 6);
    });
  }

  test("a filter, a split and a sort give SQL's sums", async () => {
    const view = await table.view({
      group_by: [L("product_name")],
      split_by: [L("currency")],
      columns: [L("quantity")],
      aggregates: { [L("quantity")]: "sum" },
      filter: [[L("quantity"), ">", 2]],
      sort: [[L("quantity"), "desc"]],
    } as never);
    const columns = (await view.to_columns()) as Record<string, unknown[]>;
    await view.delete();
    const expected = await sqlBy("p.name || '|' || c.code", "sum(i.quantity)", "i.quantity > 2");
    const paths = columns.__ROW_PATH__ as unknown[][];
    let checked = 0;
    for (const [key, value] of expected) {
      const [product, currency] = key.split("|");
      const row = paths.findIndex((path) => path.length === 1 && path[0] === product);
      expect(row).toBeGreaterThanOrEqual(0);
      expect(Number(columns[`${currency}|Quantity`][row])).toBe(value);
      checked++;
    }
    expect(checked).toBeGreaterThan(3);
    // Sorted by the row total, largest first.
    const byProduct = await sqlBy("p.name", "sum(i.quantity)", "i.quantity > 2");
    const order = paths.filter((path) => path.length === 1).map((path) => String(path[0]));
    expect(order).toEqual([...byProduct.entries()].sort((a, b) => b[1] - a[1]).map(([name]) => name));
  });
});

describe("isOneStatement", () => {
  test("a statement with quotes, strings and comments is one; a second one is refused", () => {
    expect(isOneStatement(`SELECT "a;b", 'c;''d' FROM "t""x" -- ; comment\nWHERE 1 = 1;  `)).toBe(true);
    expect(isOneStatement("SELECT 1 /* ; */ FROM t")).toBe(true);
    expect(isOneStatement(`SELECT MIN("x"); DROP TABLE t --")`)).toBe(false);
    expect(isOneStatement("SELECT 1; SELECT 2")).toBe(false);
    expect(isOneStatement(`SELECT "unclosed`)).toBe(false);
    expect(isOneStatement("SELECT 1 /* unclosed")).toBe(false);
  });
});
