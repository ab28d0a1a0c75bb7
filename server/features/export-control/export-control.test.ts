import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { TLicenseUsage, TShipmentExportControl } from "../../../db/contracts/export-control";
import { documents, export_control_audit } from "../../../db/schema";
import { buildContact, buildLicense, buildProduct, call, signUp } from "../../test/factories";
import { createTestContext, storedNames, type TTestContext } from "../../test/setup";
import { readPdfText } from "../paperwork/pdf-text";
import { SHIPPED_FILES } from "./ear-tables";

const USA = 236;
const CHINA = 47;
const GERMANY = 84;
const CANADA = 42;
const IRAN = 105;
const USD = 1;
const EUR = 43;
const DAP = 5;

let ctx: TTestContext;
let who: Awaited<ReturnType<typeof signUp>>;
type TWho = typeof who;

beforeAll(async () => {
  ctx = await createTestContext();
  who = await signUp(ctx);
});
afterAll(() => ctx.database.close());

async function created<T>(res: Response, what: string): Promise<T> {
  if (res.status !== 201) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { item: T }).item;
}

const contact = async (owner: TWho, overrides: Record<string, unknown>) =>
  created<{ id: number }>(
    await call(ctx, owner.auth, "POST", "/api/contacts", buildContact(overrides)),
    "contact",
  );

let n = 0;
const product = (owner: TWho, overrides: Record<string, unknown>) => {
  n += 1;
  return Promise.resolve(call(ctx, owner.auth, "POST", "/api/products", buildProduct(n, overrides))).then(
    (r) => created<{ id: number }>(r, "product"),
  );
};

type TShipment = {
  id: number;
  updated_at: string;
  aes_citation: string;
  items: {
    id: number;
    product_id: number;
    license_id: number | null;
    override_justification: string;
    schedule_b_unit: string;
    schedule_b_quantity: string;
  }[];
};

