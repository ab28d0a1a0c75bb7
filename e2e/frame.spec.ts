import { expect, test, waitForHydration, watchConsole } from "./fixtures";

const LOGGED_IN_LINKS = [
  ["My Shipments", "/shipments", "My Shipments"],
  ["Create Int’l Shipment", "/shipments/create-shipment", "Create International Shipment"],
  ["Restricted Party Screening", "/restricted-party-screening", "Restricted Party Screening"],
  ["My Products", "/products", "Products"],
  ["My Address Book", "/contacts", "My Address Book"],
  ["My Licenses", "/licenses", "Licenses"],
  ["My Shipping Documents", "/my-shipping-documents", "My Shipping Documents"],
  ["My Wiki", "/my-wiki", "My Wiki"],
  ["Reports", "/reports", "Reports"],
  ["Talk to an Expert", "/talk-to-an-expert", "Talk to an Expert"],
  ["User Profile", "/user/account", "User Profile"],
] as const;

test("/ redirects to /home inside the app frame", async ({ page, user: _ }) => {
  const problems = watchConsole(page);
  await page.goto("/");
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Tradewinds home" })).toHaveAttribute("href", "/home");
  await waitForHydration(page);
  expect(problems).toEqual([]);
});

test("every sidebar link leads to a rendered screen, client-side without a full reload", async ({
  page,
  user: _,
}) => {
  const problems = watchConsole(page);
  await page.goto("/home");
  await waitForHydration(page);
  // A marker on window survives client-side navigation but not a full page load.
  await page.evaluate(() => {
    (window as unknown as { __marker: number }).__marker = 42;
  });
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  for (const [label, path, heading] of LOGGED_IN_LINKS) {
    await nav.getByRole("link", { name: label, exact: true }).click();
    // Create Int'l Shipment creates the draft by a call and opens its edit page (spec section 4).
    const expected =
      path === "/shipments/create-shipment"
        ? /\/shipments\/edit-shipment\/\d+$/
        : new RegExp(`${path.replace(/[/-]/g, "\\$&")}$`);
    await expect(page).toHaveURL(expected);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    if (path === "/shipments/create-shipment") {
      // The header bar and the tab name the page as the spec does, not 'Edit Shipment'.
      await expect(page.getByRole("banner")).toContainText("Create International Shipment");
      await expect(page.getByRole("banner")).not.toContainText("Edit Shipment");
      await expect(page).toHaveTitle(/Create International Shipment/);
    }
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(42);
  }
  await nav.getByRole("link", { name: "Logout", exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Public navigation" })).toBeVisible();
  expect(problems).toEqual([]);
});

test("an unknown path shows 'Page not found.' with a 404 status", async ({ page, user: _ }) => {
  const response = await page.goto("/no/such/screen");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found." })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main navigation" })).toBeVisible();
});

test("an item route with an impossible id shows 404 'Not found' with Back and Home", async ({
  page,
  user: _,
}) => {
  await page.goto("/home");
  await page.goto("/contacts/edit-contact/not-a-number");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(page.getByText("404")).toBeVisible();
  await page.getByRole("button", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.goto("/products/print/0");
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await page.getByRole("link", { name: "Home" }).last().click();
  await expect(page).toHaveURL(/\/home$/);
});

test("the sidebar collapses and expands, and remembers it", async ({ page, user: _ }) => {
  await page.goto("/home");
  await waitForHydration(page);
  const sidebar = page.getByRole("complementary", { name: "Sidebar" });
  await expect(sidebar.getByText("My Address Book")).toBeVisible();
  await page.getByRole("button", { name: "Collapse sidebar" }).click();
  await expect(sidebar).toHaveAttribute("data-collapsed", "true");
  await expect(sidebar.getByText("My Address Book")).toBeHidden();
  // Collapsed links keep an accessible name.
  await expect(sidebar.getByRole("link", { name: "My Address Book" })).toBeVisible();
  await page.reload();
  await expect(sidebar).toHaveAttribute("data-collapsed", "true");
  await page.getByRole("button", { name: "Expand sidebar" }).click();
  await expect(sidebar).toHaveAttribute("data-collapsed", "false");
  await expect(sidebar.getByText("My Address Book")).toBeVisible();
});

test("public paths get their own sidebar; legal pages show their title and a Home link", async ({ page }) => {
  for (const [path, title] of [
    ["/legal/terms", "Terms"],
    ["/legal/help", "Help"],
    ["/legal/privacy", "Privacy"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Public navigation" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main navigation" })).toHaveCount(0);
    await expect(page.getByRole("main").getByRole("link", { name: "Home" })).toHaveAttribute("href", "/home");
  }
});

test("the header takes its scrolled style after 77 px", async ({ page }) => {
  await page.setViewportSize({ width: 1200, height: 400 });
  await page.goto("/legal/terms");
  await waitForHydration(page);
  await page.evaluate(() => {
    document.querySelector("main")!.style.minHeight = "3000px";
  });
  const header = page.locator("header[data-scrolled]");
  await expect(header).toHaveAttribute("data-scrolled", "false");
  await page.evaluate(() => window.scrollTo(0, 70));
  await expect(header).toHaveAttribute("data-scrolled", "false");
  await page.evaluate(() => window.scrollTo(0, 120));
  await expect(header).toHaveAttribute("data-scrolled", "true");
});

test("the debug panel shows with ?debug=1 and has its tabs and Verbose toggle", async ({ page, user: _ }) => {
  await page.goto("/home");
  await expect(page.getByRole("region", { name: "Debug panel" })).toHaveCount(0);
  await page.goto("/home?debug=1");
  const panel = page.getByRole("region", { name: "Debug panel" });
  await expect(panel).toBeVisible();
  for (const tab of ["Debug", "Store", "Location"])
    await expect(panel.getByRole("tab", { name: tab })).toBeVisible();
  await panel.getByRole("tab", { name: "Location" }).click();
  await expect(panel.getByText('"pathname": "/home"')).toBeVisible();
  await panel.getByRole("switch", { name: "Verbose" }).click();
  await expect(panel.getByText('"href"')).toBeVisible();
});

test("pages carry the security headers and no inline script runs without the nonce", async ({
  page,
  user: _,
}) => {
  const response = await page.goto("/home");
  const csp = response!.headers()["content-security-policy"];
  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  expect(response!.headers()["cache-control"]).toBe("no-store");
  const html = await response!.text();
  for (const tag of html.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? [])
    expect(tag).toContain(`nonce="${nonce}"`);
});
