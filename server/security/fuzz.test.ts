/**
 * A seeded fuzzer over every API route the app registers (read from app.routes), with
 * hostile paths, queries, bodies, content types and credentials. Any 5xx fails it, naming the seed
 * and the request so it can be replayed. FUZZ_REQUESTS sets the size, FUZZ_SEED the seed: plain
 * `bun test` (npm test) runs 1,000 to stay quick; `npm run test:security` runs 5,000.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createSession } from "../features/auth/session.service";
import { PDF } from "../features/documents/test-files";
import { buildContact, buildLicense, buildProduct, call, signUp } from "../test/factories";
import { createTestContext, type TTestContext } from "../test/setup";
import { apiRoutes, fillPath, type TRoute } from "./routes";

const REQUESTS = Number(process.env.FUZZ_REQUESTS) || 1000;
const SEED = Number(process.env.FUZZ_SEED) || 20261122;

/** mulberry32: a small seeded PRNG, so a failing run can be replayed exactly. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}

let ctx: TTestContext;
let who: Awaited<ReturnType<typeof signUp>>;
const ownIds: number[] = [];
beforeAll(async () => {
  // A low attempt limit: most auth calls hit 429 quickly instead of hashing passwords for minutes.
  ctx = await createTestContext({ AUTH_RATE_LIMIT: "20" });
  who = await signUp(ctx);
  for (const [base, body] of [
    ["/api/contacts", buildContact()],
    ["/api/products", buildProduct(1)],
    ["/api/wikis", { name: "Memo", description: "x" }],
  ] as const) {
    const res = await call(ctx, who.auth, "POST", base, body);
    ownIds.push(((await res.json()) as { item: { id: number } }).item.id);
  }
  // A shipment draft, so the shipment, paperwork and custom-document routes meet a real id too.
  const draft = await call(ctx, who.auth, "POST", "/api/shipments");
  ownIds.push(((await draft.json()) as { item: { id: number } }).item.id);
}, 120_000);
afterAll(() => ctx.database.close());

const STRINGS = [
  "",
  " ",
  "a".repeat(300),
  "x".repeat(5000),
  "%00",
  "\u0000",
  "\u202e",
  "😀",
  "../../etc/passwd",
  "'; drop table contacts; --",
  "<script>alert(1)</script>",
  "=cmd|' /C calc'!A0",
  "NaN",
  "Infinity",
  "-1",
  "1e309",
  "9007199254740993",
  "0x10",
  "true",
  "null",
  "2026-02-30",
  "13/45/2026",
  "1.005",
  "-0.00",
  "12345678901234567890.123",
];
/** What a client can put in a header at all (fetch refuses the rest before sending). */
const HEADER_SAFE = STRINGS.filter((s) => /^[\x21-\x7e]*$/.test(s));

const VALUES = (r: ReturnType<typeof prng>): unknown[] => [
  r.pick(STRINGS),
  r.int(3) - 1,
  2 ** 53 + r.int(10),
  -(2 ** 31),
  1.5,
  null,
  true,
  [],
  [r.pick(STRINGS)],
  {},
  { nested: { deeper: [r.pick(STRINGS)] } },
];

/** A valid body for a route family, so mutations reach the handler's deeper checks. */
const baseBodies: Record<string, () => Record<string, unknown>> = {
  contacts: () => buildContact(),
  products: () => buildProduct(1),
  licenses: () => buildLicense(1, ownIds[0]),
  wikis: () => ({ name: "Memo", description: "x" }),
  "shipping-documents": () => ({ name: "Form", document_type: "other" }),
  login: () => ({ email: who.email, password: "wrong password" }),
  register: () => ({
    title: "Ms.",
    name: "A",
    surname: "B",
    email: "fuzz@example.com",
    password: "long enough",
  }),
  user: () => ({
    title: "Ms.",
    name: "A",
    surname: "B",
    email: "x@example.com",
    old_password: "x",
    password: "y",
  }),
  screenings: () => ({ id: 1, status: "passed", note: "n" }),
  shipments: () => ({
    name: "Fuzzed shipment",
    generate_documents: ["commercial_invoice"],
    items: [{ product_id: ownIds[1], quantity: "1", unit_value: "10.00" }],
    packages: [],
  }),
  paperwork: () => ({ types: ["commercial_invoice", "packing_list"], paper_size: "a4" }),
};

