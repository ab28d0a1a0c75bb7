import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestContext, type TTestContext } from "./test/setup";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

describe("the /api surface", () => {
  test("an unknown /api path answers 404 JSON", async () => {
    for (const path of ["/api/nope", "/api", "/api/health/extra"]) {
      const res = await ctx.app.request(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(await res.json()).toEqual({ message: "Not found" });
    }
  });

  test("a POST to an unknown /api path is a 404 too, not an HTML page", async () => {
    const res = await ctx.app.request("/api/whatever", { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "Not found" });
  });

  test("a typed application error maps to its status with message and field errors", async () => {
    const res = await ctx.app.request("/api/dictionary?dropdown_values[]=planets");
    expect(res.status).toBe(422);
    const body = (await res.json()) as { message: string; errors: Record<string, string[]> };
    expect(body.message).toContain('Unknown dictionary "planets"');
    expect(body.errors.dropdown_values[0]).toContain("countries");
  });

  test("an unexpected exception answers 500 'Internal error' with a request id and no stack", async () => {
    const broken = await createTestContext();
    broken.database.close();
    const res = await broken.app.request("/api/dictionary?dropdown_values[]=countries");
    expect(res.status).toBe(500);
    const text = await res.text();
    const body = JSON.parse(text) as { message: string; request_id: string };
    expect(body.message).toBe("Internal error");
    expect(body.request_id).toBe(res.headers.get("x-request-id")!);
    expect(text).not.toMatch(/at .*\.ts|stack|Error:/);
  });
});

describe("the service worker", () => {
  test("/sw.js is a script revalidated on every visit, keeping pages and assets but never /api", async () => {
    const res = await ctx.app.request("/sw.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/javascript");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const source = await res.text();
    // Parses as a script.
    expect(() => new Function(source)).not.toThrow();
    expect(source).toContain('url.pathname.startsWith("/api/")');
    expect(source).toContain('url.pathname.startsWith("/assets/")');
  });
});
