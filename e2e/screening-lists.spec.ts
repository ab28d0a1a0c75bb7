import { createContact, expect, test, waitForHydration } from "./fixtures";

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
  const id = await createContact(page, "فلاديمير بوتين", { email_1: "test@example.ru" });
  await page.goto(`/contacts/edit-contact/${id}`);
  await waitForHydration(page);
  const panel = page
    .getByRole("region", { name: "Restricted-party screening" })
    .or(page.locator("[aria-label='Restricted-party screening']"));
  await expect(panel.getByText("FAILED").first()).toBeVisible();
  await expect(panel.getByLabel("Closest list entries")).toContainText("PUTIN, Vladimir Vladimirovich");
  await expect(panel.getByLabel("Closest list entries")).toContainText("Arabic → Latin");
  await page.screenshot({ path: testInfo.outputPath("arabic-contact-1440.png") });
});