/** Values that mean something to one query parameter of the newer routes (home, reports, screening lists). */
const QUERY_VALUES: Record<string, readonly string[]> = {
  filter: ["week", "month", "year", "all", "decade"],
  format: ["arrow", "json", "csv"],
  names: ["labels", "keys"],
  group_by: ["destination_country", "status,ship_month", "nope", ""],
  sum: ["quantity", "total_value", "nope"],
  columns: ["shipment_name,quantity", "nope", ""],
  country_id: ["1", "0", "-5", "abc"],
};

/** Values for a path parameter with a fixed set of meanings. */
const PATH_VALUES: Record<string, readonly string[]> = { mode: ["preview", "download", "print"] };

function pathFor(route: TRoute, r: ReturnType<typeof prng>): string {
  const path = fillPath(route.path, (name) =>
    PATH_VALUES[name] && r.int(2)
      ? r.pick(PATH_VALUES[name])
      : String(
          r.pick([
            ...ownIds,
            1,
            0,
            -1,
            999999999999999,
            "abc",
            "1.5",
            "%2e%2e",
            "9".repeat(40),
            encodeURIComponent(r.pick(STRINGS)),
          ]),
        ),
  );
  const query: string[] = [];
  for (let i = r.int(4); i > 0; i--) {
    const key = r.pick([
      "page",
      "per_page",
      "sort_company",
      "sort_name",
      "sort_nonexistent",
      "filters[company]",
      "filters[updated_at]",
      "filters[is_sensitive]",
      "filters[nope]",
      "itemId",
      "id",
      "status",
      "note",
      "keywords",
      "name",
      "address",
      "expires",
      "signature",
      "next",
      "force",
      ...Object.keys(QUERY_VALUES),
    ]);
    const value = QUERY_VALUES[key] && r.int(2) ? r.pick(QUERY_VALUES[key]) : String(r.pick(VALUES(r)));
    query.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
  }
  return query.length ? `${path}?${query.join("&")}` : path;
}

function bodyFor(route: TRoute, r: ReturnType<typeof prng>): { body?: BodyInit; type?: string } {
  const family = route.path.split("/")[2] ?? "";
  const roll = r.int(10);
  if (roll === 0) return {};
  if (roll === 1)
    return {
      body: r.pick(["{", "[1,", "not json", "\u0000\u0001", '{"a":'.repeat(50)]),
      type: "application/json",
    };
  if (roll === 2) {
    const boundary = "fuzzBoundary";
    const parts = r.pick([
      `--${boundary}\r\nContent-Disposition: form-data; name="id"\r\n\r\n${r.pick(ownIds)}\r\n--${boundary}\r\nContent-Disposition: form-data; name="documents[]"; filename="${r.pick(STRINGS)}"\r\n\r\n%PDF-1.4 x\r\n--${boundary}--\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="csv_upload"; filename="a.csv"\r\n\r\ncompany,tax id\r\n${r.pick(STRINGS)},1\r\n--${boundary}--\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="p.png"\r\n\r\n${r.pick(STRINGS)}\r\n--${boundary}--\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data\r\n\r\n`,
      `--${boundary}`,
      "",
    ]);
    return {
      body: parts,
      type: r.pick([
        `multipart/form-data; boundary=${boundary}`,
        "multipart/form-data",
        "multipart/form-data; boundary=",
      ]),
    };
  }
  if (roll === 3) {
    const form = new FormData();
    form.append("id", String(r.pick([...ownIds, "x", ""])));
    form.append(
      r.pick(["documents[]", "documents", "csv_upload", "photo", "signature"]),
      new File([new Uint8Array(PDF)], r.pick(["a.pdf", "b.csv", ".", ""])),
    );
    return { body: form };
  }
  const body: Record<string, unknown> = { ...(baseBodies[family]?.() ?? {}) };
  const keys = Object.keys(body);
  for (let i = 1 + r.int(3); i > 0; i--) {
    const key =
      keys.length && r.int(3)
        ? r.pick(keys)
        : r.pick(["id", "__proto__", "constructor", "workspace_id", "extra"]);
    body[key] = r.pick(VALUES(r));
  }
  if (r.int(20) === 0) return { body: JSON.stringify([body]), type: "application/json" };
  return {
    body: JSON.stringify(body),
    type: r.pick(["application/json", "application/json", "text/plain", "application/x-www-form-urlencoded"]),
  };
}

