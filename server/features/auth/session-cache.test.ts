import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { openDatabase, type TDatabase } from "../../../db/client";
import { sessions } from "../../../db/schema";
import { call, joinAs, json, signUp } from "../../test/factories";
import { appOver, createTestContext, type TTestContext } from "../../test/setup";
import { createSession, SESSION_CACHE_MS } from "./session.service";

// Checked sessions are cached in-process for SESSION_CACHE_MS. Logout and password changes must
// still end a session at once in this process, and within a second in another one on the same file.

let ctx: TTestContext;
let otherDatabase: TDatabase;
let otherApp: ReturnType<typeof appOver>;
beforeAll(async () => {
  ctx = await createTestContext();
  // A second connection and app over the same file stands for another server process: its own cache.
  otherDatabase = await openDatabase(ctx.env.databaseUrl);
  otherApp = appOver({ database: otherDatabase, env: ctx.env });
});
afterAll(() => {
  otherDatabase.close();
  ctx.database.close();
});

const status = async (app: typeof otherApp, auth: Record<string, string>) =>
  (await app.request("/api/user", { headers: auth })).status;

/** Logs out through the API (POST where the branch has it, else the spec's GET). */
async function logout(auth: Record<string, string>) {
  let res = await ctx.app.request("/api/logout", { method: "POST", headers: auth });
  if (res.status === 404 || res.status === 405) res = await ctx.app.request("/api/logout", { headers: auth });
  expect(res.status).toBe(200);
}

describe("the session cache never outlives a logout or a password change", () => {
  test("logout ends the session at once in this process, though it was just cached", async () => {
    const who = await signUp(ctx);
    expect(await status(ctx.app, who.auth)).toBe(200);
    expect(await status(ctx.app, who.auth)).toBe(200);
    await logout(who.auth);
    expect(await status(ctx.app, who.auth)).toBe(401);
  });

  test("a password change ends the user's other cached sessions at once", async () => {
    const who = await signUp(ctx);
    const second = await ctx.app.request("/api/login", json({ email: who.email, password: who.password }));
    const secondAuth = { authorization: `Bearer ${((await second.json()) as { token: string }).token}` };
    expect(await status(ctx.app, secondAuth)).toBe(200);
    const changed = await ctx.app.request(
      "/api/user/changePassword",
      json({ old_password: who.password, password: "another good password" }, who.auth),
    );
    expect(changed.status).toBe(200);
    expect(await status(ctx.app, secondAuth)).toBe(401);
    expect(await status(ctx.app, who.auth)).toBe(200);
  });

  test("a profile change shows at once in /api/user, not the cached user", async () => {
    const who = await signUp(ctx);
    expect(await status(ctx.app, who.auth)).toBe(200);
    const saved = await ctx.app.request(
      "/api/user",
      json({ title: "Ms.", name: "Grace", surname: "Hopper" }, who.auth),
    );
    expect(saved.status).toBe(200);
    const res = await ctx.app.request("/api/user", { headers: who.auth });
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe("Grace");
  });

  test("another process notices a logout and a password change within a second", async () => {
    const who = await signUp(ctx);
    const second = await ctx.app.request("/api/login", json({ email: who.email, password: who.password }));
    const secondAuth = { authorization: `Bearer ${((await second.json()) as { token: string }).token}` };
    // The other process has both sessions cached.
    expect(await status(otherApp, who.auth)).toBe(200);
    expect(await status(otherApp, secondAuth)).toBe(200);
    await logout(who.auth);
    const changed = await ctx.app.request(
      "/api/user/changePassword",
      json({ old_password: who.password, password: "yet another password" }, secondAuth),
    );
    expect(changed.status).toBe(200);
    await Bun.sleep(Math.min(1_000, SESSION_CACHE_MS + 100));
    expect(await status(otherApp, who.auth)).toBe(401);
    // The session that changed the password stays; the other process still accepts it.
    expect(await status(otherApp, secondAuth)).toBe(200);
  });
});

describe("a removed member has no session", () => {
  test("a session created while the removal ran (a sign-in straddling it) is refused and deleted", async () => {
    const admin = await signUp(ctx);
    const member = await joinAs(ctx, admin, ["shipper"]);
    expect((await call(ctx, admin.auth, "DELETE", `/api/workspace/members/${member.user.id}`)).status).toBe(
      200,
    );
    // The sign-in read the user before the removal and inserts its session after it.
    const { token, session } = await createSession(ctx.database.db, member.user.id, true);
    expect(await status(ctx.app, { authorization: `Bearer ${token}` })).toBe(401);
    expect(await status(otherApp, { authorization: `Bearer ${token}` })).toBe(401);
    const left = await ctx.database.db.select().from(sessions).where(eq(sessions.id, session.id));
    expect(left).toEqual([]);
  });
});
