/**
 * Availability and bad input: body limits with JSON 413s, file-count caps checked before
 * parsing, nameless files and malformed multipart refused with a 422 and nothing stored, SQLITE_BUSY
 * through drizzle's wrapper answered 503, and the caching/HSTS headers.
 */

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { documents } from "../../db/schema";
import { PDF } from "../features/documents/test-files";
import {
  AUTH_BODY_LIMIT,
  JSON_BODY_LIMIT,
  MAX_DOCUMENTS_PER_RECORD,
  MAX_FILES_PER_REQUEST,
} from "../lib/limits";
import { buildContact, buildLicense, buildProduct, call, json, signUp } from "../test/factories";
import { appOver, createTestContext, type TTestContext } from "../test/setup";

type TUser = Awaited<ReturnType<typeof signUp>>;

let ctx: TTestContext;
let owner: TUser;
let contactId = 0;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx);
  const res = await call(ctx, owner.auth, "POST", "/api/contacts", buildContact());
  contactId = ((await res.json()) as { item: { id: number } }).item.id;
});
afterAll(() => ctx.database.close());

const encoder = new TextEncoder();
const BOUNDARY = "----tradewinds-test-boundary";

/** A hand-built multipart body: each part a field (string) or a file (name + bytes). */
function multipart(
  parts: ({ field: string; value: string } | { field: string; name: string; bytes: Uint8Array })[],
) {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    if ("value" in part) {
      chunks.push(
        encoder.encode(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`,
        ),
      );
    } else {
      chunks.push(
        encoder.encode(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.name}"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        part.bytes,
        encoder.encode("\r\n"),
      );
    }
  }
  chunks.push(encoder.encode(`--${BOUNDARY}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

const postMultipart = (url: string, body: Uint8Array<ArrayBuffer> | string, who = owner) =>
  ctx.app.request(url, {
    method: "POST",
    headers: { ...who.auth, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  });

const storedFiles = () => {
  const dir = path.join(ctx.dataDir, "uploads", "documents");
  return existsSync(dir) ? readdirSync(dir).length : 0;
};
const documentRows = async () => (await ctx.database.db.select({ n: count() }).from(documents))[0].n;

const OWNERS = [
  { base: "/api/products", build: (i: number) => buildProduct(i) },
  { base: "/api/licenses", build: (i: number) => buildLicense(i, contactId) },
  { base: "/api/wikis", build: (i: number) => ({ name: `Memo ${i}`, description: "Why" }) },
  {
    base: "/api/shipping-documents",
    build: (i: number) => ({ name: `Certificate ${i}`, document_type: "certification" }),
  },
];
let recordCounter = 0;
async function createRecord(base: string, build: (i: number) => Record<string, unknown>) {
  recordCounter += 1;
  const res = await call(ctx, owner.auth, "POST", base, build(1000 + recordCounter));
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { item: { id: number } }).item.id;
}

describe("document uploads", () => {
  test.each(OWNERS)(
    "$base/documents: a nameless file is a 422 and no file of the request is stored",
    async ({ base, build }) => {
      const id = await createRecord(base, build);
      const [files, rows] = [storedFiles(), await documentRows()];
      const res = await postMultipart(
        `${base}/documents`,
        multipart([
          { field: "id", value: String(id) },
          { field: "documents[]", name: "first.pdf", bytes: PDF },
          { field: "documents[]", name: "", bytes: PDF },
        ]),
      );
      expect(res.status).toBe(422);
      expect(((await res.json()) as { message: string }).message).toMatch(/name/);
      expect(storedFiles()).toBe(files);
      expect(await documentRows()).toBe(rows);
    },
  );

  test("more files than the per-request cap: 422 before parsing, nothing stored, even with 5,000 parts", async () => {
    const id = await createRecord(OWNERS[0].base, OWNERS[0].build);
    const [files, rows] = [storedFiles(), await documentRows()];
    const eleven = Array.from({ length: MAX_FILES_PER_REQUEST + 1 }, (_, i) => ({
      field: "documents[]",
      name: `f${i}.pdf`,
      bytes: PDF,
    }));
    const res = await postMultipart(
      "/api/products/documents",
      multipart([{ field: "id", value: String(id) }, ...eleven]),
    );
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toContain(
      `at most ${MAX_FILES_PER_REQUEST} files`,
    );

    const flood = Array.from({ length: 5000 }, (_, i) => ({
      field: "documents[]",
      name: `f${i}.txt`,
      bytes: encoder.encode("x"),
    }));
    const big = await postMultipart(
      "/api/products/documents",
      multipart([{ field: "id", value: String(id) }, ...flood]),
    );
    expect(big.status).toBe(422);
    expect(storedFiles()).toBe(files);
    expect(await documentRows()).toBe(rows);
  });

  test("the per-record cap: an upload that would pass it is a 422 naming the cap", async () => {
    const id = await createRecord(OWNERS[2].base, OWNERS[2].build);
    await ctx.database.db.insert(documents).values(
      Array.from({ length: MAX_DOCUMENTS_PER_RECORD - 1 }, (_, i) => ({
        workspace_id: owner.user.workspace_id,
        wiki_id: id,
        original_name: `old${i}.pdf`,
        extension: "pdf",
        content_type: "application/pdf",
        size: 1,
        storage_key: `documents/missing-${id}-${i}`,
      })),
    );
    const two = multipart([
      { field: "id", value: String(id) },
      { field: "documents[]", name: "a.pdf", bytes: PDF },
      { field: "documents[]", name: "b.pdf", bytes: PDF },
    ]);
    const res = await postMultipart("/api/wikis/documents", two);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toContain(
      `at most ${MAX_DOCUMENTS_PER_RECORD}`,
    );
    const held = await ctx.database.db
      .select({ n: count() })
      .from(documents)
      .where(eq(documents.wiki_id, id));
    expect(held[0].n).toBe(MAX_DOCUMENTS_PER_RECORD - 1);
    // One more still fits.
    const one = multipart([
      { field: "id", value: String(id) },
      { field: "documents[]", name: "c.pdf", bytes: PDF },
    ]);
    expect((await postMultipart("/api/wikis/documents", one)).status).toBe(200);
  });

  test("a malformed multipart body is a 422 on the documents routes", async () => {
    const res = await postMultipart(
      "/api/products/documents",
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="id"\r\n\r\n1`,
    );
    expect(res.status).toBe(422);
  });
});

describe("POST /api/contacts/upload", () => {
  test.each([
    [
      "no final boundary",
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="csv_upload"; filename="a.csv"\r\n\r\ncompany\r\n`,
    ],
    ["garbage", "this is not multipart at all"],
    ["empty", ""],
  ])("malformed multipart (%s) is a 422 with the import's failure shape", async (_, body) => {
    const res = await postMultipart("/api/contacts/upload", body);
    expect(res.status).toBe(422);
    const payload = (await res.json()) as { message: string; result: string };
    expect(payload.message).toBe("Import failed");
    expect(payload.result).toBeTruthy();
  });

  test("a multipart content type without a boundary is a 422", async () => {
    const res = await ctx.app.request("/api/contacts/upload", {
      method: "POST",
      headers: { ...owner.auth, "content-type": "multipart/form-data" },
      body: "x",
    });
    expect(res.status).toBe(422);
  });
});

describe("body limits", () => {
  test("POST /api/login over the account limit: a JSON 413 without reading it", async () => {
    const res = await ctx.app.request(
      "/api/login",
      json({ email: "a@example.com", password: "x".repeat(AUTH_BODY_LIMIT + 10) }),
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(/too large/);
  });

  test("a chunked body without Content-Length is cut off at the limit too", async () => {
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 40; i++) controller.enqueue(encoder.encode("x".repeat(1024)));
        controller.close();
      },
    });
    const res = await ctx.app.request("/api/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      // @ts-expect-error Bun's fetch needs duplex for a streamed request body
      duplex: "half",
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(/too large/);
  });

  test("other JSON routes take a record's worth, not more", async () => {
    const ok = await call(
      ctx,
      owner.auth,
      "POST",
      "/api/contacts",
      buildContact({ street: "x".repeat(200) }),
    );
    expect(ok.status).toBe(201);
    const res = await call(
      ctx,
      owner.auth,
      "POST",
      "/api/contacts",
      buildContact({ street: "x".repeat(JSON_BODY_LIMIT) }),
    );
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toContain("application/json");
  });
});

describe("headers", () => {
  test("API answers with personal data or tokens are never cached", async () => {
    for (const [method, url] of [
      ["GET", "/api/user"],
      ["GET", "/api/contacts"],
      ["GET", "/api/dictionary"],
    ]) {
      const res = await call(ctx, owner.auth, method, url);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    const login = await ctx.app.request("/api/login", json({ email: owner.email, password: owner.password }));
    expect(login.status).toBe(200);
    expect(login.headers.get("cache-control")).toBe("no-store");
    const failed = await ctx.app.request(
      "/api/login",
      json({ email: owner.email, password: "wrong password" }),
    );
    expect(failed.headers.get("cache-control")).toBe("no-store");
  });

  test("HSTS only when APP_URL is https", async () => {
    const plain = await ctx.app.request("/api/health");
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    const https = appOver({
      database: ctx.database,
      env: { ...ctx.env, appUrl: "https://trade.example.com" },
    });
    const res = await https.request("/api/health");
    expect(res.headers.get("strict-transport-security")).toContain("max-age=");
  });
});

describe("write lock held by another process", () => {
  test("a write that times out on SQLITE_BUSY is a 503 with Retry-After, not a 500", async () => {
    // Another process (as a CLI import would) takes the write lock and keeps it. It has to be
    // another process: SQLite's file locks do not conflict within one.
    const file = ctx.env.databaseUrl.slice("file:".length);
    const holder = Bun.spawn(
      [
        process.execPath,
        "-e",
        `const { createClient } = require("@libsql/client"); const db = createClient({ url: ${JSON.stringify(`file:${file}`)} }); const tx = await db.transaction("write"); await tx.execute("insert into rate_limits (key, window_start, count) values ('lock-holder', 0, 1)"); globalThis.keep = [db, tx]; console.log("locked"); await Bun.sleep(15000);`,
      ],
      { stdout: "pipe", stderr: "inherit" },
    );
    const reader = holder.stdout.getReader();
    await reader.read();
    try {
      const res = await call(ctx, owner.auth, "POST", "/api/contacts", buildContact());
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBeTruthy();
      expect(((await res.json()) as { message: string }).message).toMatch(/busy/);
    } finally {
      holder.kill();
      await holder.exited;
    }
  }, 20_000);
});