/** A shipment built through the API: exporter in the US, an importer in `country`, the given lines. */
async function shipment(
  owner: TWho,
  country: number,
  lines: { product_id: number; quantity: number; license_id?: number }[],
  fields: Record<string, unknown> = {},
) {
  const exporter = await contact(owner, {
    company: "Acme Export Inc.",
    country_id: USA,
    state_province: "CA",
  });
  const importer = await contact(owner, { company: `Importer ${country}`, country_id: country });
  const draft = await created<TShipment>(await call(ctx, owner.auth, "POST", "/api/shipments"), "shipment");
  const res = await call(ctx, owner.auth, "PUT", `/api/shipments/${draft.id}`, {
    updated_at: draft.updated_at,
    name: `Order ${draft.id}`,
    exporter_of_record_id: exporter.id,
    importer_of_record_id: importer.id,
    ship_date: "2026-11-21",
    currency_id: USD,
    incoterm_id: DAP,
    port_of_export: "Los Angeles, CA",
    items: lines,
    ...fields,
  });
  if (res.status !== 200) throw new Error(`shipment: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { item: TShipment }).item;
}

async function standing(owner: TWho, id: number) {
  const res = await call(ctx, owner.auth, "GET", `/api/export-control/shipments/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as TShipmentExportControl;
}

async function generate(owner: TWho, id: number, types = ["commercial_invoice"]) {
  const res = await call(ctx, owner.auth, "POST", `/api/paperwork/shipments/${id}/generate`, { types });
  return {
    status: res.status,
    body: (await res.json()) as {
      message?: string;
      refusals?: string[];
      lines?: { eccn: string; destination: string; reason: string }[];
      documents: { id: number; document_type: string }[];
    },
  };
}

const documentsOf = (id: number) =>
  ctx.database.db.select().from(documents).where(eq(documents.shipment_id, id));
const storedFiles = async () => (await storedNames(ctx, "documents")).length;

async function invoiceText(owner: TWho, documentId: number) {
  const file = await call(ctx, owner.auth, "GET", `/api/paperwork/documents/${documentId}/download`);
  return (await readPdfText(new Uint8Array(await file.arrayBuffer()))).text;
}

describe("determination on shipments", () => {
  test("AT-only items to Germany, Japan or China are NLR, not 'licence required'", async () => {
    const encryption = await product(who, { US_ECCN: "5A992.c", unit_value: "100.00" });
    const analyser = await product(who, { US_ECCN: "3A992.a", unit_value: "100.00" });
    const s = await shipment(who, CHINA, [
      { product_id: encryption.id, quantity: 1 },
      { product_id: analyser.id, quantity: 1 },
    ]);
    const ec = await standing(who, s.id);
    expect(ec.destination?.iso2).toBe("CN");
    expect(ec.lines.map((l) => l.determination.outcome)).toEqual(["nlr", "nlr"]);
    expect(ec.lines.map((l) => l.basis.text)).toEqual(["NLR", "NLR"]);
    expect(ec.eei.itn_required).toBe(false);
    expect(ec.eei.exemption).toBe("NOEEI § 30.37(a)");
    expect(ec.refusals).toEqual([]);
    expect(ec.edition.edition_date).toBe("2026-07-23");
    // A US dollar shipment's rate is 1.
    const got = (await (await call(ctx, who.auth, "GET", `/api/shipments/${s.id}`)).json()) as {
      item: { usd_exchange_rate: string };
    };
    expect(got.item.usd_exchange_rate).toBe("1");
  });

  test("another workspace's shipment is a 404", async () => {
    const other = await signUp(ctx);
    const p = await product(other, { US_ECCN: "EAR99" });
    const s = await shipment(other, GERMANY, [{ product_id: p.id, quantity: 1 }]);
    expect((await call(ctx, who.auth, "GET", `/api/export-control/shipments/${s.id}`)).status).toBe(404);
    expect(
      (await call(ctx, who.auth, "GET", `/api/export-control/shipments/${s.id}/eei-data-sheet.json`)).status,
    ).toBe(404);
    const line = s.items[0].id;
    const put = await call(ctx, who.auth, "PUT", `/api/export-control/shipments/${s.id}/lines/${line}`, {
      license_exception: "LVS",
    });
    expect(put.status).toBe(404);
    // An EEI body that names no field is still refused for a shipment that is not the caller's.
    const eei = `/api/export-control/shipments/${s.id}/eei`;
    expect((await call(ctx, who.auth, "PUT", eei, {})).status).toBe(404);
    expect((await call(ctx, other.auth, "PUT", eei, {})).status).toBe(200);
  });
});

describe("refusals", () => {
  test("an embargoed destination stops every line, EAR99 included: 422 naming part 746, nothing generated", async () => {
    const p = await product(who, { US_ECCN: "EAR99", unit_value: "10.00", product_number: "CABLE-1" });
    const s = await shipment(who, IRAN, [{ product_id: p.id, quantity: 1 }], {
      aes_citation: "X20261120123456",
    });
    const files = await storedFiles();
    const { status, body } = await generate(who, s.id);
    expect(status).toBe(422);
    expect(body.message).toContain("part 746");
    expect(body.message).toContain("Iran");
    expect(body.lines?.[0].eccn).toBe("EAR99");
    expect(await documentsOf(s.id)).toEqual([]);
    expect(await storedFiles()).toBe(files);
  });

  test("an override needs a written justification, clears the line, and is audited (who, when, why)", async () => {
    const owner = await signUp(ctx);
    const p = await product(owner, { US_ECCN: "3A001.b.2", unit_value: "100.00", product_number: "MMIC-9" });
    const s = await shipment(owner, CHINA, [{ product_id: p.id, quantity: 1 }]);
    const first = await generate(owner, s.id);
    expect(first.status).toBe(422);
    expect(first.body.message).toContain("MMIC-9, ECCN 3A001.b.2, to China: NS2");
    const line = s.items[0].id;
    const url = `/api/export-control/shipments/${s.id}/lines/${line}`;
    const thin = await call(ctx, owner.auth, "PUT", url, { override_justification: "ok" });
    expect(thin.status).toBe(422);
    expect(((await thin.json()) as { message: string }).message).toContain("at least 15 characters");
    expect((await generate(owner, s.id)).status).toBe(422);

    const why = "Civil telecom MMIC, outside NS2 per CCATS G123456";
    const ok = await call(ctx, owner.auth, "PUT", url, { override_justification: why });
    expect(ok.status).toBe(200);
    const ec = (await ok.json()) as TShipmentExportControl;
    expect(ec.lines[0].basis.kind).toBe("override");
    expect(ec.refusals).toEqual([]);
    const [entry] = await ctx.database.db
      .select()
      .from(export_control_audit)
      .where(eq(export_control_audit.shipment_id, s.id));
    expect(entry.user_id).toBe(owner.user.id);
    expect(entry.user_email).toBe(owner.email);
    expect(entry.justification).toBe(why);
    expect(entry.determination).toContain("NS2: licence required to China");
    expect(entry.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const trail = await call(ctx, owner.auth, "GET", `/api/export-control/shipments/${s.id}/audit`);
    expect(((await trail.json()) as { data: unknown[] }).data.length).toBe(1);

    // The $100 line is under $2,500 and needs no licence now: the low-value legend is filled in.
    const done = await generate(owner, s.id);
    expect(done.status).toBe(201);
    const text = await invoiceText(owner, done.body.documents[0].id);
    expect(text).toContain("NOEEI § 30.37(a)");
    expect(text).toContain("Licence basis: NLR");
  });

  test("an override through the shipment PUT is validated and audited too", async () => {
    const owner = await signUp(ctx);
    const p = await product(owner, { US_ECCN: "3A001.b.2", unit_value: "100.00" });
    const s = await shipment(owner, CHINA, [{ product_id: p.id, quantity: 1 }]);
    const line = { id: s.items[0].id, product_id: p.id, quantity: 1 };
    const short = await call(ctx, owner.auth, "PUT", `/api/shipments/${s.id}`, {
      updated_at: s.updated_at,
      items: [{ ...line, override_justification: "because" }],
    });
    expect(short.status).toBe(422);
    const body = (await short.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(body.errors)).toContain("items.0.override_justification");
    const good = await call(ctx, owner.auth, "PUT", `/api/shipments/${s.id}`, {
      updated_at: s.updated_at,
      items: [{ ...line, override_justification: "Classified by counsel as outside 3A001.b.2" }],
    });
    expect(good.status).toBe(200);
    const item = ((await good.json()) as { item: TShipment }).item;
    expect(item.items[0].override_justification).toBe("Classified by counsel as outside 3A001.b.2");
    // A later save that leaves the member out keeps it.
    const again = await call(ctx, owner.auth, "PUT", `/api/shipments/${s.id}`, {
      updated_at: item.updated_at,
      items: [line],
    });
    expect(((await again.json()) as { item: TShipment }).item.items[0].override_justification).toContain(
      "counsel",
    );
    const rows = await ctx.database.db
      .select()
      .from(export_control_audit)
      .where(eq(export_control_audit.shipment_id, s.id));
    expect(rows.map((r) => r.action)).toEqual(["override"]);
  });
});

describe("licences", () => {
  test("a licence is drawn down across shipments, warns at 90 %, covers nothing when exhausted, and is released on delete", async () => {
    const owner = await signUp(ctx);
    const holder = await contact(owner, { company: "Licensee Ltd", country_id: CHINA });
    const p = await product(owner, { US_ECCN: "3A001.b.2", unit_value: "100.00", product_number: "AMP-1" });
    const licence = await created<{ id: number }>(
      await call(
        ctx,
        owner.auth,
        "POST",
        "/api/licenses",
        buildLicense(900, holder.id, {
          product_id: p.id,
          country_id: CHINA,
          reference_number_1: "D900001",
          authorized_value: "1000.00",
        }),
      ),
      "licence",
    );
    const usage = async () =>
      (await (
        await call(ctx, owner.auth, "GET", `/api/export-control/licenses/${licence.id}/usage`)
      ).json()) as TLicenseUsage;

    const a = await shipment(owner, CHINA, [{ product_id: p.id, quantity: 8 }]);
    let ec = await standing(owner, a.id);
    expect(ec.lines[0].determination.outcome).toBe("license_required");
    expect(ec.lines[0].license_candidates.map((c) => c.number)).toEqual(["D900001"]);
    const put = await call(
      ctx,
      owner.auth,
      "PUT",
      `/api/export-control/shipments/${a.id}/lines/${a.items[0].id}`,
      {
        license_id: licence.id,
      },
    );
    ec = (await put.json()) as TShipmentExportControl;
    expect(ec.lines[0].basis).toEqual({ kind: "license", text: "D900001" });
    expect((await usage()).used_value).toBe("800.00");
    expect((await usage()).remaining_value).toBe("200.00");

    const b = await shipment(owner, CHINA, [{ product_id: p.id, quantity: 1, license_id: licence.id }]);
    expect((await standing(owner, b.id)).lines[0].license?.covers).toBe(true);
    const ninety = await usage();
    expect(ninety.percent_used).toBe(90);
    expect(ninety.warning).toContain("90% used");
    expect(ninety.shipments.map((s) => s.shipment_id)).toEqual([a.id, b.id]);

    const c = await shipment(owner, CHINA, [{ product_id: p.id, quantity: 2, license_id: licence.id }]);
    const over = await standing(owner, c.id);
    expect(over.lines[0].license?.covers).toBe(false);
    expect(over.lines[0].license?.problem).toContain("exhausted");
    expect(over.lines[0].license_candidates).toEqual([]);
    expect(over.refusals.length).toBeGreaterThan(0);

    // Deleting shipment A releases its $800: C is covered again.
    expect((await call(ctx, owner.auth, "DELETE", `/api/shipments/${a.id}`)).status).toBe(200);
    expect((await usage()).used_value).toBe("300.00");
    expect((await standing(owner, c.id)).lines[0].license?.covers).toBe(true);

    // Removing C's line releases it too.
    expect(
      (await call(ctx, owner.auth, "DELETE", `/api/shipments/items/${c.id}/${c.items[0].id}`)).status,
    ).toBe(200);
    expect((await usage()).used_value).toBe("100.00");

    // The licence list shows the usage.
    const list = await call(ctx, owner.auth, "GET", "/api/licenses");
    const rows = ((await list.json()) as { data: { id: number; usage?: TLicenseUsage }[] }).data;
    expect(rows.find((r) => r.id === licence.id)?.usage?.used_value).toBe("100.00");

    // A licence that lines shipped under is an export record: deleting it asks for force, which detaches them.
    const kept = await call(ctx, owner.auth, "DELETE", `/api/licenses/${licence.id}`);
    expect(kept.status).toBe(422);
    expect(JSON.stringify(await kept.json())).toContain("covers 1 shipment line");
    expect((await call(ctx, owner.auth, "DELETE", `/api/licenses/${licence.id}?force=1`)).status).toBe(200);
    const after = await standing(owner, b.id);
    expect(after.lines[0].license).toBeNull();
    expect(after.lines[0].basis.kind).toBe("none");
  });

  test("an expired licence, or one for another country, covers nothing; a foreign licence is refused", async () => {
    const owner = await signUp(ctx);
    const holder = await contact(owner, { company: "Licensee Ltd", country_id: CHINA });
    const p = await product(owner, { US_ECCN: "3A001.b.2", unit_value: "100.00" });
    const expired = await created<{ id: number }>(
      await call(
        ctx,
        owner.auth,
        "POST",
        "/api/licenses",
        buildLicense(901, holder.id, {
          product_id: p.id,
          country_id: CHINA,
          valid_date: "2025-01-01",
          expiration_date: "2025-12-31",
        }),
      ),
      "licence",
    );
    const s = await shipment(owner, CHINA, [{ product_id: p.id, quantity: 1, license_id: expired.id }]);
    const ec = await standing(owner, s.id);
    expect(ec.lines[0].license?.covers).toBe(false);
    expect(ec.lines[0].license?.problem).toContain("expired");
    expect((await generate(owner, s.id)).status).toBe(422);

    const stranger = await signUp(ctx);
    const strangerHolder = await contact(stranger, { company: "Other Ltd" });
    const theirs = await created<{ id: number }>(
      await call(ctx, stranger.auth, "POST", "/api/licenses", buildLicense(902, strangerHolder.id)),
      "licence",
    );
    const res = await call(
      ctx,
      owner.auth,
      "PUT",
      `/api/export-control/shipments/${s.id}/lines/${s.items[0].id}`,
      {
        license_id: theirs.id,
      },
    );
    expect(res.status).toBe(422);
  });

  test("a licence exception offered by the data is stored and printed; one not offered does not cover", async () => {
    const owner = await signUp(ctx);
    // 1A001 (NS2, LVS $5000) to Brazil (Country Group B, NS2 marked).
    const p = await product(owner, { US_ECCN: "1A001.a", unit_value: "1000.00", HTS: "4016.93.1050" });
    const s = await shipment(owner, 32, [{ product_id: p.id, quantity: 2 }], {
      aes_citation: "X20261120123456",
    });
    let ec = await standing(owner, s.id);
    expect(ec.lines[0].determination.exceptions_offered.map((o) => o.symbol)).toEqual(["LVS"]);
    const url = `/api/export-control/shipments/${s.id}/lines/${s.items[0].id}`;
    ec = (await (
      await call(ctx, owner.auth, "PUT", url, { license_exception: "GBS" })
    ).json()) as TShipmentExportControl;
    expect(ec.lines[0].basis.kind).toBe("none");
    expect(ec.lines[0].warnings.join(" ")).toContain("GBS is not available");
    ec = (await (
      await call(ctx, owner.auth, "PUT", url, { license_exception: "lvs" })
    ).json()) as TShipmentExportControl;
    expect(ec.lines[0].basis).toEqual({ kind: "exception", text: "LVS" });
    expect(ec.eei.itn_required).toBe(false);
    // An ITN entered although no EEI is needed is kept (the user filed anyway).
    const done = await generate(owner, s.id);
    expect(done.status).toBe(201);
    expect(await invoiceText(owner, done.body.documents[0].id)).toContain("Licence exception: LVS");
  });
});

describe("LVS per shipment and ECCN", () => {
  test("two lines of one ECCN, each within the LVS value but over it together, are not offered LVS", async () => {
    const owner = await signUp(ctx);
    // 1A001 (NS2, LVS $5000) to Brazil (Country Group B, NS2 marked): $3,000 + $3,000 > $5,000.
    const a = await product(owner, { US_ECCN: "1A001.a", unit_value: "3000.00", product_number: "SEAL-A" });
    const b = await product(owner, { US_ECCN: "1A001.b", unit_value: "3000.00", product_number: "SEAL-B" });
    const ear99 = await product(owner, { US_ECCN: "EAR99", unit_value: "9000.00", product_number: "CABLE" });
    const single = await shipment(owner, 32, [
      { product_id: a.id, quantity: 1 },
      { product_id: ear99.id, quantity: 1 },
    ]);
    const alone = await standing(owner, single.id);
    // Lines of another ECCN do not count towards the limit.
    expect(alone.lines[0].determination.exceptions_offered.map((o) => o.symbol)).toEqual(["LVS"]);

    const s = await shipment(
      owner,
      32,
      [
        { product_id: a.id, quantity: 1 },
        { product_id: b.id, quantity: 1 },
      ],
      { aes_citation: "X20261120123456" },
    );
    let ec = await standing(owner, s.id);
    for (const line of ec.lines) {
      expect(line.determination.outcome).toBe("license_required");
      expect(line.determination.exceptions_offered.map((o) => o.symbol)).not.toContain("LVS");
      expect(line.warnings.join(" ")).toContain("together are $6,000 net");
    }
    const url = `/api/export-control/shipments/${s.id}/lines/${s.items[0].id}`;
    ec = (await (
      await call(ctx, owner.auth, "PUT", url, { license_exception: "LVS" })
    ).json()) as TShipmentExportControl;
    expect(ec.lines[0].basis.kind).toBe("none");
    expect(ec.lines[0].warnings.join(" ")).toContain("LVS is not available");
    const refused = await generate(owner, s.id);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain("SEAL-A");
    expect(await documentsOf(s.id)).toEqual([]);
  });
});

describe("EEI", () => {
  test("the ITN must be X, a real past date and six digits", async () => {
    const p = await product(who, { US_ECCN: "EAR99" });
    const s = await shipment(who, GERMANY, [{ product_id: p.id, quantity: 1 }]);
    const put = (aes: string, updated_at: string) =>
      call(ctx, who.auth, "PUT", `/api/shipments/${s.id}`, { updated_at, aes_citation: aes });
    const month13 = await put("X20261399123456", s.updated_at);
    expect(month13.status).toBe(422);
    expect(JSON.stringify(await month13.json())).toContain("not a real date");
    const future = await put("X20991201123456", s.updated_at);
    expect(future.status).toBe(422);
    expect(JSON.stringify(await future.json())).toContain("in the future");
    expect((await put("X2026112012345", s.updated_at)).status).toBe(422);
    const good = await put("X20261120123456", s.updated_at);
    expect(good.status).toBe(200);
  });

  test("over $2,500 per Schedule B without an ITN is refused naming § 30.2; an ITN lets it through", async () => {
    const owner = await signUp(ctx);
    const p = await product(owner, { US_ECCN: "EAR99", unit_value: "2600.00", HTS: "8471.30.0100" });
    const s = await shipment(owner, GERMANY, [{ product_id: p.id, quantity: 1 }]);
    const refused = await generate(owner, s.id);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain("§ 30.2(a)(1)(iv)(A)");
    expect(refused.body.message).toContain("8471300100");
    expect(await documentsOf(s.id)).toEqual([]);
    await call(ctx, owner.auth, "PUT", `/api/export-control/shipments/${s.id}/eei`, {
      aes_citation: "X20261120123456",
    });
    const ok = await generate(owner, s.id);
    expect(ok.status).toBe(201);
    expect(await invoiceText(owner, ok.body.documents[0].id)).toContain("AES X20261120123456");
  });

  test("values in euros are judged at the stored rate; without one an ITN is required", async () => {
    const owner = await signUp(ctx);
    const p = await product(owner, { US_ECCN: "EAR99", unit_value: "2400.00", HTS: "8471.30.0100" });
    const s = await shipment(owner, GERMANY, [{ product_id: p.id, quantity: 1 }], { currency_id: EUR });
    let ec = await standing(owner, s.id);
    expect(ec.eei.itn_required).toBe(true);
    expect(ec.eei.reasons.join(" ")).toContain("exchange rate");
    const bad = await call(ctx, owner.auth, "PUT", `/api/export-control/shipments/${s.id}/eei`, {
      usd_exchange_rate: "-1",
    });
    expect(bad.status).toBe(422);
    const eei = async (rate: string) => {
      const res = await call(ctx, owner.auth, "PUT", `/api/export-control/shipments/${s.id}/eei`, {
        usd_exchange_rate: rate,
        usd_exchange_rate_date: "2026-11-20",
      });
      return (await res.json()) as TShipmentExportControl;
    };
    ec = await eei("1.0400");
    // €2,400 × 1.04 = $2,496.00: within the limit.
    expect(ec.eei.by_schedule_b).toEqual([
      { schedule_b: "8471300100", value_usd: "2496.00", over_limit: false },
    ]);
    expect(ec.eei.exemption).toBe("NOEEI § 30.37(a)");
    ec = await eei("1.05");
    expect(ec.eei.itn_required).toBe(true);
    expect(ec.eei.by_schedule_b[0].value_usd).toBe("2520.00");
    const item = (
      (await (await call(ctx, owner.auth, "GET", `/api/shipments/${s.id}`)).json()) as {
        item: { usd_exchange_rate: string; usd_exchange_rate_date: string };
      }
    ).item;
    expect(item.usd_exchange_rate).toBe("1.05");
    expect(item.usd_exchange_rate_date).toBe("2026-11-20");
  });

  test("the Canada exemption fills in NOEEI § 30.36 whatever the value; the user may change it", async () => {
    const owner = await signUp(ctx);
    const p = await product(owner, { US_ECCN: "EAR99", unit_value: "12500.00" });
    const s = await shipment(owner, CANADA, [{ product_id: p.id, quantity: 1 }]);
    const ec = await standing(owner, s.id);
    expect(ec.eei.itn_required).toBe(false);
    expect(ec.eei.exemption).toBe("NOEEI § 30.36");
    const done = await generate(owner, s.id);
    expect(done.status).toBe(201);
    const item = (
      (await (await call(ctx, owner.auth, "GET", `/api/shipments/${s.id}`)).json()) as {
        item: { aes_citation: string };
      }
    ).item;
    expect(item.aes_citation).toBe("NOEEI § 30.36");
    expect(await invoiceText(owner, done.body.documents[0].id)).toContain("NOEEI § 30.36");
    // A legend that does not apply is refused by name.
    await call(ctx, owner.auth, "PUT", `/api/export-control/shipments/${s.id}/eei`, {
      aes_citation: "NOEEI § 30.37(a)",
    });
    const wrong = await generate(owner, s.id);
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toContain("'NOEEI § 30.36' does");
  });

  test("the EEI data sheet carries the § 30.6 elements and lists what is missing (JSON, CSV, PDF), and the SLI", async () => {
    const owner = await signUp(ctx);
    const p = await product(owner, {
      US_ECCN: "5A992.c",
      unit_value: "300.00",
      HTS: "8471.30.0100",
      net_weight: "2.5",
      product_number: "ROUTER-1",
    });
    const s = await shipment(owner, GERMANY, [{ product_id: p.id, quantity: 4 }], {
      carrier_id: 1,
      mode_of_transport_id: 1,
      ultimate_consignee_type: "R",
      related_party: "N",
    });
    await call(ctx, owner.auth, "PUT", `/api/export-control/shipments/${s.id}/lines/${s.items[0].id}`, {
      schedule_b: "8471.30.0100",
    });
    const res = await call(
      ctx,
      owner.auth,
      "GET",
      `/api/export-control/shipments/${s.id}/eei-data-sheet.json`,
    );
    expect(res.status).toBe(200);
    const sheet = (await res.json()) as {
      usppi: { name: string; id_number: string; state_of_origin: string };
      ultimate_consignee: { name: string; type: string };
      country_of_ultimate_destination: string;
      date_of_export: string;
      port_of_export: string;
      related_party: string;
      itn_or_exemption: string;
      lines: Record<string, unknown>[];
      missing: string[];
    };
    expect(sheet.usppi.name).toBe("Acme Export Inc.");
    expect(sheet.usppi.id_number).toMatch(/^TAX-/);
    expect(sheet.usppi.state_of_origin).toBe("CA");
    expect(sheet.ultimate_consignee.type).toBe("R");
    expect(sheet.country_of_ultimate_destination).toBe("Germany");
    expect(sheet.date_of_export).toBe("2026-11-21");
    expect(sheet.port_of_export).toBe("Los Angeles, CA");
    expect(sheet.itn_or_exemption).toBe("NOEEI § 30.37(a)");
    expect(sheet.lines[0]).toMatchObject({
      schedule_b: "8471300100",
      quantity: 4,
      // Unless the user states another, the Schedule B unit is NO and the quantity the piece count.
      unit_of_measure: "NO",
      schedule_b_quantity: "4",
      shipping_weight_kg: "10.000",
      value_usd: "1200.00",
      eccn: "5A992.c",
      license_basis: "NLR",
      license_code: "C32",
      origin_indicator: "F",
    });
    expect(sheet.missing).toContain("The routed export transaction indicator (Y/N).");
    expect(sheet.missing).toContain("The hazardous materials indicator (Y/N).");
    expect(sheet.missing.some((m) => m.includes("Related"))).toBe(false);
    expect(sheet.missing.some((m) => m.includes("Schedule B quantity"))).toBe(false);

    // A unit other than NO needs its quantity: until it is given, the sheet lists it as missing.
    const lineUrl = `/api/export-control/shipments/${s.id}/lines/${s.items[0].id}`;
    const kg = await call(ctx, owner.auth, "PUT", lineUrl, { schedule_b_unit: "kg" });
    expect(kg.status).toBe(200);
    expect(((await kg.json()) as TShipmentExportControl).lines[0].stored).toMatchObject({
      schedule_b_unit: "KG",
      schedule_b_quantity: "",
    });
    const withoutQuantity = (await (
      await call(ctx, owner.auth, "GET", `/api/export-control/shipments/${s.id}/eei-data-sheet.json`)
    ).json()) as typeof sheet;
    expect(withoutQuantity.lines[0]).toMatchObject({ unit_of_measure: "KG", schedule_b_quantity: "" });
    expect(withoutQuantity.missing).toContain("Line 1 (ROUTER-1): the Schedule B quantity in KG.");
    expect((await call(ctx, owner.auth, "PUT", lineUrl, { schedule_b_quantity: "9.125" })).status).toBe(200);
    // A shipment PUT that leaves the two fields out keeps them.
    const current = (await (await call(ctx, owner.auth, "GET", `/api/shipments/${s.id}`)).json()) as {
      item: TShipment;
    };
    const resaved = await call(ctx, owner.auth, "PUT", `/api/shipments/${s.id}`, {
      ...current.item,
      items: current.item.items.map(({ schedule_b_unit: _u, schedule_b_quantity: _q, ...line }) => line),
    });
    expect(resaved.status).toBe(200);
    const kept = ((await resaved.json()) as { item: TShipment }).item.items[0];
    expect([kept.schedule_b_unit, kept.schedule_b_quantity]).toEqual(["KG", "9.125"]);
    const withQuantity = (await (
      await call(ctx, owner.auth, "GET", `/api/export-control/shipments/${s.id}/eei-data-sheet.json`)
    ).json()) as typeof sheet;
    expect(withQuantity.lines[0]).toMatchObject({ unit_of_measure: "KG", schedule_b_quantity: "9.125" });
    expect(withQuantity.missing.some((m) => m.includes("Schedule B quantity"))).toBe(false);

    const csv = await call(
      ctx,
      owner.auth,
      "GET",
      `/api/export-control/shipments/${s.id}/eei-data-sheet.csv`,
    );
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const csvText = await csv.text();
    expect(csvText).toContain("8471300100");
    expect(csvText).toContain("Still missing");
    expect(csvText).toContain("Schedule B quantity,Schedule B unit");
    expect(csvText).toContain("9.125,KG");
    const pdf = await call(
      ctx,
      owner.auth,
      "GET",
      `/api/export-control/shipments/${s.id}/eei-data-sheet.pdf`,
    );
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const pdfText = (await readPdfText(new Uint8Array(await pdf.arrayBuffer()))).text;
    expect(pdfText).toContain("EEI data sheet");
    expect(pdfText).toContain("8471300100");
    expect(pdfText).toContain("Still missing before filing");
    expect(pdfText).toContain("9.125   KG");
    const sli = await call(ctx, owner.auth, "GET", `/api/export-control/shipments/${s.id}/sli.pdf`);
    const sliText = (await readPdfText(new Uint8Array(await sli.arrayBuffer()))).text;
    expect(sliText).toContain("Shipper's Letter of Instruction");
    expect(sliText).toContain("NOEEI § 30.37(a)");
  });

  test("a Schedule B unit outside the Census list, or a bad quantity, is a 422 and changes nothing", async () => {
    const p = await product(who, { US_ECCN: "EAR99" });
    const s = await shipment(who, GERMANY, [{ product_id: p.id, quantity: 3 }]);
    const url = `/api/export-control/shipments/${s.id}/lines/${s.items[0].id}`;
    for (const [body, message] of [
      [{ schedule_b_unit: "BOX" }, "Choose the Schedule B unit of quantity from"],
      [{ schedule_b_unit: 5 }, "Choose the Schedule B unit of quantity"],
      [{ schedule_b_quantity: "0" }, "positive number"],
      [{ schedule_b_quantity: "-2" }, "positive number"],
      [{ schedule_b_quantity: "1.2345" }, "3 decimals"],
      [{ schedule_b_quantity: "abc" }, "positive number"],
      [{ schedule_b_unit: "KG", schedule_b_quantity: "1e3" }, "positive number"],
    ] as const) {
      const res = await call(ctx, who.auth, "PUT", url, body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { message: string }).message).toContain(message);
    }
    const ec = await standing(who, s.id);
    expect(ec.lines[0].stored).toMatchObject({ schedule_b_unit: "NO", schedule_b_quantity: "" });
    // The shipment PUT validates the same fields.
    const current = (await (await call(ctx, who.auth, "GET", `/api/shipments/${s.id}`)).json()) as {
      item: TShipment;
    };
    const bad = await call(ctx, who.auth, "PUT", `/api/shipments/${s.id}`, {
      updated_at: current.item.updated_at,
      items: [{ id: s.items[0].id, product_id: p.id, quantity: 3, schedule_b_unit: "BOX" }],
    });
    expect(bad.status).toBe(422);
  });

  test("a bad Schedule B number is a 422", async () => {
    const p = await product(who, { US_ECCN: "EAR99" });
    const s = await shipment(who, GERMANY, [{ product_id: p.id, quantity: 1 }]);
    const res = await call(
      ctx,
      who.auth,
      "PUT",
      `/api/export-control/shipments/${s.id}/lines/${s.items[0].id}`,
      {
        schedule_b: "8471.30",
      },
    );
    expect(res.status).toBe(422);
  });
});

describe("EAR editions", () => {
  test("the workspace owner loads a newer edition; it applies to that workspace only", async () => {
    const owner = await signUp(ctx);
    const other = await signUp(ctx);
    const chart = SHIPPED_FILES.country_chart.replace(/^Germany,DE,([^\n]*)$/m, (line) => {
      const cells = line.split(",");
      cells[8] = "X"; // NS2
      return cells.join(",");
    });
    const bad = await call(ctx, owner.auth, "POST", "/api/export-control/editions", {
      edition_date: "2027-01-15",
      files: { ...SHIPPED_FILES, country_chart: "country,iso2\nGermany,DE\n" },
    });
    expect(bad.status).toBe(422);
    const older = await call(ctx, owner.auth, "POST", "/api/export-control/editions", {
      edition_date: "2020-01-01",
      files: SHIPPED_FILES,
    });
    expect(older.status).toBe(422);
    const loaded = await call(ctx, owner.auth, "POST", "/api/export-control/editions", {
      edition_date: "2027-01-15",
      files: { ...SHIPPED_FILES, country_chart: chart },
    });
    expect(loaded.status).toBe(201);
    const edition = (await (await call(ctx, owner.auth, "GET", "/api/export-control/edition")).json()) as {
      edition_date: string;
      is_shipped: boolean;
    };
    expect(edition).toMatchObject({ edition_date: "2027-01-15", is_shipped: false });
    const mine = await product(owner, { US_ECCN: "2B001.a" });
    const s = await shipment(owner, GERMANY, [{ product_id: mine.id, quantity: 1 }]);
    expect((await standing(owner, s.id)).lines[0].determination.outcome).toBe("license_required");
    const theirs = await product(other, { US_ECCN: "2B001.a" });
    const t = await shipment(other, GERMANY, [{ product_id: theirs.id, quantity: 1 }]);
    expect((await standing(other, t.id)).lines[0].determination.outcome).toBe("nlr");
    expect(
      (
        (await (await call(ctx, other.auth, "GET", "/api/export-control/edition")).json()) as {
          edition_date: string;
        }
      ).edition_date,
    ).toBe("2026-07-23");
  });
});
