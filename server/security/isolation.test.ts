/**
 * Keeps proving it: the workspace-isolation matrix and the CSRF variants over every API
 * route the app registers (read from app.routes). A route that takes a record id and is not in
 * RESOURCES fails the suite on purpose: a new endpoint (shipments, paperwork) gets one line here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PDF } from "../features/documents/test-files";
import { buildContact, buildLicense, buildProduct, call, joinAs, signUp } from "../test/factories";
import { createTestContext, type TTestContext } from "../test/setup";
import { apiRoutes, fillPath, PUBLIC_ROUTES, paramsOf, plainPath, type TRoute } from "./routes";

type TUser = Awaited<ReturnType<typeof signUp>>;

let ctx: TTestContext;
let owner: TUser;
let stranger: TUser;
let strangerContact = 0;
const MARKER = `OwnerSecret${Math.random().toString(36).slice(2, 10)}`;
const ids: Record<string, number> = {};

/** Record kinds by path prefix (most specific first): which of the owner's records a route's id names. */
const RESOURCES: [prefix: string, kind: string][] = [
  ["/api/workspace/members/invitations/", "invitation"],
  ["/api/workspace/members/", "member"],
  ["/api/products/documents/", "productDocument"],
  ["/api/licenses/documents/", "licenseDocument"],
  ["/api/wikis/documents/", "wikiDocument"],
  ["/api/shipping-documents/documents/", "formDocument"],
  ["/api/export-control/shipments/", "shipment"],
  ["/api/export-control/licenses/", "license"],
  ["/api/screenings/contact/", "contact"],
  ["/api/screenings/shipment/", "shipment"],
  ["/api/screenings/", "screening"],
  ["/api/contacts/", "contact"],
  ["/api/products/", "product"],
  ["/api/licenses/", "license"],
  ["/api/wikis/", "wiki"],
  ["/api/shipping-documents/", "form"],
  ["/api/paperwork/documents/", "shipmentDocument"],
  ["/api/paperwork/shipments/", "shipment"],
  ["/api/shipments/documents/", "shipmentDocument"],
  ["/api/shipments/items/", "shipment"],
  ["/api/shipments/packages/", "shipment"],
  ["/api/shipments/custom-docs/", "shipment"],
  ["/api/shipments/", "shipment"],
];

/** A route parameter's value: the record of the route's kind, or the line / document it names. */
function paramValue(kind: string, name: string, path: string): string {
  if (name === "mode") return "download";
  if (name === "file") return "eei-data-sheet.json";
  if (name === "itemId") return String(ids.shipmentItem);
  if (name === "lineId") return String(path.includes("/items/") ? ids.shipmentItem : ids.shipmentPackage);
  if (name === "documentId" && kind === "shipment") return String(ids.shipmentDocument);
  if (name === "shipmentId" || (name === "id" && kind.startsWith("shipment"))) return String(ids.shipment);
  return String(ids[kind]);
}

/** A valid body of the stranger's own for writes to a kind, so only ownership can refuse it. */
const bodyFor = (kind: string): Record<string, unknown> =>
  ({
    contact: buildContact(),
    product: buildProduct(9),
    license: buildLicense(9, strangerContact),
    wiki: { name: "Stranger memo", description: "x" },
    form: { name: "Stranger form", document_type: "other" },
    member: { roles: ["shipper"] },
    shipment: { name: "Stranger shipment", updated_at: new Date().toISOString(), generate_documents: [] },
  })[kind] ?? {};

const kindOf = (path: string) => RESOURCES.find(([prefix]) => plainPath(path).startsWith(prefix))?.[1];

async function createAs(who: TUser, base: string, body: Record<string, unknown>): Promise<number> {
  const res = await call(ctx, who.auth, "POST", base, body);
  expect(res.status).toBeLessThan(300);
  return ((await res.json()) as { item: { id: number } }).item.id;
}

