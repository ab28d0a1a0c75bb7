import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { createClient } from "@libsql/client";
import type { Page } from "@playwright/test";
import { drizzle } from "drizzle-orm/libsql";
import type { TDb } from "../db/client";
import * as schema from "../db/schema";
import {
  insertReportContact,
  insertReportProduct,
  insertReportShipment,
} from "../server/features/reports/report-fixtures";
import { expect, type TTestUser, test, waitForHydration, watchConsole } from "./fixtures";

// Shipments have their own screens, tested elsewhere: the lines go straight into the test server's
// database, the way the reports read them.
function openDb() {
  // The server writes too (screenings of contacts it finds pending): wait for its lock, never fail.
  const client = createClient({
    url: `file:${path.join(process.env.E2E_DATA_DIR!, "app.db")}`,
    timeout: 10_000,
  });
  return { client, db: drizzle(client, { schema }) as unknown as TDb };
}

async function workspaceOf(user: TTestUser) {
  const { client } = openDb();
  const rows = await client.execute({
    sql: "select workspace_id from users where email = ?",
    args: [user.email],
  });
  client.close();
  return Number(rows.rows[0].workspace_id);
}

/** Two shipments in March 2026 (in transit, delivered) and one in April (customs), five lines. */
async function seedReport(user: TTestUser) {
  const ws = await workspaceOf(user);
  const { client, db } = openDb();
  const exporter = await insertReportContact(db, ws, { company: "Northwind Exports", screening: "passed" });
  const importer = await insertReportContact(db, ws, { company: "Hanse Import GmbH", country_id: 3 });
  const fuse = await insertReportProduct(db, ws, { name: "Fuse", unit_value: "0.10" });
  const scope = await insertReportProduct(db, ws, { name: "Oscilloscope", unit_value: "1000.00" });
  await insertReportShipment(db, ws, {
    status: 3,
    ship_date: "2026-03-02",
    exporter,
    importer,
    items: [
      { product_id: fuse, quantity: 3, extended_value: "0.30" },
      { product_id: scope, quantity: 2, extended_value: "2000.00" },
    ],
  });
  await insertReportShipment(db, ws, {
    status: 6,
    ship_date: "2026-03-20",
    exporter,
    importer,
    items: [{ product_id: scope, quantity: 1, extended_value: "1000.00" }],
  });
  await insertReportShipment(db, ws, {
    status: 4,
    ship_date: "2026-04-09",
    exporter,
    importer,
    items: [
      { product_id: fuse, quantity: 10, extended_value: "1.00" },
      { product_id: scope, quantity: 5, extended_value: "5000.00" },
    ],
  });
  client.close();
  return { ws, exporter, importer, fuse, scope };
}

// Perspective compiles ~3 MB of WebAssembly per page; on a shared 2-core machine that alone can take
// several seconds, so this spec allows more time than the others.
test.describe.configure({ timeout: 180_000 });

const viewer = (page: Page) => page.locator("perspective-viewer");

/** True in the "server-pivot" project: the same screen over a server that pivots every workspace. */
const onServer = () => test.info().project.name === "server-pivot";

/** The viewer's current configuration, as it would save it. */
const viewerConfig = (page: Page) =>
  page.evaluate(async () => {
    const el = document.querySelector("perspective-viewer") as unknown as {
      save(): Promise<Record<string, unknown>>;
    };
    return el.save();
  });

async function openReports(page: Page) {
  await page.goto("/reports");
  await waitForHydration(page);
  await expect(page.getByText("Loading report data…")).toHaveCount(0, { timeout: 60_000 });
  // The first pivot shows from the columns it needs; the setup tools wait for every column.
  await expect(page.locator("[data-testid=reports-viewer][data-lines]")).toHaveCount(1, { timeout: 60_000 });
}

/** Axe over the whole screen, the viewer's grid and settings panel (in its shadow DOM) included. */
async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
}

