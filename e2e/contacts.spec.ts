import { readFileSync } from "node:fs";
import path from "node:path";
import { createClient } from "@libsql/client";
import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";

/** Creates contacts through the API as the page's signed-in user. */
async function seedContacts(
  page: Page,
  count: number,
  make: (i: number) => Record<string, unknown> = () => ({}),
) {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await page.request.post("/api/contacts", {
      headers: {
        origin: new URL(page.url() === "about:blank" ? process.env.E2E_BASE_URL! : page.url()).origin,
      },
      data: {
        company: `Seed ${String(i).padStart(2, "0")} Corp`,
        partner_type_id: 1,
        tax_id: `S-${i}`,
        contact_1: "Sam",
        phone_1: "+1 555 0101",
        email_1: `sam${i}@seed.example`,
        ...make(i),
      },
    });
    expect(res.status()).toBe(201);
    ids.push(((await res.json()) as { item: { id: number } }).item.id);
  }
  return ids;
}

test("create a contact through the form, with the spec's validation messages", async ({ page, user: _ }) => {
  await page.goto("/contacts");
  await expect(page.getByRole("heading", { level: 1, name: "My Address Book" })).toBeVisible();
  await expect(page.getByText("No contacts yet.")).toBeVisible();
  await page.getByRole("link", { name: "Create New Contact" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Create Contact" })).toBeVisible();
  await expect(page).toHaveTitle("Create Contact · Tradewinds");
  await waitForHydration(page);
  const save = page.getByRole("button", { name: "Save Contact" });
  await expect(save).toBeDisabled();
  await page.getByLabel("E-mail 1").fill("not an email");
  await page.getByRole("checkbox", { name: "Restricted" }).check();
  await save.click();
  // Each message is tied to its input (aria-describedby), so screen readers announce it too.
  for (const field of ["Company", "Partner type", "Tax ID", "Contact 1", "Phone 1"]) {
    // Required labels end with a decorative asterisk.
    await expect(page.getByLabel(new RegExp(`^${field}\\*?$`))).toHaveAccessibleDescription(
      "This field is required.",
    );
  }
  await expect(page.getByLabel("E-mail 1")).toHaveAccessibleDescription("E-mail is invalid");
  // Every error at once: the note that Restricted requires fails together with the others.
  await expect(page.getByLabel(/^Restricted note\*?$/)).toHaveAccessibleDescription(
    "This field is required.",
  );
  await page.getByLabel("Company").fill("Hanseatic Machinery GmbH");
  await page.getByLabel("Partner type").selectOption({ label: "Customer" });
  await page.getByLabel("Tax ID").fill("DE123456789");
  await page.getByLabel("Contact 1").fill("Greta Hansen");
  await page.getByLabel("Phone 1").fill("+49 40 1234");
  await page.getByLabel("E-mail 1").fill("greta@hanseatic.example");
  await page.getByLabel("Country").selectOption({ label: "Germany" });
  await save.click();
  // The restricted note is required while Restricted is on.
  await expect(
    page
      .locator("[data-slot=field]")
      .filter({ has: page.getByLabel("Restricted note") })
      .getByText("This field is required."),
  ).toBeVisible();
  await page.getByLabel("Restricted note").fill("On hold pending end-use check");
  await save.click();
  await expect(page.getByText("Save successful")).toBeVisible();
  // A new contact goes back to the list (spec section 4).
  await expect(page).toHaveURL(/\/contacts$/);
  const row = page.getByRole("row").filter({ hasText: "Hanseatic Machinery GmbH" });
  await expect(row).toContainText("Customer");
  await expect(row).toContainText("Restricted");
});

test("filter, sort and page through 25 contacts; the URL keeps the state", async ({ page, user: _ }) => {
  await page.goto("/home");
  await seedContacts(page, 25, (i) => ({ is_sensitive: i % 5 === 0 ? 1 : 0, sensitive_note: "check" }));
  await page.goto("/contacts");
  await waitForHydration(page);
  await expect(page.getByText("1-10 of 25 items")).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(11);
  // Paging and sorting are real links: they work before hydration and open in a new tab.
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText("11-20 of 25 items")).toBeVisible();
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page.getByText("21-25 of 25 items")).toBeVisible();
  await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
  await page.goBack();
  await expect(page.getByText("11-20 of 25 items")).toBeVisible();

  // Sort: descending by company.
  await page.getByRole("link", { name: "Sort by Company" }).click();
  await expect(page).toHaveURL(/sortDirection=asc/);
  await page.getByRole("link", { name: "Sort by Company" }).click();
  await expect(page).toHaveURL(/sortProp=company&sortDirection=desc|sortDirection=desc.*sortProp=company/);
  await expect(page.getByRole("row").nth(1)).toContainText("Seed 24 Corp");

  // Text filter: Apply needs a value; Escape clears.
  await page.getByRole("button", { name: "Filter by Company" }).click();
  const apply = page.getByRole("button", { name: "Apply" });
  await expect(apply).toBeDisabled();
  await page.getByLabel("Filter Company", { exact: true }).fill("seed 1");
  await apply.click();
  await expect(page.getByRole("button", { name: "Apply" })).toBeHidden();
  await expect(page.getByText("1-10 of 10 items")).toBeVisible();
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByText("1-10 of 10 items")).toBeVisible();
  await page.getByRole("button", { name: "Filter by Company" }).click();
  await page.getByLabel("Filter Company", { exact: true }).press("Escape");
  await expect(page.getByText("1-10 of 25 items")).toBeVisible();

  // Boolean filter: True = 1.
  await page.getByRole("button", { name: "Filter by Sensitive" }).click();
  await page.getByRole("radio", { name: "True" }).check();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("1-5 of 5 items")).toBeVisible();
  await page.getByRole("button", { name: "Filter by Sensitive" }).click();
  await page.getByRole("button", { name: "Clear", exact: true }).click();
  await expect(page.getByText("1-10 of 25 items")).toBeVisible();

  // The filter bar says what is filtered, and each filter clears on its own.
  await page.getByRole("button", { name: "Filter by Company" }).click();
  await page.getByLabel("Filter Company", { exact: true }).fill("seed 2");
  // The cleared filter's popover may still be closing: apply the one that holds the text.
  await page.getByRole("button", { name: "Apply", disabled: false }).click();
  await page.getByRole("button", { name: "Filter by Sensitive" }).click();
  await page.getByRole("radio", { name: "False" }).check();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText('Company contains "seed 2"')).toBeVisible();
  await expect(page.getByText("Sensitive is No")).toBeVisible();
  await page.getByRole("button", { name: 'Remove the filter Company contains "seed 2"' }).click();
  await expect(page.getByText('Company contains "seed 2"')).toBeHidden();
  await expect(page.getByText("Sensitive is No")).toBeVisible();
  await expect(page.getByText("1-10 of 20 items")).toBeVisible();
});

