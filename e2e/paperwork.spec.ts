import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { createContact, createProduct, expect, test, waitForHydration } from "./fixtures";

// PDFs are drawn on a shared, loaded machine: give each test room.
test.describe.configure({ timeout: 180_000 });

const origin = () => ({ origin: process.env.E2E_BASE_URL! });
const POLAND = 176;
const USA = 236;
const DAP = 5;
const USD = 1;

/** A complete shipment (parties, a controlled and a plain item, a package) created through the API. */
async function seedShipment(page: Page, importerName = "Müller Handels GmbH"): Promise<number> {
  await page.goto("/home");
  const exporter = await createContact(page, "Acme Exports", { country_id: USA });
  const importer = await createContact(page, importerName, { country_id: POLAND });
  const goods = { country_of_origin_id: USA, HTS: "8517.62.0090" };
  const router = await createProduct(page, "Field router", "FR-1", {
    ...goods,
    US_ECCN: "5A002.a",
    unit_value: "1234.56",
  });
  const cable = await createProduct(page, "Antenna cable", "AC-7", { ...goods, unit_value: "0.10" });
  // 5A002.a (NS1) needs a licence to Poland: the router line ships under one.
  const licence = await page.request.post("/api/licenses", {
    headers: origin(),
    data: {
      licence_name: "Router licence",
      valid_date: "2026-01-01",
      expiration_date: "2027-12-31",
      reference_number_1: "D555001",
      reference_number_2: "APP-1",
      status: "approved",
      country_id: POLAND,
      contact_id: importer,
      product_id: router,
    },
  });
  expect(licence.status()).toBe(201);
  const licenceId = ((await licence.json()) as { item: { id: number } }).item.id;
  const created = await page.request.post("/api/shipments", { headers: origin() });
  expect(created.status()).toBe(201);
  const { item } = (await created.json()) as { item: Record<string, unknown> & { id: number } };
  const { items: _i, packages: _p, ...fields } = item;
  const saved = await page.request.put(`/api/shipments/${item.id}`, {
    headers: origin(),
    data: {
      ...fields,
      name: "Chicago to Łódź",
      exporter_of_record_id: exporter,
      importer_of_record_id: importer,
      ship_date: "2026-11-20",
      shipper_reference_number: "SR-2042",
      currency_id: USD,
      incoterm_id: DAP,
      port_of_export: "Chicago O'Hare (ORD)",
      port_of_import: "Łódź (LCJ)",
      aes_citation: "X20261120123456",
      items: [
        { product_id: router, quantity: 2, license_id: licenceId },
        { product_id: cable, quantity: 100 },
      ],
      packages: [
        {
          package_id: 1,
          quantity: 2,
          net_weight: "2",
          gross_weight: "2.5",
          length: "12",
          width: "10",
          height: "8",
        },
      ],
    },
  });
  expect(saved.status()).toBe(200);
  return item.id;
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
    await page.screenshot({ path: `test-results/paperwork-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("the three documents are generated, listed, opened, and one deleted re-enables Generate Paperwork", async ({
  page,
  user: _,
}) => {
  const id = await seedShipment(page);
  await page.goto(`/shipments/edit-shipment/${id}`);
  await waitForHydration(page);
  const panel = page.getByTestId("paperwork-panel");
  // The controlled line shows its licence, the DCS is pre-filled, EEI needs an ITN.
  await expect(panel).toContainText("FR-1: NS1: licence required to Poland. Covered by licence D555001.");
  await expect(panel).toContainText("AC-7: EAR99: no licence required to Poland (NLR).");
  await expect(page.getByLabel("Statement printed on the invoice")).toHaveValue(
    /^These items are controlled by the U\.S\. Government/,
  );
  await expect(panel).toContainText("An ITN is required");
  await expect(page.getByTestId("screening-gate")).toHaveCount(0);
  await page.getByLabel("AES / EEI filing citation").fill("X20261120123456");

  // Removing the required wording is pointed out.
  await page.getByLabel("Statement printed on the invoice").fill("Handle with care.");
  await expect(page.getByTestId("dcs-note")).toContainText("Required wording removed");
  await page.getByRole("button", { name: "Put it back" }).click();
  await expect(page.getByTestId("dcs-note")).toHaveCount(0);

  const generate = page.getByRole("button", { name: "Generate Paperwork" });
  await expect(generate).toBeDisabled();
  for (const label of ["Commercial Invoice", "Proforma Invoice", "Packing List"]) {
    await page.getByRole("checkbox", { name: label }).check();
  }
  await expect(generate).toBeEnabled();
  await expectNoAxeViolations(page);
  await generate.click();
  await expect(page.getByText("Paperwork generated")).toBeVisible({ timeout: 60_000 });
  const list = page.getByRole("list", { name: "Shipment documents" });
  await expect(list).toContainText("commercial-invoice-SR-2042.pdf");
  await expect(list).toContainText("packing-list-SR-2042.pdf");
  await expect(list).toContainText(/proforma-invoice-PF-\d{4}-0001\.pdf/);
  await expect(generate).toBeDisabled();
  await screenshots(page, "generated");

  // Open one: the preview serves the stored PDF inline.
  const preview = page.getByRole("link", { name: "Preview commercial-invoice-SR-2042.pdf" });
  const href = await preview.getAttribute("href");
  const file = await page.request.get(href!);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("application/pdf");
  expect(file.headers()["content-disposition"]).toMatch(
    /^inline; filename="commercial-invoice-SR-2042\.pdf"/,
  );
  expect((await file.body()).subarray(0, 5).toString()).toBe("%PDF-");
  const [tab] = await Promise.all([page.context().waitForEvent("page"), preview.click()]);
  await tab.close();

  // Delete one: 'Are you sure?' Yes; its type is unselected and Generate Paperwork works again.
  await page.getByRole("button", { name: "Delete packing-list-SR-2042.pdf" }).click();
  await expect(page.getByText("Are you sure?")).toBeVisible();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(list).not.toContainText("packing-list-SR-2042.pdf");
  await expect(page.getByRole("checkbox", { name: "Packing List" })).not.toBeChecked();
  await page.getByRole("checkbox", { name: "Packing List" }).check();
  await expect(generate).toBeEnabled();
});

test("a party that failed screening shows the gate before Generate Paperwork and blocks it", async ({
  page,
  user: _,
}) => {
  const id = await seedShipment(page, "Rosoboronexport");
  await page.goto(`/shipments/edit-shipment/${id}`);
  await waitForHydration(page);
  const gate = page.getByTestId("screening-gate");
  await expect(gate).toContainText("Importer of record Rosoboronexport: FAILED screening", {
    timeout: 30_000,
  });
  await expect(gate.getByRole("link", { name: "Open the screening screen" })).toBeVisible();
  await page.getByRole("checkbox", { name: "Commercial Invoice" }).check();
  await page.getByRole("button", { name: "Generate Paperwork" }).click();
  await expect(page.getByText(/cleared on the screening screen/).first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText("No documents yet.")).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Commercial Invoice" })).toBeChecked();
  await expectNoAxeViolations(page);
  await screenshots(page, "gate");
});

/** A seeded shipment with a generated certificate of origin, open on its form. */
async function openWithCertificate(page: Page) {
  const id = await seedShipment(page);
  const generated = await page.request.post(`/api/paperwork/shipments/${id}/generate`, {
    headers: origin(),
    data: { types: ["certificate_of_origin"] },
  });
  expect(generated.status()).toBe(201);
  const { documents } = (await generated.json()) as { documents: { id: number }[] };
  await page.goto(`/shipments/edit-shipment/${id}`);
  await waitForHydration(page);
  const list = page.getByRole("list", { name: "Shipment documents" });
  await expect(list).toContainText("certificate-of-origin-SR-2042.pdf");
  return { id, documentId: documents[0]?.id, list };
}

test("a generated certificate of origin is filed as a shipping form and opens on the shipping forms screen", async ({
  page,
  user: _,
}) => {
  const { list } = await openWithCertificate(page);
  // Only the certificate offers filing.
  await expect(list.getByRole("button", { name: /as a shipping form$/ })).toHaveCount(1);
  const axe = await new AxeBuilder({ page }).include('[aria-label="Shipment documents"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
  await list
    .getByRole("button", { name: "File certificate-of-origin-SR-2042.pdf as a shipping form" })
    .click();
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Filed as the shipping form" });
  await expect(toast).toContainText("Certificate of origin SR-2042");
  await screenshots(page, "certificate-filed");
  await toast.getByRole("button", { name: "Open" }).click();
  await expect(page).toHaveURL(/\/my-shipping-documents\/edit-a-form\/\d+$/);
  await expect(page.getByLabel(/^Form name|^Name/).first()).toHaveValue("Certificate of origin SR-2042");
  await expect(page.getByText("certificate-of-origin-SR-2042.pdf")).toBeVisible();
  // Listed with the workspace's shipping forms.
  await page.goto("/my-shipping-documents");
  await expect(page.getByRole("row").filter({ hasText: "Certificate of origin SR-2042" })).toBeVisible();
});

test("filing a certificate that is gone shows the API's reason, not the edit-conflict banner", async ({
  page,
  user: _,
}) => {
  const { id, documentId, list } = await openWithCertificate(page);
  // Deleted elsewhere (another tab) while this screen still lists it: the API answers 409.
  const deleted = await page.request.delete(`/api/shipments/documents/${id}/${documentId}`, {
    headers: origin(),
  });
  expect(deleted.status()).toBe(200);
  await list
    .getByRole("button", { name: "File certificate-of-origin-SR-2042.pdf as a shipping form" })
    .click();
  await expect(
    page.locator("[data-sonner-toast]").filter({ hasText: "This shipment has no certificate of origin yet" }),
  ).toBeVisible();
  await expect(
    page.locator("[data-sonner-toast]").filter({ hasText: "Filed as the shipping form" }),
  ).toHaveCount(0);
  await expectNoAxeViolations(page);
});
