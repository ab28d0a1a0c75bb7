import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { sessions, users, workspaces } from "../../../db/schema";
import type { TMail } from "../../lib/mailer";
import { buildRegistration, json, signUp } from "../../test/factories";
import { awayFromRateWindowEdge } from "../../test/rate-window";
import { appOver, createTestContext, type TTestContext } from "../../test/setup";
import { sessionIdFromToken } from "./session.service";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

/** The twsession cookie of a response (a login also sets the twdevice cookie). */
const sessionCookieOf = (res: Response) =>
  res.headers.getSetCookie().find((cookie) => cookie.startsWith("twsession=")) ?? "";

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  ctx.app.request(url, json(body, headers));

/** The newest .eml in the outbox: without SMTP_URL every message lands there. */
function lastOutboxMail(): string {
  const outbox = path.join(ctx.dataDir, "outbox");
  const files = readdirSync(outbox).sort();
  return readFileSync(path.join(outbox, files[files.length - 1]), "utf8");
}

/**
 * The newest outbox mail to `to` with `subject`, waiting for it: the reset mail is sent after the
 * answer (so a known address does not answer later than an unknown one).
 */
async function waitForOutboxMail(to: string, subject: string): Promise<string> {
  const outbox = path.join(ctx.dataDir, "outbox");
  for (let i = 0; i < 200; i++) {
    const mails = existsSync(outbox)
      ? readdirSync(outbox)
          .sort()
          .map((f) => readFileSync(path.join(outbox, f), "utf8"))
          .filter((m) => m.includes(`To: ${to}`) && m.includes(subject))
      : [];
    if (mails.length) return mails[mails.length - 1];
    await Bun.sleep(10);
  }
  throw new Error(`no mail "${subject}" to ${to} in the outbox`);
}
const RESET_SUBJECT = "Reset your Tradewinds password";
const linkIn = (mail: string) => {
  const unfolded = mail.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  return /(http:\/\/localhost:\d+\/[^\s"<>]+)/.exec(unfolded)![1];
};

describe("POST /api/register", () => {
  test("creates the user and a workspace, answers 201 and mails a verification link", async () => {
    const body = buildRegistration();
    const res = await post("/api/register", body);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ registered: true, messages: ["Registration successful"] });
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, body.email));
    expect(user.workspace_id).toBeGreaterThan(0);
    const [workspace] = await ctx.database.db
      .select()
      .from(workspaces)
      .where(eq(workspaces.id, user.workspace_id));
    expect(workspace.owner_user_id).toBe(user.id);
    expect(user.password_hash).toStartWith("$argon2id$");
    expect(user.email_verified_at).toBeNull();
    const mail = lastOutboxMail();
    expect(mail).toContain(`To: ${body.email}`);
    expect(mail).toContain("Verify your e-mail address");
  });

  test("a duplicate e-mail (any case) answers exactly like a new one; the owner is told by mail", async () => {
    const body = buildRegistration();
    const first = await post("/api/register", body);
    const again = await post("/api/register", { ...body, email: body.email.toUpperCase(), name: "Mallory" });
    expect(again.status).toBe(first.status);
    expect(await again.json()).toEqual(await first.json());
    const mail = await waitForOutboxMail(body.email, "Someone tried to register with your e-mail address");
    expect(mail).toContain("already has one");
    // Nothing changed: still one account, with the first registration's name and password.
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, body.email));
    expect(user.name).toBe(body.name);
    expect((await post("/api/login", { email: body.email, password: body.password })).status).toBe(200);
  });

  test("each missing or invalid field gets the spec's message", async () => {
    const res = await post("/api/register", { email: "not-an-email", password: "short" });
    expect(res.status).toBe(422);
    const { errors } = (await res.json()) as { errors: Record<string, string[]> };
    expect(errors.title).toEqual(["Please input your Title!"]);
    expect(errors.name).toEqual(["Please input your Name!"]);
    expect(errors.surname).toEqual(["Please input your Last Name!"]);
    expect(errors.email).toEqual(["The input is not valid E-mail address!"]);
    expect(errors.password).toEqual(["The password must be at least 8 characters."]);
    const empty = await post("/api/register", { ...buildRegistration(), email: "", password: "" });
    const emptyErrors = ((await empty.json()) as { errors: Record<string, string[]> }).errors;
    expect(emptyErrors.email).toEqual(["Please input your E-mail address!"]);
    expect(emptyErrors.password[0]).toBe("Please input your Password!");
  });

  test("a title outside Mr./Mrs./Ms. and an over-long password are refused", async () => {
    const res = await post("/api/register", buildRegistration({ title: "Dr.", password: "x".repeat(257) }));
    const { errors } = (await res.json()) as { errors: Record<string, string[]> };
    expect(res.status).toBe(422);
    expect(errors.title).toEqual(["Please input your Title!"]);
    expect(errors.password).toEqual(["The password must be at most 256 characters."]);
  });

  test("a body that is not JSON is a 4xx, not a 500", async () => {
    const res = await ctx.app.request("/api/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe("POST /api/login and sessions", () => {
  test("answers {user, token}, sets an HttpOnly SameSite=Lax cookie, and never leaks the hash", async () => {
    const reg = buildRegistration();
    await post("/api/register", reg);
    const res = await post("/api/login", { email: reg.email, password: reg.password, rememberMe: true });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user: Record<string, unknown>; token: string };
    expect(body.token).toMatch(/^[a-z2-7]{32}$/);
    expect(body.user.email).toBe(reg.email);
    const text = JSON.stringify(body.user);
    expect(text).not.toContain("argon2");
    expect(body.user).not.toHaveProperty("password_hash");
    expect(body.user).not.toHaveProperty("password");
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toContain(`twsession=${body.token}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect(cookie).toContain(`Max-Age=${43200 * 60}`);
    expect(cookie).not.toContain("Secure");
    // Only the SHA-256 of the token is stored.
    const stored = await ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdFromToken(body.token)));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(body.token);
  });

  test("without rememberMe the cookie is a session cookie", async () => {
    const reg = buildRegistration();
    await post("/api/register", reg);
    const res = await post("/api/login", { email: reg.email, password: reg.password, rememberMe: false });
    expect(sessionCookieOf(res)).not.toContain("Max-Age");
  });

  test("a login that leaves rememberMe out also gets a session cookie, not a persistent one", async () => {
    const reg = buildRegistration();
    await post("/api/register", reg);
    const res = await post("/api/login", { email: reg.email, password: reg.password });
    expect(res.status).toBe(200);
    const cookie = sessionCookieOf(res);
    expect(cookie).toStartWith("twsession=");
    expect(cookie).not.toContain("Max-Age");
    expect(cookie).not.toContain("Expires");
    const { token } = (await res.json()) as { token: string };
    const [row] = await ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdFromToken(token)));
    expect(row.remember_me).toBe(false);
  });

  test("the cookie is Secure when APP_URL is https, for login and for logout", async () => {
    const secure = await createTestContext({ APP_URL: "https://trade.example.com" });
    try {
      const reg = buildRegistration();
      await secure.app.request("/api/register", json(reg));
      const login = await secure.app.request(
        "/api/login",
        json({ email: reg.email, password: reg.password, rememberMe: true }),
      );
      expect(login.status).toBe(200);
      const cookie = sessionCookieOf(login);
      expect(cookie).toContain("; Secure");
      expect(cookie).toContain("HttpOnly");
      const out = await secure.app.request("/api/logout", {
        method: "POST",
        headers: { cookie: cookie.split(";")[0], origin: "https://trade.example.com" },
      });
      expect(out.status).toBe(200);
      expect(out.headers.get("set-cookie")).toContain("; Secure");
    } finally {
      secure.database.close();
    }
  });

  test("wrong password and unknown e-mail both answer 401 'Login failed'", async () => {
    const reg = buildRegistration();
    await post("/api/register", reg);
    const wrong = await post("/api/login", { email: reg.email, password: "wrong password!" });
    const unknown = await post("/api/login", { email: "nobody@example.com", password: "whatever123" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: "Login failed" });
    expect(await unknown.json()).toEqual({ message: "Login failed" });
  });

  test("login validation uses the spec's messages", async () => {
    const res = await post("/api/login", { email: "", password: "" });
    expect(res.status).toBe(422);
    const { errors } = (await res.json()) as { errors: Record<string, string[]> };
    expect(errors.email).toEqual(["Please input your E-mail address!"]);
    expect(errors.password).toEqual(["Please input your Password!"]);
  });

  test("the token works as a Bearer token and as the cookie", async () => {
    const who = await signUp(ctx);
    const viaBearer = await ctx.app.request("/api/user", { headers: who.auth });
    const viaCookie = await ctx.app.request("/api/user", { headers: { cookie: who.cookie } });
    expect(viaBearer.status).toBe(200);
    expect(viaCookie.status).toBe(200);
    expect(((await viaBearer.json()) as { user: { email: string } }).user.email).toBe(who.email);
  });

  test("logout deletes the session: the old token answers 401 afterwards", async () => {
    const who = await signUp(ctx);
    const out = await ctx.app.request("/api/logout", { method: "POST", headers: who.auth });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toContain("twsession=;");
    const after = await ctx.app.request("/api/user", { headers: who.auth });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ message: "Authentication failed" });
    // Without any session logout is still a 200.
    expect((await ctx.app.request("/api/logout", { method: "POST" })).status).toBe(200);
  });

  test("logout is a POST: GET /api/logout is a 405 and ends nothing; a cross-site POST is refused", async () => {
    const who = await signUp(ctx);
    const viaGet = await ctx.app.request("/api/logout", {
      headers: { cookie: who.cookie, "sec-fetch-site": "cross-site" },
    });
    expect(viaGet.status).toBe(405);
    expect(viaGet.headers.get("allow")).toBe("POST");
    const crossSite = await ctx.app.request("/api/logout", {
      method: "POST",
      headers: { cookie: who.cookie, "sec-fetch-site": "cross-site", origin: "https://evil.test" },
    });
    expect(crossSite.status).toBe(403);
    expect((await ctx.app.request("/api/user", { headers: { cookie: who.cookie } })).status).toBe(200);
  });

  test("opening /auth/logout directly renders a page that posts; the post ends the session and goes to login", async () => {
    const who = await signUp(ctx);
    const page = await ctx.app.request("/auth/logout", {
      headers: { cookie: who.cookie, "sec-fetch-site": "cross-site" },
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('method="post" action="/auth/logout"');
    expect(page.headers.get("set-cookie")).toBeNull();
    expect((await ctx.app.request("/api/user", { headers: { cookie: who.cookie } })).status).toBe(200);
    const forged = await ctx.app.request("/auth/logout", {
      method: "POST",
      headers: { cookie: who.cookie, "sec-fetch-site": "cross-site" },
    });
    expect(forged.status).toBe(403);
    const res = await ctx.app.request("/auth/logout", {
      method: "POST",
      headers: { cookie: who.cookie, "sec-fetch-site": "same-origin" },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/auth/login");
    const cleared = res.headers.get("set-cookie")!;
    expect(cleared).toStartWith("twsession=;");
    expect(cleared).toContain("Max-Age=0");
    expect(cleared).toContain("Path=/");
    expect((await ctx.app.request("/api/user", { headers: { cookie: who.cookie } })).status).toBe(401);
    expect((await ctx.app.request("/api/user", { headers: who.auth })).status).toBe(401);
    // Without a session it still clears the cookie and goes to the login page.
    const anonymous = await ctx.app.request("/auth/logout", {
      method: "POST",
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("set-cookie")).toContain("Max-Age=0");
  });

  test("protected calls answer 401 without a session, with a garbage token, and with an expired one", async () => {
    expect((await ctx.app.request("/api/user")).status).toBe(401);
    expect((await ctx.app.request("/api/user", { headers: { authorization: "Bearer nope" } })).status).toBe(
      401,
    );
    const who = await signUp(ctx);
    await ctx.database.db
      .update(sessions)
      .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
      .where(eq(sessions.id, sessionIdFromToken(who.token)));
    expect((await ctx.app.request("/api/user", { headers: who.auth })).status).toBe(401);
    // The expired session was purged when it was presented.
    const left = await ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdFromToken(who.token)));
    expect(left).toHaveLength(0);
  });

  test("a session used in the second half of its life is extended (sliding expiry)", async () => {
    const who = await signUp(ctx);
    const id = sessionIdFromToken(who.token);
    const soon = Math.floor(Date.now() / 1000) + 60;
    await ctx.database.db.update(sessions).set({ expires_at: soon }).where(eq(sessions.id, id));
    await ctx.app.request("/api/user", { headers: who.auth });
    const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.id, id));
    expect(row.expires_at).toBeGreaterThan(soon + 24 * 60 * 60);
  });

  test("a cookie-authenticated POST from another origin is refused with 403; Bearer is not subject to it", async () => {
    const who = await signUp(ctx);
    const body = { title: "Ms.", name: "Eve", surname: "Attacker" };
    const evil = await post("/api/user", body, { cookie: who.cookie, origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    const noOrigin = await post("/api/user", body, { cookie: who.cookie });
    expect(noOrigin.status).toBe(403);
    const own = await post("/api/user", body, { cookie: who.cookie, origin: ctx.env.appUrl });
    expect(own.status).toBe(200);
    // The origin the request was sent to also counts (app.request uses http://localhost).
    const sameHost = await post("/api/user", body, { cookie: who.cookie, origin: "http://localhost" });
    expect(sameHost.status).toBe(200);
    const viaReferer = await post("/api/user", body, {
      cookie: who.cookie,
      referer: `${ctx.env.appUrl}/user/account`,
    });
    expect(viaReferer.status).toBe(200);
    const evilReferer = await post("/api/user", body, {
      cookie: who.cookie,
      referer: "https://evil.example/x",
    });
    expect(evilReferer.status).toBe(403);
    const bearer = await post("/api/user", body, { ...who.auth, origin: "https://evil.example" });
    expect(bearer.status).toBe(200);
  });
});

describe("password reset", () => {
  test("forgot answers the same 200 whether or not the address exists", async () => {
    const who = await signUp(ctx);
    const known = await post("/api/forgot/password", { email: who.email });
    const unknown = await post("/api/forgot/password", { email: "ghost@example.com" });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await known.json()).toEqual(await unknown.json());
  });

  test("the reset mail goes out after the answer: a slow mail server does not delay a known address", async () => {
    const who = await signUp(ctx);
    const held: TMail[] = [];
    let release = () => {};
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const app = appOver(ctx, {
      mailer: {
        send: async (mail) => {
          held.push(mail);
          await hold;
        },
      },
    });
    // The mailer never finishes until released, yet both addresses are answered.
    const known = await app.request("/api/forgot/password", json({ email: who.email }));
    const unknown = await app.request("/api/forgot/password", json({ email: "ghost@example.com" }));
    expect(known.status).toBe(200);
    expect(await known.json()).toEqual(await unknown.json());
    for (let i = 0; i < 200 && held.length === 0; i++) await Bun.sleep(5);
    expect(held.map((m) => [m.to, m.subject])).toEqual([[who.email, RESET_SUBJECT]]);
    release();
  });

  test("the mailed link resets once, ends every session, and the old password stops working", async () => {
    const who = await signUp(ctx);
    await post("/api/forgot/password", { email: who.email });
    const link = new URL(linkIn(await waitForOutboxMail(who.email, RESET_SUBJECT)));
    expect(link.pathname).toBe(`/auth/reset-password/${who.user.id}`);
    const api = `/api/reset/password/user/${who.user.id}${link.search}`;
    const reset = await post(api, { password: "a brand new secret" });
    expect(reset.status).toBe(200);
    expect(await reset.json()).toEqual({ message: "Password reset successful" });
    expect((await ctx.app.request("/api/user", { headers: who.auth })).status).toBe(401);
    expect((await post("/api/login", { email: who.email, password: who.password })).status).toBe(401);
    expect((await post("/api/login", { email: who.email, password: "a brand new secret" })).status).toBe(200);
    const again = await post(api, { password: "another new secret" });
    expect(again.status).toBe(403);
  });

  test("a tampered or expired signature is a 403", async () => {
    const who = await signUp(ctx);
    await post("/api/forgot/password", { email: who.email });
    const link = new URL(linkIn(await waitForOutboxMail(who.email, RESET_SUBJECT)));
    const expires = link.searchParams.get("expires")!;
    const signature = link.searchParams.get("signature")!;
    const tampered = `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`;
    const base = `/api/reset/password/user/${who.user.id}`;
    expect(
      (await post(`${base}?expires=${expires}&signature=${tampered}`, { password: "whatever123" })).status,
    ).toBe(403);
    // A later expiry with the old signature does not verify either.
    expect(
      (
        await post(`${base}?expires=${Number(expires) + 3600}&signature=${signature}`, {
          password: "whatever123",
        })
      ).status,
    ).toBe(403);
    const past = Math.floor(Date.now() / 1000) - 10;
    expect(
      (await post(`${base}?expires=${past}&signature=${signature}`, { password: "whatever123" })).status,
    ).toBe(403);
    // Another user's id with this signature fails too.
    const other = await signUp(ctx);
    expect(
      (
        await post(`/api/reset/password/user/${other.user.id}?expires=${expires}&signature=${signature}`, {
          password: "whatever123",
        })
      ).status,
    ).toBe(403);
    // The password is still the original.
    expect((await post("/api/login", { email: who.email, password: who.password })).status).toBe(200);
  });

  test("a malformed link (no or overlong signature, non-numeric or missing expiry) is a 403 like a bad one", async () => {
    const who = await signUp(ctx);
    await post("/api/forgot/password", { email: who.email });
    const link = new URL(linkIn(await waitForOutboxMail(who.email, RESET_SUBJECT)));
    const expires = link.searchParams.get("expires")!;
    const signature = link.searchParams.get("signature")!;
    const base = `/api/reset/password/user/${who.user.id}`;
    for (const query of [
      `?expires=${expires}`,
      `?expires=${expires}&signature=`,
      `?expires=${expires}&signature=${signature}${"0".repeat(200)}`,
      `?expires=soon&signature=${signature}`,
      `?expires=${expires}.5&signature=${signature}`,
      `?signature=${signature}`,
      "",
    ]) {
      const res = await post(`${base}${query}`, { password: "whatever123" });
      expect(res.status, query).toBe(403);
      expect(((await res.json()) as { message: string }).message).toContain("invalid or has expired");
    }
    // The genuine link still works afterwards.
    expect((await post(`${base}${link.search}`, { password: "whatever123" })).status).toBe(200);
  });

  test("a too-short new password is a 422 with the spec's wording", async () => {
    const who = await signUp(ctx);
    const res = await post(`/api/reset/password/user/${who.user.id}?expires=1&signature=x`, { password: "" });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: Record<string, string[]> }).errors.password[0]).toBe(
      "Please input your new Password!",
    );
  });
});

describe("e-mail verification", () => {
  test("the link from the registration mail verifies the address and redirects into the app", async () => {
    const reg = buildRegistration();
    await post("/api/register", reg);
    const link = new URL(linkIn(lastOutboxMail()));
    const res = await ctx.app.request(`${link.pathname}${link.search}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/user/account?verified=1");
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, reg.email));
    expect(user.email_verified_at).not.toBeNull();
  });

  test("a tampered link does not verify", async () => {
    const reg = buildRegistration();
    await post("/api/register", reg);
    const link = new URL(linkIn(lastOutboxMail()));
    link.searchParams.set("signature", "0".repeat(64));
    const res = await ctx.app.request(`${link.pathname}${link.search}`);
    expect(res.headers.get("location")).toBe("/user/account?verified=0");
    const [user] = await ctx.database.db.select().from(users).where(eq(users.email, reg.email));
    expect(user.email_verified_at).toBeNull();
  });
});

