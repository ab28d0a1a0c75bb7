import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { describeEntityBasics } from "../../test/entity-suite";
import { call, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";

describeEntityBasics({
  endpoint: "/wikis",
  build: (i) => ({ name: `Export manual ${i}`, description: "How we classify and ship" }),
  change: { description: "Updated procedures" },
  listFilter: (w) => `filters[name]=${w.name}`,
});

describeEntityBasics({
  endpoint: "/shipping-documents",
  build: (i) => ({
    name: `Certificate template ${i}`,
    description: "Chamber of commerce form",
    document_type: "certificate of origin",
  }),
  change: { document_type: "certification" },
  listFilter: (f) => `filters[name]=${f.name}`,
});

let ctx: TTestContext;
let who: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  ctx = await createTestContext();
  who = await signUp(ctx);
});
afterAll(() => ctx.database.close());

describe("wiki and shipping form rules", () => {
  test("a wiki file needs a name and a description", async () => {
    const res = await call(ctx, who.auth, "POST", "/api/wikis", { name: " " });
    const { errors } = (await res.json()) as { errors: Record<string, string[]> };
    expect(errors).toEqual({ name: ["This field is required."], description: ["This field is required."] });
  });

  test("a shipping form's type is stored lowercased and defaults to 'other'; unknown types are refused", async () => {
    const typed = await call(ctx, who.auth, "POST", "/api/shipping-documents", {
      name: "COO",
      document_type: "Certificate Of Origin",
    });
    expect(((await typed.json()) as { item: { document_type: string } }).item.document_type).toBe(
      "certificate of origin",
    );
    const plain = await call(ctx, who.auth, "POST", "/api/shipping-documents", { name: "Misc" });
    expect(((await plain.json()) as { item: { document_type: string } }).item.document_type).toBe("other");
    const bad = await call(ctx, who.auth, "POST", "/api/shipping-documents", {
      name: "X",
      document_type: "commercial invoice",
    });
    expect(bad.status).toBe(422);
  });

  test("shipping forms list newest first with their creation time", async () => {
    const mine = await signUp(ctx);
    for (const name of ["First", "Second"])
      await call(ctx, mine.auth, "POST", "/api/shipping-documents", { name });
    const { data } = (await (await call(ctx, mine.auth, "GET", "/api/shipping-documents")).json()) as {
      data: { name: string; created_at: string }[];
    };
    expect(data.map((f) => f.name)).toEqual(["Second", "First"]);
    expect(data[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});
