import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { createClient } from "@libsql/client";
import type { Page } from "@playwright/test";
import { expect, type TTestUser, test, waitForHydration, watchConsole } from "./fixtures";

const today = new Date().toISOString().slice(0, 10);
const twoYearsAgo = `${new Date().getUTCFullYear() - 2}-06-15`;

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
}

/**
 * Six shipments to three countries, written straight into the test server's database (so the
 * dashboard is tested without going through the shipment form): Germany 3 (this week), Japan 2 (one this week, one
 * two years ago), Brazil 1 (two years ago).
 */
async function seedShipments(page: Page, user: TTestUser) {
  await seedDestinations(page, user, [
    [
      "Berlin Optics GmbH",
      "DE",
      [
        [today, 3, "DE-1"],
        [today, 3, "DE-2"],
        [today, 6, "DE-3"],
      ],
    ],
    [
      "Osaka Trading KK",
      "JP",
      [
        [today, 5, "JP-1"],
        [twoYearsAgo, 4, "JP-2"],
      ],
    ],
    ["São Paulo Importadora", "BR", [[twoYearsAgo, 2, "BR-1"]]],
  ]);
}

/** Per importer (company, ISO country code): its shipments as [ship date, status id, reference]. */
type TSeed = [string, string, [string, number, string][]];

async function seedDestinations(page: Page, user: TTestUser, seeds: TSeed[]) {
  const db = createClient({ url: `file:${path.join(process.env.E2E_DATA_DIR!, "app.db")}`, timeout: 10_000 });
  try {
    const ws = Number(
      (await db.execute({ sql: "select workspace_id from users where email = ?", args: [user.email] }))
        .rows[0].workspace_id,
    );
    const importer = async (company: string, code: string) => {
      const country = Number(
        (await db.execute({ sql: "select id from countries where code_iso_2 = ?", args: [code] })).rows[0].id,
      );
      const res = await page.request.post("/api/contacts", {
        // A cookie-authenticated write must come from our own origin.
        headers: { origin: new URL(process.env.E2E_BASE_URL!).origin },
        data: {
          company,
          partner_type_id: 1,
          tax_id: `TAX-${code}`,
          contact_1: "Pat",
          phone_1: "+1 555 0100",
          email_1: `pat-${code.toLowerCase()}@example.com`,
          is_sensitive: 0,
          is_restricted: 0,
          country_id: country,
        },
      });
      expect(res.status()).toBe(201);
      return ((await res.json()) as { item: { id: number } }).item.id;
    };
    for (const [company, code, shipments] of seeds) {
      const importerId = await importer(company, code);
      for (const [shipDate, status, ref] of shipments) {
        await db.execute({
          sql: `insert into shipments (workspace_id, importer_of_record_id, ship_date, shipping_status_id,
                  shipper_reference_number, tracking_number_1) values (?, ?, ?, ?, ?, ?)`,
          args: [ws, importerId, shipDate, status, ref, `TRK-${ref}`],
        });
      }
    }
  } finally {
    db.close();
  }
}

async function tiles(page: Page) {
  const result: Record<string, [string, string]> = {};
  for (const tile of await page
    .getByRole("list", { name: "Shipping performance" })
    .getByRole("listitem")
    .all()) {
    const status = (await tile.getAttribute("data-status"))!;
    result[status] = [
      (await tile.getByTestId("tile-count").textContent())!,
      (await tile.getByTestId("tile-percent").textContent())!,
    ];
  }
  return result;
}

const tableRows = (page: Page, name: string) =>
  page
    .getByRole("table", { name })
    .getByRole("row")
    .filter({ hasNot: page.getByRole("columnheader") });

/** The cluster counts the map has drawn, once its countries are on screen. */
async function clusterCounts(page: Page) {
  // The map starts once its frame is near the screen (below the fold on a phone).
  await page.getByRole("heading", { name: "Shipments Map" }).scrollIntoViewIfNeeded();
  const map = page.getByTestId("world-map");
  await expect(map).toHaveAttribute("data-ready", "true", { timeout: 15_000 });
  return map;
}