async function attach(base: string, id: number): Promise<number> {
  const form = new FormData();
  form.append("id", String(id));
  form.append("documents[]", new File([new Uint8Array(PDF)], `${MARKER}.pdf`));
  const res = await ctx.app.request(`${base}/documents`, { method: "POST", headers: owner.auth, body: form });
  expect(res.status).toBe(200);
  return ((await res.json()) as { uploaded: { id: number }[] }).uploaded[0].id;
}

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx);
  stranger = await signUp(ctx);
  strangerContact = await createAs(stranger, "/api/contacts", buildContact());
  ids.contact = await createAs(owner, "/api/contacts", buildContact({ company: `${MARKER} Holdings` }));
  ids.product = await createAs(owner, "/api/products", buildProduct(1, { name: `${MARKER} valve` }));
  ids.license = await createAs(
    owner,
    "/api/licenses",
    buildLicense(1, ids.contact, { licence_name: MARKER }),
  );
  ids.member = (await joinAs(ctx, owner, ["shipper"])).user.id;
  const invited = await call(ctx, owner.auth, "POST", "/api/workspace/members", {
    email: `invited-${MARKER.toLowerCase()}@example.com`,
    title: "Ms.",
    name: MARKER,
    surname: "Invited",
    roles: ["shipper"],
  });
  ids.invitation = ((await invited.json()) as { invitation: { id: number } }).invitation.id;
  ids.wiki = await createAs(owner, "/api/wikis", { name: `${MARKER} memo`, description: MARKER });
  ids.form = await createAs(owner, "/api/shipping-documents", {
    name: `${MARKER} form`,
    document_type: "other",
  });
  ids.productDocument = await attach("/api/products", ids.product);
  ids.licenseDocument = await attach("/api/licenses", ids.license);
  ids.wikiDocument = await attach("/api/wikis", ids.wiki);
  ids.formDocument = await attach("/api/shipping-documents", ids.form);
  const trade = await call(ctx, owner.auth, "GET", `/api/screenings/trade?itemId=${ids.contact}`);
  ids.result = ((await trade.json()) as { item: { id: number } }).item.id;
  // A shipment with a line of each kind and a stored document.
  ids.shipment = await createAs(owner, "/api/shipments", {});
  const draft = (await (await call(ctx, owner.auth, "GET", `/api/shipments/${ids.shipment}`)).json()) as {
    item: { updated_at: string };
  };
  const saved = await call(ctx, owner.auth, "PUT", `/api/shipments/${ids.shipment}`, {
    name: `${MARKER} shipment`,
    updated_at: draft.item.updated_at,
    items: [{ product_id: ids.product, quantity: 2 }],
    packages: [
      {
        package_id: 1,
        quantity: 1,
        net_weight: "1",
        gross_weight: "2",
        length: "1",
        width: "1",
        height: "1",
      },
    ],
  });
  expect(saved.status).toBe(200);
  const lines = ((await saved.json()) as { item: { items: { id: number }[]; packages: { id: number }[] } })
    .item;
  ids.shipmentItem = lines.items[0].id;
  ids.shipmentPackage = lines.packages[0].id;
  const upload = new FormData();
  upload.append("documents[]", new File([new Uint8Array(PDF)], `${MARKER}.pdf`));
  const custom = await ctx.app.request(`/api/shipments/custom-docs/${ids.shipment}`, {
    method: "POST",
    headers: owner.auth,
    body: upload,
  });
  expect(custom.status).toBeLessThan(300);
  const withDocs = (await (await call(ctx, owner.auth, "GET", `/api/shipments/${ids.shipment}`)).json()) as {
    item: { documents: { id: number }[] };
  };
  ids.shipmentDocument = withDocs.item.documents[0].id;
  const list = await call(ctx, owner.auth, "GET", "/api/screenings");
  const rows = ((await list.json()) as { data: { id: number; contact_id: number }[] }).data;
  ids.screening = rows.find((row) => row.contact_id === ids.contact)!.id;
}, 120_000);
afterAll(() => ctx.database.close());

const routes = () => apiRoutes(ctx.app).filter((r) => !PUBLIC_ROUTES.has(`${r.method} ${plainPath(r.path)}`));
const label = (r: TRoute) => `${r.method} ${plainPath(r.path)}`;

