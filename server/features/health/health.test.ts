import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import pkg from "../../../package.json";
import { createTestContext, type TTestContext } from "../../test/setup";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

describe("GET /api/health", () => {
  test("answers ok with the version after querying the database", async () => {
    const res = await ctx.app.request("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      version: pkg.version,
      db: "ok",
      storage: "ok",
      screening_index: "idle",
    });
  });

  test("answers 503 when the database is gone", async () => {
    const broken = await createTestContext();
    broken.database.close();
    const res = await broken.app.request("/api/health");
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: "error", db: "error" });
  });

  test("carries the security headers", async () => {
    const res = await ctx.app.request("/api/health");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain("'unsafe-inline' 'nonce");
    expect(csp.split(";").find((d) => d.trim().startsWith("script-src"))).not.toContain("unsafe-inline");
  });
});
