import { test as base, expect, type Page } from "@playwright/test";

let counter = 0;

export type TTestUser = { email: string; password: string; name: string; surname: string };

/** A fresh account for each test, registered through the real API. */
export function newUser(): TTestUser {
  counter += 1;
  const id = `${Date.now()}-${process.pid}-${counter}`;
  return {
    email: `user-${id}@example.com`,
    password: "e2e password 1",
    name: "Erin",
    surname: `Tester${counter}`,
  };
}

/** Registers the user through the API (without logging in). */
export async function register(page: Page, user: TTestUser = newUser()): Promise<TTestUser> {
  const reg = await page.request.post("/api/register", {
    data: {
      title: "Ms.",
      name: user.name,
      surname: user.surname,
      email: user.email,
      password: user.password,
    },
  });
  expect(reg.status()).toBe(201);
  return user;
}

/** Registers the user and logs the page's browser context in (the twsession cookie lands in it). */
export async function signIn(page: Page, user: TTestUser = newUser()): Promise<TTestUser> {
  await register(page, user);
  const login = await page.request.post("/api/login", {
    data: { email: user.email, password: user.password, rememberMe: true },
  });
  expect(login.status()).toBe(200);
  return user;
}

/** Waits until the client router has hydrated the server-rendered page. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => !("$_TSR" in window));
}

/** Collects console errors and page errors: hydration mismatches and CSP violations land here. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(msg.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

/** A page whose context is logged in as a fresh user. */
export const test = base.extend<{ user: TTestUser }>({
  user: async ({ page }, use) => {
    await use(await signIn(page));
  },
});
export { expect };

/** A contact created through the API (the page's origin passes the CSRF check); returns its id. */
export async function createContact(page: Page, company: string, extra: Record<string, unknown> = {}) {
  const res = await page.request.post("/api/contacts", {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: {
      company,
      partner_type_id: 1,
      tax_id: `T-${company.length}`,
      contact_1: "Dana",
      phone_1: "+1 555 0100",
      email_1: `dana@${company.toLowerCase().replace(/\W+/g, "")}.example`,
      ...extra,
    },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { item: { id: number } }).item.id;
}

/** A product created through the API; returns its id. */
export async function createProduct(
  page: Page,
  name: string,
  productNumber: string,
  extra: Record<string, unknown> = {},
) {
  const res = await page.request.post("/api/products", {
    headers: { origin: process.env.E2E_BASE_URL! },
    data: {
      name,
      product_number: productNumber,
      description: `${name} for export`,
      country_of_origin_id: 1,
      US_ECCN: "EAR99",
      HTS: "8471.30.0100",
      net_weight: "1.5",
      ...extra,
    },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { item: { id: number } }).item.id;
}