describe("workspace isolation over every endpoint and verb", () => {
  test("every route that names a record by id has an owner record to probe it with", () => {
    const unmapped = routes()
      .filter((r) => paramsOf(r.path).length && !kindOf(r.path))
      .map(label);
    // A new endpoint lands here until RESOURCES says which record kind its id names.
    expect(unmapped).toEqual([]);
  });

  test("another workspace's record ids answer 404 on every route and verb, and change nothing", async () => {
    const answers: string[] = [];
    for (const route of routes()) {
      const kind = kindOf(route.path);
      if (!paramsOf(route.path).length || !kind) continue;
      const url = fillPath(route.path, (name) => paramValue(kind, name, route.path));
      const body = route.path.endsWith("/generate")
        ? { types: ["commercial_invoice"] }
        : route.method === "POST" || route.method === "PUT"
          ? bodyFor(kind)
          : undefined;
      const res = await call(ctx, stranger.auth, route.method, url, body);
      const text = await res.text();
      if (res.status !== 404 || text.includes(MARKER)) answers.push(`${route.method} ${url} → ${res.status}`);
    }
    expect(answers).toEqual([]);
  });

  test("ids carried in the query or the body are checked too", async () => {
    const probes: [string, string, unknown?][] = [
      ["GET", `/api/screenings/trade?itemId=${ids.contact}`],
      ["GET", `/api/screenings/override?id=${ids.result}&status=passed&note=mine`],
      ["POST", "/api/screenings/override", { id: ids.result, status: "passed", note: "mine" }],
      ["GET", `/api/screenings/contact/${ids.contact}/history`],
    ];
    for (const [method, url, body] of probes) {
      const res = await call(ctx, stranger.auth, method, url, body);
      expect({ url, status: res.status }).toEqual({ url, status: 404 });
    }
    for (const [base, kind] of [
      ["/api/products", "product"],
      ["/api/licenses", "license"],
      ["/api/wikis", "wiki"],
      ["/api/shipping-documents", "form"],
    ]) {
      const form = new FormData();
      form.append("id", String(ids[kind]));
      form.append("documents[]", new File([new Uint8Array(PDF)], "intruder.pdf"));
      const res = await ctx.app.request(`${base}/documents`, {
        method: "POST",
        headers: stranger.auth,
        body: form,
      });
      expect({ base, status: res.status }).toEqual({ base, status: 404 });
    }
    // A reference to someone else's record is refused like a missing one.
    const licence = await call(ctx, stranger.auth, "POST", "/api/licenses", buildLicense(7, ids.contact));
    expect(licence.status).toBe(422);
  });

  test("lists, downloads and searches of every route without an id show nothing of the other workspace", async () => {
    const leaks: string[] = [];
    for (const route of routes()) {
      if (route.method !== "GET" || paramsOf(route.path).length) continue;
      // Searches look for the owner's company by a word of it (the marker itself would land in the
      // stranger's own audit log as their search).
      const res = await call(
        ctx,
        stranger.auth,
        "GET",
        `${plainPath(route.path)}?keywords=Holdings&name=Holdings`,
      );
      const text = await res.text();
      if (res.status >= 500 || text.includes(MARKER)) leaks.push(`${label(route)} → ${res.status}`);
    }
    expect(leaks).toEqual([]);
  });

  test("the owner's records are all still there and unchanged", async () => {
    for (const [base, kind] of [
      ["/api/contacts", "contact"],
      ["/api/products", "product"],
      ["/api/licenses", "license"],
      ["/api/wikis", "wiki"],
      ["/api/shipping-documents", "form"],
    ]) {
      const res = await call(ctx, owner.auth, "GET", `${base}/${ids[kind]}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(MARKER);
    }
    const doc = await call(ctx, owner.auth, "GET", `/api/products/documents/${ids.productDocument}`);
    expect(doc.status).toBe(200);
  });
});

describe("cross-site request forgery", () => {
  const ORIGINS: [string, Record<string, string>][] = [
    ["no Origin or Referer", {}],
    ["a foreign Origin", { origin: "https://evil.test" }],
    ["Origin null (sandboxed frame)", { origin: "null" }],
    ["a look-alike Origin", { origin: "http://localhost.evil.test" }],
    ["our host on another port", { origin: "http://localhost:1" }],
    ["a foreign Referer", { referer: "https://evil.test/form.html" }],
    ["a look-alike Referer", { referer: "http://localhost:8000.evil.test/" }],
    ["cross-site fetch metadata", { "sec-fetch-site": "cross-site", origin: "https://evil.test" }],
  ];

  test("every state-changing route refuses a cookie-authenticated request from another site (403)", async () => {
    const accepted: string[] = [];
    for (const route of routes()) {
      if (!["POST", "PUT", "DELETE", "PATCH"].includes(route.method)) continue;
      const kind = kindOf(route.path);
      const url = fillPath(route.path, () => String(kind ? ids[kind] : 1));
      for (const [name, headers] of ORIGINS) {
        const res = await ctx.app.request(url, {
          method: route.method,
          headers: { cookie: owner.cookie, "content-type": "application/json", ...headers },
          body: route.method === "DELETE" ? undefined : JSON.stringify(kind ? bodyFor(kind) : {}),
        });
        if (res.status !== 403) accepted.push(`${route.method} ${url} with ${name} → ${res.status}`);
      }
    }
    expect(accepted).toEqual([]);
    // Nothing happened to the owner's records.
    expect((await call(ctx, owner.auth, "GET", `/api/contacts/${ids.contact}`)).status).toBe(200);
  });

  test("the state-changing GET (override) and the logout page's POST refuse them too", async () => {
    for (const [name, headers] of ORIGINS) {
      const override = await ctx.app.request(
        `/api/screenings/override?id=${ids.result}&status=passed&note=x`,
        {
          headers: { cookie: owner.cookie, ...headers },
        },
      );
      expect({ name, status: override.status }).toEqual({ name, status: 403 });
      const logout = await ctx.app.request("/auth/logout", {
        method: "POST",
        headers: { cookie: owner.cookie, ...headers },
      });
      expect({ name, status: logout.status }).toEqual({ name, status: 403 });
    }
    expect((await ctx.app.request("/api/user", { headers: { cookie: owner.cookie } })).status).toBe(200);
  });

  test("the same requests from our own origin go through (the checks are not refusing everything)", async () => {
    const res = await ctx.app.request(`/api/contacts/${ids.contact}`, {
      method: "PUT",
      headers: { cookie: owner.cookie, "content-type": "application/json", origin: "http://localhost" },
      body: JSON.stringify(buildContact({ company: `${MARKER} Holdings` })),
    });
    expect(res.status).toBe(200);
  });
});