test("a page past the end opens the last real page, also after deleting its only row", async ({
  page,
  user: _,
}) => {
  await page.goto("/home");
  await seedContacts(page, 11);
  await page.goto("/contacts?page=99");
  await expect(page.getByText("11-11 of 11 items")).toBeVisible();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(page).toHaveURL(/page=2/);
  await waitForHydration(page);
  const row = page.getByRole("row").nth(1);
  await row.getByRole("button", { name: /^Delete contact/ }).click();
  await expect(page.getByText(/Delete contact “Seed \d+ Corp”/)).toBeVisible();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("1-10 of 10 items")).toBeVisible();
  await expect(page.getByText("Page 1 of 1")).toBeVisible();
});

test("a bookmark with an unknown sort or filter opens the list without them", async ({ page, user: _ }) => {
  await page.goto("/home");
  await seedContacts(page, 2);
  const filters = encodeURIComponent(JSON.stringify({ email_1: "x", company: "Seed 01" }));
  await page.goto(`/contacts?sortProp=email_1&sortDirection=desc&filters=${filters}`);
  await expect(page.getByRole("heading", { level: 1, name: "My Address Book" })).toBeVisible();
  // The declared company filter stays; the unknown sort and filter are dropped.
  await expect(page.getByText("1-1 of 1 items")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Seed 01 Corp" })).toBeVisible();
});

test("edit, print and delete a contact", async ({ page, user: _ }) => {
  await page.goto("/home");
  const [id] = await seedContacts(page, 1, () => ({ company: "Printable Partners Ltd", country_id: 1 }));
  await page.goto("/contacts");
  await page.getByRole("link", { name: `Edit contact ${id}` }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: "Edit Contact — Printable Partners Ltd" }),
  ).toBeVisible();
  await expect(page).toHaveTitle("Edit Contact · Tradewinds");
  await waitForHydration(page);
  await page.getByLabel("City").fill("Rotterdam");
  await page.getByRole("button", { name: "Save Contact" }).click();
  await expect(page.getByText("Save successful")).toBeVisible();
  // Saving an existing record reloads it in place.
  await expect(page).toHaveURL(new RegExp(`/contacts/edit-contact/${id}$`));
  await expect(page.getByRole("button", { name: "Save Contact" })).toBeDisabled();

  await page.addInitScript(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => {
      (window as unknown as { printed: number }).printed += 1;
    };
  });
  await page.goto(`/contacts/print/${id}`);
  const rows = page.locator("dl");
  await expect(rows.locator("[data-field=company] dd")).toHaveText("Printable Partners Ltd");
  await expect(rows.locator("[data-field=city] dd")).toHaveText("Rotterdam");
  await expect(rows.locator("[data-field=is_sensitive] dd")).toHaveText("No");
  await expect(rows.locator("[data-field=contact_2] dd")).toHaveText("N/A");
  await expect(rows.locator("[data-field=country_id] dd")).toHaveText("Afghanistan");
  await expect(rows.locator("[data-field=country_id] dd")).toHaveAttribute("data-id", "1");
  await expect.poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);

  await page.goto("/contacts");
  await waitForHydration(page);
  await page.getByRole("button", { name: `Delete contact ${id}` }).click();
  await expect(page.getByText("Are you sure?")).toBeVisible();
  await page.getByRole("button", { name: "No" }).click();
  await expect(page.getByRole("row").filter({ hasText: "Printable Partners Ltd" })).toBeVisible();
  await page.getByRole("button", { name: `Delete contact ${id}` }).click();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("Operation successful")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Printable Partners Ltd" })).toHaveCount(0);
  await page.goto(`/contacts/edit-contact/${id}`);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
});

