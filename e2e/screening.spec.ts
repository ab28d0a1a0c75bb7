import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, waitForHydration } from "./fixtures";

test("search the lists for a listed name typed with a typo", async ({ page, user: _ }) => {
  await page.goto("/restricted-party-screening/search");
  await waitForHydration(page);
  // The form's own Search, not the header's global search.
  const search = page.getByRole("main").getByRole("button", { name: "Search", exact: true });
  await search.click();
  await expect(page.getByText("please fill atleast one of the input fields")).toBeVisible();
  await page.getByLabel("Entity name").fill("R");
  await expect(page.getByText("Entity name must be 2 to 255 characters.")).toBeVisible();
  await page.getByLabel("Entity name").fill("Rosoboronexprt");
  await search.click();
  const results = page.getByRole("region", { name: "Search results" });
  await expect(results.getByText("FAILED")).toBeVisible();
  await expect(results.getByRole("row").nth(1)).toContainText("ROSOBORONEKSPORT OAO");
  await expect(results.getByRole("row").nth(1)).toContainText("OFAC SDN");
  await expect(results).toContainText("OFAC SDN (2026-08-20)");
  // Whitespace in the keyword becomes commas.
  await page.getByLabel("Entity name").fill("");
  await page.getByLabel("Keyword").fill("zzqx nothingmatches");
  await search.click();
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
  await expect(panel.getByText("ROSOBORONEKSPORT OAO", { exact: true })).toBeVisible();
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

test("whitelisting with a review date, the contact's screening history, and the review column", async ({
  page,
  user: _,
}) => {
  // Two screens, two accessibility scans and three screenshots: longer than the default 30 s.
  test.setTimeout(120_000);
  await page.goto("/home");
  const res = await page.request.post("/api/contacts", {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: {
      company: "Rosoboroneksport OAO",
      partner_type_id: 1,
      tax_id: "RU-2",
      contact_1: "Ivan",
      phone_1: "+7 495 2",
      email_1: "ivan2@example.ru",
    },
  });
  const { item } = (await res.json()) as { item: { id: number } };
  await page.goto(`/contacts/edit-contact/${item.id}`);
  await waitForHydration(page);
  const panel = page.locator("[aria-label='Restricted-party screening']");
  await expect(panel.getByRole("button", { name: "FAILED" })).toHaveAttribute("aria-pressed", "true");

  // Override to PASSED with a review date: the dialog offers it only for PASSED.
  await panel.getByRole("button", { name: "PASSED" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Note").fill("Different company; re-check in a year");
  const review = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
  await dialog.getByLabel("Review date (optional)").fill(review);
  await dialog.getByRole("button", { name: "Ok." }).click();
  await expect(page.getByText("Screening set to PASSED")).toBeVisible();
  const [y, m, d] = review.split("-");
  await expect(panel.getByText(`Review on ${m}/${d}/${y}`)).toBeVisible();

  // The history, newest first, reachable from the contact.
  await panel.getByRole("link", { name: "Screening history" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: "Screening history: Rosoboroneksport OAO" }),
  ).toBeVisible();
  const rows = page.getByRole("table", { name: "Screening history" }).getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText("Override");
  await expect(rows.nth(1)).toContainText("Different company; re-check in a year");
  await expect(rows.nth(1)).toContainText(`Review on ${m}/${d}/${y}`);
  await expect(rows.nth(2)).toContainText("Screening");
  await expect(rows.nth(2)).toContainText("ROSOBORONEKSPORT OAO");
  await expect(rows.nth(2)).toContainText("OFAC SDN");
  // Which list versions each entry was screened against, whole on a wide screen: the Lists cell
  // used to run past the right edge at 1440 px.
  await page.setViewportSize({ width: 1440, height: 900 });
  const lists = rows.nth(2).getByRole("cell").last();
  await expect(lists).toContainText("OFAC SDN (2026-08-20)");
  const box = await lists.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
  // The override's toast may still be fading out (half-transparent text): it is not this screen.
  const historyAxe = await new AxeBuilder({ page }).exclude("[data-sonner-toaster]").analyze();
  expect(
    historyAxe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `test-results/screening-history-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // The screenings list: the review column, its filter, and the way back to the history.
  await page.goto("/restricted-party-screening");
  await waitForHydration(page);
  const row = page.getByRole("row").filter({ hasText: "Rosoboroneksport OAO" });
  await expect(row.getByText(`Review on ${m}/${d}/${y}`)).toBeVisible();
  // The "Review due" filter: not due for a year, so it is not listed; "not due" lists it.
  const filter = (value: string) => encodeURIComponent(JSON.stringify({ review_due: value }));
  await page.goto(`/restricted-party-screening?filters=${filter("1")}`);
  await expect(page.getByRole("heading", { level: 1, name: "Restricted Party Screening" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Rosoboroneksport OAO" })).toHaveCount(0);
  await page.goto(`/restricted-party-screening?filters=${filter("0")}`);
  await expect(page.getByRole("row").filter({ hasText: "Rosoboroneksport OAO" })).toHaveCount(1);
  await page.goto("/restricted-party-screening");
  await waitForHydration(page);
  const listAxe = await new AxeBuilder({ page }).exclude("[data-sonner-toaster]").analyze();
  expect(
    listAxe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
  await page.screenshot({ path: "test-results/screenings-list-1440.png", fullPage: true });
  await page
    .getByRole("row")
    .filter({ hasText: "Rosoboroneksport OAO" })
    .getByRole("link", { name: "Screening history of Rosoboroneksport OAO" })
    .click();
  await expect(page).toHaveURL(new RegExp(`/restricted-party-screening/history/${item.id}$`));
});
