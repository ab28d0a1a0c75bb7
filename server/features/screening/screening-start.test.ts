import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { contacts } from "../../../db/schema";
import { createLogger } from "../../lib/logger";
import { createServices } from "../../services";
import { buildContact, signUp } from "../../test/factories";
import { appOver, createTestContext, type TTestContext } from "../../test/setup";
import type { ScreeningRegistry } from "./lists.service";

// The server listens before the screening index is built. These tests hold the first build back
// (the registry's get() resolves only when the test says so) and check what requests meet meanwhile.

let ctx: TTestContext;
let who: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  ctx = await createTestContext();
  who = await signUp(ctx);
});
afterAll(() => ctx.database.close());

/** An app whose screening index is "still building" until `finish()` is called. */
function appWithSlowIndex(waitMs: number) {
  const services = createServices(ctx.env, createLogger("silent"), ctx.database.db);
  const registry = services.screening.registry;
  const realGet = registry.get.bind(registry);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const building = held.then(realGet);
  (registry as { get: ScreeningRegistry["get"] }).get = () => building;
  registry.limitRequestWait(waitMs);
  const app = appOver(ctx, { screening: services.screening });
  const request = (method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: { ...who.auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { request, finish: release };
}

const contactCount = async () =>
  (
    await ctx.database.db
      .select({ n: count() })
      .from(contacts)
      .where(eq(contacts.workspace_id, who.user.workspace_id))
  )[0].n;

describe("screening while the index is still building", () => {
  test("past the wait limit a screening answers 503 with Retry-After and says why: never a pass", async () => {
    const { request, finish } = appWithSlowIndex(50);
    const res = await request("GET", "/api/screenings/lists");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(((await res.json()) as { message: string }).message).toMatch(/still loading its lists/);
    finish();
  });

  test("a contact save that would screen is refused before anything is written; reads still answer", async () => {
    const { request, finish } = appWithSlowIndex(50);
    const before = await contactCount();
    const created = await request("POST", "/api/contacts", buildContact({ company: "Early Bird Trading" }));
    expect(created.status).toBe(503);
    expect(await contactCount()).toBe(before);
    const upload = await request("POST", "/api/contacts/upload", {});
    expect(upload.status).toBe(503);
    const list = await request("GET", "/api/contacts");
    expect(list.status).toBe(200);
    finish();
  });

  test("within the wait limit the request waits for the index and then screens", async () => {
    const { request, finish } = appWithSlowIndex(10_000);
    const answer = request("POST", "/api/contacts", buildContact({ company: "Rosoboroneksport OAO" }));
    setTimeout(finish, 100);
    const res = await answer;
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { item: { id: number } }).item.id;
    const trade = await request("GET", `/api/screenings/trade?itemId=${id}`);
    expect(((await trade.json()) as { item: { status: string } }).item.status).toBe("failed");
  });
});
