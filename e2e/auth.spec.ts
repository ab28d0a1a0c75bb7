import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, newUser, register, signIn, test, waitForHydration } from "./fixtures";

const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * The newest e-mail with `subject` the server wrote to its outbox for this address (no SMTP_URL in the
 * e2e run), waiting for it: the reset mail is sent after the server has answered.
 */
async function lastMailTo(email: string, subject: string): Promise<string> {
  const outbox = path.join(process.env.E2E_DATA_DIR!, "outbox");
  const find = () =>
    readdirSync(outbox)
      .sort()
      .map((f) => readFileSync(path.join(outbox, f), "utf8"))
      .filter((m) => m.includes(`To: ${email}`) && m.includes(subject))
      .pop();
  await expect.poll(find).toBeDefined();
  return find()!
    .replace(/=\r?\n/g, "")
    .replace(/=3D/g, "=");
}

test("register → log in with remember-me → persistent HttpOnly cookie → protected page → log out", async ({
  page,
  context,
}) => {
  const user = newUser();
  await page.goto("/auth/register");
  await waitForHydration(page);
  await page.getByLabel("Title").selectOption("Mrs.");
  await page.getByLabel("First name").fill(user.name);
  await page.getByLabel("Last name").fill(user.surname);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Register" }).click();
  // Registering signs in and opens the dashboard.
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByText("Registration successful").last()).toBeVisible();
  await page
    .getByRole("navigation", { name: "Main navigation" })
    .getByRole("link", { name: "Logout" })
    .click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await waitForHydration(page);

  // A failed attempt first: its toast does not outlive the login that works.
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Log in" }).click();
  const failed = page.locator("[data-sonner-toast][data-type=error]");
  await expect(failed).toBeVisible();
  await page.getByLabel("Password").fill(user.password);
  await expect(page.getByLabel("Remember me")).toBeChecked();
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByText("Login successful")).toBeVisible();
  await expect(failed).toHaveCount(0);

  const cookie = (await context.cookies()).find((c) => c.name === "twsession")!;
  expect(cookie.httpOnly).toBe(true);
  expect(cookie.sameSite).toBe("Lax");
  // Persistent: about 43200 minutes from now, not a session cookie (-1).
  expect(cookie.expires).toBeGreaterThan(Date.now() / 1000 + 43000 * 60);

  await page.goto("/contacts");
  await expect(page.getByRole("heading", { level: 1, name: "My Address Book" })).toBeVisible();
  await page
    .getByRole("navigation", { name: "Main navigation" })
    .getByRole("link", { name: "Logout" })
    .click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  expect((await context.cookies()).find((c) => c.name === "twsession")).toBeUndefined();
  await page.goto("/contacts");
  await expect(page).toHaveURL(/\/auth\/login\?next=%2Fcontacts$/);
});

test("hovering or focusing the Logout link does not log out; clicking it does", async ({ page }) => {
  await signIn(page);
  await page.goto("/contacts");
  await waitForHydration(page);
  const logout = page
    .getByRole("navigation", { name: "Main navigation" })
    .getByRole("link", { name: "Logout" });
  // Links preload their route on intent; the logout route must not log out on a preload.
  await logout.hover();
  await logout.focus();
  await page.waitForTimeout(300);
  expect((await page.request.get("/api/user")).status()).toBe(200);
  await logout.click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  expect((await page.request.get("/api/user")).status()).toBe(401);
});

test("opening /auth/logout directly clears the cookie and ends the session", async ({ page, context }) => {
  await signIn(page);
  const token = (await context.cookies()).find((c) => c.name === "twsession")!.value;
  await page.goto("/auth/logout");
  await expect(page).toHaveURL(/\/auth\/login$/);
  expect((await context.cookies()).find((c) => c.name === "twsession")).toBeUndefined();
  // The old token is dead on the server too.
  const reused = await page.request.get("/api/user", { headers: { authorization: `Bearer ${token}` } });
  expect(reused.status()).toBe(401);
  await page.goto("/contacts");
  await expect(page).toHaveURL(/\/auth\/login\?next=%2Fcontacts$/);
});