/** Stores setups as a browser already has them, opens the screen and loads the first; the viewer's config after. */
async function loadStoredSetup(page: Page, setups: Record<string, unknown>) {
  await page.goto("/reports");
  await page.evaluate((stored) => {
    window.localStorage.setItem("tradewinds-reports-advanced", "1");
    window.localStorage.setItem("saved-report-data", JSON.stringify(stored));
  }, setups);
  await openReports(page);
  await page.getByRole("button", { name: "Tools" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Load" }).click();
  return viewerConfig(page);
}

test("the viewer renders the seeded lines: value per month by status", async ({ page, user }) => {
  const problems = watchConsole(page);
  await seedReport(user);
  await openReports(page);
  await expect(page.getByRole("heading", { name: "Reports" })).toBeVisible();
  // March: 0.30 + 2,000.00 in transit and 1,000.00 delivered; April: 5,001.00 in customs.
  await expect(viewer(page)).toContainText("2026-03");
  await expect(viewer(page)).toContainText("2026-04");
  await expect(viewer(page)).toContainText("IN TRANSIT");
  await expect(viewer(page)).toContainText("DELIVERED");
  await expect(viewer(page)).toContainText("2,000.30");
  await expect(viewer(page)).toContainText("5,001.00");
  await expect(viewer(page)).toContainText("TOTAL");
  const config = await viewerConfig(page);
  expect(config.group_by).toEqual(["Ship month"]);
  expect(config.split_by).toEqual(["Status"]);
  // Values in US dollars: the seeded shipments are in USD, so the same sums.
  expect(config.columns).toEqual(["Extended value (USD)"]);
  await expectAccessible(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: "test-results/reports-1440.png" });
  // Its settings panel is open on a wide screen; a phone opens the page with the grid in view.
  await expect(page.locator("perspective-viewer")).toHaveAttribute("settings", /.*/);
  await page.setViewportSize({ width: 390, height: 844 });
  await openReports(page);
  await expect(viewer(page)).toContainText("2,000.30");
  await expect(page.locator("perspective-viewer")).not.toHaveAttribute("settings", /.*/);
  await page.screenshot({ path: "test-results/reports-390.png" });
  expect(problems.filter((p) => !/favicon/.test(p))).toEqual([]);
});

test("a link opens its pivot: the server's sums for the view first (read-only), then every line, same numbers", async ({
  page,
  user,
}) => {
  test.skip(onServer(), "the browser pivot's own loading path (sums first, then every line)");
  const problems = watchConsole(page);
  await seedReport(user);
  const dataRequests: string[] = [];
  const engineRequests: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/reports-data")) dataRequests.push(new URL(request.url()).search);
    if (/perspective-server-[\w-]+\.wasm/.test(request.url())) engineRequests.push(request.url());
  });
  await page.goto("/reports?group_by=Destination%20country&split_by=Status&columns=Extended%20value");
  // The server render runs Perspective's chunk as soon as it arrives, not after the app's code.
  await expect(page.locator('head script[type=module][async][src*="perspective-loader"]')).toHaveCount(1);
  await expect(page.locator("[data-testid=reports-viewer][data-first-pivot]")).toHaveCount(1, {
    timeout: 60_000,
  });
  const first = await viewerConfig(page);
  expect(first.group_by).toEqual(["Destination country"]);
  expect(first.split_by).toEqual(["Status"]);
  expect(first.columns).toEqual(["Extended value"]);
  // The sums of every line are in the first table: 2,000.30 in transit, 1,000.00 delivered, 5,001.00 in customs.
  await expect(viewer(page)).toContainText("2,000.30");
  await expect(viewer(page)).toContainText("5,001.00");
  await expect(viewer(page)).toContainText("1,000.00");
  await expect(page.locator("[data-testid=reports-viewer][data-lines='5']")).toHaveCount(1, {
    timeout: 60_000,
  });
  await expect(page.getByText("Loading every line…")).toHaveCount(0);
  await expect(page.getByTestId("reports-viewer")).not.toHaveAttribute("inert");
  // The view's summary (the server render preloaded that request), then every line: no more.
  expect(dataRequests).toEqual([
    "?format=arrow&names=labels&group_by=destination_country,status&sum=extended_value",
    "?format=arrow&names=labels",
  ]);
  // The engine is compiled from the preloaded download: one request.
  expect(engineRequests).toHaveLength(1);
  const after = await viewerConfig(page);
  expect(after.group_by).toEqual(["Destination country"]);
  expect(after.split_by).toEqual(["Status"]);
  await expect(viewer(page)).toContainText("1,000.00");
  // Columns the first view did not need are there now.
  await page.evaluate(async () => {
    const el = document.querySelector("perspective-viewer") as unknown as {
      restore(c: unknown): Promise<void>;
    };
    await el.restore({ group_by: ["Product"], split_by: [], columns: ["Quantity"] });
  });
  await expect(viewer(page)).toContainText("Oscilloscope");
  await expect(viewer(page)).toContainText("21");
  expect(problems.filter((p) => !/favicon/.test(p))).toEqual([]);
});

