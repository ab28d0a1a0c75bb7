/**
 * Auth and proxies: a forged X-Forwarded-For does not escape the limits, strangers cannot
 * lock an owner out, the state-changing override GET needs same-origin proof.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadAppSecret } from "../lib/secret";
import { sign } from "../lib/signing";
import { buildContact, buildRegistration, call, json, signUp } from "../test/factories";
import { awayFromRateWindowEdge } from "../test/rate-window";
import { createTestContext, type TTestContext } from "../test/setup";

let ctx: TTestContext;
beforeAll(async () => {
  // Two attempts per (IP, account) and window: small numbers keep the test quick.
  ctx = await createTestContext({ AUTH_RATE_LIMIT: "2", TRUST_PROXY: "1" });
});
afterAll(() => ctx.database.close());

const login = (body: Record<string, unknown>, headers: Record<string, string>) =>
  ctx.app.request("/api/login", json(body, headers));

async function register() {
  const reg = buildRegistration();
  expect(
    (await ctx.app.request("/api/register", json(reg, { "x-forwarded-for": "192.0.2.200" }))).status,
  ).toBe(201);
  return reg;
}

describe("TRUST_PROXY", () => {
  test("the client cannot pick its IP: only the entry our proxy appended (rightmost) counts", async () => {
    await awayFromRateWindowEdge();
    const reg = await register();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      // The client writes a fresh address each time; the proxy appends the real one.
      const res = await login(
        { email: reg.email, password: "wrong password" },
        { "x-forwarded-for": `10.${i}.${i}.${i}, 198.51.100.7` },
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 2)).toEqual([401, 401]);
    expect(statuses.slice(2).every((s) => s === 429)).toBe(true);
  }, 60_000);

  test("with TRUST_PROXY=2 the second entry from the right is the client", async () => {
    await awayFromRateWindowEdge();
    const two = await createTestContext({ AUTH_RATE_LIMIT: "2", TRUST_PROXY: "2" });
    try {
      const reg = buildRegistration();
      await two.app.request("/api/register", json(reg));
      const attempt = (xff: string) =>
        two.app.request(
          "/api/login",
          json({ email: reg.email, password: "wrong password" }, { "x-forwarded-for": xff }),
        );
      expect((await attempt("1.1.1.1, 203.0.113.9, 10.0.0.2")).status).toBe(401);
      expect((await attempt("2.2.2.2, 203.0.113.9, 10.0.0.3")).status).toBe(401);
      expect((await attempt("3.3.3.3, 203.0.113.9, 10.0.0.4")).status).toBe(429);
      // Another client behind the same proxies is not affected.
      expect((await attempt("3.3.3.3, 203.0.113.10, 10.0.0.4")).status).toBe(401);
    } finally {
      two.database.close();
    }
  }, 60_000);
});

describe("lockout by anyone", () => {
  test("a stranger guessing from many addresses does not lock out the owner's known browser", async () => {
    await awayFromRateWindowEdge();
    const reg = await register();
    // The owner logged in from this browser before: it holds the account's device cookie.
    const first = await login(
      { email: reg.email, password: reg.password },
      { "x-forwarded-for": "192.0.2.1" },
    );
    expect(first.status).toBe(200);
    const device = first.headers
      .getSetCookie()
      .find((c) => c.startsWith("twdevice="))!
      .split(";")[0];

    // 21 guesses from 21 addresses fill the account-wide limit (10 × 2).
    for (let i = 0; i < 21; i++) {
      await login({ email: reg.email, password: `guess ${i}` }, { "x-forwarded-for": `203.0.113.${i}` });
    }
    // A browser that never logged in to this account is throttled now...
    const unknownBrowser = await login(
      { email: reg.email, password: reg.password },
      { "x-forwarded-for": "192.0.2.2" },
    );
    expect(unknownBrowser.status).toBe(429);
    // ...the owner's own browser is not, from a new address too.
    const owner = await login(
      { email: reg.email, password: reg.password },
      { "x-forwarded-for": "192.0.2.3", cookie: device },
    );
    expect(owner.status).toBe(200);
    // A device cookie for another address, or a forged one, counts for nothing.
    const forged = await login(
      { email: reg.email, password: reg.password },
      { "x-forwarded-for": "192.0.2.4", cookie: `twdevice=${"a".repeat(32)}.${"0".repeat(64)}` },
    );
    expect(forged.status).toBe(429);
  }, 120_000);

  test("bad reset links against a user id never block that user's genuine link", async () => {
    await awayFromRateWindowEdge();
    const reg = await register();
    const ok = await login({ email: reg.email, password: reg.password }, { "x-forwarded-for": "192.0.2.9" });
    const { user } = (await ok.json()) as { user: { id: number } };
    const bad = (ip: string) =>
      ctx.app.request(
        `/api/reset/password/user/${user.id}?expires=${Math.floor(Date.now() / 1000) + 600}&signature=${"0".repeat(64)}`,
        json({ password: "attacker password" }, { "x-forwarded-for": ip }),
      );
    for (let i = 0; i < 20; i++) await bad(`198.51.100.${i}`);
    for (let i = 0; i < 5; i++) await bad("198.51.100.250");
    expect((await bad("198.51.100.250")).status).toBe(429);

    // The genuine link (as the reset mail carries it), even from the address that is throttled.
    const [row] = await ctx.database.client
      .execute({ sql: "select password_hash from users where id = ?", args: [user.id] })
      .then((r) => r.rows as unknown as { password_hash: string }[]);
    const expires = Math.floor(Date.now() / 1000) + 600;
    const signature = sign(loadAppSecret(ctx.env), ["reset", user.id, expires, row.password_hash]);
    const genuine = await ctx.app.request(
      `/api/reset/password/user/${user.id}?expires=${expires}&signature=${signature}`,
      json({ password: "the owner's new password" }, { "x-forwarded-for": "198.51.100.250" }),
    );
    expect(genuine.status).toBe(200);
  }, 60_000);
});

describe("the override GET", () => {
  test("refused without same-origin proof; the app's own header or Sec-Fetch-Site same-origin work", async () => {
    const who = await signUp(ctx, {});
    const created = await call(
      ctx,
      who.auth,
      "POST",
      "/api/contacts",
      buildContact({ company: "Override Target Ltd" }),
    );
    const { id } = ((await created.json()) as { item: { id: number } }).item;
    const trade = await call(ctx, who.auth, "GET", `/api/screenings/trade?itemId=${id}`);
    const result = ((await trade.json()) as { item: { id: number } }).item;
    const url = `/api/screenings/override?id=${result.id}&status=failed&note=checked`;
    // A link or an image on another site: no Sec-Fetch-Site from an older browser, no app header.
    const bare = await ctx.app.request(url, { headers: { cookie: who.cookie } });
    expect(bare.status).toBe(403);
    const crossSite = await ctx.app.request(url, {
      headers: { cookie: who.cookie, "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const sameSite = await ctx.app.request(url, {
      headers: { cookie: who.cookie, "sec-fetch-site": "same-site" },
    });
    expect(sameSite.status).toBe(403);
    // The app's own calls.
    const withHeader = await ctx.app.request(url, {
      headers: { cookie: who.cookie, "x-tradewinds-request": "1" },
    });
    expect(withHeader.status).toBe(200);
    const sameOrigin = await ctx.app.request(url, {
      headers: { cookie: who.cookie, "sec-fetch-site": "same-origin" },
    });
    expect(sameOrigin.status).toBe(200);
    // A cross-site request cannot make its header count.
    const spoofed = await ctx.app.request(url, {
      headers: { cookie: who.cookie, "sec-fetch-site": "cross-site", "x-tradewinds-request": "1" },
    });
    expect(spoofed.status).toBe(403);
  }, 120_000);
});