test("a save the server refuses toasts 'Save failed' and shows the cause under the form", async ({
  page,
  user: _,
}) => {
  await page.goto("/home");
  const [id] = await seedContacts(page, 1, () => ({ company: "Vanishing Traders" }));
  await page.goto(`/contacts/edit-contact/${id}`);
  await waitForHydration(page);
  // Someone else deletes the contact while it is open.
  const gone = await page.request.delete(`/api/contacts/${id}`, {
    headers: { origin: new URL(page.url()).origin },
  });
  expect(gone.status()).toBe(200);
  await page.getByLabel("City").fill("Lisbon");
  await page.getByRole("button", { name: "Save Contact" }).click();
  await expect(page.getByText("Save failed", { exact: true })).toBeVisible();
  const failure = page.getByTestId("save-failure");
  await expect(failure).toContainText("Update failed");
  await expect(failure).toContainText("Status This contact does not exist or is not yours");
});

test("force-delete a contact that a licence uses", async ({ page, user }) => {
  await page.goto("/home");
  const [id] = await seedContacts(page, 1, () => ({ company: "Licensed Entity SA" }));
  // Licences have no screens yet: put the dependant straight into the test server's database.
  const db = createClient({ url: `file:${path.join(process.env.E2E_DATA_DIR!, "app.db")}`, timeout: 10_000 });
  const ws = (await db.execute({ sql: "select workspace_id from users where email = ?", args: [user.email] }))
    .rows[0].workspace_id;
  await db.execute({
    sql: `insert into licenses (workspace_id, licence_name, valid_date, expiration_date, reference_number_1,
            reference_number_2, country_id, contact_id) values (?, 'EAR licence', '2026-01-01', '2027-01-01', 'D1', 'D2', 1, ?)`,
    args: [ws, id],
  });
  await page.goto("/contacts");
  await waitForHydration(page);
  await page.getByRole("button", { name: `Delete contact ${id}` }).click();
  await page.getByRole("button", { name: "Yes" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Operation failed" })).toBeVisible();
  await expect(dialog).toContainText("1 licence names this contact.");
  await dialog.getByRole("button", { name: "Force delete" }).click();
  await expect(page.getByText("Operation successful")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Licensed Entity SA" })).toHaveCount(0);
  const licence = await db.execute({
    sql: "select contact_id from licenses where workspace_id = ?",
    args: [ws],
  });
  expect(licence.rows[0].contact_id).toBeNull();
  db.close();
});

test("a big upload shows how many rows the server has imported, then the summary", async ({
  page,
  user: _,
}, testInfo) => {
  test.setTimeout(60_000);
  await page.goto("/contacts");
  await waitForHydration(page);
  // About 2 MB: imported (every new contact screened) by the server's child process, which
  // reports its progress while the upload waits for its answer.
  const rows = Array.from(
    { length: 12_000 },
    (_, i) =>
      `Progress Check ${i} GmbH,Customer,PC-${i},${i} Kai,Hamburg,20457,DE,Ann Lee,+49 40 5555 ${i},ann.${i}@progress.example`,
  );
  await page.getByLabel("CSV file to import").setInputFiles({
    name: "big.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      ["Company,Partner Type,Tax ID,Street,City,Postal Code,Country,Contact,Phone,Email", ...rows].join("\n"),
    ),
  });
  await expect(page.getByRole("button", { name: "Importing..." })).toBeDisabled();
  const status = page.getByRole("status").filter({ has: page.getByLabel("Import progress") });
  await expect(status).toContainText(/[\d,]+ rows/, { timeout: 20_000 });
  await page.screenshot({ path: testInfo.outputPath("import-progress-1440.png") });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("import-progress-390.png") });
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Import completed" })).toBeVisible({ timeout: 30_000 });
  await expect(dialog).toContainText("12000 rows read: 12000 created, 0 updated, 0 unchanged, 0 rejected.");
});