/**
 * The colour of the map's canvas at a longitude/latitude, at the start view (zoom 2, centre 0,0):
 * Web Mercator by hand, 256 px tiles, so the world is 1024 px wide.
 */
async function pixelAt(page: Page, lng: number, lat: number) {
  return page.getByTestId("world-map").evaluate(
    (element, [lon, la]) => {
      const canvas = element.querySelector("canvas")!;
      const size = 256 * 2 ** 2;
      const x = canvas.width / 2 + (lon / 360) * size;
      const rad = (la * Math.PI) / 180;
      const y = canvas.height / 2 - (Math.log(Math.tan(Math.PI / 4 + rad / 2)) / (2 * Math.PI)) * size;
      const context = canvas.getContext("2d")!;
      return Array.from(context.getImageData(Math.round(x), Math.round(y), 1, 1).data);
    },
    [lng, lat],
  );
}

test("an empty workspace shows the empty state that leads to creating a shipment", async ({
  page,
  user: _,
}) => {
  const problems = watchConsole(page);
  await page.goto("/home");
  await waitForHydration(page);
  const empty = page.getByTestId("home-empty");
  await expect(empty.getByRole("heading", { name: "No shipments yet" })).toBeVisible();
  await expect(empty.getByRole("link", { name: "Create Int’l Shipment" })).toHaveAttribute(
    "href",
    "/shipments/create-shipment",
  );
  await expectNoAxeViolations(page);
  expect(problems).toEqual([]);
});

test("tiles, tables and map agree; switching the period updates them all and the URL", async ({
  page,
  user,
}, testInfo) => {
  // Two page loads, two axe runs and two screenshots on a shared 2-core machine.
  test.setTimeout(90_000);
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/home");
  await seedShipments(page, user);
  await page.goto("/home");
  await waitForHydration(page);

  // All: 6 shipments — draft 1, in transit 2, customs 1, delayed 1, delivered 1.
  expect(await tiles(page)).toEqual({
    draft: ["1", "17%"],
    "in transit": ["2", "33%"],
    customs: ["1", "17%"],
    delayed: ["1", "17%"],
    delivered: ["1", "16%"],
  });
  await expect(
    page.getByRole("list", { name: "Shipping performance" }).getByText("IN TRANSIT", { exact: true }),
  ).toBeVisible();
  const recent = tableRows(page, "Most Recent Shipments");
  await expect(recent).toHaveCount(6);
  await expect(recent.first()).toContainText(
    `${today.slice(5, 7)}/${today.slice(8, 10)}/${today.slice(0, 4)}`,
  );
  await expect(page.getByText("1-6 of 6 items")).toBeVisible();
  const common = tableRows(page, "Most Common Shipments");
  await expect(common).toHaveCount(3);
  await expect(common.nth(0)).toHaveText(/Germany\s*3\s*50%/);
  await expect(common.nth(1)).toHaveText(/Japan\s*2\s*33%/);
  await expect(common.nth(2)).toHaveText(/Brazil\s*1\s*17%/);
  await expect(page.getByRole("link", { name: "All" })).toHaveAttribute("aria-current", "page");
  const map = await clusterCounts(page);
  await expect(map).toHaveAttribute("data-cluster-counts", "3,2,1");
  await expect(map).toHaveAttribute("data-zoom", "2");
  // Every marker fits the spec's start view, so it stays centred on 0,0.
  await expect(map).toHaveAttribute("data-center", "0,0");

  // The map draws the countries: land in Australia's interior, and no streak across the open sea
  // at the latitudes of Russia's far east (66°N, Denmark Strait) and Fiji (17°S, South Atlantic).
  const land = await pixelAt(page, 134, -25);
  expect(land[3], `land pixel ${land}`).toBeGreaterThan(200);
  for (const [lng, lat] of [
    [-28, 66],
    [-20, -17],
    [-150, 66.5],
    [-140, -17],
  ]) {
    const sea = await pixelAt(page, lng, lat);
    expect(sea[3], `sea at ${lng},${lat}: ${sea}`).toBe(0);
  }
  await page.screenshot({ path: testInfo.outputPath("home-1440.png"), fullPage: true });
  await expectNoAxeViolations(page);

  // A rows links to the shipment.
  await expect(recent.first().getByRole("link").first()).toHaveAttribute(
    "href",
    /\/shipments\/edit-shipment\/\d+$/,
  );

  // Week: Germany 3 + Japan 1.
  await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "Week" }).click();
  await expect(page).toHaveURL(/[?&]period=week/);
  await expect(page.getByRole("link", { name: "Week" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "All" })).not.toHaveAttribute("aria-current", "page");
  await expect(recent).toHaveCount(4);
  expect(await tiles(page)).toEqual({
    draft: ["0", "0%"],
    "in transit": ["2", "50%"],
    customs: ["0", "0%"],
    delayed: ["1", "25%"],
    delivered: ["1", "25%"],
  });
  await expect(common).toHaveCount(2);
  await expect(common.nth(0)).toHaveText(/Germany\s*3\s*75%/);
  await expect(common.nth(1)).toHaveText(/Japan\s*1\s*25%/);
  await expect(map).toHaveAttribute("data-cluster-counts", "3,1");

  // The list at a cluster: Germany's three shipments, each a link to its edit page.
  await page
    .getByTestId("map-destinations")
    .getByRole("button", { name: /Germany/ })
    .click();
  const list = page.getByTestId("cluster-shipments");
  await expect(list.getByRole("link")).toHaveCount(3);
  await expect(list.getByRole("link", { name: /DE-3/ })).toHaveAttribute(
    "href",
    /\/shipments\/edit-shipment\/\d+$/,
  );

  // The period is bookmarkable: a fresh load of the URL shows the same.
  await page.reload();
  await waitForHydration(page);
  await expect(recent).toHaveCount(4);
  await expect((await clusterCounts(page)).getAttribute("data-cluster-counts")).resolves.toBe("3,1");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await waitForHydration(page);
  await clusterCounts(page);
  await page.screenshot({ path: testInfo.outputPath("home-390.png"), fullPage: true });
  expect(problems).toEqual([]);
});

