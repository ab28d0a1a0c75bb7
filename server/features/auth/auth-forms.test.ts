import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildRegistration, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { safeNextPath } from "./auth.forms";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

const ORIGIN = "http://localhost";
const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  ctx.app.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, ...headers },
    body: new URLSearchParams(fields).toString(),
  });

describe("the login form without JavaScript", () => {
  test("right credentials: a session cookie and a 303 to next, never a password in the URL", async () => {
    const user = await signUp(ctx);
    const res = await post("/auth/login?next=%2Fcontacts%3Fpage%3D2", {
      email: user.email,
      password: user.password,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/contacts?page=2");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^twsession=[^;]+/);
    // No remember-me box reaches the server without JavaScript: the spec's default (on) applies.
    expect(cookie).toContain("Max-Age=");
    const me = await ctx.app.request("/api/user", { headers: { cookie: cookie.split(";")[0] } });
    expect(me.status).toBe(200);
  });

  test("wrong password: back to the form with the API's message and no cookie", async () => {
    const user = await signUp(ctx);
    const res = await post("/auth/login", { email: user.email, password: "not-the-password-1" });
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    expect(location.startsWith("/auth/login?")).toBe(true);
    expect(new URLSearchParams(location.split("?")[1]).get("error")).toBe("Login failed");
    expect(location).not.toContain("not-the-password");
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  test("an empty form gets the field messages; an unsafe next is dropped", async () => {
    const res = await post("/auth/login?next=%2F%2Fevil.test", { email: "", password: "" });
    const location = res.headers.get("location") ?? "";
    const params = new URLSearchParams(location.split("?")[1]);
    expect(params.get("error")).toContain("Please input your E-mail address!");
    expect(params.get("error")).toContain("Please input your Password!");
    expect(params.get("next")).toBeNull();
  });

  test("a cross-site post is refused and signs nobody in", async () => {
    const user = await signUp(ctx);
    const res = await post(
      "/auth/login",
      { email: user.email, password: user.password },
      { origin: "https://evil.test" },
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("location")).toContain("error=Cross-origin");
  });

  test("a JSON body is not a form", async () => {
    const res = await ctx.app.request("/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN },
      body: "{}",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toContain("error=");
  });
});

describe("the register form without JavaScript", () => {
  test("registers, shows the success screen, and the account can log in", async () => {
    const registration = buildRegistration();
    const res = await post("/auth/register", {
      title: registration.title as string,
      name: registration.name as string,
      surname: registration.surname as string,
      email: registration.email as string,
      password: registration.password as string,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/auth/register?registered=1");
    const login = await post("/auth/login", {
      email: registration.email as string,
      password: registration.password as string,
    });
    expect(login.headers.get("set-cookie")).toMatch(/^twsession=/);
  });

  test("missing fields come back as messages, nothing registered", async () => {
    const res = await post("/auth/register", {
      title: "Mr.",
      name: "",
      surname: "",
      email: "x",
      password: "",
    });
    const error = new URLSearchParams((res.headers.get("location") ?? "").split("?")[1]).get("error") ?? "";
    expect(error).toContain("Please input your Name!");
    expect(error).toContain("Please input your Last Name!");
  });
});

describe("safeNextPath", () => {
  test("keeps same-site paths and drops everything that could leave the site", () => {
    expect(safeNextPath("/contacts?page=2")).toBe("/contacts?page=2");
    for (const bad of ["//evil.test", "/\\evil.test", "https://evil.test", "/\t/evil.test", "/%0a", "x"]) {
      expect(safeNextPath(bad === "/%0a" ? "/\n/evil" : bad)).toBeUndefined();
    }
  });
});
