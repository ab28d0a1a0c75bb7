import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { createContact, createProduct, expect, test, waitForHydration } from "./fixtures";

// Whole shipments are built through the form on a shared, loaded machine: give each test room.
test.describe.configure({ timeout: 240_000 });

const _origin = () => ({ origin: process.env.E2E_BASE_URL! });

/** The address book and catalogue a shipment draws on, created through the API. */
async function seedWorkspace(page: Page) {
  await page.goto("/home");
  await createContact(page, "Acme Exports", { city: "Chicago" });
  await createContact(page, "Hanse Import GmbH", { city: "Hamburg" });
  await createContact(page, "Nordic Consignee AB", { city: "Malmo" });
  await createProduct(page, "Field router", "FR-1", { unit_value: "12.50" });
  await createProduct(page, "Antenna kit", "AK-7", { unit_value: "0.10" });
}

async function pickParty(page: Page, label: string, search: string, company: string) {
  const box = page.getByRole("combobox", { name: label });
  await box.fill(search);
  await page.getByRole("option", { name: new RegExp(company) }).click();
  await expect(page.locator(`[data-party="${label}"]`)).toContainText(company);
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
}

async function screenshots(page: Page, name: string) {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `test-results/shipments-${name}-${width}.png`, fullPage: true });
    // No horizontal page overflow at either width.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    // The innermost elements reaching past the right edge: what to fix when this fails.
    const culprits =
      overflow <= 0
        ? []
        : await page.evaluate(() =>
            [...document.querySelectorAll("main *")]
              .filter(
                (el) => el.children.length === 0 && el.getBoundingClientRect().right > window.innerWidth + 1,
              )
              .slice(0, 5)
              .map((el) => `${el.tagName.toLowerCase()} "${el.textContent?.slice(0, 30)}"`),
          );
    expect(overflow, `${name} at ${width}px scrolls sideways: ${culprits.join(" | ")}`).toBeLessThanOrEqual(
      0,
    );
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

const banner = (page: Page) => page.getByTestId("autosave-banner");

/** /shipments/create-shipment creates a draft by a call, then moves on to its edit page. */
async function openNewShipment(page: Page) {
  await page.goto("/shipments/create-shipment");
  await expect(page).toHaveURL(/\/shipments\/edit-shipment\/\d+$/, { timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "What do you want to ship?" })).toBeVisible({
    timeout: 20_000,
  });
  await waitForHydration(page);
}

/** Fills a whole shipment through the form; the first change creates it. */
async function fillShipment(page: Page) {
  await page.getByLabel(/^Shipment name/).fill("Chicago to Hamburg");
  await pickParty(page, "Exporter of record", "acme", "Acme Exports");
  await pickParty(page, "Importer of record", "hanse", "Hanse Import GmbH");
  // Keyboard only: type, arrow down, Enter.
  await page.getByRole("combobox", { name: "Ultimate consignee" }).fill("nord");
  await expect(page.getByRole("option", { name: /Nordic Consignee AB/ })).toBeVisible();
  await page.getByRole("combobox", { name: "Ultimate consignee" }).press("ArrowDown");
  await page.getByRole("combobox", { name: "Ultimate consignee" }).press("Enter");
  await expect(page.locator('[data-party="Ultimate consignee"]')).toContainText("Nordic Consignee AB");

  await page.getByRole("button", { name: "Add Item" }).click();
  await page.getByLabel("Item 1 product").selectOption({ label: "Field router" });
  await page.getByLabel("Item 1 quantity").fill("3");
  await expect(page.getByLabel("Item 1 extended value")).toHaveText("$37.50");
  await page.getByRole("button", { name: "Add Item" }).click();
  // Each product only once: the second line offers only the other product.
  await expect(page.getByLabel("Item 2 product").locator("option")).toHaveText(["Choose…", "Antenna kit"]);
  await page.getByLabel("Item 2 product").selectOption({ label: "Antenna kit" });
  await page.getByLabel("Item 2 quantity").fill("3");
  // 0.10 × 3 is exactly 0.30 (no float drift): 37.50 + 0.30.
  await expect(page.getByTestId("total-value")).toHaveText("$37.80");

  await page.getByRole("button", { name: "Add Piece" }).click();
  await expect(page.getByLabel("Package 1 quantity")).toBeDisabled();
  await expect(page.getByLabel("Package 1 net weight (kg)")).toHaveValue("1");
  await page.getByLabel("Package 1 type").selectOption({ index: 1 });
  await expect(page.getByLabel("Package 1 quantity")).toBeEnabled();
  await page.getByLabel("Package 1 quantity").fill("2");
  await page.getByLabel("Package 1 gross weight (kg)").fill("2.25");
  await page.getByRole("button", { name: "Add Piece" }).click();
  await page.getByLabel("Package 2 type").selectOption({ index: 2 });
  await page.getByLabel("Package 2 length (in)").fill("12.5");
  await expect(page.getByTestId("total-pieces")).toHaveText("3");

  await page.getByLabel("Ship date").fill("2026-11-20");
  await page.getByLabel("Shipper reference number").fill("SR-1001");
  await page.getByLabel("Carrier").selectOption({ index: 1 });
  await page.getByLabel("Tracking number 1").fill("1Z999AA10123456784");
  await page.getByLabel("Tracking number 2").fill("TRK-2");
  await page.getByLabel("Freight").fill("1234.5");
  await expect(page.getByLabel("Freight")).toHaveValue("1,234.5");
  await page.getByLabel("Insurance").fill("10");
  // 37.80 + 1,234.50 + 10.00
  await expect(page.getByTestId("total-invoice-value")).toHaveText("$1,282.30");
}