test("on the server pivot no engine and no lines download: views come over the pivot socket", async ({
  page,
  user,
}) => {
  test.skip(!onServer(), "the server pivot's own path");
  const downloads: string[] = [];
  const sockets: string[] = [];
  page.on("request", (request) => downloads.push(request.url()));
  page.on("websocket", (socket) => sockets.push(socket.url()));
  await seedReport(user);
  await openReports(page);
  await expect(page.locator("[data-testid=reports-viewer][data-pivot=server]")).toHaveCount(1);
  await expect(viewer(page)).toContainText("5,001.00");
  expect(downloads.filter((url) => /perspective-server-[\w-]+\.wasm|\/api\/reports-data/.test(url))).toEqual(
    [],
  );
  expect(sockets.some((url) => url.endsWith("/api/reports/pivot"))).toBe(true);
  // Re-pivot: by destination instead of by month, answered by the server.
  await page.evaluate(async () => {
    const el = document.querySelector("perspective-viewer") as unknown as {
      restore(config: Record<string, unknown>): Promise<void>;
    };
    await el.restore({ group_by: ["Status"], split_by: [] });
  });
  await expect(viewer(page)).toContainText("CUSTOMS");
  await expect(viewer(page)).not.toContainText("2026-04");
  await expectAccessible(page);
});

test("tools are hidden without the advanced flag; the flag is remembered", async ({ page, user }) => {
  await seedReport(user);
  await openReports(page);
  await expect(page.getByRole("button", { name: "Tools" })).toHaveCount(0);
  await page.getByRole("switch", { name: "Advanced tools" }).click();
  await expect(page.getByRole("button", { name: "Tools" })).toBeEnabled();
  await openReports(page);
  await expect(page.getByRole("switch", { name: "Advanced tools" })).toBeChecked();
  await expect(page.getByRole("button", { name: "Tools" })).toBeVisible();
  await page.getByRole("switch", { name: "Advanced tools" }).click();
  await expect(page.getByRole("button", { name: "Tools" })).toHaveCount(0);
});

test("save a setup, reload the page, load it back; delete asks 'Really delete?' and Cancel keeps it", async ({
  page,
  user,
}) => {
  await seedReport(user);
  await page.goto("/reports");
  await page.evaluate(() => window.localStorage.setItem("tradewinds-reports-advanced", "1"));
  await openReports(page);
  // Pivot by carrier and product, as a bar chart with a filter.
  await page.evaluate(async () => {
    const el = document.querySelector("perspective-viewer") as unknown as {
      restore(c: unknown): Promise<void>;
    };
    await el.restore({
      group_by: ["Product"],
      split_by: ["Destination country"],
      columns: ["Quantity"],
      filter: [["Status", "!=", "DELIVERED"]],
    });
  });
  await expect(viewer(page)).toContainText("Oscilloscope");

  await page.getByRole("button", { name: "Tools" }).click();
  const dialog = page.getByRole("dialog", { name: "Tools" });
  const name = dialog.getByLabel("Setup name");
  const save = dialog.getByRole("button", { name: "Save", exact: true });
  await expect(save).toBeDisabled();
  // Escape clears the name (and leaves the modal open); Enter saves.
  await name.fill("scratch");
  await name.press("Escape");
  await expect(name).toHaveValue("");
  await expect(dialog).toBeVisible();
  await name.fill("   ");
  await name.press("Enter");
  await expect(dialog.getByText("Enter a name for the setup.")).toBeVisible();
  await name.fill("Products by destination");
  // Checked before the toast below animates in (a half-faded toast fails colour contrast).
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/reports-tools.png" });
  await name.press("Enter");
  await expect(page.getByText("Setup “Products by destination” saved")).toBeVisible();
  await expect(name).toHaveValue("");
  const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem("saved-report-data")!));
  expect(stored["Products by destination"].rows).toEqual(["Product"]);
  expect(stored["Products by destination"].columns).toEqual(["Destination country"]);

  // A fresh page opens on the default view; loading the setup brings the pivot back.
  await openReports(page);
  expect((await viewerConfig(page)).group_by).toEqual(["Ship month"]);
  await page.getByRole("button", { name: "Tools" }).click();
  await dialog.getByLabel("Saved setup", { exact: true }).selectOption("Products by destination");
  await dialog.getByRole("button", { name: "Load" }).click();
  await expect(dialog).toHaveCount(0);
  const loaded = await viewerConfig(page);
  expect(loaded.group_by).toEqual(["Product"]);
  expect(loaded.split_by).toEqual(["Destination country"]);
  expect(loaded.columns).toEqual(["Quantity"]);
  expect(loaded.filter).toEqual([["Status", "!=", "DELIVERED"]]);
  await expect(viewer(page)).toContainText("Oscilloscope");

  // Delete: Cancel keeps it, confirming removes it.
  await page.getByRole("button", { name: "Tools" }).click();
  await dialog.getByRole("button", { name: "Delete Products by destination" }).click();
  await expect(dialog.getByText("Really delete?")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog.getByText("Really delete?")).toHaveCount(0);
  await expect(dialog.getByRole("listitem").filter({ hasText: "Products by destination" })).toHaveCount(1);
  await dialog.getByRole("button", { name: "Delete Products by destination" }).click();
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByText("Setup “Products by destination” deleted")).toBeVisible();
  await expect(dialog.getByText("No saved setups yet.")).toBeVisible();
  expect(await page.evaluate(() => JSON.parse(window.localStorage.getItem("saved-report-data")!))).toEqual(
    {},
  );
});

