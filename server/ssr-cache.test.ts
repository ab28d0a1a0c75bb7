import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { KeptRender, KeptStore } from "../client/components/app/kept";
import { openDatabase } from "../db/client";
import { shipments } from "../db/schema";
import { diskAssetStore } from "./lib/assets";
import { createLogger } from "./lib/logger";
import { call, signUp } from "./test/factories";
import { appOver, createTestContext, type TTestContext } from "./test/setup";

// Anonymous renders of the public pages are kept and served again with each visitor's own nonce.
// Needs the client build (npm test builds it before this suite).
const CLIENT = path.resolve(import.meta.dir, "..", "dist", "client");
const isBuilt = existsSync(path.join(CLIENT, ".vite", "manifest.json"));

let ctx: TTestContext;
let app: ReturnType<typeof appOver>;
/** The same server with nothing kept: every part of every page rendered by React. */
let fresh: ReturnType<typeof appOver>;
beforeAll(async () => {
  ctx = await createTestContext();
  const { render } = await import("../client/entry-server");
  if (isBuilt) {
    app = appOver(ctx, { assets: diskAssetStore(CLIENT), render });
    fresh = appOver(ctx, {
      assets: diskAssetStore(CLIENT),
      render: (args) => render({ ...args, isKeeping: false }),
    });
  }
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

/** A page with its per-request parts blanked: the CSP nonce and the router's load timestamps. */
const comparable = (html: string) =>
  html.replace(/nonce="[^"]*"|content="[A-Za-z0-9+/=]{20,}"/g, "N").replace(/\bu:\d+/g, "u:0");

describe.if(isBuilt)("kept frame markup (sidebar and header rendered once per set of inputs)", () => {
  test("a signed-in page is byte for byte the page React renders in full, on the first and later requests", async () => {
    const who = await signUp(ctx);
    for (const url of ["/home", "/home?period=month", "/contacts?page=2", "/legal/terms", "/user/account"]) {
      for (const cookie of [who.cookie, `${who.cookie}; tw_sidebar=collapsed`]) {
        const expected = comparable(await (await fresh.request(url, { headers: { cookie } })).text());
        expect(expected).toContain('aria-label="Sidebar"');
        expect(expected).not.toContain("data-tw-keep");
        for (let i = 0; i < 2; i++) {
          const res = await app.request(url, { headers: { cookie } });
          expect(res.status).toBe(200);
          expect(comparable(await res.text())).toBe(expected);
        }
      }
    }
  });

  test("another user, or a renamed one, gets their own name in the header, not a kept one", async () => {
    const ada = await signUp(ctx, { name: "Adaline", surname: "Kept" });
    const bob = await signUp(ctx, { name: "Roberto", surname: "Other" });
    const adaPage = await (await app.request("/home", { headers: { cookie: ada.cookie } })).text();
    expect(adaPage).toContain("Adaline Kept");
    const bobPage = await (await app.request("/home", { headers: { cookie: bob.cookie } })).text();
    expect(bobPage).toContain("Roberto Other");
    expect(bobPage).not.toContain("Adaline");
    const renamed = await call(ctx, ada.auth, "POST", "/api/user", {
      title: "Ms.",
      name: "Adelheid",
      surname: "Kept",
    });
    expect(renamed.status).toBe(200);
    const after = await (await app.request("/home", { headers: { cookie: ada.cookie } })).text();
    expect(after).toContain("Adelheid Kept");
    expect(after).not.toContain("Adaline");
  });

  test("the active link follows the page: a kept sidebar of one page is not reused on another", async () => {
    const who = await signUp(ctx);
    const activeOn = async (url: string) => {
      const html = await (await app.request(url, { headers: { cookie: who.cookie } })).text();
      const aside = html.slice(html.indexOf('aria-label="Sidebar"'), html.indexOf("</aside>"));
      return [
        ...aside.matchAll(
          /<a [^>]*data-status="active"[^>]*href="([^"]+)"|<a [^>]*href="([^"]+)"[^>]*data-status="active"/g,
        ),
      ].map((m) => m[1] ?? m[2]);
    };
    expect(await activeOn("/contacts")).toEqual(["/contacts"]);
    expect(await activeOn("/products")).toEqual(["/products"]);
    expect(await activeOn("/contacts")).toEqual(["/contacts"]);
  });

  test("a page goes out gzipped to a browser that accepts it, the same page as the plain one", async () => {
    const who = await signUp(ctx);
    const plain = await app.request("/home", { headers: { cookie: who.cookie } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    const gz = await app.request("/home", { headers: { cookie: who.cookie, "accept-encoding": "gzip, br" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toContain("Accept-Encoding");
    const body = new Uint8Array(await gz.arrayBuffer());
    const unzipped = gunzipSync(body).toString();
    expect(comparable(unzipped)).toBe(comparable(await plain.text()));
    expect(body.byteLength).toBeLessThan(unzipped.length / 3);
  });
});

describe("kept markup store", () => {
  test("least recently used parts go first once the store is full", () => {
    const store = new KeptStore(2);
    store.set("a", "A");
    store.set("b", "B");
    expect(store.get("a")).toBe("A");
    store.set("c", "C");
    expect([store.get("a"), store.get("b"), store.get("c"), store.size]).toEqual(["A", undefined, "C", 2]);
  });

  test("a render keeps the marked part, splices it into the next render, and leaves no marker", () => {
    const store = new KeptStore();
    const first = new KeptRender(store);
    expect(first.enter("k")).toEqual({ index: 0, isKept: false });
    const html =
      '<p>x</p><template data-tw-keep="0"></template><aside>side</aside><template data-tw-keep-end="0"></template><main>1</main>';
    expect(first.finish(html)).toBe("<p>x</p><aside>side</aside><main>1</main>");
    const second = new KeptRender(store);
    expect(second.enter("k")).toEqual({ index: 0, isKept: true });
    expect(second.finish('<p>y</p><template data-tw-kept="0"></template><main>2</main>')).toBe(
      "<p>y</p><aside>side</aside><main>2</main>",
    );
    const off = new KeptRender(null);
    expect(off.enter("k").isKept).toBe(false);
  });
});

describe.if(isBuilt)("signed-in pages resolve their caller once, and API calls in-process", () => {
  test("the page carries the user exactly as GET /api/user answers, and a logout ends the next page at once", async () => {
    const who = await signUp(ctx, { name: "Seeded", surname: "Caller" });
    const page = await app.request("/home", { headers: { cookie: who.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const { user } = (await (await call(ctx, who.auth, "GET", "/api/user")).json()) as {
      user: Record<string, unknown>;
    };
    for (const [key, value] of Object.entries(user)) {
      // The serializer names arrays as references ($R[n]=[…]).
      const serialized = value === null ? "null" : JSON.stringify(value);
      const ref = Array.isArray(value) ? "\\$R\\[\\d+\\]=" : "";
      expect(html).toMatch(new RegExp(`${key}:${ref}${serialized.replace(/[[\]().*+?^$|{}\\]/g, "\\$&")}`));
    }
    expect((await call(ctx, who.auth, "POST", "/api/logout")).status).toBeLessThan(300);
    const after = await app.request("/home", { headers: { cookie: who.cookie }, redirect: "manual" });
    expect(after.status).toBeGreaterThanOrEqual(300);
    expect(after.status).toBeLessThan(400);
    expect(after.headers.get("location")).toContain("/auth/login");
  });

  test("a page's in-process API calls skip the HTTP-only work: one log line per page", async () => {
    const ada = await signUp(ctx);
    const logged: string[] = [];
    const quiet = appOver(ctx, {
      assets: diskAssetStore(CLIENT),
      render: (await import("../client/entry-server")).render,
      logger: { ...createLogger("silent"), info: (message: string) => logged.push(message) },
    });
    expect((await quiet.request("/home", { headers: { cookie: ada.cookie } })).status).toBe(200);
    // One log line: the page, not each of its API calls.
    expect(logged).toEqual(["GET /home"]);
  });
});

describe.if(isBuilt)("a signed-in /home kept by its data version", () => {
  const insertShipment = (db: TTestContext["database"]["db"], workspaceId: number) =>
    db
      .insert(shipments)
      .values({ workspace_id: workspaceId, shipping_status_id: 3, ship_date: "2025-06-15" });
  const home = async (cookie: string) => {
    const res = await app.request("/home", { headers: { cookie } });
    expect(res.status).toBe(200);
    return { html: await res.text(), nonce: nonceOf(res)! };
  };

  test("the same page again with a fresh nonce while nothing changed; a write in this process shows at once", async () => {
    const who = await signUp(ctx);
    const first = await home(who.cookie);
    const second = await home(who.cookie);
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.html).toContain(`nonce="${second.nonce}"`);
    expect(second.html).not.toContain(first.nonce);
    expect(second.html.split(second.nonce).join("N")).toBe(first.html.split(first.nonce).join("N"));
    expect(second.html).toContain("Once you create shipments");
    await insertShipment(ctx.database.db, who.user.workspace_id);
    const after = await home(who.cookie);
    expect(after.html).not.toContain("Once you create shipments");
    expect(after.html).toContain("Shipping Performance");
  });

  test("a write by another process (its own connection to the database file) shows at once", async () => {
    const who = await signUp(ctx);
    await insertShipment(ctx.database.db, who.user.workspace_id);
    const before = await home(who.cookie);
    expect(before.html).toContain("has_shipments:!0");
    expect(before.html).toMatch(/performance:\$R\[\d+\]=\{filter:"all",from:null,until:null,total:1,/);
    const other = await openDatabase(ctx.env.databaseUrl);
    try {
      await insertShipment(other.db, who.user.workspace_id);
    } finally {
      other.close();
    }
    const after = await home(who.cookie);
    expect(after.html).toMatch(/performance:\$R\[\d+\]=\{filter:"all",from:null,until:null,total:2,/);
  });

  test("each caller, sidebar state and query gets its own page", async () => {
    const ada = await signUp(ctx, { name: "Adalbert", surname: "Versioned" });
    const bob = await signUp(ctx, { name: "Bobbie", surname: "Versioned" });
    expect((await home(ada.cookie)).html).toContain("Adalbert Versioned");
    expect((await home(bob.cookie)).html).toContain("Bobbie Versioned");
    expect((await home(bob.cookie)).html).not.toContain("Adalbert");
    const collapsed = await home(`${ada.cookie}; tw_sidebar=collapsed`);
    expect(collapsed.html).toContain('data-collapsed="true"');
    expect((await home(ada.cookie)).html).toContain('data-collapsed="false"');
    const month = await app.request("/home?period=month", { headers: { cookie: ada.cookie } });
    expect(await month.text()).toMatch(/performance:\$R\[\d+\]=\{filter:"month"/);
  });
});