/**
 * A colleague in the user's workspace (a row, no sign-in needed) who created Japan's and Brazil's
 * shipments; the user created Germany's. Answers the colleague's id.
 */
async function attributeToColleague(user: TTestUser, colleague: { name: string; surname: string }) {
  const db = createClient({ url: `file:${path.join(process.env.E2E_DATA_DIR!, "app.db")}`, timeout: 10_000 });
  try {
    const [me] = (
      await db.execute({ sql: "select id, workspace_id from users where email = ?", args: [user.email] })
    ).rows;
    const inserted = await db.execute({
      sql: `insert into users (workspace_id, title, name, surname, email, password_hash, roles)
            values (?, 'Mr.', ?, ?, ?, 'no sign-in', 'shipper') returning id`,
      args: [
        me.workspace_id,
        colleague.name,
        colleague.surname,
        `colleague-${Date.now()}-${Math.random()}@example.com`,
      ],
    });
    const colleagueId = Number(inserted.rows[0].id);
    await db.execute({
      sql: `update shipments set user_id = case when shipper_reference_number like 'DE-%' then ? else ? end
            where workspace_id = ?`,
      args: [me.id, colleagueId, me.workspace_id],
    });
    return colleagueId;
  } finally {
    db.close();
  }
}

test("choosing a user shows their shipments in every widget, and All users everyone's again", async ({
  page,
  user,
}, testInfo) => {
  test.setTimeout(90_000);
  const problems = watchConsole(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/home");
  await seedShipments(page, user);
  const colleagueId = await attributeToColleague(user, { name: "Kenji", surname: "Sato" });
  await page.reload();
  await waitForHydration(page);

  const chooser = page.getByLabel("User");
  await expect(chooser).toHaveValue("");
  // By surname, as every member list.
  await expect(chooser.locator("option")).toHaveText([
    "All users",
    "Kenji Sato",
    `${user.name} ${user.surname}`,
  ]);
  const recent = tableRows(page, "Most Recent Shipments");
  const common = tableRows(page, "Most Common Shipments");
  await expect(recent).toHaveCount(6);

  await chooser.selectOption({ label: "Kenji Sato" });
  await expect(page).toHaveURL(new RegExp(`[?&]user=${colleagueId}\\b`));
  await expect(recent).toHaveCount(3);
  // Newest first: Japan's this week, then the two of two years ago, the later-created first.
  await expect(recent).toContainText(["TRK-JP-1", "TRK-BR-1", "TRK-JP-2"]);
  await expect(common).toHaveCount(2);
  await expect(common.nth(0)).toHaveText(/Japan\s*2\s*67%/);
  await expect(common.nth(1)).toHaveText(/Brazil\s*1\s*33%/);
  const counts = await tiles(page);
  expect(Object.fromEntries(Object.entries(counts).map(([status, [count]]) => [status, count]))).toEqual({
    draft: "1",
    "in transit": "0",
    customs: "1",
    delayed: "1",
    delivered: "0",
  });
  const map = await clusterCounts(page);
  await expect(map).toHaveAttribute("data-cluster-counts", "2,1");
  // The tiles open My Shipments filtered to the member too.
  const tileHref = await page
    .getByRole("list", { name: "Shipping performance" })
    .getByRole("link")
    .first()
    .getAttribute("href");
  expect(decodeURIComponent(tileHref!)).toMatch(new RegExp(`user_id\\W+${colleagueId}\\b`));
  // A cluster's list asks for the member's shipments only.
  await page.getByTestId("map-destinations").getByRole("button", { name: /Japan/ }).click();
  await expect(page.getByTestId("cluster-shipments").getByRole("link")).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath("home-user-1440.png"), fullPage: true });
  await expectNoAxeViolations(page);

  // With the period: this week, only Japan's delayed one.
  await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "Week" }).click();
  await expect(page).toHaveURL(/[?&]period=week/);
  await expect(page).toHaveURL(new RegExp(`[?&]user=${colleagueId}\\b`));
  await expect(recent).toHaveCount(1);
  await expect(recent.first()).toContainText("TRK-JP-1");

  // The user's own: Germany's three.
  await chooser.selectOption({ label: `${user.name} ${user.surname}` });
  await expect(recent).toHaveCount(3);
  await expect(common).toHaveCount(1);
  await expect(common.first()).toHaveText(/Germany\s*3\s*100%/);

  await page.getByLabel("User").selectOption({ label: "All users" });
  await expect(page).not.toHaveURL(/[?&]user=/);
  await expect(recent).toHaveCount(4);
  await chooser.selectOption({ label: "Kenji Sato" });
  await expect(recent).toHaveCount(1);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByLabel("User")).toHaveValue(/\d+/);
  await clusterCounts(page);
  await page.screenshot({ path: testInfo.outputPath("home-user-390.png"), fullPage: true });
  await expectNoAxeViolations(page);

  // A bookmarked member id that is not one of this workspace's opens everyone's dashboard.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/home?period=all&user=999999");
  await waitForHydration(page);
  await expect(page).not.toHaveURL(/[?&]user=/);
  await expect(page.getByLabel("User")).toHaveValue("");
  await expect(recent).toHaveCount(6);

  expect(problems).toEqual([]);
});