test("registration and account failures without a server message show the spec's texts", async ({ page }) => {
  const user = newUser();
  // Registration meets a server error (its message is 'Internal error'), the account update no answer.
  await page.route("**/api/register", (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"Internal error"}' }),
  );
  await page.goto("/auth/register");
  await waitForHydration(page);
  await page.getByLabel("Title").selectOption("Mr.");
  await page.getByLabel("First name").fill(user.name);
  await page.getByLabel("Last name").fill(user.surname);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Registration failed")).toBeVisible();
  await expect(page.getByText("Operation failed")).toBeVisible();
  await expect(page.getByText("Internal error")).toHaveCount(0);
  await page.unroute("**/api/register");

  await signIn(page, user);
  await page.route("**/api/user", (route) =>
    route.request().method() === "POST" ? route.abort("connectionrefused") : route.continue(),
  );
  await page.goto("/user/account");
  await waitForHydration(page);
  await page.getByLabel("First name").fill("Changed");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("Operation failed")).toBeVisible();
  await expect(page.getByText("Ann error occured")).toBeVisible();
  await expect(page.getByText("No response received")).toHaveCount(0);
});

test("without remember-me the cookie lasts only for the browser session", async ({ page, context }) => {
  const user = newUser();
  await register(page, user);
  await page.goto("/auth/login");
  await waitForHydration(page);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByLabel("Remember me").click();
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/home$/);
  expect((await context.cookies()).find((c) => c.name === "twsession")!.expires).toBe(-1);
});

test("the next parameter round trip, and a signed-in visitor skipping the login page", async ({ page }) => {
  const user = newUser();
  await register(page, user);
  await page.goto("/licenses?page=2");
  await expect(page).toHaveURL(/\/auth\/login\?next=%2Flicenses%3Fpage%3D2$/);
  await waitForHydration(page);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/licenses\?page=2$/);
  await expect(page.getByRole("heading", { level: 1, name: "Licenses" })).toBeVisible();
  await page.goto("/auth/login?next=%2Fproducts");
  await expect(page).toHaveURL(/\/products$/);
  await page.goto("/auth/login");
  await expect(page).toHaveURL(/\/user\/account$/);
  // An outside address in next is ignored.
  await page.goto("/auth/login?next=%2F%2Fevil.example");
  await expect(page).toHaveURL(/\/user\/account$/);
  // The root itself sends a logged-out visitor to login without next.
  await page.context().clearCookies();
  await page.goto("/");
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test("login, register and forgot-password show the spec's validation messages", async ({ page }) => {
  await page.goto("/auth/login");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("Please input your E-mail address!")).toBeVisible();
  await expect(page.getByText("Please input your Password!")).toBeVisible();
  await page.getByLabel("E-mail").fill("not-an-address");
  await expect(page.getByText("The input is not valid E-mail address!")).toBeVisible();
  await page.getByLabel("E-mail").fill("nobody@example.com");
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Login failed" })).toBeVisible();

  await page.goto("/auth/register");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Register" }).click();
  for (const message of [
    "Please input your Title!",
    "Please input your Name!",
    "Please input your Last Name!",
    "Please input your E-mail address!",
    "Please input your Password!",
  ]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  for (const link of ["Terms", "Help", "Privacy"]) {
    await expect(
      page.getByRole("navigation", { name: "Legal" }).getByRole("link", { name: link }),
    ).toBeVisible();
  }

  await page.goto("/auth/forgot-password");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText("Please input your E-mail address!")).toBeVisible();
});

