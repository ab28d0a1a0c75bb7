import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";

type TFlow = {
  name: string;
  list: string;
  listTitle: string;
  createLabel: string;
  /** The heading of the create and the edit page (the spec's literal title). */
  /** The browser tab titles of the create and the edit page. */
  createTitle: string;
  editTitle: string;
  saveLabel: string;
  /** Fills the create form; returns the text that identifies the record in the list. */
  fill: (page: Page) => Promise<string>;
  /** A field to change on the edit page, and the value. */
  edit: [label: string, value: string];
  /** Print rows to check: data-field → text. */
  printed: Record<string, string>;
};

const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

const flows: TFlow[] = [
  {
    name: "products",
    list: "/products",
    listTitle: "Products",
    createLabel: "Create new Product",
    createTitle: "Add Product",
    editTitle: "Edit Product",
    saveLabel: "Save Product",
    fill: async (page) => {
      await page.getByLabel(/^Name/).fill("Ruggedised router");
      await page.getByLabel(/^Product number/).fill("RR-2000");
      await page.getByLabel(/^Description/).fill("Industrial Ethernet router with encryption");
      await page.getByLabel(/^Country of origin/).selectOption({ label: "Germany" });
      await page.getByLabel(/^US ECCN/).fill("5a002");
      await page.getByLabel(/^HTS/).fill("8517.62.0090");
      await page.getByLabel(/^Unit value/).fill("1234.5");
      await expect(page.getByLabel(/^Unit value/)).toHaveValue("1,234.5");
      await page.getByLabel(/^Net weight/).fill("2.75");
      return "RR-2000";
    },
    edit: ["Unit value", "1500"],
    printed: {
      US_ECCN: "5A002",
      HTS: "8517.62.0090",
      unit_value: "$1,500.00",
      country_of_origin_id: "Germany",
    },
  },
  {
    name: "licences",
    list: "/licenses",
    listTitle: "Licenses",
    createLabel: "Create new License",
    createTitle: "Add License",
    editTitle: "Edit License",
    saveLabel: "Save License",
    fill: async (page) => {
      await page.getByLabel(/^Name/).fill("BIS licence D-555");
      await page.getByLabel(/^Reference number 1/).fill("D555001");
      await page.getByLabel(/^Reference number 2/).fill("EXP-7");
      // No country or entity is picked for the user: both start at 'Choose…' and are required.
      await expect(page.getByLabel(/^Country/)).toHaveValue("");
      await expect(page.getByLabel(/^Licensed or restricted entity/)).toHaveValue("");
      await page.getByLabel(/^Country/).selectOption({ label: "Germany" });
      await page.getByLabel(/^Licensed or restricted entity/).selectOption({ label: "Licence Holder GmbH" });
      return "BIS licence D-555";
    },
    edit: ["Status", "approved"],
    printed: { status: "approved", reference_number_1: "D555001", contact_id: "Licence Holder GmbH" },
  },
  {
    name: "wiki",
    list: "/my-wiki",
    listTitle: "My Wiki",
    createLabel: "Upload File(s)",
    createTitle: "Upload Wiki File",
    editTitle: "Edit Wiki File",
    saveLabel: "Save Wiki File(s)",
    fill: async (page) => {
      await page.getByLabel(/^Name/).fill("Classification memo");
      await page.getByLabel(/^Description/).fill("Why our routers are 5A002");
      await page.getByLabel("Files", { exact: true }).setInputFiles([
        { name: "memo.pdf", mimeType: "application/pdf", buffer: PDF },
        { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("plain notes") },
      ]);
      return "Classification memo";
    },
    edit: ["Description", "Reviewed by counsel"],
    printed: { description: "Reviewed by counsel" },
  },
  {
    name: "shipping forms",
    list: "/my-shipping-documents",
    listTitle: "My Shipping Documents",
    createLabel: "Create a Form",
    createTitle: "Create a Form",
    editTitle: "Edit a Form",
    saveLabel: "Save Form",
    fill: async (page) => {
      await page.getByRole("radio", { name: "Certificate Of Origin" }).click();
      await page.getByLabel(/^Form name/).fill("Chamber certificate");
      return "Chamber certificate";
    },
    edit: ["Description", "For the Hamburg chamber"],
    printed: { document_type: "certificate of origin", description: "For the Hamburg chamber" },
  },
];

