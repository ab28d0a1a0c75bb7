import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import path from "node:path";
import { diskAssetStore } from "./lib/assets";
import { signUp } from "./test/factories";
import { appOver, createTestContext, type TTestContext } from "./test/setup";

// Anonymous renders of the public pages are kept and served again with each visitor's own nonce.
// Needs the client build (npm test builds it before this suite).
const CLIENT = path.resolve(import.meta.dir, "..", "dist", "client");
const isBuilt = existsSync(path.join(CLIENT, ".vite", "manifest.json"));

let ctx: TTestContext;
let app: ReturnType<typeof appOver>;
beforeAll(async () => {
  ctx = await createTestContext();
  const { render } = await import("../client/entry-server");
  if (isBuilt) app = appOver(ctx, { assets: diskAssetStore(CLIENT), render });
});
afterAll(() => ctx.database.close());

const nonceOf = (res: Response) =>
  /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];

describe.if(isBuilt)("server-rendered public pages for visitors without a session", () => {
  test("every visitor gets the same page with their own nonce, in the CSP and on every tag", async () => {
    const first = await app.request("/auth/login");
    const second = await app.request("/auth/login");
    const [a, b] = [await first.text(), await second.text()];
    expect([first.status, second.status]).toEqual([200, 200]);
    const [nonceA, nonceB] = [nonceOf(first)!, nonceOf(second)!];
    expect(nonceA).toBeTruthy();
    expect(nonceA).not.toBe(nonceB);
    expect(b).toContain(`nonce="${nonceB}"`);
    expect(b).not.toContain(nonceA);
    expect(b.split(nonceB).join("N")).toBe(a.split(nonceA).join("N"));
    expect(b).toContain("Log in");
    expect(second.headers.get("cache-control")).toBe("no-store");
  });

  test("a signed-in visitor is not served the kept page: the login page sends them on", async () => {
    await (await app.request("/auth/login")).text();
    const who = await signUp(ctx);
    const res = await app.request("/auth/login", { headers: { cookie: who.cookie }, redirect: "manual" });
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(res.status).toBeLessThan(400);
    expect(res.headers.get("location")).not.toContain("/auth/login");
  });

  test("a visitor with the sidebar collapsed gets it collapsed, and the kept page stays expanded", async () => {
    const collapsedAttr =
      /aria-label="Sidebar"[^>]*data-collapsed="true"|data-collapsed="true"[^>]*aria-label="Sidebar"/;
    await (await app.request("/legal/terms")).text();
    const collapsed = await app.request("/legal/terms", { headers: { cookie: "tw_sidebar=collapsed" } });
    expect(await collapsed.text()).toMatch(collapsedAttr);
    const plain = await app.request("/legal/terms");
    expect(await plain.text()).not.toMatch(collapsedAttr);
  });

  test("an unknown legal page stays a 404 and is not kept", async () => {
    for (let i = 0; i < 2; i++) expect((await app.request("/legal/no-such-page")).status).toBe(404);
  });
});
