import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { createContact, expect, newUser, signIn, test, waitForHydration } from "./fixtures";

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
}

/** The invitation link the server mailed to `email` (the outbox: no SMTP_URL in the e2e run). */
async function invitationLink(email: string): Promise<string> {
  const outbox = path.join(process.env.E2E_DATA_DIR!, "outbox");
  const find = () =>
    readdirSync(outbox)
      .sort()
      .map((f) =>
        readFileSync(path.join(outbox, f), "utf8")
          .replace(/=\r?\n/g, "")
          .replace(/=3D/g, "="),
      )
      .filter((m) => m.includes(`To: ${email}`))
      .map((m) => /\/auth\/accept-invitation\/\d+\?expires=\d+&signature=[0-9a-f]{64}/.exec(m)?.[0])
      .filter(Boolean)
      .pop();
  await expect.poll(find).toBeDefined();
  return find()!;
}

/** A new member with the roles, invited by the admin signed in on `page`, joins in a browser context of their own. */
async function joinWorkspace(page: Page, browser: Browser, roles: string[]) {
  const person = newUser();
  const invited = await page.request.post("/api/workspace/members", {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: { email: person.email, title: "Ms.", name: person.name, surname: person.surname, roles },
  });
  expect(invited.status()).toBe(201);
  const link = await invitationLink(person.email);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const member = await context.newPage();
  await member.goto(link);
  await waitForHydration(member);
  await member.getByLabel("Password").fill(person.password);
  await member.getByRole("button", { name: "Join" }).click();
  await expect(member).toHaveURL(/\/home/);
  return { person, context, member };
}