for (const flow of flows) {
  test(`${flow.name}: create → edit → attach → download → print → delete`, async ({ page, user: _ }) => {
    if (flow.name === "licences") {
      // A licence names a contact from the address book.
      await page.goto("/home");
      const res = await page.request.post("/api/contacts", {
        headers: { origin: process.env.E2E_BASE_URL! },
        data: {
          company: "Licence Holder GmbH",
          partner_type_id: 1,
          tax_id: "DE1",
          contact_1: "A",
          phone_1: "1",
          email_1: "a@lh.example",
        },
      });
      expect(res.status()).toBe(201);
    }
    await page.goto(flow.list);
    await expect(page.getByRole("heading", { level: 1, name: flow.listTitle })).toBeVisible();
    await page.getByRole("link", { name: flow.createLabel }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: flow.createTitle, exact: true })).toBeVisible();
    await expect(page).toHaveTitle(`${flow.createTitle} · Tradewinds`);
    await waitForHydration(page);
    const key = await flow.fill(page);
    await page.getByRole("button", { name: flow.saveLabel }).click();
    await expect(page.getByText("Save successful")).toBeVisible();
    // A new record lands on its edit page (spec section 4).
    await expect(page).toHaveURL(/\/edit-[a-z-]+\/\d+$/);
    // The edit page names the record it edits: 'Edit Product — P-100'.
    await expect(
      page.getByRole("heading", { level: 1, name: new RegExp(`^${flow.editTitle} — .+`) }),
    ).toBeVisible();
    await expect(page).toHaveTitle(`${flow.editTitle} · Tradewinds`);
    const id = Number(page.url().split("/").pop());

    const [label, value] = flow.edit;
    await page.getByLabel(new RegExp(`^${label}`)).fill(value);
    await page.getByRole("button", { name: flow.saveLabel }).click();
    await expect(page.getByText("Save successful").last()).toBeVisible();
    await expect(page.getByRole("button", { name: flow.saveLabel })).toBeDisabled();

    // Attach a document, then download it with its original name.
    await page
      .getByLabel(/^Upload files to/)
      .setInputFiles({ name: "spec-sheet.pdf", mimeType: "application/pdf", buffer: PDF });
    const files = page.getByRole("list", { name: "Attached files" });
    await expect(files.getByText("spec-sheet.pdf")).toBeVisible();
    if (flow.name === "wiki") await expect(files.getByText("memo.pdf")).toBeVisible();
    const download = page.waitForEvent("download");
    await files.getByRole("link", { name: "Download spec-sheet.pdf" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("spec-sheet.pdf");
    // A disguised file is refused with the spec's message.
    await page.getByLabel(/^Upload files to/).setInputFiles({
      name: "setup.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("MZ\x90\x00binary"),
    });
    await expect(page.getByText("setup.pdf file upload failed.")).toBeVisible();

    await page.addInitScript(() => {
      window.print = () => {
        document.body.dataset.printed = "yes";
      };
    });
    await page.goto(`${flow.list}/print/${id}`);
    for (const [field, text] of Object.entries(flow.printed)) {
      await expect(page.locator(`[data-field="${field}"] dd`)).toHaveText(text);
    }
    await expect(page.locator("body")).toHaveAttribute("data-printed", "yes");

    await page.goto(flow.list);
    await waitForHydration(page);
    const row = page.getByRole("row").filter({ hasText: key });
    await expect(row).toBeVisible();
    await row.getByRole("button", { name: /^Delete/ }).click();
    await page.getByRole("button", { name: "Yes" }).click();
    await expect(page.getByText("Operation successful")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: key })).toHaveCount(0);
    // The record's files went with it.
    const gone = await page.request.get(
      `/api${flow.list === "/my-wiki" ? "/wikis" : flow.list === "/my-shipping-documents" ? "/shipping-documents" : flow.list}/${id}`,
    );
    expect(gone.status()).toBe(404);
  });
}

test("licences show expired and soon-to-expire ones distinctly", async ({ page, user: _ }) => {
  await page.goto("/home");
  const origin = { origin: process.env.E2E_BASE_URL! };
  const contact = await page.request.post("/api/contacts", {
    headers: origin,
    data: {
      company: "Holder",
      partner_type_id: 1,
      tax_id: "H",
      contact_1: "A",
      phone_1: "1",
      email_1: "a@h.example",
    },
  });
  const contactId = ((await contact.json()) as { item: { id: number } }).item.id;
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  for (const [name, expiry] of [
    ["Lapsed", day(-3)],
    ["Expiring", day(10)],
    ["Current", day(200)],
  ]) {
    await page.request.post("/api/licenses", {
      headers: origin,
      data: {
        licence_name: name,
        valid_date: day(-400),
        expiration_date: expiry,
        reference_number_1: "1",
        reference_number_2: "2",
        status: "approved",
        country_id: 1,
        contact_id: contactId,
      },
    });
  }
  await page.goto("/licenses");
  await expect(page.getByRole("row").filter({ hasText: "Lapsed" }).getByText("Expired")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Expiring" }).getByText("Expires soon")).toBeVisible();
  await expect(
    page.getByRole("row").filter({ hasText: "Current" }).locator("[data-expiry=ok]"),
  ).toBeVisible();
});