test("a setup saved with only columns and rows still loads", async ({ page, user }) => {
  await seedReport(user);
  const config = await loadStoredSetup(page, { Legacy: { columns: [], rows: ["Carrier"] } });
  expect(config.group_by).toEqual(["Carrier"]);
  expect(config.split_by).toEqual([]);
});

test("a setup saved by the Perspective 3.8 screen loads: its chart opens as the grid over the same pivot", async ({
  page,
  user,
}) => {
  await seedReport(user);
  // As the 3.8 screen stored it: viewer.save() less settings and theme.
  const config = await loadStoredSetup(page, {
    "Old bars": {
      rows: ["Product"],
      columns: [],
      config: {
        version: "3.8.0",
        plugin: "Y Bar",
        plugin_config: {},
        columns_config: {},
        title: null,
        columns: ["Quantity", null],
        filter: [["Status", "!=", "DELIVERED"]],
        sort: [],
        expressions: {},
        aggregates: { Quantity: "sum" },
      },
    },
  });
  expect(config.plugin).toBe("Datagrid");
  expect(config.group_by).toEqual(["Product"]);
  expect(config.columns).toEqual(["Quantity"]);
  expect(config.filter).toEqual([["Status", "!=", "DELIVERED"]]);
  // Fuse: 3 + 10 (the delivered shipment has no fuses); Oscilloscope: 2 + 5 (1 delivered is filtered out).
  await expect(viewer(page)).toContainText("Oscilloscope");
  await expect(viewer(page)).toContainText("13");
});

test("Reload picks up a shipment created meanwhile and keeps the setup", async ({ page, user }) => {
  const seeded = await seedReport(user);
  await openReports(page);
  await page.getByRole("button", { name: "Stretch results" }).click();
  await expect(page.getByRole("button", { name: "Fit results to page" })).toBeVisible();
  await expect(viewer(page)).not.toContainText("2024-07");
  const { client, db } = openDb();
  await insertReportShipment(db, seeded.ws, {
    status: 5,
    ship_date: "2024-07-15",
    items: [{ product_id: seeded.scope, quantity: 7, extended_value: "7000.00" }],
  });
  client.close();
  await page.getByRole("button", { name: "Reload" }).click();
  await expect(page.getByText("Report data reloaded")).toBeVisible();
  await expect(viewer(page)).toContainText("2024-07");
  await expect(viewer(page)).toContainText("DELAYED");
  await expect(viewer(page)).toContainText("7,000.00");
  expect((await viewerConfig(page)).group_by).toEqual(["Ship month"]);
});

test("export the current view as CSV; a product named as a formula is written as text", async ({
  page,
  user,
}) => {
  const seeded = await seedReport(user);
  const { client, db } = openDb();
  const evil = await insertReportProduct(db, seeded.ws, {
    name: '=HYPERLINK("http://evil.example","Click")',
    unit_value: "1.00",
  });
  await insertReportShipment(db, seeded.ws, {
    status: 3,
    ship_date: "2026-03-05",
    items: [{ product_id: evil, quantity: 1, extended_value: "1.00" }],
  });
  client.close();
  await page.goto("/reports?group_by=Product&columns=Quantity");
  await waitForHydration(page);
  await expect(page.locator("[data-testid=reports-viewer][data-lines]")).toHaveCount(1, { timeout: 60_000 });
  await expect(viewer(page)).toContainText("HYPERLINK");
  const evilDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const evilCsv = Buffer.concat(await (await (await evilDownload).createReadStream()).toArray()).toString(
    "utf8",
  );
  expect(evilCsv).toContain(`"'=HYPERLINK(""http://evil.example"",""Click"")"`);
  expect(evilCsv).not.toMatch(/(^|,)=HYPERLINK/m);

  await openReports(page);
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/^report-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await (await file.createReadStream()).toArray();
  const csv = Buffer.concat(text).toString("utf8");
  expect(csv).toContain("2026-03");
  // March in transit: the seeded 2,000.30 plus the 1.00 line above.
  expect(csv).toContain("2001.3");
});

test("an empty workspace shows an empty state instead of an empty grid", async ({ page, user: _ }) => {
  await openReports(page);
  await expect(page.getByText("No shipment lines to report yet")).toBeVisible();
  await expect(page.getByTestId("reports-viewer")).toBeHidden();
  await expect(page.getByRole("button", { name: "Export CSV" })).toBeDisabled();
  await expectAccessible(page);
  await page.screenshot({ path: "test-results/reports-empty.png" });
});
