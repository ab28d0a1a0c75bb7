import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
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
