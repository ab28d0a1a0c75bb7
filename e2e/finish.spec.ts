import { createContact, createProduct, expect, test, waitForHydration } from "./fixtures";

// On a phone: the import dialog fits, file pickers are the app's own buttons.

const PHONE = { width: 390, height: 844 };

test("on a phone the import summary fits the screen and speaks in the file's column names", async ({
  page,
  user: _,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto("/contacts");
  await waitForHydration(page);
  const csv = [
    "Company,Partner Type,Tax ID,Contact,Phone,Email,Country",
    "Kiwi Dairy Ltd,Customer,NZ-2,Tom,+64 9 1,tom@kiwi.example,NZ",
    "Alien Imports,Alien,XX-9,Zed,+1 1,zed@alien.example,US",
  ].join("\n");
  await page.getByLabel("CSV file to import").setInputFiles({
    name: "partners.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(csv),
  });
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Import completed" })).toBeVisible();
  await expect(dialog).toContainText('Partner Type: unknown partner type "Alien"');
  await expect(dialog).not.toContainText("partner_type_id");
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  await expect(dialog.getByRole("button", { name: "Close", exact: true }).first()).toBeInViewport();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("create pages pick files with the app's button, not the browser's raw input", async ({
  page,
  user: _,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto("/my-wiki/create-wiki");
  await waitForHydration(page);
  const picker = page.getByRole("button", { name: "Choose files" });
  await expect(picker).toBeVisible();
  // The input itself is visually hidden (it keeps its name for assistive tech and tests).
  const input = page.getByLabel("Files", { exact: true });
  expect(await input.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
  await input.setInputFiles([
    { name: "memo.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") },
  ]);
  await expect(page.getByText("1 file will upload when you save: memo.pdf")).toBeVisible();
  await expect(page.getByRole("button", { name: "Choose other files" })).toBeVisible();
});

test("at 1440 px with the sidebar open, Products and Licenses fit without scrolling inside the table", async ({
  page,
  user: _,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/home");
  const holder = await createContact(page, "Fitting Holder GmbH");
  await createProduct(page, "Fitting widget", "FW-1", { unit_value: "1234.50", net_weight: "1234.5" });
  const res = await page.request.post("/api/licenses", {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: {
      licence_name: "BIS licence D-1",
      valid_date: "2026-01-01",
      expiration_date: "2027-01-01",
      reference_number_1: "D1000001",
      reference_number_2: "EXP-1",
      status: "pending",
      country_id: 80,
      contact_id: holder,
    },
  });
  expect(res.status()).toBe(201);
  for (const path of ["/products", "/licenses", "/contacts"]) {
    await page.goto(path);
    await waitForHydration(page);
    const scroll = await page
      .locator("[data-slot=table-container]")
      .first()
      .evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(scroll, `${path} table scrolls sideways by ${scroll}px`).toBeLessThanOrEqual(0);
  }
});
