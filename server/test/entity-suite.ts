import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call, signUp } from "./factories";
import { createTestContext, type TTestContext } from "./setup";

type TItem = Record<string, unknown> & { id: number };

/**
 * The behaviour every entity gets from the shared kit, checked the same way for each: CRUD with
 * the {item, status} shapes, server-owned fields ignored, 401 without a session, 404 across
 * workspaces, and list membership.
 */
export function describeEntityBasics(options: {
  endpoint: string;
  build: (i: number) => Record<string, unknown>;
  change: Record<string, unknown>;
  listFilter: (item: TItem) => string;
  prepare?: (ctx: TTestContext, who: Awaited<ReturnType<typeof signUp>>) => Promise<void>;
}) {
  const { endpoint } = options;
  describe(`${endpoint}: the shared kit's behaviour`, () => {
    let ctx: TTestContext;
    let owner: Awaited<ReturnType<typeof signUp>>;
    let stranger: Awaited<ReturnType<typeof signUp>>;
    beforeAll(async () => {
      ctx = await createTestContext();
      owner = await signUp(ctx);
      stranger = await signUp(ctx);
      await options.prepare?.(ctx, owner);
    });
    afterAll(() => ctx.database.close());

    test("create → get → edit → update → list → delete", async () => {
      const body = {
        ...options.build(1),
        id: 999,
        workspace_id: 999,
        created_at: "2000-01-01",
        updated_at: "2000-01-01",
      };
      const created = await call(ctx, owner.auth, "POST", `/api${endpoint}`, body);
      expect(created.status).toBe(201);
      const { item, status } = (await created.json()) as { item: TItem; status: unknown };
      expect(status).toEqual({ error: false });
      expect(item.id).not.toBe(999);
      expect(item.created_at).not.toBe("2000-01-01");
      expect(item).not.toHaveProperty("workspace_id");
      expect(item.documents).toEqual([]);
      const got = (await (await call(ctx, owner.auth, "GET", `/api${endpoint}/${item.id}`)).json()) as {
        item: TItem;
      };
      expect(got.item).toEqual(item);
      const edit = (await (await call(ctx, owner.auth, "GET", `/api${endpoint}/${item.id}/edit`)).json()) as {
        item: TItem;
        dictionaries: Record<string, unknown>;
      };
      expect(edit.item.id).toBe(item.id);
      const put = await call(ctx, owner.auth, "PUT", `/api${endpoint}/${item.id}`, {
        ...options.build(1),
        ...options.change,
      });
      expect(put.status).toBe(200);
      const updated = ((await put.json()) as { item: TItem }).item;
      for (const [key, value] of Object.entries(options.change)) expect(updated[key]).toEqual(value);
      const list = (await (
        await call(ctx, owner.auth, "GET", `/api${endpoint}?${options.listFilter(updated)}`)
      ).json()) as {
        data: TItem[];
        total: number;
      };
      expect(list.data.map((d) => d.id)).toContain(item.id);
      const del = await call(ctx, owner.auth, "DELETE", `/api${endpoint}/${item.id}`);
      expect(await del.json()).toEqual({ result: true, messages: ["Operation successful"] });
      expect((await call(ctx, owner.auth, "GET", `/api${endpoint}/${item.id}`)).status).toBe(404);
    });

    test("another workspace gets 404 for every call on the record, and an empty list", async () => {
      const created = await call(ctx, owner.auth, "POST", `/api${endpoint}`, options.build(2));
      const { item } = (await created.json()) as { item: TItem };
      for (const [method, path, body] of [
        ["GET", `/api${endpoint}/${item.id}`, undefined],
        ["GET", `/api${endpoint}/${item.id}/edit`, undefined],
        ["PUT", `/api${endpoint}/${item.id}`, options.build(3)],
        ["DELETE", `/api${endpoint}/${item.id}?force=1`, undefined],
      ] as const) {
        expect((await call(ctx, stranger.auth, method, path, body)).status, `${method} ${path}`).toBe(404);
      }
      const theirs = (await (await call(ctx, stranger.auth, "GET", `/api${endpoint}`)).json()) as {
        total: number;
      };
      expect(theirs.total).toBe(0);
      expect((await call(ctx, owner.auth, "GET", `/api${endpoint}/${item.id}`)).status).toBe(200);
    });

    test("without a session every call is a 401", async () => {
      for (const method of ["GET", "POST"])
        expect((await ctx.app.request(`/api${endpoint}`, { method })).status).toBe(401);
      for (const method of ["GET", "PUT", "DELETE"]) {
        expect((await ctx.app.request(`/api${endpoint}/1`, { method })).status).toBe(401);
      }
    });

    test("an empty body lists what is missing; a non-object body is a 422", async () => {
      const res = await call(ctx, owner.auth, "POST", `/api${endpoint}`, {});
      expect(res.status).toBe(422);
      const body = (await res.json()) as { status: { error: boolean }; errors: Record<string, string[]> };
      expect(body.status.error).toBe(true);
      expect(Object.values(body.errors).flat()).toContain("This field is required.");
      expect((await call(ctx, owner.auth, "POST", `/api${endpoint}`, "text")).status).toBe(422);
    });
  });
}