test("an admin invites a shipper, who joins from the e-mailed link and cannot clear a failed screening", async ({
  page,
  browser,
}, testInfo) => {
  await signIn(page);
  const shipper = newUser();
  const origin = { origin: process.env.E2E_BASE_URL! };
  const invited = await page.request.post("/api/workspace/members", {
    headers: origin,
    data: {
      email: shipper.email,
      title: "Mr.",
      name: shipper.name,
      surname: shipper.surname,
      roles: ["shipper"],
    },
  });
  expect(invited.status()).toBe(201);
  const link = await invitationLink(shipper.email);

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const invitee = await context.newPage();
  await invitee.goto(link);
  await waitForHydration(invitee);
  await expect(invitee.getByRole("heading", { name: "Join your workspace" })).toBeVisible();
  await expectNoAxeViolations(invitee);
  await invitee.screenshot({ path: testInfo.outputPath("accept-invitation-1440.png") });
  await invitee.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(invitee);
  await invitee.screenshot({ path: testInfo.outputPath("accept-invitation-390.png") });
  await invitee.setViewportSize({ width: 1440, height: 900 });
  await invitee.getByLabel("Password").fill(shipper.password);
  await invitee.getByRole("button", { name: "Join" }).click();
  await expect(invitee).toHaveURL(/\/home/);

  // The shipper's consignee fails screening; clearing it needs the compliance role.
  const contactId = await createContact(invitee, "Rosoboroneksport OAO");
  const trade = await invitee.request.get(`/api/screenings/trade?itemId=${contactId}`);
  const screening = ((await trade.json()) as { item: { id: number; status: string } }).item;
  expect(screening.status).toBe("failed");
  // The contact's screening card offers the shipper no override; the server refuses one anyway.
  await invitee.goto(`/contacts/edit-contact/${contactId}`);
  await waitForHydration(invitee);
  const panel = invitee.locator("[aria-label='Restricted-party screening']");
  await expect(panel.getByText("A member with the Compliance role decides manual overrides.")).toBeVisible();
  await expect(panel.getByRole("button", { name: "PASSED" })).toHaveCount(0);
  const refused = await invitee.request.post("/api/screenings/override", {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: { id: screening.id, status: "passed", note: "Looks fine to me" },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toContain("Compliance role");
  // The admin (admin + compliance) clears it with a note.
  const cleared = await page.request.post("/api/screenings/override", {
    headers: origin,
    data: { id: screening.id, status: "passed", note: "Different company: checked the registry" },
  });
  expect(cleared.status()).toBe(200);
  // The admin holds compliance: the card offers the override.
  await page.goto(`/contacts/edit-contact/${contactId}`);
  await waitForHydration(page);
  await expect(
    page.locator("[aria-label='Restricted-party screening']").getByRole("button", { name: "PASSED" }),
  ).toHaveAttribute("aria-pressed", "true");
  // The link works once.
  const again = await browser.newPage();
  await again.goto(link);
  await waitForHydration(again);
  await again.getByLabel("Password").fill("another password");
  await again.getByRole("button", { name: "Join" }).click();
  await expect(again.getByText("Could not join the workspace")).toBeVisible();
  await context.close();
});

test("an admin invites a shipper on the Members screen; the shipper's failed consignee waits for compliance, and the shipment shows who cleared it", async ({
  page,
  browser,
  user: admin,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn(page, admin);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/home");
  await waitForHydration(page);
  // Members sits in the user menu (the registering user is admin).
  await page.getByRole("button", { name: `Account menu for ${admin.name} ${admin.surname}` }).click();
  await page.getByRole("menuitem", { name: "Members" }).click();
  await expect(page).toHaveURL(/\/workspace\/members$/);
  await expect(page.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
  await waitForHydration(page);
  await expect(page.getByText("No invitations are open.")).toBeVisible();
  // One compliance member: two-person release is refused, with the reason on the screen.
  await page.getByRole("switch", { name: "Two-person release" }).click();
  await expect(page.locator("#two-person-release-error")).toContainText(/compliance/i);
  await expect(page.getByRole("switch", { name: "Two-person release" })).toHaveAttribute(
    "aria-checked",
    "false",
  );
  // The last admin cannot give up the role: refused, and the box stays ticked.
  const ownAdmin = page.getByRole("checkbox", { name: "Admin" }).first();
  await ownAdmin.click();
  await expect(ownAdmin).toHaveAttribute("aria-checked", "true");

  // The invitation dialog: the contract's messages by field, then the invitation.
  const shipper = newUser();
  await page.getByRole("button", { name: "Invite" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite a member" });
  await dialog.getByRole("checkbox", { name: "Shipper" }).click();
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(dialog.getByText("Please input the E-mail address!")).toBeVisible();
  await expect(dialog.getByText("Please pick at least one role.")).toBeVisible();
  await dialog.getByLabel("E-mail").fill(shipper.email);
  await dialog.getByLabel("Title").selectOption("Ms.");
  await dialog.getByLabel("Name", { exact: true }).fill(shipper.name);
  await dialog.getByLabel("Last name").fill(shipper.surname);
  await dialog.getByRole("checkbox", { name: "Shipper" }).click();
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole("button", { name: `Withdraw the invitation to ${shipper.email}` }),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: testInfo.outputPath("members-1440.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(page);
  await page.screenshot({ path: testInfo.outputPath("members-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  // The shipper joins from the e-mailed link.
  const link = await invitationLink(shipper.email);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const clerk = await context.newPage();
  await clerk.goto(link);
  await waitForHydration(clerk);
  await clerk.getByLabel("Password").fill(shipper.password);
  await clerk.getByRole("button", { name: "Join" }).click();
  await expect(clerk).toHaveURL(/\/home/);
  // A shipper has no Members entry.
  await clerk.getByRole("button", { name: `Account menu for ${shipper.name} ${shipper.surname}` }).click();
  await expect(clerk.getByRole("menuitem", { name: "User Profile" })).toBeVisible();
  await expect(clerk.getByRole("menuitem", { name: "Members" })).toHaveCount(0);
  await clerk.keyboard.press("Escape");

  // The shipper builds a shipment whose ultimate consignee fails screening.
  const consigneeId = await createContact(clerk, "Rosoboroneksport OAO");
  await clerk.goto("/shipments/create-shipment");
  await expect(clerk).toHaveURL(/\/shipments\/edit-shipment\/\d+$/, { timeout: 20_000 });
  await waitForHydration(clerk);
  const shipmentUrl = clerk.url();
  const shipmentId = Number(/(\d+)$/.exec(shipmentUrl)![1]);
  await clerk.getByLabel(/^Shipment name/).fill("Moscow order");
  await clerk.getByRole("combobox", { name: "Ultimate consignee" }).fill("Rosoboron");
  await clerk.getByRole("option", { name: /Rosoboroneksport OAO/ }).click();
  await expect(clerk.locator('[data-party="Ultimate consignee"]')).toContainText("Rosoboroneksport OAO");
  await expect
    .poll(async () => {
      const answer = await clerk.request.get(`/api/shipments/${shipmentId}`);
      return ((await answer.json()) as { item: { ultimate_consignee_id: number | null } }).item
        .ultimate_consignee_id;
    })
    .toBe(consigneeId);
  // The consignee's card on the shipment offers the shipper no override; the server refuses one.
  const clerkCard = clerk.locator("[aria-label='Screening: Ultimate consignee']");
  await expect(
    clerkCard.getByText("A member with the Compliance role decides manual overrides."),
  ).toBeVisible();
  await expect(clerkCard.getByRole("button", { name: "PASSED" })).toHaveCount(0);
  const trade = await clerk.request.get(`/api/screenings/trade?itemId=${consigneeId}`);
  const screening = ((await trade.json()) as { item: { id: number; status: string } }).item;
  expect(screening.status).toBe("failed");
  const refused = await clerk.request.post("/api/screenings/override", {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: { id: screening.id, status: "passed", note: "Looks fine to me" },
  });
  expect(refused.status()).toBe(403);

  // The admin (compliance) clears it on the shipment with a note.
  await page.goto(shipmentUrl);
  await waitForHydration(page);
  const card = page.locator("[aria-label='Screening: Ultimate consignee']");
  await card.getByRole("button", { name: "PASSED" }).click();
  await page.getByRole("dialog").getByLabel("Note").fill("Different company: checked the registry");
  await page.getByRole("button", { name: "Ok." }).click();
  await expect(card.getByRole("button", { name: "PASSED" })).toHaveAttribute("aria-pressed", "true");

  // The shipment shows who asked, who cleared it, and the note; and who saved it last.
  await clerk.reload();
  await waitForHydration(clerk);
  const releases = clerk.getByTestId("shipment-releases");
  await expect(releases).toContainText("Rosoboroneksport OAO marked PASSED by");
  await expect(releases).toContainText(admin.email);
  await expect(releases).toContainText(`Asked by ${shipper.name} ${shipper.surname}`);
  await expect(releases).toContainText("Note: Different company: checked the registry");
  await expect(clerk.getByText(`Last saved by ${shipper.name} ${shipper.surname}`)).toBeVisible();
  await clerk
    .locator("[aria-labelledby='shipment-releases-title']")
    .screenshot({ path: testInfo.outputPath("shipment-releases-1440.png") });
  // My Shipments filters by who saved a shipment last.
  const list = (await (await page.request.get("/api/workspace/members")).json()) as {
    data: { id: number; email: string }[];
  };
  const idOf = (email: string) => list.data.find((m) => m.email === email)!.id;
  const byEditor = (id: number) =>
    `/shipments?filters=${encodeURIComponent(JSON.stringify({ updated_by_user_id: String(id) }))}`;
  await page.goto(byEditor(idOf(shipper.email)));
  await waitForHydration(page);
  await expect(page.getByRole("table").getByText("Moscow order")).toBeVisible();
  await page.goto(byEditor(idOf(admin.email)));
  await waitForHydration(page);
  await expect(page.getByText("No shipments match these filters.")).toBeVisible();
  await context.close();
});

test("a compliance-only member sees the lists read-only and no admin items", async ({ page, browser }) => {
  await signIn(page);
  const contactId = await createContact(page, "Hanse Import GmbH");
  const { person: officer, context, member } = await joinWorkspace(page, browser, ["compliance"]);

  const nav = member.getByRole("navigation", { name: "Main navigation" });
  await expect(nav.getByRole("link", { name: "My Address Book" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Create Int’l Shipment" })).toHaveCount(0);
  await member.getByRole("button", { name: `Account menu for ${officer.name} ${officer.surname}` }).click();
  await expect(member.getByRole("menuitem", { name: "User Profile" })).toBeVisible();
  await expect(member.getByRole("menuitem", { name: "Members" })).toHaveCount(0);
  await member.keyboard.press("Escape");

  await member.goto("/contacts");
  await waitForHydration(member);
  await expect(member.getByRole("cell", { name: "Hanse Import GmbH" })).toBeVisible();
  await expect(member.getByRole("link", { name: "Create New Contact" })).toHaveCount(0);
  await expect(member.getByRole("button", { name: `Delete contact ${contactId}` })).toHaveCount(0);
  await member.goto(`/contacts/edit-contact/${contactId}`);
  await waitForHydration(member);
  await expect(member.getByText("Read only: changing this needs the Shipper role.")).toBeVisible();
  await expect(member.getByRole("button", { name: "Save" })).toHaveCount(0);
  // The member holds compliance: the screening card still offers the override.
  await expect(
    member.locator("[aria-label='Restricted-party screening']").getByRole("button", { name: "FAILED" }),
  ).toBeVisible();
  await context.close();
});

test("a member without the shipper role sees a shipment read-only and never saves it", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  await signIn(page);
  const origin = { origin: process.env.E2E_BASE_URL! };
  // A blank draft: the form would autosave it on a change and discard it when left untouched.
  const draft = await page.request.post("/api/shipments", { headers: origin });
  expect(draft.status()).toBe(201);
  const shipmentId = ((await draft.json()) as { item: { id: number } }).item.id;
  const { context, member } = await joinWorkspace(page, browser, ["compliance"]);

  // Every write the page would send about shipments.
  const writes: string[] = [];
  member.on("request", (request) => {
    if (request.method() !== "GET" && /\/api\/shipments\b/.test(request.url())) {
      writes.push(`${request.method()} ${request.url()}`);
    }
  });
  await member.goto(`/shipments/edit-shipment/${shipmentId}`);
  await waitForHydration(member);
  const notice = member.getByTestId("shipment-read-only");
  await expect(notice).toContainText("You can view this shipment; saving needs the Shipper role.");
  await expect(member.getByLabel(/^Shipment name/)).toBeDisabled();
  await expect(member.getByLabel("Exporter of record")).toBeDisabled();
  await expect(member.getByRole("button", { name: "Add Piece" })).toBeDisabled();
  await expect(member.getByRole("button", { name: /Save As Template/ })).toHaveCount(0);
  await member.screenshot({ path: testInfo.outputPath("shipment-read-only-1440.png"), fullPage: true });
  await expectNoAxeViolations(member);
  // Leaving the untouched blank draft (in the page, so the form unmounts) does not discard it either.
  await member.getByRole("link", { name: "Tradewinds home" }).first().click();
  await expect(member).toHaveURL(/\/home/);
  await expect(member.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  const stillThere = await page.request.get(`/api/shipments/${shipmentId}`);
  expect(stillThere.status()).toBe(200);

  await member.setViewportSize({ width: 390, height: 844 });
  await member.goto(`/shipments/edit-shipment/${shipmentId}`);
  await waitForHydration(member);
  await expect(notice).toBeVisible();
  await member.screenshot({ path: testInfo.outputPath("shipment-read-only-390.png"), fullPage: true });
  await expectNoAxeViolations(member);
  expect(writes).toEqual([]);
  await context.close();
});