test("a shipment is built through the form, autosaved with the spec's banners, and found again after a reload", async ({
  page,
  user: _,
}) => {
  await seedWorkspace(page);
  await page.goto("/shipments");
  await expect(page.getByRole("heading", { level: 1, name: "My Shipments" })).toBeVisible();
  await expect(page.getByText("No shipments yet.")).toBeVisible();
  await waitForHydration(page);
  await expectNoAxeViolations(page);

  // Slow the saves down so the 'Autosaving' banner lasts longer than the assertion's polling interval
  // (up to 1 s): a quicker save could pass from 'Autosaving' to 'saved' between two polls.
  await page.route("**/api/shipments/*", async (route) => {
    if (route.request().method() === "PUT") await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await openNewShipment(page);
  await expect(page.getByRole("heading", { level: 1, name: "Create International Shipment" })).toBeVisible();
  for (const step of [
    "What do you want to ship?",
    "How do you want to pack this shipment?",
    "How do you want to ship this?",
    "What documents do you want to create?",
    "What do you want to do with the documents?",
  ]) {
    await expect(page.getByRole("heading", { name: step })).toBeVisible();
  }
  await waitForHydration(page);
  await fillShipment(page);

  await expect(banner(page)).toHaveText("Autosaving");
  await expect(banner(page)).toContainText("Your current work has been saved as a draft: ", {
    timeout: 10_000,
  });
  expect(await banner(page).textContent()).toMatch(/saved as a draft: \d\d\/\d\d\/\d\d - \d\d:\d\d$/);
  // The result banner hides after 3000 ms.
  await expect(banner(page)).toHaveText("", { timeout: 6_000 });
  await expectNoAxeViolations(page);
  await screenshots(page, "form");

  await page.reload();
  await waitForHydration(page);
  await expect(page.getByLabel(/^Shipment name/)).toHaveValue("Chicago to Hamburg");
  await expect(page.locator('[data-party="Exporter of record"]')).toContainText("Acme Exports");
  await expect(page.locator('[data-party="Importer of record"]')).toContainText("Hanse Import GmbH");
  await expect(page.locator('[data-party="Ultimate consignee"]')).toContainText("Nordic Consignee AB");
  await expect(page.getByLabel("Item 1 quantity")).toHaveValue("3");
  await expect(page.getByLabel("Item 2 product")).toHaveValue(/\d+/);
  await expect(page.getByLabel("Package 1 gross weight (kg)")).toHaveValue("2.25");
  await expect(page.getByLabel("Package 2 length (in)")).toHaveValue("12.5");
  await expect(page.getByLabel("Ship date")).toHaveValue("2026-11-20");
  await expect(page.getByLabel("Tracking number 1")).toHaveValue("1Z999AA10123456784");
  await expect(page.getByLabel("Freight")).toHaveValue("1,234.50");
  await expect(page.getByTestId("total-invoice-value")).toHaveText("$1,282.30");
  // Step 5–6: choosing a document type enables Generate Paperwork, which saves the choice.
  const generate = page.getByRole("button", { name: "Generate Paperwork" });
  await expect(generate).toBeDisabled();
  await page.getByLabel("Packing List").check();
  await expect(generate).toBeEnabled();
  await generate.click();
  await expect(page.getByText("Paperwork generated").first()).toBeVisible();
  const afterGenerate = await page.request.get(`/api/shipments/${page.url().split("/").pop()}`);
  expect(
    ((await afterGenerate.json()) as { item: { generate_documents: string[] } }).item.generate_documents,
  ).toEqual(["packing_list"]);
  // Each party carries the screening switch.
  await expect(page.getByRole("heading", { name: "Screening: Exporter of record" })).toBeVisible();

  await page.goto("/shipments");
  const row = page.getByRole("row").filter({ hasText: "SR-1001" });
  await expect(row).toContainText("11/20/2026");
  await expect(row).toContainText("Hanse Import GmbH");
  await expect(row).toContainText("Acme Exports");
  await expect(row).toContainText("1Z999AA10123456784");
  await expect(row).toContainText("Last Updated");
  await expect(row.getByRole("combobox", { name: /^Status of shipment/ })).toHaveValue("2");
  // The ship date filters by a range of days.
  await waitForHydration(page);
  const filterByDate = async (from: string, to: string) => {
    await page.getByRole("button", { name: "Filter by Ship date" }).click();
    await page.getByLabel("From", { exact: true }).fill(from);
    await page.getByLabel("To", { exact: true }).fill(to);
    await page.getByRole("button", { name: "Apply" }).click();
  };
  await filterByDate("2026-11-01", "2026-11-30");
  await expect(page.getByRole("row").filter({ hasText: "SR-1001" })).toBeVisible();
  await filterByDate("2026-12-01", "2026-12-31");
  await expect(page.getByText("No shipments match these filters.")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page.getByRole("row").filter({ hasText: "SR-1001" })).toBeVisible();
  await screenshots(page, "list");
});

test("a stale second tab gets the conflict banner and reloads the current version", async ({
  page,
  user: _,
}) => {
  await seedWorkspace(page);
  await page.goto("/shipments");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Create Int’l Shipment" }).click();
  await expect(page).toHaveURL(/\/shipments\/edit-shipment\/\d+$/);
  const url = page.url();
  const second = await page.context().newPage();
  await second.goto(url);
  await waitForHydration(second);
  await waitForHydration(page);

  await page.getByLabel(/^Shipment name/).fill("From the first tab");
  await expect(banner(page)).toContainText("saved as a draft", { timeout: 10_000 });

  await second.getByLabel("Shipper reference number").fill("SR-STALE");
  await expect(banner(second)).toContainText("This shipment was changed somewhere else.", {
    timeout: 10_000,
  });
  await second.getByRole("button", { name: "Reload" }).click();
  await expect(second.getByLabel(/^Shipment name/)).toHaveValue("From the first tab");
  await expect(second.getByLabel("Shipper reference number")).toHaveValue("");
  // After the reload, the second tab saves again.
  await second.getByLabel("Shipper reference number").fill("SR-FRESH");
  await expect(banner(second)).toContainText("saved as a draft", { timeout: 10_000 });
  await second.close();
});

test("save as template, then load it into a new shipment through the confirm", async ({ page, user: _ }) => {
  await seedWorkspace(page);
  await openNewShipment(page);
  await fillShipment(page);
  await expect(banner(page)).toContainText("saved as a draft", { timeout: 10_000 });

  await page.getByRole("button", { name: "Save As Template" }).click();
  await page.getByLabel("Template name").fill("Hamburg run");
  await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Template saved").first()).toBeVisible();

  await page.goto("/shipments");
  await waitForHydration(page);
  // Templates are not shipments in the list.
  await expect(page.getByRole("row").filter({ hasText: "Hamburg run" })).toHaveCount(0);
  await page.getByRole("button", { name: "Create Int’l Shipment" }).click();
  await expect(page).toHaveURL(/\/shipments\/edit-shipment\/\d+$/);
  const newUrl = page.url();
  await waitForHydration(page);
  await page.getByLabel("Shipper reference number").fill("SR-NEW");

  const chooser = page.getByLabel("Load a template");
  await chooser.selectOption({ label: "Hamburg run" });
  const confirm = page.getByRole("dialog");
  await expect(confirm).toContainText("This operation might overwrite your data. Continue?");
  // Reopen while the dialog is still closing, its backdrop's fade over and the box's held: the
  // backdrop once came back on top of the box then and swallowed every click.
  await page.evaluate(() => {
    const hold = (event: AnimationEvent) => {
      const part = event.target as HTMLElement;
      if (part.dataset.state !== "closed") return;
      for (const animation of part.getAnimations()) {
        if (part.dataset.slot === "dialog-overlay") animation.finish();
        if (part.dataset.slot === "dialog-content") animation.pause();
      }
      if (part.dataset.slot === "dialog-content") document.removeEventListener("animationstart", hold);
    };
    document.addEventListener("animationstart", hold);
  });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(page.locator('[data-slot="dialog-overlay"]')).toHaveCount(0);
  await expect(page.locator('[data-slot="dialog-content"]')).toHaveCount(1);
  await expect(chooser).toHaveValue("");
  await expect(page.getByLabel("Shipper reference number")).toHaveValue("SR-NEW");

  await chooser.selectOption({ label: "Hamburg run" });
  // The autosave that stores the loaded template's values (the banner may still show the last one).
  const savedTemplate = page.waitForResponse(
    (res) =>
      res.request().method() === "PUT" &&
      /\/api\/shipments\/\d+$/.test(res.url()) &&
      (res.request().postData() ?? "").includes("SR-1001"),
  );
  await page.getByRole("dialog").getByRole("button", { name: "Ok." }).click({ timeout: 10_000 });
  await expect(page.getByText("Template loaded").first()).toBeVisible();
  await expect(page.getByLabel("Shipper reference number")).toHaveValue("SR-1001");
  await expect(page.locator('[data-party="Importer of record"]')).toContainText("Hanse Import GmbH");
  await expect(page.getByLabel("Item 1 quantity")).toHaveValue("3");
  await expect(page.getByLabel("Ship date")).toHaveValue("");
  // Tracking numbers are not part of a template.
  await expect(page.getByLabel("Tracking number 1")).toHaveValue("");
  await expect(page).toHaveURL(newUrl);
  expect((await savedTemplate).status()).toBe(200);
  await expect(banner(page)).toContainText("saved as a draft", { timeout: 10_000 });
  await page.reload();
  await expect(page.getByLabel("Shipper reference number")).toHaveValue("SR-1001");
});

test("status from the list, print, delete, and 'Shipment not found'", async ({ page, user: _ }) => {
  await seedWorkspace(page);
  await openNewShipment(page);
  await fillShipment(page);
  await expect(banner(page)).toContainText("saved as a draft", { timeout: 10_000 });
  const id = Number(page.url().split("/").pop());

  // Custom documents: upload, download, delete after 'Are you sure?'.
  await page.getByLabel("Upload custom documents").setInputFiles({
    name: "export-licence.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"),
  });
  const docs = page.getByRole("list", { name: "Shipment documents" });
  await expect(docs.getByText("export-licence.pdf")).toBeVisible();
  const download = page.waitForEvent("download");
  await docs.getByRole("link", { name: "Download export-licence.pdf" }).click();
  expect((await download).suggestedFilename()).toBe("export-licence.pdf");
  await docs.getByRole("button", { name: "Delete export-licence.pdf" }).click();
  await page.getByRole("button", { name: "No", exact: true }).click();
  await expect(docs.getByText("export-licence.pdf")).toBeVisible();
  await docs.getByRole("button", { name: "Delete export-licence.pdf" }).click();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("No documents yet.")).toBeVisible();
  // An empty draft cannot leave draft: the server's message is a toast.
  await page.goto("/shipments");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Create Int’l Shipment" }).click();
  await expect(page).toHaveURL(/\/shipments\/edit-shipment\/\d+$/);
  const emptyId = Number(page.url().split("/").pop());
  await page.goto("/shipments");
  await waitForHydration(page);
  await page
    .getByRole("combobox", { name: `Status of shipment ${emptyId}` })
    .selectOption({ label: "IN TRANSIT" });
  await expect(page.locator("[data-sonner-toast][data-type=error]")).toBeVisible();
  await expect(page.getByRole("combobox", { name: `Status of shipment ${emptyId}` })).toHaveValue("2");

  await page
    .getByRole("combobox", { name: `Status of shipment ${id}` })
    .selectOption({ label: "IN TRANSIT" });
  await expect(page.getByText("Status set to IN TRANSIT").first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole("combobox", { name: `Status of shipment ${id}` })).toHaveValue("3");
  // Filter by status.
  await page.goto("/shipments?filters=%7B%22status%22%3A%22in%20transit%22%7D");
  await expect(page.getByRole("row").filter({ hasText: "SR-1001" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: `Status of shipment ${emptyId}` })).toHaveCount(0);

  // An in-transit shipment stays in transit when edited (autosave keeps drafts only as drafts).
  await page.goto(`/shipments/edit-shipment/${id}`);
  await waitForHydration(page);
  await page.getByLabel("Tracking number 2").fill("TRK-3");
  await expect(banner(page)).toContainText("saved as a draft", { timeout: 10_000 });
  const stored = await page.request.get(`/api/shipments/${id}`);
  expect(((await stored.json()) as { item: { shipping_status_id: number } }).item.shipping_status_id).toBe(3);

  // A line's own unit, price and origin (what the documents print) reach the print page; the other line
  // keeps its product's origin and the catalogue price.
  const stored2 = (await (await page.request.get(`/api/shipments/${id}`)).json()) as {
    item: { items: Record<string, unknown>[] } & Record<string, unknown>;
  };
  const antenna = stored2.item.items.findIndex((l) => (l.product as { name: string }).name === "Antenna kit");
  stored2.item.items[antenna] = {
    ...stored2.item.items[antenna],
    unit_of_measure: "SET",
    unit_price: "0.20",
    origin_country_id: 2,
  };
  const put = await page.request.put(`/api/shipments/${id}`, {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: stored2.item,
  });
  expect(put.status()).toBe(200);

  await page.addInitScript(() => {
    window.print = () => {
      document.body.dataset.printed = "yes";
    };
  });
  await page.goto(`/shipments/print/${id}`);
  await expect(page.locator('[data-field="name"] dd')).toHaveText("Chicago to Hamburg");
  await expect(page.locator('[data-field="shipping_status_id"] dd')).toHaveText("IN TRANSIT");
  await expect(page.locator('[data-field="ship_date"] dd')).toHaveText("11/20/2026");
  await expect(page.locator('[data-field="freight"] dd')).toHaveText("$1,234.50");
  // The antenna kits now sell at 0.20: 3 × 0.10 more than the form's $1,282.30.
  await expect(page.locator('[data-field="total_invoice_value"] dd')).toHaveText("$1,282.60");
  await expect(page.locator('[data-field="port_of_export"] dd')).toHaveText("N/A");
  await expect(page.getByRole("table", { name: "Items" })).toContainText("Field router");
  await expect(page.getByRole("table", { name: "Packages" })).toContainText("2.25");
  const itemsTable = page.getByRole("table", { name: "Items" });
  const headers = await itemsTable.getByRole("columnheader").allTextContents();
  const column = (name: string) => headers.indexOf(name);
  expect(column("Origin")).toBeGreaterThan(-1);
  const router = itemsTable.getByRole("row").filter({ hasText: "Field router" }).getByRole("cell");
  const kit = itemsTable.getByRole("row").filter({ hasText: "Antenna kit" }).getByRole("cell");
  await expect(router.nth(column("Unit"))).toHaveText("PCS");
  await expect(router.nth(column("Unit price"))).toHaveText("$12.50");
  await expect(kit.nth(column("Unit"))).toHaveText("SET");
  await expect(kit.nth(column("Unit price"))).toHaveText("$0.20");
  await expect(kit.nth(column("Extended value"))).toHaveText("$0.60");
  const routerOrigin = (await router.nth(column("Origin")).textContent()) ?? "";
  const kitOrigin = (await kit.nth(column("Origin")).textContent()) ?? "";
  expect(routerOrigin).not.toBe("N/A");
  expect(kitOrigin).not.toBe("N/A");
  expect(kitOrigin).not.toBe(routerOrigin);
  await expect(page.locator("body")).toHaveAttribute("data-printed", "yes");

  await page.goto("/shipments");
  await waitForHydration(page);
  const row = page.getByRole("row").filter({ hasText: "SR-1001" });
  await row.getByRole("button", { name: /^Delete/ }).click();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("Operation successful").first()).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "SR-1001" })).toHaveCount(0);

  await page.goto(`/shipments/edit-shipment/${id}`);
  await expect(page.getByRole("heading", { name: "Shipment not found" })).toBeVisible();
  await page.goto(`/shipments/print/${id}`);
  await expect(page.getByRole("heading", { name: "Shipment not found" })).toBeVisible();
});