test("forgot password → the e-mailed link → a new password works", async ({ page }) => {
  const user = newUser();
  await register(page, user);
  await page.goto("/auth/forgot-password");
  await waitForHydration(page);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("heading", { name: "Reset password email sent" })).toBeVisible();
  const link = /(http:\/\/127\.0\.0\.1:\d+\/auth\/reset-password\/[^\s"<>]+)/.exec(
    await lastMailTo(user.email, "Reset your Tradewinds password"),
  )![1];
  await page.goto(link);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByText("Please input your new Password!")).toBeVisible();
  await page.getByLabel("New password").fill("brand new password");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByRole("heading", { name: "Password reset successful" })).toBeVisible();
  const relogin = await page.request.post("/api/login", {
    data: { email: user.email, password: "brand new password" },
  });
  expect(relogin.status()).toBe(200);
  // The same link a second time is refused.
  await page.goto(link);
  await waitForHydration(page);
  await page.getByLabel("New password").fill("another password");
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByText("Error while resetting password")).toBeVisible();
});

test("the account page updates the profile and uploads an avatar and a signature with previews", async ({
  page,
  user,
}) => {
  await page.goto("/user/account");
  await waitForHydration(page);
  const update = page.getByRole("button", { name: "Update" });
  await expect(update).toBeDisabled();
  await expect(page.getByLabel("Title")).toHaveValue("Ms.");
  await expect(page.getByLabel("Title").locator("option")).toHaveText(["Mr.", "Mrs.", "Ms.", "None"]);
  await page.getByLabel("First name").fill("");
  await expect(update).toBeEnabled();
  await update.click();
  await expect(page.getByText("Please input your First Name!")).toBeVisible();
  await page.getByLabel("First name").fill("Renamed");
  await page.getByLabel("Title").selectOption("None");
  await update.click();
  await expect(page.getByText("Account updated")).toBeVisible();
  await expect(update).toBeDisabled();
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByLabel("First name")).toHaveValue("Renamed");

  // A password change needs both fields.
  await page.getByLabel("New password").fill("a newer password");
  await update.click();
  await expect(page.getByText("Please input your Password!")).toBeVisible();
  await page.getByLabel("Current password").fill(user.password);
  await update.click();
  await expect(page.getByText("Password updated")).toBeVisible();

  await page
    .getByLabel("Upload avatar")
    .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG_1PX });
  await expect(page.getByText("Avatar upload successfully.")).toBeVisible();
  const avatar = page.getByRole("img", { name: "Avatar preview" });
  await expect(avatar).toBeVisible();
  expect(await avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  await page
    .getByLabel("Upload signature")
    .setInputFiles({ name: "sig.png", mimeType: "image/png", buffer: PNG_1PX });
  await expect(page.getByText("Signature uploaded successfully.")).toBeVisible();
  await expect(page.getByRole("img", { name: "Signature preview" })).toBeVisible();

  await page
    .getByLabel("Upload signature")
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(
    page.getByRole("alert").filter({ hasText: "You can only upload JPG/PNG file!" }),
  ).toBeVisible();
});

test("a 401 from the API logs the user out and offers a Log in button", async ({ page }) => {
  await signIn(page);
  await page.goto("/user/account");
  await waitForHydration(page);
  // A page kept for offline use (as the service worker keeps signed-in pages).
  await page.evaluate(async () => (await caches.open("tw-pages-v1")).add("/user/account"));
  // The session ends on the server while the page is open (logging out is a POST; a GET ends nothing).
  expect((await page.request.get("/api/logout")).status()).toBe(405);
  expect(
    (await page.request.post("/api/logout", { headers: { "x-tradewinds-request": "1" } })).status(),
  ).toBe(200);
  const cookies = await page.context().cookies();
  await page
    .context()
    .addCookies(cookies.length ? cookies : [{ name: "twsession", value: "x".repeat(32), url: page.url() }]);
  await page.getByLabel("First name").fill("Someone");
  await page.getByRole("button", { name: "Update" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByText("Authentication failed")).toBeVisible();
  await expect(dialog.getByText("Please log in to continue")).toBeVisible();
  // The kept pages end with the session.
  await expect
    .poll(() => page.evaluate(async () => (await (await caches.open("tw-pages-v1")).keys()).length))
    .toBe(0);
  await dialog.getByRole("link", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/auth\/login\?next=/);
});
