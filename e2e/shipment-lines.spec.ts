import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { createProduct, expect, test, waitForHydration } from "./fixtures";

test.describe.configure({ timeout: 180_000 });

const origin = () => ({ origin: process.env.E2E_BASE_URL! });
const GERMANY = 84;

async function shipmentWithOneLine(page: Page) {
  await page.goto("/home");
  const product = await createProduct(page, "Brass valve", "BV-1", { unit_value: "12.50" });
  const created = await page.request.post("/api/shipments", { headers: origin() });
  const { item } = (await created.json()) as {
    item: Record<string, unknown> & { id: number; updated_at: string };
  };
  const saved = await page.request.put(`/api/shipments/${item.id}`, {
    headers: origin(),
    data: { updated_at: item.updated_at, name: "Valves", items: [{ product_id: product, quantity: 4 }] },
  });
  expect(saved.status()).toBe(200);
  return item.id;
}

/** The one-line shipment's form, open at 1440 × 900. */
async function openShipmentWithOneLine(page: Page) {
  const id = await shipmentWithOneLine(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/shipments/edit-shipment/${id}`);
  await waitForHydration(page);
  return id;
}

test("a line's unit, own unit price and origin, and a discount, are edited on the form and autosaved", async ({
  page,
  user: _,
}) => {
  const id = await openShipmentWithOneLine(page);
  // The catalogue price shows as the unit price's placeholder; 4 × 12.50.
  await expect(page.getByLabel("Item 1 unit price")).toHaveAttribute("placeholder", "12.50");
  await expect(page.getByLabel("Item 1 extended value")).toContainText("50.00");
  await page.getByLabel("Item 1 unit of measure").selectOption("SET");
  await page.getByLabel("Item 1 unit price").fill("9.99");
  await page.getByLabel("Item 1 country of origin").selectOption(String(GERMANY));
  await expect(page.getByLabel("Item 1 extended value")).toContainText("39.96");
  await page.getByLabel("Discount").fill("1.96");
  await expect(page.getByTestId("total-invoice-value")).toContainText("38.00");
  await expect(page.getByTestId("autosave-banner")).toContainText("saved as a draft", { timeout: 20_000 });
  await page.screenshot({ path: "test-results/shipment-lines-1440.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/shipment-lines-390.png", fullPage: true });

  const stored = (await (await page.request.get(`/api/shipments/${id}`)).json()) as {
    item: { discount: string; total_invoice_value: string; items: Record<string, unknown>[] };
  };
  expect(stored.item.items[0]).toMatchObject({
    unit_of_measure: "SET",
    unit_price: "9.99",
    origin_country_id: GERMANY,
    extended_value: "39.96",
  });
  expect(stored.item).toMatchObject({ discount: "1.96", total_invoice_value: "38.00" });
});

test("each package line is assigned its contents on the form; too many pieces is refused with the server's message", async ({
  page,
  user: _,
}) => {
  const id = await openShipmentWithOneLine(page);
  await page.getByRole("button", { name: "Add Piece" }).click();
  await page.getByLabel("Package 1 type").selectOption({ index: 1 });
  await page.getByLabel("Package 1 quantity").fill("2");
  const contents = page.locator("details").filter({ hasText: "Contents of each package" });
  await expect(contents).toContainText("(not assigned)");
  await contents.locator("summary").focus();
  await page.keyboard.press("Enter");
  const pieces = page.getByLabel(/Package 1: pieces of .*Brass valve.* in each package/);
  await expect(pieces).toBeVisible();
  // 2 packages × 2 valves = the 4 the line ships.
  await pieces.fill("2");
  await expect(contents).toContainText("(1 product)");
  await expect(page.getByTestId("autosave-banner")).toContainText("saved as a draft", { timeout: 20_000 });
  // The package lines with their contents: no accessibility violations.
  const axe = await new AxeBuilder({ page }).include("details").analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((node) => node.target).join(" ")}`)).toEqual([]);
  await page.screenshot({ path: "test-results/package-contents-1440.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/package-contents-390.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  const stored = (await (await page.request.get(`/api/shipments/${id}`)).json()) as {
    item: { items: { product_id: number }[]; packages: { quantity: number; contents: unknown[] }[] };
  };
  expect(stored.item.packages[0].contents).toEqual([
    { product_id: stored.item.items[0].product_id, quantity: 2 },
  ]);

  // After a reload the form shows what was stored.
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByLabel(/Package 1: pieces of .*Brass valve.* in each package/)).toHaveValue("2");
  // 2 × 3 = 6 packed but 4 ship: the server's message names the product and both counts.
  await page.getByLabel(/Package 1: pieces of .*Brass valve.* in each package/).fill("3");
  await expect(
    page.getByText(/The packages hold 6 pieces of BV-1, but its item line ships 4/).first(),
  ).toBeVisible({
    timeout: 20_000,
  });
});
