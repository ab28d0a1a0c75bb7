import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { documents, products, wikis } from "../../../db/schema";
import { createLogger } from "../../lib/logger";
import { signUp } from "../../test/factories";
import { createTestContext, storageOf, storedBytes, storedNames, type TTestContext } from "../../test/setup";
import {
  attachDocuments,
  deleteOwnerFiles,
  listDocuments,
  storageKeysOf,
  type TDocument,
  type TUploadFailure,
} from "./documents.service";
import { CSV, DOCX, EXE, PDF, PNG } from "./test-files";

type TUser = Awaited<ReturnType<typeof signUp>>;
type TUploadBody = {
  message?: string;
  documents: TDocument[];
  uploaded: TDocument[];
  failed: TUploadFailure[];
};

let ctx: TTestContext;
let owner: TUser;
let stranger: TUser;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx);
  stranger = await signUp(ctx);
});
afterAll(() => ctx.database.close());

const storedFiles = (context: TTestContext) => storedNames(context, "documents");
const isStored = async (context: TTestContext, key: string) => (await storedBytes(context, key)) !== null;
const keyOf = async (context: TTestContext, id: number) =>
  (await context.database.db.select().from(documents).where(eq(documents.id, id)))[0].storage_key;

let productCounter = 0;
async function createProduct(context: TTestContext, who: TUser) {
  productCounter += 1;
  const [row] = await context.database.db
    .insert(products)
    .values({
      workspace_id: who.user.workspace_id,
      name: `Valve ${productCounter}`,
      description: "Ball valve",
      product_number: `V-${productCounter}`,
      country_of_origin_id: 1,
      US_ECCN: "EAR99",
      HTS: "8481.80",
      unit_value: "12.50",
    })
    .returning();
  return row.id;
}

const file = (bytes: Uint8Array, name: string, type = "application/octet-stream") =>
  new File([new Uint8Array(bytes)], name, { type });

function upload(
  context: TTestContext,
  who: TUser,
  id: number | string,
  files: File[],
  { field = "documents[]", base = "/api/products/documents" } = {},
) {
  const form = new FormData();
  form.append("id", String(id));
  for (const f of files) form.append(field, f);
  return context.app.request(base, { method: "POST", body: form, headers: who.auth });
}