test("clicking a single-destination cluster on the map lists its shipments", async ({ page, user }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/home");
  await seedShipments(page, user);
  await page.goto("/home?period=all");
  await waitForHydration(page);
  const map = await clusterCounts(page);
  // Brazil's centroid (10°S, 55°W) at the start view.
  const box = (await map.boundingBox())!;
  const size = 1024;
  const x = box.x + box.width / 2 + (-55 / 360) * size;
  const rad = (-10 * Math.PI) / 180;
  const y = box.y + box.height / 2 - (Math.log(Math.tan(Math.PI / 4 + rad / 2)) / (2 * Math.PI)) * size;
  await page.mouse.click(x, y);
  const list = page.getByTestId("cluster-shipments");
  await expect(list.getByRole("heading", { name: "Shipments to Brazil" })).toBeVisible();
  await expect(list.getByRole("link")).toHaveCount(1);
  await expect(list.getByRole("link")).toContainText("BR-1");
});

/**
 * The markers drawn on the map's canvases, found by their colour (the cluster fill, alone or over
 * land): each marker's bounding box in canvas pixels, and the canvas size.
 */
async function drawnMarkers(page: Page) {
  return page.getByTestId("world-map").evaluate((element) => {
    const boxes: { left: number; top: number; right: number; bottom: number }[] = [];
    let size = [0, 0];
    for (const canvas of element.querySelectorAll("canvas")) {
      const { width, height } = canvas;
      size = [width, height];
      const data = canvas.getContext("2d")!.getImageData(0, 0, width, height).data;
      const isMarker = (i: number) => {
        const [r, g, b, a] = [data[i * 4], data[i * 4 + 1], data[i * 4 + 2], data[i * 4 + 3]];
        return a > 150 && r < 80 && b - r > 50 && b > g;
      };
      const seen = new Uint8Array(width * height);
      for (let start = 0; start < width * height; start++) {
        if (seen[start] || !isMarker(start)) continue;
        const box = { left: width, top: height, right: 0, bottom: 0 };
        let pixels = 0;
        const stack = [start];
        seen[start] = 1;
        while (stack.length) {
          const i = stack.pop()!;
          const [x, y] = [i % width, Math.floor(i / width)];
          pixels++;
          box.left = Math.min(box.left, x);
          box.right = Math.max(box.right, x);
          box.top = Math.min(box.top, y);
          box.bottom = Math.max(box.bottom, y);
          for (const [nx, ny] of [
            [x + 1, y],
            [x - 1, y],
            [x, y + 1],
            [x, y - 1],
          ]) {
            const n = ny * width + nx;
            if (nx < 0 || ny < 0 || nx >= width || ny >= height || seen[n] || !isMarker(n)) continue;
            seen[n] = 1;
            stack.push(n);
          }
        }
        // Anti-aliased specks are not markers.
        if (pixels > 40) boxes.push(box);
      }
    }
    return { boxes, size };
  });
}