describe("rate limits", () => {
  test("the 11th login attempt within 15 minutes answers 429 with Retry-After, even with the right password", async () => {
    await awayFromRateWindowEdge();
    const limited = await createTestContext({ AUTH_RATE_LIMIT: "10" });
    const reg = buildRegistration();
    await limited.app.request("/api/register", json(reg));
    for (let i = 0; i < 9; i++) {
      const res = await limited.app.request(
        "/api/login",
        json({ email: reg.email, password: "wrong password" }),
      );
      expect(res.status).toBe(401);
    }
    const tenth = await limited.app.request("/api/login", json({ email: reg.email, password: reg.password }));
    expect(tenth.status).toBe(200);
    const eleventh = await limited.app.request(
      "/api/login",
      json({ email: reg.email, password: reg.password }),
    );
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await eleventh.json()) as { message: string }).message).toContain("Too many attempts");
    // The counters live in the database: a second app over the same file sees them.
    const second = appOver(limited);
    expect(
      (await second.request("/api/login", json({ email: reg.email, password: reg.password }))).status,
    ).toBe(429);
    limited.database.close();
  });

  test("register is limited per (IP, address) and, five times looser, per IP: 429 with Retry-After", async () => {
    await awayFromRateWindowEdge();
    const limited = await createTestContext({ AUTH_RATE_LIMIT: "2", TRUST_PROXY: "1" });
    try {
      const from = (ip: string, body: unknown) =>
        limited.app.request("/api/register", json(body, { "x-forwarded-for": ip }));
      // One IP, different addresses: ten attempts, then over the per-IP limit.
      for (let i = 0; i < 10; i++) expect((await from("10.0.0.1", buildRegistration())).status).toBe(201);
      const perIp = await from("10.0.0.1", buildRegistration());
      expect(perIp.status).toBe(429);
      expect(Number(perIp.headers.get("retry-after"))).toBeGreaterThan(0);
      // One address from one IP: the third attempt is over the limit.
      const reg = buildRegistration();
      expect((await from("10.0.1.1", reg)).status).toBe(201);
      expect((await from("10.0.1.1", reg)).status).toBe(201);
      const perPair = await from("10.0.1.1", reg);
      expect(perPair.status).toBe(429);
      expect(((await perPair.json()) as { message: string }).message).toContain("Too many attempts");
      // Someone else's attempts elsewhere do not use up this address's.
      expect((await from("10.0.1.2", reg)).status).toBe(201);
    } finally {
      limited.database.close();
    }
  });

  test("bad reset links are limited per (IP, user) and per IP, never per user alone", async () => {
    await awayFromRateWindowEdge();
    const limited = await createTestContext({ AUTH_RATE_LIMIT: "2", TRUST_PROXY: "1" });
    try {
      const reset = (ip: string, userId: number) =>
        limited.app.request(
          `/api/reset/password/user/${userId}?expires=1&signature=${"0".repeat(64)}`,
          json({ password: "whatever123" }, { "x-forwarded-for": ip }),
        );
      // One user from one IP: bad links are 403 until the third attempt.
      expect((await reset("10.0.2.1", 501)).status).toBe(403);
      expect((await reset("10.0.2.1", 501)).status).toBe(403);
      const perPair = await reset("10.0.2.1", 501);
      expect(perPair.status).toBe(429);
      expect(Number(perPair.headers.get("retry-after"))).toBeGreaterThan(0);
      // The same user from other IPs: still only 403s, so strangers cannot lock the owner out.
      for (let i = 0; i < 5; i++) expect((await reset(`10.0.4.${i}`, 501)).status).toBe(403);
      // One IP, many users: over the per-IP limit (5 × 2) on the eleventh.
      for (let i = 0; i < 10; i++) expect((await reset("10.0.3.1", 700 + i)).status).toBe(403);
      expect((await reset("10.0.3.1", 799)).status).toBe(429);
    } finally {
      limited.database.close();
    }
  });

  test("forgot password is limited per (IP, address) too", async () => {
    const limited = await createTestContext({ AUTH_RATE_LIMIT: "2" });
    const send = () => limited.app.request("/api/forgot/password", json({ email: "x@example.com" }));
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(429);
    limited.database.close();
  });
});
