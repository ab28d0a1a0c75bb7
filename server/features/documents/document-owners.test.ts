import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { documents } from "../../../db/schema";
import type { TEntityDefinition } from "../../lib/entity/entity";
import { deleteRecord } from "../../lib/entity/entity.service";
import { newStorageKey } from "../../lib/storage";
import { buildContact, buildLicense, buildProduct, call, signUp } from "../../test/factories";
import { createTestContext, storedBytes, type TTestContext } from "../../test/setup";
import { productsEntity } from "../products/products.entity";
import { DOCUMENT_OWNERS, type TDocument, type TOwnerColumn } from "./documents.service";
import { PDF, PNG } from "./test-files";

type TUser = Awaited<ReturnType<typeof signUp>>;
type TUploadBody = { documents: TDocument[]; uploaded: TDocument[] };

/**
 * The four record kinds that own documents (spec section 7, Documents), each checked the same way:
 * upload, download headers, another workspace's 404s, and the files going with the record.
 */
const OWNERS: {
  name: string;
  endpoint: string;
  ownerColumn: TOwnerColumn;
  build: (i: number, contactId: number) => Record<string, unknown>;
}[] = [
  {
    name: "products",
    endpoint: "/api/products",
    ownerColumn: "product_id",
    build: (i) => buildProduct(i),
  },
  {
    name: "licences",
    endpoint: "/api/licenses",
    ownerColumn: "license_id",
    build: (i, contactId) => buildLicense(i, contactId),
  },
  {
    name: "wiki files",
    endpoint: "/api/wikis",
    ownerColumn: "wiki_id",
    build: (i) => ({ name: `Classification memo ${i}`, description: "Why it is EAR99" }),
  },
  {
    name: "shipping forms",
    endpoint: "/api/shipping-documents",
    ownerColumn: "msdocument_id",
    build: (i) => ({ name: `Certificate ${i}`, document_type: "certification" }),
  },
];

const file = (bytes: Uint8Array, name: string) => new File([new Uint8Array(bytes)], name);

let ctx: TTestContext;
let owner: TUser;
let stranger: TUser;
let contactId = 0;
let counter = 0;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx);
  stranger = await signUp(ctx);
  const res = await call(ctx, owner.auth, "POST", "/api/contacts", buildContact());
  contactId = ((await res.json()) as { item: { id: number } }).item.id;
});
afterAll(() => ctx.database.close());

const isStored = async (key: string) => (await storedBytes(ctx, key)) !== null;
const keysOf = async (ownerColumn: TOwnerColumn, ownerId: number) =>
  (await ctx.database.db.select().from(documents).where(eq(documents[ownerColumn], ownerId))).map(
    (row) => row.storage_key,
  );

describe.each(OWNERS)("documents of $name", ({ endpoint, ownerColumn, build }) => {
  const base = DOCUMENT_OWNERS[ownerColumn].routeBase;

  async function createRecord(who = owner): Promise<number> {
    counter += 1;
    const res = await call(ctx, who.auth, "POST", endpoint, build(counter, contactId));
    expect(res.status).toBe(201);
    return ((await res.json()) as { item: { id: number } }).item.id;
  }

  function upload(who: TUser, id: number, files: File[]) {
    const form = new FormData();
    form.append("id", String(id));
    for (const f of files) form.append("documents[]", f);
    return ctx.app.request(base, { method: "POST", body: form, headers: who.auth });
  }

  test(`POST ${base}: several files at once, listed on the record`, async () => {
    const id = await createRecord();
    const res = await upload(owner, id, [file(PDF, "licence scan.pdf"), file(PNG, "stamp.png")]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as TUploadBody;
    expect(body.uploaded.map((d) => [d.original_name, d.extension])).toEqual([
      ["licence scan.pdf", "pdf"],
      ["stamp.png", "png"],
    ]);
    for (const doc of body.uploaded) expect(doc.url).toBe(`${base}/${doc.id}`);
    const got = (await (await call(ctx, owner.auth, "GET", `${endpoint}/${id}`)).json()) as {
      item: { documents: TDocument[] };
    };
    expect(got.item.documents.map((d) => d.original_name)).toEqual(["licence scan.pdf", "stamp.png"]);
  });

  test(`GET ${base}/{id}: an attachment with the stored type, the original name and nosniff`, async () => {
    const id = await createRecord();
    const [doc] = (
      (await (await upload(owner, id, [file(PDF, "Zertifikat März.pdf")])).json()) as TUploadBody
    ).uploaded;
    const res = await ctx.app.request(doc.url, { headers: owner.auth });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="Zertifikat M_rz.pdf"; filename*=UTF-8''Zertifikat%20M%C3%A4rz.pdf`,
    );
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PDF);
  });

  test("another workspace gets 404 on upload, download and delete; the file stays", async () => {
    const id = await createRecord();
    const [doc] = ((await (await upload(owner, id, [file(PNG, "a.png")])).json()) as TUploadBody).uploaded;
    expect((await upload(stranger, id, [file(PDF, "theirs.pdf")])).status).toBe(404);
    expect((await ctx.app.request(doc.url, { headers: stranger.auth })).status).toBe(404);
    expect((await ctx.app.request(doc.url, { method: "DELETE", headers: stranger.auth })).status).toBe(404);
    const [key] = await keysOf(ownerColumn, id);
    expect(await isStored(key)).toBe(true);
    expect((await ctx.app.request(doc.url, { headers: owner.auth })).status).toBe(200);
  });

  test("deleting the record deletes its files", async () => {
    const id = await createRecord();
    const kept = await createRecord();
    await upload(owner, id, [file(PDF, "one.pdf"), file(PNG, "two.png")]);
    const [other] = ((await (await upload(owner, kept, [file(PDF, "kept.pdf")])).json()) as TUploadBody)
      .uploaded;
    const keys = await keysOf(ownerColumn, id);
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(await isStored(key)).toBe(true);
    const urls = (
      (await (await call(ctx, owner.auth, "GET", `${endpoint}/${id}`)).json()) as {
        item: { documents: TDocument[] };
      }
    ).item.documents.map((d) => d.url);

    expect((await call(ctx, owner.auth, "DELETE", `${endpoint}/${id}`)).status).toBe(200);
    for (const key of keys) expect(await isStored(key)).toBe(false);
    expect(await keysOf(ownerColumn, id)).toEqual([]);
    for (const url of urls) expect((await ctx.app.request(url, { headers: owner.auth })).status).toBe(404);
    // Another record's files are untouched.
    expect((await ctx.app.request(other.url, { headers: owner.auth })).status).toBe(200);
  });
});

describe("deleting a record reads its files in the delete's transaction", () => {
  test("a document recorded after the delete began (before its rows go) is removed too", async () => {
    counter += 1;
    const res = await call(ctx, owner.auth, "POST", "/api/products", OWNERS[0].build(counter, contactId));
    const { item } = (await res.json()) as { item: { id: number } };
    const key = newStorageKey("documents");
    const workspaceId = owner.user.workspace_id;
    // Stands in for an upload that lands while the delete is under way: it is recorded inside the
    // transaction, after the delete started and before the row goes.
    const racing: TEntityDefinition = {
      ...productsEntity,
      dependants: async (tx) => {
        await tx.insert(documents).values({
          workspace_id: workspaceId,
          product_id: item.id,
          original_name: "late.pdf",
          extension: "pdf",
          content_type: "application/pdf",
          size: PDF.length,
          storage_key: key,
        });
        return [];
      },
    };
    const { storageKeys } = await deleteRecord(ctx.database.db, racing, workspaceId, item.id, false);
    expect(storageKeys).toEqual([key]);
  });
});
