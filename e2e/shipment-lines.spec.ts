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

test("a line's unit, own unit price and origin, and a discount, are edited on the form and autosaved", async ({
  page,
  user: _,
}) => {
  const id = await shipmentWithOneLine(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/shipments/edit-shipment/${id}`);
  await waitForHydration(page);
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
