import AxeBuilder from "@axe-core/playwright";
import { expect, newUser, register, signIn, test, waitForHydration } from "./fixtures";

// The screens as users meet them: on a phone, before JavaScript, with a keyboard and with axe.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

/** Every screen family a signed-in user reaches from the sidebar, plus the account page. */
const SIGNED_IN_SCREENS = [
  "/home",
  "/contacts",
  "/contacts/create-contact",
  "/products",
  "/products/create-product",
  "/licenses",
  "/licenses/create-license",
  "/my-wiki",
  "/my-shipping-documents",
  "/restricted-party-screening",
  "/user/account",
  "/talk-to-an-expert",
];
const PUBLIC_SCREENS = ["/auth/login", "/auth/register", "/auth/forgot-password", "/legal/terms"];

async function expectNoHorizontalOverflow(page: import("@playwright/test").Page, path: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${path} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
}

async function expectNoAxeViolations(page: import("@playwright/test").Page, path: string) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21aa"]).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target).join(" | ")}`,
  );
  expect(summary, `axe on ${path}`).toEqual([]);
}

for (const size of [PHONE, DESKTOP]) {
  test(`every screen fits ${size.width}px without sideways scrolling and has no axe violations`, async ({
    page,
    user: _,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    for (const path of SIGNED_IN_SCREENS) {
      await page.goto(path);
      await waitForHydration(page);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await expectNoHorizontalOverflow(page, path);
      await expectNoAxeViolations(page, path);
    }
    await page.screenshot({ path: `test-results/screens-contacts-${size.width}.png`, fullPage: true });
  });

  test(`public screens fit ${size.width}px and have no axe violations`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(size);
    for (const path of PUBLIC_SCREENS) {
      await page.goto(path);
      await waitForHydration(page);
      await expectNoHorizontalOverflow(page, path);
      await expectNoAxeViolations(page, path);
    }
  });
}

test("on a phone the sidebar is an off-canvas menu opened from the header", async ({ page, user: _ }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/home");
  await waitForHydration(page);
  await expect(page.getByRole("complementary", { name: "Sidebar" })).toBeHidden();
  await page.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("dialog", { name: "Menu" });
  await expect(menu).toBeVisible();
  await menu.getByRole("link", { name: "My Address Book" }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(menu).toBeHidden();
  // The primary action is on screen and usable.
  const create = page
    .getByRole("link", { name: "Create New Contact" })
    .or(page.getByRole("button", { name: "Create New Contact" }));
  await expect(create.first()).toBeInViewport();
  await page.screenshot({ path: "test-results/screens-phone-contacts.png" });
});

test("the collapsed sidebar is rendered collapsed by the server (no jump on load)", async ({
  page,
  user: _,
  context,
  baseURL,
}) => {
  await context.addCookies([{ name: "tw_sidebar", value: "collapsed", url: baseURL! }]);
  const html = await (await page.request.get("/contacts")).text();
  expect(html).toMatch(
    /aria-label="Sidebar"[^>]*data-collapsed="true"|data-collapsed="true"[^>]*aria-label="Sidebar"/,
  );
});

test("after a client-side navigation focus is on the new page's heading; a skip link leads to the content", async ({
  page,
  user: _,
}) => {
  await page.setViewportSize(DESKTOP);
  await page.goto("/home");
  await waitForHydration(page);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await page
    .getByRole("complementary", { name: "Sidebar" })
    .getByRole("link", { name: "My Products" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Products" })).toBeFocused();
});

test("the header's user menu names the user and holds User Profile and Logout", async ({ page, user }) => {
  await page.goto("/home");
  await waitForHydration(page);
  await page.getByRole("button", { name: `Account menu for ${user.name} ${user.surname}` }).click();
  await expect(page.getByRole("menuitem", { name: "User Profile" })).toBeVisible();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth\/login/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("login works and the password never reaches a URL", async ({ page }) => {
    const user = await register(page, newUser());
    const urls: string[] = [];
    page.on("request", (request) => urls.push(request.url()));
    await page.goto("/auth/login?next=%2Fcontacts");
    await page.getByLabel("E-mail").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByLabel("Password").press("Enter");
    await expect(page).toHaveURL(/\/contacts$/);
    await expect(page.getByRole("heading", { name: "My Address Book" })).toBeVisible();
    expect(
      urls.filter((u) => u.includes(encodeURIComponent(user.password)) || u.includes(user.password)),
    ).toEqual([]);
  });

  test("a wrong password shows the server's message", async ({ page }) => {
    const user = await register(page, newUser());
    await page.goto("/auth/login");
    await page.getByLabel("E-mail").fill(user.email);
    await page.getByLabel("Password").fill("wrong password 1");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("alert")).toHaveText("Login failed");
    expect(page.url()).not.toContain("wrong");
  });

  test("registration works and shows the success screen", async ({ page }) => {
    const user = newUser();
    await page.goto("/auth/register");
    await page.getByLabel("Title").selectOption("Ms.");
    await page.getByLabel("First name").fill(user.name);
    await page.getByLabel("Last name").fill(user.surname);
    await page.getByLabel("E-mail").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByText("Registration successful")).toBeVisible();
  });

  test("a form that needs JavaScript cannot be submitted before it runs", async ({ page, context }) => {
    const user = newUser();
    await signIn(page, user);
    await page.goto("/contacts/create-contact");
    await expect(page.getByRole("button", { name: "Save Contact" })).toBeDisabled();
    void context;
  });
});