describe("upload", () => {
  test("several files at once: each detected by content, stored under a generated key", async () => {
    const productId = await createProduct(ctx, owner);
    const before = (await storedFiles(ctx)).length;
    const res = await upload(ctx, owner, productId, [
      file(PDF, "Commercial invoice.pdf", "application/pdf"),
      file(PNG, "label.png", "image/png"),
      file(CSV, "packing list.csv", "text/csv"),
      file(DOCX, "letter.docx"),
    ]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as TUploadBody;
    expect(body.failed).toEqual([]);
    expect(body.uploaded.map((d) => [d.original_name, d.extension, d.content_type, d.size])).toEqual([
      ["Commercial invoice.pdf", "pdf", "application/pdf", PDF.length],
      ["label.png", "png", "image/png", PNG.length],
      ["packing list.csv", "csv", "text/csv", CSV.length],
      [
        "letter.docx",
        "docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        DOCX.length,
      ],
    ]);
    expect(body.documents).toEqual(body.uploaded);
    const first = body.uploaded[0];
    expect(first.path).toBe(`/api/products/documents/${first.id}`);
    expect(first.url).toBe(first.path);
    expect(first.document_type).toBeNull();
    expect(typeof first.created_at).toBe("string");
    expect(first).not.toHaveProperty("storage_key");
    expect((await storedFiles(ctx)).length).toBe(before + 4);
    const key = await keyOf(ctx, first.id);
    expect(key).toMatch(/^documents\/[0-9a-f]{32}$/);
    expect(await storedBytes(ctx, key)).toEqual(PDF);

    // A second upload (field name without brackets) answers with all of the owner's documents.
    const more = await upload(ctx, owner, productId, [file(PDF, "second.pdf")], { field: "documents" });
    const moreBody = (await more.json()) as TUploadBody;
    expect(moreBody.uploaded.map((d) => d.original_name)).toEqual(["second.pdf"]);
    expect(moreBody.documents.map((d) => d.original_name)).toEqual([
      "Commercial invoice.pdf",
      "label.png",
      "packing list.csv",
      "letter.docx",
      "second.pdf",
    ]);
  });

  test("a disguised executable fails on its own; when every file fails the answer is 422", async () => {
    const productId = await createProduct(ctx, owner);
    const before = await storedFiles(ctx);
    const mixed = await upload(ctx, owner, productId, [
      file(EXE, "x.pdf", "application/pdf"),
      file(PDF, "ok.pdf"),
    ]);
    expect(mixed.status).toBe(200);
    const mixedBody = (await mixed.json()) as TUploadBody;
    expect(mixedBody.uploaded.map((d) => d.original_name)).toEqual(["ok.pdf"]);
    expect(mixedBody.failed).toEqual([
      {
        name: "x.pdf",
        message: "x.pdf file upload failed.",
        reason: expect.any(String),
        code: "type_not_allowed",
      },
    ]);

    const only = await upload(ctx, owner, productId, [file(EXE, "x.pdf", "application/pdf")]);
    expect(only.status).toBe(422);
    const onlyBody = (await only.json()) as TUploadBody;
    expect(onlyBody.message).toBe("x.pdf file upload failed.");
    expect(onlyBody.uploaded).toEqual([]);
    expect(onlyBody.documents.map((d) => d.original_name)).toEqual(["ok.pdf"]);
    expect((await storedFiles(ctx)).length).toBe(before.length + 1);
  });

  test("path-traversal names are display text only; the file lands under a generated name", async () => {
    const productId = await createProduct(ctx, owner);
    const before = new Set(await storedFiles(ctx));
    const res = await upload(ctx, owner, productId, [
      file(CSV, "../../etc/passwd"),
      file(PDF, "..\\..\\Windows\\evil.pdf"),
    ]);
    expect(res.status).toBe(200);
    const { uploaded } = (await res.json()) as TUploadBody;
    expect(uploaded.map((d) => [d.original_name, d.extension])).toEqual([
      ["passwd", "txt"],
      ["evil.pdf", "pdf"],
    ]);
    for (const doc of uploaded) {
      const key = await keyOf(ctx, doc.id);
      expect(key).not.toContain("passwd");
      expect(key).not.toContain("evil");
      expect(await isStored(ctx, key)).toBe(true);
    }
    const added = (await storedFiles(ctx)).filter((name) => !before.has(name));
    expect(added).toHaveLength(2);
    for (const name of added) expect(name).toMatch(/^[0-9a-f]{32}$/);
    expect(existsSync(path.join(ctx.dataDir, "etc"))).toBe(false);
  });

  test("the owner id must be given and be one of the caller's records", async () => {
    const theirs = await createProduct(ctx, stranger);
    const before = (await storedFiles(ctx)).length;
    expect((await upload(ctx, owner, theirs, [file(PDF, "a.pdf")])).status).toBe(404);
    expect((await upload(ctx, owner, 99_999_999, [file(PDF, "a.pdf")])).status).toBe(404);
    const missing = await upload(ctx, owner, "", [file(PDF, "a.pdf")]);
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { errors: Record<string, string[]> }).errors.id).toBeDefined();
    const mine = await createProduct(ctx, owner);
    const none = await upload(ctx, owner, mine, []);
    expect(none.status).toBe(422);
    expect((await storedFiles(ctx)).length).toBe(before);
    const anonymous = await ctx.app.request("/api/products/documents", {
      method: "POST",
      body: new FormData(),
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("size limits (UPLOAD_MAX_MB=1)", () => {
  let small: TTestContext;
  let user: TUser;
  beforeAll(async () => {
    small = await createTestContext({ UPLOAD_MAX_MB: "1" });
    user = await signUp(small);
  });
  afterAll(() => small.database.close());

  const big = (name: string) => file(new Uint8Array(1024 * 1024 + 1).fill(0x41), name);

  test("a single file over the limit answers 413; next to a good file it only fails itself", async () => {
    const productId = await createProduct(small, user);
    const alone = await upload(small, user, productId, [big("huge.txt")]);
    expect(alone.status).toBe(413);
    const aloneBody = (await alone.json()) as TUploadBody;
    expect(aloneBody.message).toBe("huge.txt file upload failed.");
    expect(aloneBody.failed[0]).toMatchObject({ code: "too_large", reason: expect.stringContaining("1 MB") });

    const mixed = await upload(small, user, productId, [big("huge.txt"), file(PDF, "fine.pdf")]);
    expect(mixed.status).toBe(200);
    const mixedBody = (await mixed.json()) as TUploadBody;
    expect(mixedBody.uploaded.map((d) => d.original_name)).toEqual(["fine.pdf"]);
    expect(mixedBody.failed.map((f) => f.message)).toEqual(["huge.txt file upload failed."]);
    expect(await storedFiles(small)).toHaveLength(1);
  });

  test("a request body over ten files' worth is cut off with 413", async () => {
    const productId = await createProduct(small, user);
    const files = Array.from({ length: 11 }, (_, i) => big(`part-${i}.txt`));
    const res = await upload(small, user, productId, files);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toContain("too large");
  });
});

describe("download and delete", () => {
  test("download: attachment with the stored type, safe names, nosniff, no caching, same bytes", async () => {
    const productId = await createProduct(ctx, owner);
    const res = await upload(ctx, owner, productId, [
      file(PDF, "Rechnung März ✓ (1).pdf"),
      file(CSV, "page.html"),
    ]);
    const [pdf, html] = ((await res.json()) as TUploadBody).uploaded;
    const got = await ctx.app.request(pdf.url, { headers: owner.auth });
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("application/pdf");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.headers.get("cache-control")).toBe("private, no-store");
    expect(got.headers.get("content-disposition")).toBe(
      `attachment; filename="Rechnung M_rz _ (1).pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz%20%E2%9C%93%20%281%29.pdf`,
    );
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(PDF);

    const text = await ctx.app.request(html.url, { headers: owner.auth });
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(text.headers.get("content-disposition")).toContain('filename="page.html.txt"');
    expect(await text.text()).toBe(new TextDecoder().decode(CSV));
  });

  test("another workspace gets 404 on download and delete; the file stays", async () => {
    const productId = await createProduct(ctx, owner);
    const [doc] = ((await (await upload(ctx, owner, productId, [file(PNG, "a.png")])).json()) as TUploadBody)
      .uploaded;
    expect((await ctx.app.request(doc.url, { headers: stranger.auth })).status).toBe(404);
    expect((await ctx.app.request(doc.url, { method: "DELETE", headers: stranger.auth })).status).toBe(404);
    // A product's document is not reachable through another owner kind's routes either.
    expect((await ctx.app.request(`/api/wikis/documents/${doc.id}`, { headers: owner.auth })).status).toBe(
      404,
    );
    expect((await ctx.app.request(doc.url)).status).toBe(401);
    expect((await ctx.app.request("/api/products/documents/abc", { headers: owner.auth })).status).toBe(404);
    expect(await isStored(ctx, await keyOf(ctx, doc.id))).toBe(true);
  });

  test("delete answers {result, messages} and removes the row and the file", async () => {
    const productId = await createProduct(ctx, owner);
    const [doc] = (
      (await (await upload(ctx, owner, productId, [file(PDF, "gone.pdf")])).json()) as TUploadBody
    ).uploaded;
    const stored = await keyOf(ctx, doc.id);
    expect(await isStored(ctx, stored)).toBe(true);
    const res = await ctx.app.request(doc.url, { method: "DELETE", headers: owner.auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: true, messages: ["Operation successful"] });
    expect(await isStored(ctx, stored)).toBe(false);
    expect((await ctx.app.request(doc.url, { headers: owner.auth })).status).toBe(404);
    expect((await ctx.app.request(doc.url, { method: "DELETE", headers: owner.auth })).status).toBe(404);
  });

  test("wiki entries use the same module under /api/wikis/documents", async () => {
    const [wiki] = await ctx.database.db
      .insert(wikis)
      .values({ workspace_id: owner.user.workspace_id, name: "Incoterms", description: "Notes" })
      .returning();
    const res = await upload(ctx, owner, wiki.id, [file(PDF, "incoterms.pdf")], {
      base: "/api/wikis/documents",
    });
    expect(res.status).toBe(200);
    const [doc] = ((await res.json()) as TUploadBody).uploaded;
    expect(doc.url).toBe(`/api/wikis/documents/${doc.id}`);
    expect((await ctx.app.request(doc.url, { headers: owner.auth })).status).toBe(200);
    expect((await ctx.app.request(`/api/products/documents/${doc.id}`, { headers: owner.auth })).status).toBe(
      404,
    );
  });
});

describe("service", () => {
  const depsOf = (context: TTestContext) => ({
    db: context.database.db,
    storage: storageOf(context),
    env: context.env,
    logger: createLogger("silent"),
  });

  test("a failed insert (owner gone: foreign key) leaves no orphan file", async () => {
    const before = await storedFiles(ctx);
    const result = await attachDocuments(
      depsOf(ctx),
      { ownerColumn: "product_id", ownerId: 99_999_999, workspaceId: owner.user.workspace_id },
      [file(PDF, "orphan.pdf"), file(PNG, "orphan.png")],
    );
    expect(result.documents).toEqual([]);
    expect(result.failed.map((f) => [f.message, f.code])).toEqual([
      ["orphan.pdf file upload failed.", "save_failed"],
      ["orphan.png file upload failed.", "save_failed"],
    ]);
    expect(await storedFiles(ctx)).toEqual(before);
  });

  test("a storage failure records no row", async () => {
    const productId = await createProduct(ctx, owner);
    const broken = {
      ...depsOf(ctx),
      storage: {
        put: async () => {
          throw new Error("disk full");
        },
        get: async () => null,
        delete: async () => {},
      },
    };
    const result = await attachDocuments(
      broken,
      { ownerColumn: "product_id", ownerId: productId, workspaceId: owner.user.workspace_id },
      [file(PDF, "a.pdf")],
    );
    expect(result.failed[0].code).toBe("storage_failed");
    expect(await ctx.database.db.select().from(documents).where(eq(documents.product_id, productId))).toEqual(
      [],
    );
  });

  test("listDocuments groups by owner; storageKeysOf + deleteOwnerFiles clean up after an owner delete", async () => {
    const deps = depsOf(ctx);
    const [a, b, empty] = [
      await createProduct(ctx, owner),
      await createProduct(ctx, owner),
      await createProduct(ctx, owner),
    ];
    const ws = owner.user.workspace_id;
    await attachDocuments(deps, { ownerColumn: "product_id", ownerId: a, workspaceId: ws }, [
      file(PDF, "a1.pdf"),
      file(PNG, "a2.png"),
    ]);
    await attachDocuments(deps, { ownerColumn: "product_id", ownerId: b, workspaceId: ws }, [
      file(CSV, "b1.csv"),
    ]);
    const byOwner = await listDocuments(ctx.database.db, "product_id", [a, b, empty]);
    expect([...byOwner.keys()]).toEqual([a, b, empty]);
    expect(byOwner.get(a)?.map((d) => d.original_name)).toEqual(["a1.pdf", "a2.png"]);
    expect(byOwner.get(b)?.map((d) => d.original_name)).toEqual(["b1.csv"]);
    expect(byOwner.get(empty)).toEqual([]);
    expect((await listDocuments(ctx.database.db, "product_id", [])).size).toBe(0);

    const keys = await storageKeysOf(ctx.database.db, "product_id", a);
    expect(keys).toHaveLength(2);
    await ctx.database.db.delete(products).where(eq(products.id, a));
    expect(await ctx.database.db.select().from(documents).where(eq(documents.product_id, a))).toEqual([]);
    for (const key of keys) expect(await isStored(ctx, key)).toBe(true);
    await deleteOwnerFiles(deps, keys);
    for (const key of keys) expect(await isStored(ctx, key)).toBe(false);
  });
});