test("import a CSV through the button and see the summary with the rejected rows", async ({
  page,
  user: _,
}) => {
  await page.goto("/contacts");
  await waitForHydration(page);
  const csv = [
    "Company,Partner Type,Tax ID,Contact,Phone,Email,Country",
    '"Andes Copper, S.A.",Supplier,CL-1,Rosa,+56 2 1,rosa@andes.example,Chile',
    "Kiwi Dairy Ltd,Customer,NZ-2,Tom,+64 9 1,tom@kiwi.example,NZ",
    "Nowhere Co,Customer,XX-3,Ann,+1 1,ann@nowhere.example,Atlantis",
  ].join("\n");
  await page.getByLabel("CSV file to import").setInputFiles({
    name: "partners.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(csv),
  });
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Import completed" })).toBeVisible();
  await expect(dialog).toContainText("3 rows read: 2 created, 0 updated, 0 unchanged, 1 rejected.");
  await expect(
    dialog.getByRole("row").filter({ hasText: 'Country: unknown country "Atlantis"' }),
  ).toContainText("4");
  const download = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download rejected rows" }).click();
  expect((await download).suggestedFilename()).toBe("rejected-contacts.csv");
  await dialog.getByRole("button", { name: "Close", exact: true }).first().click();
  await expect(page.getByRole("row").filter({ hasText: "Andes Copper, S.A." })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Kiwi Dairy Ltd" })).toBeVisible();

  // Over 1,000 rejected rows: the dialog and the download say that only the first 1,000 are listed.
  const bad = Array.from({ length: 1005 }, (_, i) => `Bad ${i},Customer,B-${i},Al,1,not-an-email,US`);
  await page.getByLabel("CSV file to import").setInputFiles({
    name: "many-bad.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(["Company,Partner Type,Tax ID,Contact,Phone,Email,Country", ...bad].join("\n")),
  });
  await expect(dialog).toContainText("1005 rows read: 0 created, 0 updated, 0 unchanged, 1005 rejected.");
  await expect(dialog).toContainText("Showing the first 1,000 of 1,005 rejected rows.");
  const many = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download rejected rows" }).click();
  const manyCsv = readFileSync(await (await many).path(), "utf8");
  expect(manyCsv.split("\r\n")[1]).toContain("Showing the first 1,000 of 1,005 rejected rows.");
  await dialog.getByRole("button", { name: "Close", exact: true }).first().click();

  await page.getByLabel("CSV file to import").setInputFiles({
    name: "broken.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("Just,Some\nColumns,Here\n"),
  });
  await expect(page.getByRole("dialog").getByRole("heading", { name: "Import failed" })).toBeVisible();
  await expect(page.getByRole("dialog")).toContainText("The file has no column for");
});