test("markers far north are drawn whole, and one near the antimeridian once, at 1440 and at 390", async ({
  page,
  user,
}, testInfo) => {
  await page.goto("/home");
  await seedDestinations(page, user, [
    ["Nuuk Supply ApS", "GL", [[today, 3, "GL-1"]]],
    ["Suva Traders Ltd", "FJ", [[today, 3, "FJ-1"]]],
    ["Osaka Trading KK", "JP", [[today, 3, "JP-1"]]],
  ]);
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await page.goto("/home?period=all");
    await waitForHydration(page);
    const map = await clusterCounts(page);
    const clusters = ((await map.getAttribute("data-cluster-counts")) ?? "").split(",").filter(Boolean);
    const { boxes, size } = await drawnMarkers(page);
    await map.screenshot({ path: testInfo.outputPath(`map-edges-${width}.png`) });
    // Each cluster drawn once: Fiji, 2° from the antimeridian, is not repeated on a map wider than
    // the world (1440), and no marker is cut by an edge, Greenland's (72°N) least of all.
    expect(boxes.length, JSON.stringify({ boxes, clusters, size })).toBe(clusters.length);
    expect(clusters.length).toBeGreaterThan(0);
    for (const box of boxes) {
      expect(box.top, JSON.stringify(box)).toBeGreaterThan(0);
      expect(box.left, JSON.stringify(box)).toBeGreaterThan(0);
      expect(box.bottom, JSON.stringify(box)).toBeLessThan(size[1] - 1);
      expect(box.right, JSON.stringify(box)).toBeLessThan(size[0] - 1);
    }
    if (width === 1440) {
      // The three destinations are far enough apart to be three markers, and the map is wider than
      // one world (1024 px at zoom 2), so a wrapped copy of Fiji would be on screen.
      expect(clusters).toEqual(["1", "1", "1"]);
      // Fiji (175°E) is 498 px east of the centre; its copy one world west would be 526 px west.
      expect(size[0] / 2).toBeGreaterThan(1024 - 498);
      await expect(map).toHaveAttribute("data-zoom", "2");
    }
  }
});
