import { expect, test, waitForHydration } from "./fixtures";

test("the screenings screen says how old each list is, warns about stale ones, and that the Entity List is missing", async ({
  page,
  user: _,
}, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/restricted-party-screening");
  await waitForHydration(page);
  const loaded = page.getByTestId("lists-loaded");
  await expect(loaded).toContainText("BIS DPL");
  await expect(loaded).toContainText("years old");
  const stale = page.getByTestId("lists-stale");
  await expect(stale).toContainText("Older than 30 days");
  await expect(stale).toContainText("BIS DPL");
  await expect(page.getByTestId("entity-list-missing")).toContainText("consolidated.csv");
  await page.screenshot({ path: testInfo.outputPath("lists-1440.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("lists-390.png") });
});

test("a contact written in Arabic script fails, and the panel says how the name was read", async ({
  page,
  user: _,
}, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/home");
  const res = await page.request.post("/api/contacts", {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: {
      company: "فلاديمير بوتين",
      partner_type_id: 1,
      tax_id: "RU-2",
      contact_1: "Test",
      phone_1: "+7 495 2",
      email_1: "test@example.ru",
    },
  });
  const { item } = (await res.json()) as { item: { id: number } };
  await page.goto(`/contacts/edit-contact/${item.id}`);
  await waitForHydration(page);
  const panel = page
    .getByRole("region", { name: "Restricted-party screening" })
    .or(page.locator("[aria-label='Restricted-party screening']"));
  await expect(panel.getByText("FAILED").first()).toBeVisible();
  await expect(panel.getByLabel("Closest list entries")).toContainText("PUTIN, Vladimir Vladimirovich");
  await expect(panel.getByLabel("Closest list entries")).toContainText("Arabic → Latin");
  await page.screenshot({ path: testInfo.outputPath("arabic-contact-1440.png") });
});
