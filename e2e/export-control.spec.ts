import AxeBuilder from "@axe-core/playwright";
import { readPdfText } from "../server/features/paperwork/pdf-text";
import { createContact, createProduct, expect, test, waitForHydration } from "./fixtures";

// PDFs are drawn on a shared, loaded machine: give the test room.
test.describe.configure({ timeout: 180_000 });

const origin = () => ({ origin: process.env.E2E_BASE_URL! });
const CHINA = 47;
const USA = 236;
const DAP = 5;
const USD = 1;

test("a line goes from 'licence required' to covered by choosing a licence, and the invoice shows the licence number", async ({
  page,
  user: _,
}) => {
  await page.goto("/home");
  const exporter = await createContact(page, "Acme Exports", { country_id: USA, state_province: "IL" });
  const importer = await createContact(page, "Shenzhen Radio Works", { country_id: CHINA });
  const amplifier = await createProduct(page, "MMIC amplifier", "AMP-7", {
    country_of_origin_id: USA,
    US_ECCN: "3A001.b.2",
    HTS: "8542.33.0001",
    unit_value: "400.00",
  });
  const licence = await page.request.post("/api/licenses", {
    headers: origin(),
    data: {
      licence_name: "BIS licence for MMIC to China",
      valid_date: "2026-01-01",
      expiration_date: "2027-12-31",
      reference_number_1: "D424242",
      reference_number_2: "APP-99",
      status: "approved",
      country_id: CHINA,
      contact_id: importer,
      product_id: amplifier,
      authorized_value: "10000.00",
    },
  });
  expect(licence.status()).toBe(201);
  const created = await page.request.post("/api/shipments", { headers: origin() });
  const { item } = (await created.json()) as { item: Record<string, unknown> & { id: number } };
  const { items: _i, packages: _p, ...fields } = item;
  const saved = await page.request.put(`/api/shipments/${item.id}`, {
    headers: origin(),
    data: {
      ...fields,
      name: "Chicago to Shenzhen",
      exporter_of_record_id: exporter,
      importer_of_record_id: importer,
      ship_date: "2026-11-20",
      shipper_reference_number: "SR-3131",
      currency_id: USD,
      incoterm_id: DAP,
      port_of_export: "Chicago O'Hare (ORD)",
      aes_citation: "X20261120123456",
      items: [{ product_id: amplifier, quantity: 2 }],
    },
  });
  expect(saved.status()).toBe(200);

  await page.goto(`/shipments/edit-shipment/${item.id}`);
  await waitForHydration(page);
  const line = page.getByTestId("export-line-AMP-7");
  await expect(line.getByTestId("outcome")).toHaveText("Licence required");
  await expect(line).toContainText("NS2: licence required to China");
  await expect(line).toContainText("Next: Choose the BIS licence");
  await line.scrollIntoViewIfNeeded();
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await line.screenshot({ path: `test-results/export-control-required-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Without a licence the paperwork is refused, naming the line.
  const refused = await page.request.post(`/api/paperwork/shipments/${item.id}/generate`, {
    headers: origin(),
    data: { types: ["commercial_invoice"] },
  });
  expect(refused.status()).toBe(422);
  expect(((await refused.json()) as { message: string }).message).toContain("AMP-7");

  await page
    .getByLabel("Licence for AMP-7")
    .selectOption({ label: "D424242 — BIS licence for MMIC to China ($10000.00 left)" });
  await expect(line.getByTestId("outcome")).toHaveText("Covered");
  await expect(line).toContainText("Covered by licence D424242.");
  // The Schedule B unit of quantity defaults to NO (the piece count); another unit asks for its quantity.
  await expect(page.getByLabel("Schedule B unit for AMP-7")).toHaveValue("NO");
  await page.getByLabel("Schedule B unit for AMP-7").selectOption("KG");
  const kg = page.getByLabel("Quantity in KG for AMP-7");
  await expect(kg).toHaveAttribute("placeholder", "required, e.g. 12.5");
  await kg.fill("1.25");
  await kg.blur();
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/export-control/shipments/${item.id}/eei-data-sheet.json`);
      const sheet = (await res.json()) as {
        lines: { unit_of_measure: string; schedule_b_quantity: string }[];
      };
      return [sheet.lines[0].unit_of_measure, sheet.lines[0].schedule_b_quantity];
    })
    .toEqual(["KG", "1.25"]);
  await page.screenshot({ path: "test-results/export-control-covered-1440.png", fullPage: true });
  const axe = await new AxeBuilder({ page }).include('[data-testid="export-control"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);

  const generated = await page.request.post(`/api/paperwork/shipments/${item.id}/generate`, {
    headers: origin(),
    data: { types: ["commercial_invoice"] },
  });
  expect(generated.status()).toBe(201);
  const { documents } = (await generated.json()) as { documents: { id: number }[] };
  const file = await page.request.get(`/api/paperwork/documents/${documents[0].id}/download`);
  const text = (await readPdfText(new Uint8Array(await file.body()))).text;
  expect(text).toContain("Licence: D424242");
  expect(text).toContain("AES X20261120123456");

  // The licence list shows what the shipment drew.
  await page.goto("/licenses");
  await waitForHydration(page);
  await expect(page.getByTestId("licence-usage").first()).toContainText("$800.00 used, $9200.00 left");

  // The EAR tables' edition is shown where the owner can load a newer one.
  await page.goto("/user/account");
  await waitForHydration(page);
  await expect(page.getByTestId("ear-edition")).toContainText(
    "Edition in force: 2026-07-23 (shipped with the product)",
  );
});