/** The routes added with shipments, paperwork, reports and the dashboard: each must be reached. */
const NEWER_ROUTES = [
  "/api/paperwork/",
  "/api/reports-data",
  "/api/home/",
  "/api/shipments/custom-docs/",
  "/api/screenings/lists",
  "/api/shipments/",
];

describe("seeded fuzzer", () => {
  test(`${REQUESTS} hostile requests over every API route: no 5xx (seed ${SEED})`, async () => {
    const r = prng(SEED);
    const routes = apiRoutes(ctx.app);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    /** Requests per newer route family, to prove the fuzzer reaches each of them. */
    const newer = new Map<string, number>(NEWER_ROUTES.map((prefix) => [prefix, 0]));
    /** The largest error answer and its request: an error must never grow with the request. */
    let largestError = { bytes: 0, request: "" };
    for (let i = 0; i < REQUESTS; i++) {
      // The fuzzer logs itself out now and then (POST /logout, a password change): sign in again,
      // so most requests keep reaching the handlers behind the session wall.
      if (i % 50 === 0 && (await call(ctx, who.auth, "GET", "/api/user")).status === 401) {
        const { token } = await createSession(ctx.database.db, who.user.id, true);
        who.auth = { authorization: `Bearer ${token}` };
        who.cookie = `twsession=${token}`;
      }
      const route = r.pick(routes);
      const method = r.int(10)
        ? route.method
        : r.pick(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]);
      const url = pathFor(route, r);
      const { body, type } = method === "GET" || method === "HEAD" ? {} : bodyFor(route, r);
      const credentials = r.pick([
        who.auth,
        who.auth,
        who.auth,
        { cookie: who.cookie, origin: "http://localhost" },
        {},
        { authorization: `Bearer ${r.pick(HEADER_SAFE)}` },
        { authorization: r.pick(["Bearer", "Basic abc", "bearer  "]) },
      ]);
      const headers: Record<string, string> = { ...(credentials as Record<string, string>) };
      if (type) headers["content-type"] = type;
      for (const prefix of NEWER_ROUTES)
        if (url.startsWith(prefix)) newer.set(prefix, (newer.get(prefix) ?? 0) + 1);
      let status: number;
      try {
        const res = await ctx.app.request(url, { method, headers, body });
        status = res.status;
        const bytes = (await res.arrayBuffer()).byteLength;
        if (status >= 400 && bytes > largestError.bytes)
          largestError = { bytes, request: `${method} ${url}` };
      } catch (error) {
        status = 599;
        failures.push(`#${i} ${method} ${url} threw ${String(error)}`);
        continue;
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status >= 500) failures.push(`#${i} ${method} ${url} [${type ?? "no body"}] → ${status}`);
    }
    const summary = [...statuses.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}×${n}`)
      .join(" ");
    console.log(`fuzzed ${REQUESTS} requests (seed ${SEED}): ${summary}; 5xx: ${failures.length}`);
    console.log(
      `newer routes: ${[...newer].map(([p, n]) => `${p} ×${n}`).join(", ")}; largest error answer ${largestError.bytes} B (${largestError.request})`,
    );
    for (const [prefix, n] of newer) expect({ prefix, reached: n > 0 }).toEqual({ prefix, reached: true });
    expect(largestError.bytes).toBeLessThan(64 * 1024);
    expect(failures.slice(0, 20)).toEqual([]);
    // The fuzzer reached the handlers, not only the session wall.
    expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0)).toBeGreaterThan(REQUESTS / 20);
    expect(statuses.get(422) ?? 0).toBeGreaterThan(REQUESTS / 20);
  }, 600_000);
});
