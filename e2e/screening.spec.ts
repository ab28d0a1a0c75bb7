import { readFileSync } from "node:fs";
import { expect, test, waitForHydration } from "./fixtures";

test("search the lists for a listed name typed with a typo", async ({ page, user: _ }) => {
  await page.goto("/restricted-party-screening/search");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("please fill atleast one of the input fields")).toBeVisible();
  await page.getByLabel("Entity name").fill("R");
  await expect(page.getByText("Entity name must be 2 to 255 characters.")).toBeVisible();
  await page.getByLabel("Entity name").fill("Rosoboronexprt");
  await page.getByRole("button", { name: "Search" }).click();
  const results = page.getByRole("region", { name: "Search results" });
  await expect(results.getByText("FAILED")).toBeVisible();
  await expect(results.getByRole("row").nth(1)).toContainText("ROSOBORONEKSPORT OAO");
  await expect(results.getByRole("row").nth(1)).toContainText("OFAC SDN");
  await expect(results).toContainText("OFAC SDN (2026-08-20)");
  // Whitespace in the keyword becomes commas.
  await page.getByLabel("Entity name").fill("");
  await page.getByLabel("Keyword").fill("zzqx nothingmatches");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(results.getByText("No data found")).toBeVisible();
});

test("a contact is screened; a person overrides the result with a note", async ({ page, user: _ }) => {
  await page.goto("/home");
  const res = await page.request.post("/api/contacts", {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: {
      company: "Rosoboroneksport",
      partner_type_id: 1,
      tax_id: "RU-1",
      contact_1: "Ivan",
      phone_1: "+7 495 1",
      email_1: "ivan@example.ru",
    },
  });
  const { item } = (await res.json()) as { item: { id: number } };
  await page.goto(`/contacts/edit-contact/${item.id}`);
  await waitForHydration(page);
  const panel = page
    .getByRole("region", { name: "Restricted-party screening" })
    .or(page.locator("[aria-label='Restricted-party screening']"));
  await expect(panel.getByText("FAILED").first()).toBeVisible();
  await expect(panel.getByText("ROSOBORONEKSPORT OAO")).toBeVisible();
  await expect(panel.getByRole("link", { name: "See the results" })).toBeVisible();
  await expect(panel.getByRole("button", { name: "FAILED" })).toHaveAttribute("aria-pressed", "true");

  await panel.getByRole("button", { name: "PASSED" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Override to PASSED" })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Ok." })).toBeDisabled();
  await dialog.getByLabel("Note").fill("Checked with counsel: a different, unlisted company");
  await dialog.getByRole("button", { name: "Ok." }).click();
  await expect(page.getByText("Screening set to PASSED")).toBeVisible();
  await expect(panel.getByRole("button", { name: "PASSED" })).toHaveAttribute("aria-pressed", "true");
  await expect(panel.getByText("Checked with counsel")).toBeVisible();

  // The screenings list shows it; the results download as CSV.
  await page.goto("/restricted-party-screening");
  await expect(page.getByRole("heading", { level: 1, name: "Restricted Party Screening" })).toBeVisible();
  await expect(page.getByText(/Lists loaded: .*OFAC SDN \(2026-08-20\)/)).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "Rosoboroneksport" });
  await expect(row.getByText("PASSED")).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download Results" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^screening-results-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = readFileSync((await file.path())!, "utf8");
  expect(text.split("\r\n")[0]).toBe(
    "Entity name,Date screened,Status,Best score,Best match,List,Changed by list update",
  );
  expect(text).toContain("Rosoboroneksport");

  // The print route of a screening.
  await page.addInitScript(() => {
    window.print = () => undefined;
  });
  await row.getByRole("link", { name: /^Print screening/ }).click();
  await expect(page.locator("[data-field=name] dd")).toHaveText("Rosoboroneksport");
  await expect(page.locator("dl")).toContainText("OFAC SDN (2026-08-20)");
});
