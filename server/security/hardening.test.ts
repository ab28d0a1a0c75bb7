/**
 * The hardening review of the shipment, paperwork, reports and home routes: every upload goes
 * through the one multipart reader and its caps, error answers stay small whatever the request
 * holds, the home cache is bounded, a completed password reset lifts the lockout, and unknown
 * screening-history ids answer the 404 page. (Attacks that need a real server are in
 * hardening-server.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { documents } from "../../db/schema";
import { PDF } from "../features/documents/test-files";
import { cachedAnswer, HOME_CACHE_MAX_BYTES, homeCacheSize } from "../features/home/home.service";
import { diskAssetStore } from "../lib/assets";
import { exportLimiter, paperworkLimiter, uploadLimiter } from "../lib/heavy-work";
import { MAX_ARRAY_ITEMS, MAX_ISSUES_REPORTED } from "../lib/input-bounds";
import { MAX_DOCUMENTS_PER_RECORD, MAX_FILES_PER_REQUEST } from "../lib/limits";
import { loadAppSecret } from "../lib/secret";
import { sign } from "../lib/signing";
import type { TWorkLimiter } from "../lib/work-limiter";
import { buildContact, buildRegistration, call, createDraft, json, signUp } from "../test/factories";
import { awayFromRateWindowEdge } from "../test/rate-window";
import { appOver, createTestContext, type TTestContext } from "../test/setup";

type TUser = Awaited<ReturnType<typeof signUp>>;

let ctx: TTestContext;
let owner: TUser;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx);
});
afterAll(() => ctx.database.close());

const encoder = new TextEncoder();
const BOUNDARY = "----tradewinds-hardening";

/** A multipart body of `n` files named f{i}.pdf holding `bytes`, built by hand (fast for thousands). */
function filesBody(n: number, bytes: Uint8Array = PDF) {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    chunks.push(
      encoder.encode(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="documents[]"; filename="f${i}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      bytes,
      encoder.encode("\r\n"),
    );
  }
  chunks.push(encoder.encode(`--${BOUNDARY}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

const postFiles = (url: string, body: Uint8Array<ArrayBuffer>) =>
  ctx.app.request(url, {
    method: "POST",
    headers: { ...owner.auth, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  });

const newShipment = () => createDraft(ctx, owner.auth);

const documentsOf = async (shipmentId: number) =>
  (
    await ctx.database.db.select({ n: count() }).from(documents).where(eq(documents.shipment_id, shipmentId))
  )[0].n;

describe("custom shipment documents go through the upload caps", () => {
  test("3,200 tiny files are refused before parsing, and nothing is stored", async () => {
    const { id } = await newShipment();
    const res = await postFiles(
      `/api/shipments/custom-docs/${id}`,
      filesBody(3200, encoder.encode("x".repeat(121))),
    );
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toContain(
      `at most ${MAX_FILES_PER_REQUEST} files`,
    );
    expect(await documentsOf(id)).toBe(0);
  });

  test(`${MAX_FILES_PER_REQUEST + 1} files are one too many`, async () => {
    const { id } = await newShipment();
    const res = await postFiles(`/api/shipments/custom-docs/${id}`, filesBody(MAX_FILES_PER_REQUEST + 1));
    expect(res.status).toBe(422);
    expect(await documentsOf(id)).toBe(0);
  });

  test(`a shipment holds at most ${MAX_DOCUMENTS_PER_RECORD} documents`, async () => {
    const { id } = await newShipment();
    for (let round = 0; round < MAX_DOCUMENTS_PER_RECORD / MAX_FILES_PER_REQUEST; round++) {
      const res = await postFiles(`/api/shipments/custom-docs/${id}`, filesBody(MAX_FILES_PER_REQUEST));
      expect(res.status).toBe(200);
    }
    expect(await documentsOf(id)).toBe(MAX_DOCUMENTS_PER_RECORD);
    const res = await postFiles(`/api/shipments/custom-docs/${id}`, filesBody(1));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toContain(
      `at most ${MAX_DOCUMENTS_PER_RECORD}`,
    );
    expect(await documentsOf(id)).toBe(MAX_DOCUMENTS_PER_RECORD);
  }, 60_000);

  test("a 2 MB PDF is within the documented upload size", async () => {
    const { id } = await newShipment();
    const big = new Uint8Array(2 * 1024 * 1024);
    big.set(PDF);
    const res = await postFiles(`/api/shipments/custom-docs/${id}`, filesBody(1, big));
    expect(res.status).toBe(200);
    expect(await documentsOf(id)).toBe(1);
  });
});

/** The answer's size in bytes and its parsed body. */
async function measured(res: Response) {
  const text = await res.text();
  return {
    bytes: text.length,
    body: JSON.parse(text) as { message: string; errors?: Record<string, string[]> },
  };
}

/** An error answer this small lists a handful of problems, never one per bad element. */
const SMALL_ANSWER = 8 * 1024;

describe("error answers do not grow with the request", () => {
  test("240,000 document types in a shipment save: a short 422", async () => {
    const shipment = await newShipment();
    const res = await call(ctx, owner.auth, "PUT", `/api/shipments/${shipment.id}`, {
      updated_at: shipment.updated_at,
      generate_documents: Array.from({ length: 240_000 }, () => "x"),
    });
    expect(res.status).toBe(422);
    const { bytes, body } = await measured(res);
    expect(bytes).toBeLessThan(SMALL_ANSWER);
    expect(body.errors?.generate_documents?.[0]).toContain(`at most ${MAX_ARRAY_ITEMS}`);
  });

  test("240,000 paperwork types: a short 422", async () => {
    const shipment = await newShipment();
    const res = await call(ctx, owner.auth, "POST", `/api/paperwork/shipments/${shipment.id}/generate`, {
      types: Array.from({ length: 240_000 }, () => "x"),
    });
    expect(res.status).toBe(422);
    expect((await measured(res)).bytes).toBeLessThan(SMALL_ANSWER);
  });

  test("60,000 shipment lines: a short 422 naming the limit", async () => {
    const shipment = await newShipment();
    const res = await call(ctx, owner.auth, "PUT", `/api/shipments/${shipment.id}`, {
      updated_at: shipment.updated_at,
      items: Array.from({ length: 60_000 }, () => ({})),
    });
    expect(res.status).toBe(422);
    const { bytes, body } = await measured(res);
    expect(bytes).toBeLessThan(SMALL_ANSWER);
    expect(body.errors?.items?.[0]).toContain("at most 500");
  });

  test("a list within bounds but full of bad values lists the first problems and counts the rest", async () => {
    const shipment = await newShipment();
    const res = await call(ctx, owner.auth, "PUT", `/api/shipments/${shipment.id}`, {
      updated_at: shipment.updated_at,
      generate_documents: Array.from({ length: MAX_ARRAY_ITEMS }, (_, i) => `bad${i}`),
    });
    expect(res.status).toBe(422);
    const { bytes, body } = await measured(res);
    expect(bytes).toBeLessThan(SMALL_ANSWER);
    expect(Object.keys(body.errors ?? {}).length).toBeLessThanOrEqual(MAX_ISSUES_REPORTED + 1);
    expect(body.errors?._?.join(" ")).toContain(`${MAX_ARRAY_ITEMS - MAX_ISSUES_REPORTED} more problems`);
    // The shared message is said once in the summary, not once per field.
    const choose = body.message.match(/Choose from/g) ?? [];
    expect(choose.length).toBe(1);
  });
});

describe("the home answer cache", () => {
  test("junk parameters do not make new cache entries", async () => {
    const before = homeCacheSize(ctx.database.db);
    for (let i = 0; i < 2000; i++) {
      const route = ["shipping-performance", "most-recent-shipments", "most-common-shipments", "map"][i % 4];
      const res = await call(
        ctx,
        owner.auth,
        "GET",
        `/api/home/${route}?filter=all&junk${i}=${"x".repeat(200)}`,
      );
      expect(res.status).toBe(200);
    }
    const after = homeCacheSize(ctx.database.db);
    expect(after.entries - before.entries).toBeLessThanOrEqual(4);
  }, 120_000);

  test("distinct valid queries are bounded by bytes, not entries", async () => {
    const big = "x".repeat(512 * 1024);
    for (let i = 0; i < 200; i++) {
      await cachedAnswer(ctx.database.db, 1, { route: "test", i }, async () => ({ big }));
    }
    const { bytes, entries } = homeCacheSize(ctx.database.db);
    expect(bytes).toBeLessThanOrEqual(HOME_CACHE_MAX_BYTES);
    expect(entries).toBeLessThan(200);
  });
});

describe("a completed password reset lifts the lockout", () => {
  test("after strangers fill the account's limit, the reset link clears it for every browser", async () => {
    await awayFromRateWindowEdge();
    // Two attempts per (IP, account) and window; the account-wide limit is 10 × 2.
    const small = await createTestContext({ AUTH_RATE_LIMIT: "2", TRUST_PROXY: "1" });
    try {
      const reg = buildRegistration();
      expect((await small.app.request("/api/register", json(reg))).status).toBe(201);
      const login = (password: string, ip: string, cookie?: string) =>
        small.app.request(
          "/api/login",
          json({ email: reg.email, password }, { "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) }),
        );
      // 12 addresses × 10 wrong passwords.
      for (let ip = 0; ip < 12; ip++) {
        for (let i = 0; i < 10; i++) await login(`guess ${i}`, `203.0.113.${ip}`);
      }
      expect((await login(reg.password, "192.0.2.10")).status).toBe(429);

      const [user] = (
        await small.database.client.execute({
          sql: "select id, password_hash from users where email = ?",
          args: [reg.email],
        })
      ).rows as unknown as { id: number; password_hash: string }[];
      const expires = Math.floor(Date.now() / 1000) + 600;
      const signature = sign(loadAppSecret(small.env), ["reset", user.id, expires, user.password_hash]);
      const reset = await small.app.request(
        `/api/reset/password/user/${user.id}?expires=${expires}&signature=${signature}`,
        json({ password: "the owner's new password" }, { "x-forwarded-for": "192.0.2.10" }),
      );
      expect(reset.status).toBe(200);
      const device = reset.headers
        .getSetCookie()
        .find((c) => c.startsWith("twdevice="))
        ?.split(";")[0];
      expect(device).toBeTruthy();

      // Another new browser signs in at once: the failures are forgotten.
      expect((await login("the owner's new password", "192.0.2.11")).status).toBe(200);
      // Strangers fill the account-wide limit again; the browser that reset the password is a known device.
      for (let ip = 12; ip < 24; ip++) {
        for (let i = 0; i < 2; i++) await login(`guess ${i}`, `203.0.113.${ip}`);
      }
      expect((await login("the owner's new password", "192.0.2.12")).status).toBe(429);
      expect((await login("the owner's new password", "192.0.2.13", device)).status).toBe(200);
    } finally {
      small.database.close();
    }
  }, 120_000);
});

// Server-rendered screens need the client build (npm test builds it before the suites).
const CLIENT = path.resolve(import.meta.dir, "..", "..", "dist", "client");
const isBuilt = existsSync(path.join(CLIENT, ".vite", "manifest.json"));

describe.if(isBuilt)("the screening history screen", () => {
  test("an unknown, foreign, 0 or non-numeric contact id answers the 404 page", async () => {
    const { render } = await import("../../client/entry-server");
    const pages = appOver(ctx, { assets: diskAssetStore(CLIENT), render });
    const stranger = await signUp(ctx);
    const created = await call(ctx, stranger.auth, "POST", "/api/contacts", buildContact());
    expect(created.status).toBe(201);
    const foreign = ((await created.json()) as { item: { id: number } }).item.id;
    const own = await call(ctx, owner.auth, "POST", "/api/contacts", buildContact());
    const ownId = ((await own.json()) as { item: { id: number } }).item.id;

    const ok = await pages.request(`/restricted-party-screening/history/${ownId}`, {
      headers: { cookie: owner.cookie },
    });
    expect(ok.status).toBe(200);
    for (const id of ["999999", String(foreign), "0", "abc", "1e3"]) {
      const res = await pages.request(`/restricted-party-screening/history/${id}`, {
        headers: { cookie: owner.cookie },
      });
      const html = await res.text();
      expect({ id, status: res.status }).toEqual({ id, status: 404 });
      expect(html).toMatch(/not found/i);
      expect(html).not.toContain("Something went wrong");
    }
  }, 60_000);
});

describe("heavy work has bounded concurrency and a queue", () => {
  /** Takes every slot and queue place of `limiter`; the returned function gives them all back. */
  async function saturate(limiter: TWorkLimiter) {
    const held: (() => void)[] = [];
    const queued: Promise<void>[] = [];
    // Slots are granted at once; queue places wait until a slot is given back.
    for (;;) {
      const { running, queued: waiting } = limiter.state();
      const before = running + waiting;
      const taken = limiter.acquire().then((release) => void held.push(release));
      if (limiter.state().running + limiter.state().queued === before) {
        await taken.catch(() => undefined);
        break;
      }
      queued.push(taken.catch(() => undefined));
      await Promise.resolve();
    }
    return async () => {
      while (held.length || limiter.state().running || limiter.state().queued) {
        held.shift()?.();
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await Promise.all(queued);
    };
  }

  const expectBusy = async (res: Response) => {
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await res.json()) as { message: string }).message).toContain("busy");
  };

  test("paperwork generation past its queue: 503 with Retry-After", async () => {
    const shipment = await newShipment();
    const release = await saturate(paperworkLimiter);
    try {
      await expectBusy(
        await call(ctx, owner.auth, "POST", `/api/paperwork/shipments/${shipment.id}/generate`, {
          types: ["commercial_invoice"],
        }),
      );
    } finally {
      await release();
    }
  });

  test("report exports past their queue: 503 with Retry-After", async () => {
    const release = await saturate(exportLimiter);
    try {
      await expectBusy(await call(ctx, owner.auth, "GET", "/api/reports-data?format=arrow"));
    } finally {
      await release();
    }
    expect((await call(ctx, owner.auth, "GET", "/api/reports-data?format=arrow")).status).toBe(200);
  });

  test("uploads past their queue: 503 with Retry-After, before the body is read", async () => {
    const { id } = await newShipment();
    const release = await saturate(uploadLimiter);
    try {
      await expectBusy(await postFiles(`/api/shipments/custom-docs/${id}`, filesBody(1)));
      await expectBusy(
        await ctx.app.request("/api/products/documents", {
          method: "POST",
          headers: { ...owner.auth, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
          body: filesBody(1),
        }),
      );
    } finally {
      await release();
    }
    expect(await documentsOf(id)).toBe(0);
  });
});
