import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { decimalToScaled, scaledToDecimal } from "../../../db/contracts/decimal";
import { DESTINATION_CONTROL_STATEMENT } from "../../../db/contracts/paperwork";
import {
  contacts,
  documents,
  paperwork_audit_log,
  products,
  shipment_items,
  shipment_packages,
  shipments,
} from "../../../db/schema";
import {
  buildContact,
  buildLicense,
  call,
  createProduct as createNumberedProduct,
  signUp,
} from "../../test/factories";
import { createTestContext, storedNames, type TTestContext } from "../../test/setup";
import { readPdfText } from "./pdf-text";

const POLAND = 176;
const USA = 236;
const DAP = 5;
const USD = 1;

let ctx: TTestContext;
let who: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  ctx = await createTestContext();
  who = await signUp(ctx);
});
afterAll(() => ctx.database.close());

type TWho = typeof who;

async function createContact(owner: TWho, overrides: Record<string, unknown>) {
  const res = await call(ctx, owner.auth, "POST", "/api/contacts", buildContact(overrides));
  if (res.status !== 201) throw new Error(`contact: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { item: { id: number } }).item;
}

let productCounter = 0;
function createProduct(owner: TWho, overrides: Record<string, unknown> = {}) {
  productCounter += 1;
  return createNumberedProduct(ctx, owner.auth, productCounter, overrides);
}

type TShipmentOverrides = Partial<typeof shipments.$inferInsert>;

/** A shipment written straight to the database, so these tests depend on paperwork alone, not on the shipments API. */
async function createShipment(
  owner: TWho,
  parts: {
    exporter?: number | null;
    importer?: number | null;
    consignee?: number | null;
    items?: { product: { id: number; unit_value: string }; quantity: number; license_id?: number }[];
    packages?: { package_id: number; quantity: number; net_weight: string; gross_weight: string }[];
    fields?: TShipmentOverrides;
  },
) {
  const items = parts.items ?? [];
  const extended = items.map((i) =>
    scaledToDecimal(decimalToScaled(i.product.unit_value, 2) * i.quantity, 2),
  );
  const total = scaledToDecimal(
    extended.reduce((n, v) => n + decimalToScaled(v, 2), 0),
    2,
  );
  const freight = parts.fields?.freight ?? "0.10";
  const insurance = parts.fields?.insurance ?? "0.20";
  const invoiceTotal = scaledToDecimal(
    decimalToScaled(total, 2) + decimalToScaled(String(freight), 2) + decimalToScaled(String(insurance), 2),
    2,
  );
  const [row] = await ctx.database.db
    .insert(shipments)
    .values({
      workspace_id: owner.user.workspace_id,
      name: "Order 7781",
      exporter_of_record_id: parts.exporter ?? null,
      importer_of_record_id: parts.importer ?? null,
      ultimate_consignee_id: parts.consignee ?? null,
      ship_date: "2026-11-21",
      currency_id: USD,
      incoterm_id: DAP,
      port_of_export: "Los Angeles, CA",
      port_of_import: "Warsaw Chopin (WAW)",
      shipper_reference_number: "SREF-1001",
      consignee_reference_number: "PO-7781",
      user_id: owner.user.id,
      user_name: "Ada Exporter",
      user_title: "Export Manager",
      total_value: total,
      total_invoice_value: invoiceTotal,
      total_pieces: (parts.packages ?? []).reduce((n, p) => n + p.quantity, 0),
      ...parts.fields,
      freight: String(freight),
      insurance: String(insurance),
    })
    .returning();
  for (const [i, item] of items.entries()) {
    await ctx.database.db.insert(shipment_items).values({
      shipment_id: row.id,
      product_id: item.product.id,
      quantity: item.quantity,
      extended_value: extended[i],
      license_id: item.license_id ?? null,
    });
  }
  for (const p of parts.packages ?? []) {
    await ctx.database.db
      .insert(shipment_packages)
      .values({ shipment_id: row.id, ...p, length: "12", width: "10", height: "8" });
  }
  return row;
}

/** Three cleared parties, one controlled product with a licence and one EAR99 product. */
async function readyShipment(owner: TWho, fields: TShipmentOverrides = {}) {
  const exporter = await createContact(owner, {
    company: "Acme Export Inc.",
    country_id: USA,
    city: "Long Beach",
  });
  const importer = await createContact(owner, {
    company: "Müller Handels GmbH",
    country_id: POLAND,
    city: "Łódź",
  });
  const consignee = await createContact(owner, {
    company: "Zakład Łódź Sp. z o.o.",
    country_id: POLAND,
    city: "Łódź",
  });
  const controlled = await createProduct(owner, {
    US_ECCN: "5A002.a",
    HTS: "8517.62.0090",
    unit_value: "1234.56",
  });
  const plain = await createProduct(owner, { US_ECCN: "EAR99", HTS: "8544.42.9090", unit_value: "0.10" });
  const licence = await call(
    ctx,
    owner.auth,
    "POST",
    "/api/licenses",
    buildLicense(productCounter, exporter.id, {
      product_id: controlled.id,
      country_id: POLAND,
      reference_number_1: "D7654321",
    }),
  );
  if (licence.status !== 201) throw new Error(`licence: ${licence.status} ${await licence.text()}`);
  const licenceId = ((await licence.json()) as { item: { id: number } }).item.id;
  // The controlled line (5A002.a: NS1 to Poland) ships under the licence; EEI was filed (ITN).
  const shipment = await createShipment(owner, {
    exporter: exporter.id,
    importer: importer.id,
    consignee: consignee.id,
    items: [
      { product: controlled, quantity: 3, license_id: licenceId },
      { product: plain, quantity: 1000 },
    ],
    packages: [{ package_id: 1, quantity: 2, net_weight: "1.125", gross_weight: "1.5" }],
    fields: { aes_citation: "X20261120123456", ...fields },
  });
  return { shipment, exporter, importer, consignee, controlled, plain };
}

type TGenerateBody = {
  documents: { id: number; document_type: string; original_name: string; sha256: string }[];
  warnings: string[];
  message?: string;
  errors?: Record<string, string[]>;
  parties?: { label: string; company: string; status: string | null }[];
};

async function generate(owner: TWho, shipmentId: number, types: string[]) {
  const res = await call(ctx, owner.auth, "POST", `/api/paperwork/shipments/${shipmentId}/generate`, {
    types,
  });
  return { status: res.status, body: (await res.json()) as TGenerateBody };
}

async function documentsOf(shipmentId: number) {
  return ctx.database.db.select().from(documents).where(eq(documents.shipment_id, shipmentId));
}

function storedFiles(): Promise<string[]> {
  return storedNames(ctx, "documents");
}

describe("generation", () => {
  test("the three documents are generated, stored, served inline and as attachment, and audited", async () => {
    const { shipment } = await readyShipment(who);
    const { status, body } = await generate(who, shipment.id, [
      "commercial_invoice",
      "proforma_invoice",
      "packing_list",
    ]);
    expect(status).toBe(201);
    // The licensed 5A002.a line is covered; its encryption (EI) pointer stays a note to read.
    expect(body.warnings.some((w) => w.includes("§ 742.15"))).toBe(true);
    expect(body.documents.map((d) => d.original_name)).toEqual([
      "commercial-invoice-SREF-1001.pdf",
      "proforma-invoice-PF-2026-0001.pdf",
      "packing-list-SREF-1001.pdf",
    ]);
    const rows = await documentsOf(shipment.id);
    expect(rows.map((r) => r.document_type).sort()).toEqual([
      "commercial_invoice",
      "packing_list",
      "proforma_invoice",
    ]);

    const invoice = body.documents[0];
    const preview = await call(ctx, who.auth, "GET", `/api/paperwork/documents/${invoice.id}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-type")).toBe("application/pdf");
    expect(preview.headers.get("content-disposition")).toStartWith(
      'inline; filename="commercial-invoice-SREF-1001.pdf"',
    );
    const bytes = new Uint8Array(await preview.arrayBuffer());
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(invoice.sha256);
    const download = await call(ctx, who.auth, "GET", `/api/paperwork/documents/${invoice.id}/download`);
    expect(download.headers.get("content-disposition")).toStartWith("attachment;");

    const pdf = await readPdfText(bytes);
    for (const text of [
      "COMMERCIAL INVOICE",
      "Invoice No. SREF-1001",
      "Müller Handels GmbH",
      "Zakład Łódź Sp. z o.o.",
      "Acme Export Inc.",
    ]) {
      expect(pdf.text).toContain(text);
    }
    // 3 × 1,234.56 + 1000 × 0.10 = 3,803.68; + 0.10 freight + 0.20 insurance
    expect(pdf.text).toContain("USD 3,803.68");
    expect(pdf.text).toContain("USD 3,803.98");
    expect(pdf.text).toContain("Licence: D7654321");
    expect(pdf.text).toContain("DAP Warsaw Chopin (WAW)");
    expect(pdf.text.replace(/\s+/g, " ")).toContain(DESTINATION_CONTROL_STATEMENT);
    expect(pdf.text).toContain("Ada Exporter, Export Manager");

    const audit = await call(ctx, who.auth, "GET", `/api/paperwork/shipments/${shipment.id}/audit`);
    const log = (
      (await audit.json()) as {
        data: { user_id: number; documents: { sha256: string; document_type: string }[] }[];
      }
    ).data;
    expect(log.length).toBe(1);
    expect(log[0].user_id).toBe(who.user.id);
    expect(log[0].documents.map((d) => d.sha256)).toEqual(body.documents.map((d) => d.sha256));
  });

  test("without a shipper reference the invoice takes the workspace's next number, and keeps it", async () => {
    const owner = await signUp(ctx);
    const { shipment } = await readyShipment(owner, { shipper_reference_number: "" });
    const first = await generate(owner, shipment.id, ["commercial_invoice"]);
    expect(first.status).toBe(201);
    const year = new Date().getUTCFullYear();
    expect(first.body.documents[0].original_name).toBe(`commercial-invoice-INV-${year}-0001.pdf`);
    const again = await generate(owner, shipment.id, ["commercial_invoice", "packing_list"]);
    expect(again.body.documents.map((d) => d.original_name)).toEqual([
      `commercial-invoice-INV-${year}-0001.pdf`,
      `packing-list-INV-${year}-0001.pdf`,
    ]);
    const second = await readyShipment(owner, { shipper_reference_number: "" });
    const next = await generate(owner, second.shipment.id, ["commercial_invoice"]);
    expect(next.body.documents[0].original_name).toBe(`commercial-invoice-INV-${year}-0002.pdf`);
  });

  test("422 lists everything missing at once and generates nothing", async () => {
    const filesBefore = (await storedFiles()).length;
    const shipment = await createShipment(who, {
      fields: { name: "", currency_id: null, incoterm_id: null },
    });
    const { status, body } = await generate(who, shipment.id, ["commercial_invoice", "packing_list"]);
    expect(status).toBe(422);
    expect(Object.keys(body.errors ?? {}).sort()).toEqual(
      [
        "currency_id",
        "exporter_of_record_id",
        "importer_of_record_id",
        "incoterm_id",
        "items",
        "name",
        "packages",
        "total_value",
      ].sort(),
    );
    expect(body.message).toContain("exporter_of_record_id");
    expect(await documentsOf(shipment.id)).toEqual([]);
    expect((await storedFiles()).length).toBe(filesBefore);
  });

  test("bad input is a 422 naming the field", async () => {
    const { shipment } = await readyShipment(who);
    const bad = await generate(who, shipment.id, ["invoice"]);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors ?? {})[0]).toStartWith("types");
    expect((await generate(who, shipment.id, [])).status).toBe(422);
  });

  test("regenerating replaces the previous document of that type; the audit log keeps both", async () => {
    const owner = await signUp(ctx);
    const { shipment } = await readyShipment(owner);
    const first = await generate(owner, shipment.id, ["commercial_invoice", "packing_list"]);
    expect(first.status).toBe(201);
    const filesAfterFirst = (await storedFiles()).length;
    const second = await generate(owner, shipment.id, ["commercial_invoice"]);
    expect(second.status).toBe(201);
    const oldInvoice = first.body.documents.find((d) => d.document_type === "commercial_invoice")!;
    const packing = first.body.documents.find((d) => d.document_type === "packing_list")!;
    const rows = await documentsOf(shipment.id);
    expect(rows.map((r) => r.document_type).sort()).toEqual(["commercial_invoice", "packing_list"]);
    expect(rows.map((r) => r.id)).not.toContain(oldInvoice.id);
    expect(rows.map((r) => r.id)).toContain(packing.id);
    // The replaced file is gone from storage; the new one took its place.
    expect((await storedFiles()).length).toBe(filesAfterFirst);
    const audit = await ctx.database.db
      .select()
      .from(paperwork_audit_log)
      .where(eq(paperwork_audit_log.shipment_id, shipment.id));
    expect(audit.length).toBe(2);
    const entries = audit.flatMap((a) => a.documents);
    expect(entries.find((d) => d.document_id === oldInvoice.id)?.sha256).toBe(oldInvoice.sha256);
    const newer = entries.find((d) => d.document_id === second.body.documents[0].id);
    expect(newer?.replaced_document_ids).toEqual([oldInvoice.id]);
    const gone = await call(ctx, owner.auth, "GET", `/api/paperwork/documents/${oldInvoice.id}/download`);
    expect(gone.status).toBe(404);
  });

  test("the invoice states its date, reason for export, countries, named place, notify party and the user's marks", async () => {
    const owner = await signUp(ctx);
    const { shipment } = await readyShipment(owner, {
      invoice_date: "2026-12-10",
      reason_for_export: "sample",
      incoterm_place: "Łódź, ul. Fabryczna 3",
      marks_and_numbers: "ZAKŁAD / ŁÓDŹ / 1-2",
    });
    const broker = await createContact(owner, {
      company: "Rotterdam Customs Brokers B.V.",
      country_id: POLAND,
    });
    await ctx.database.db
      .update(shipments)
      .set({ notify_party_id: broker.id })
      .where(eq(shipments.id, shipment.id));
    const { status, body } = await generate(owner, shipment.id, ["commercial_invoice", "packing_list"]);
    expect(status).toBe(201);
    for (const doc of body.documents) {
      const res = await call(ctx, owner.auth, "GET", `/api/paperwork/documents/${doc.id}/download`);
      const pdf = await readPdfText(new Uint8Array(await res.arrayBuffer()));
      expect(pdf.text).toContain("Date 10-DEC-2026");
      expect(pdf.text).toContain("Country of export   United States");
      expect(pdf.text).toContain("Country of ultimate destination   Poland");
      expect(pdf.text).toContain("ZAKŁAD / ŁÓDŹ / 1-2");
      expect(pdf.text).toContain("Notify Party");
      expect(pdf.text).toContain("Rotterdam Customs Brokers B.V.");
      if (doc.document_type === "commercial_invoice") {
        expect(pdf.text).toContain("DAP Łódź, ul. Fabryczna 3");
        expect(pdf.text).toContain("Reason for export   Sample (no commercial value)");
      }
    }
  }, 30_000);

  test("the readiness warns when the items' and the packages' net weights disagree", async () => {
    const owner = await signUp(ctx);
    const { shipment } = await readyShipment(owner);
    const readiness = async () =>
      (await (await call(ctx, owner.auth, "GET", `/api/paperwork/shipments/${shipment.id}`)).json()) as {
        warnings: string[];
      };
    const before = await readiness();
    const warning = before.warnings.find((w) => w.includes("net weight"));
    expect(warning).toContain("(2.250 kg) disagree");
    // Packages that weigh what the lines weigh: no warning.
    const [{ total }] = await ctx.database.db
      .select({ total: sql<number>`sum(${products.net_weight} * ${shipment_items.quantity})` })
      .from(shipment_items)
      .innerJoin(products, eq(products.id, shipment_items.product_id))
      .where(eq(shipment_items.shipment_id, shipment.id));
    await ctx.database.db
      .update(shipment_packages)
      .set({ quantity: 1, net_weight: sql`${total}` })
      .where(eq(shipment_packages.shipment_id, shipment.id));
    expect((await readiness()).warnings.some((w) => w.includes("net weight"))).toBe(false);
  });

  test("the certificate of origin is generated from the shipment", async () => {
    const owner = await signUp(ctx);
    const { shipment } = await readyShipment(owner);
    const { status, body } = await generate(owner, shipment.id, ["certificate_of_origin"]);
    expect(status).toBe(201);
    expect(body.documents[0]).toMatchObject({
      document_type: "certificate_of_origin",
      original_name: "certificate-of-origin-SREF-1001.pdf",
    });
    const res = await call(
      ctx,
      owner.auth,
      "GET",
      `/api/paperwork/documents/${body.documents[0].id}/download`,
    );
    const pdf = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    expect(pdf.text).toContain("CERTIFICATE OF ORIGIN");
    expect(pdf.text).toContain("Acme Export Inc.");
    expect(pdf.text).toContain("Zakład Łódź Sp. z o.o.");
    expect(pdf.text).toContain("8544.42.9090");
  }, 30_000);

  test("a character no font has refuses generation with 422 naming the field and the character", async () => {
    const { shipment, importer } = await readyShipment(who);
    await ctx.database.db
      .update(contacts)
      .set({ company: "Müller \u{1F600} Handels GmbH" })
      .where(eq(contacts.id, importer.id));
    const filesBefore = (await storedFiles()).length;
    const { status, body } = await generate(who, shipment.id, ["commercial_invoice"]);
    expect(status).toBe(422);
    expect(Object.keys(body.errors ?? {})).toEqual(["importer.company"]);
    expect(body.message).toContain("Importer of record: company");
    expect(body.message).toContain("U+1F600");
    expect(await documentsOf(shipment.id)).toEqual([]);
    expect((await storedFiles()).length).toBe(filesBefore);
  });

  test("Arabic, Hebrew and Devanagari parties are generated and read back in logical order", async () => {
    const { shipment, importer, consignee } = await readyShipment(who);
    await ctx.database.db
      .update(contacts)
      .set({ company: "شركة الخليج للتجارة", city: "דובאי" })
      .where(eq(contacts.id, importer.id));
    await ctx.database.db
      .update(contacts)
      .set({ company: "भारत निर्यात प्राइवेट लिमिटेड" })
      .where(eq(contacts.id, consignee.id));
    const { status, body } = await generate(who, shipment.id, ["commercial_invoice"]);
    expect(status).toBe(201);
    const res = await call(ctx, who.auth, "GET", `/api/paperwork/documents/${body.documents[0].id}/download`);
    const pdf = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    expect(pdf.text).toContain("شركة الخليج للتجارة");
    expect(pdf.text).toContain("דובאי");
    expect(pdf.text).toContain("भारत निर्यात प्राइवेट लिमिटेड");
  }, 30_000);

  test("a line that needs a licence and has none refuses the paperwork: 422 naming it, nothing generated", async () => {
    const owner = await signUp(ctx);
    const exporter = await createContact(owner, { company: "Acme Export Inc.", country_id: USA });
    const importer = await createContact(owner, { company: "Shenzhen Trading Co.", country_id: 47 });
    const product = await createProduct(owner, {
      US_ECCN: "3A001.b.2",
      product_number: "MMIC-1",
      unit_value: "100.00",
    });
    const shipment = await createShipment(owner, {
      exporter: exporter.id,
      importer: importer.id,
      items: [{ product, quantity: 1 }],
      fields: { aes_citation: "X20261120123456" },
    });
    const readiness = (await (
      await call(ctx, owner.auth, "GET", `/api/paperwork/shipments/${shipment.id}`)
    ).json()) as {
      licences: { needs_license: boolean; license: unknown; message: string }[];
      warnings: string[];
    };
    expect(readiness.licences[0].needs_license).toBe(true);
    expect(readiness.licences[0].license).toBeNull();
    expect(readiness.licences[0].message).toContain("NS2: licence required to China");
    const filesBefore = (await storedFiles()).length;
    const { status, body } = await generate(owner, shipment.id, ["commercial_invoice"]);
    expect(status).toBe(422);
    expect(body.message).toContain("MMIC-1");
    expect(body.message).toContain("3A001.b.2");
    expect(body.message).toContain("China");
    expect(await documentsOf(shipment.id)).toEqual([]);
    expect((await storedFiles()).length).toBe(filesBefore);
    const logs = await ctx.database.db
      .select()
      .from(paperwork_audit_log)
      .where(eq(paperwork_audit_log.shipment_id, shipment.id));
    expect(logs).toEqual([]);
  });

  test("the readiness shows the covering licence, the AES suggestion and the DCS", async () => {
    const { shipment } = await readyShipment(who);
    const res = await call(ctx, who.auth, "GET", `/api/paperwork/shipments/${shipment.id}`);
    const body = (await res.json()) as {
      licences: {
        product_number: string;
        license: { reference_number_1: string } | null;
        needs_license: boolean;
      }[];
      aes: { kind: string; suggestion: string | null };
      dcs_required: boolean;
      statement_has_dcs: boolean;
      proforma_valid_until: string;
      blocked: boolean;
      missing: Record<string, string[]>;
    };
    expect(body.licences[0].license?.reference_number_1).toBe("D7654321");
    expect(body.licences[1].needs_license).toBe(false);
    // The controlled line needs a licence: EEI is needed whatever the value.
    expect(body.aes.kind).toBe("itn_required");
    expect(body.dcs_required).toBe(true);
    expect(body.statement_has_dcs).toBe(false);
    expect(body.proforma_valid_until).toBe("2026-12-21");
    expect(body.blocked).toBe(false);
    expect(body.missing).toEqual({});
  });
});

describe("through the shipment form's save (PUT /api/shipments/{id} with generate_documents)", () => {
  async function current(owner: TWho, id: number) {
    const res = await call(ctx, owner.auth, "GET", `/api/shipments/${id}`);
    return (
      (await res.json()) as {
        item: Record<string, unknown> & {
          documents: { id: number; document_type: string; original_name: string }[];
          generate_documents: string[];
          updated_at: string;
        };
      }
    ).item;
  }
  async function save(owner: TWho, id: number, changes: Record<string, unknown>) {
    const { items: _items, packages: _packages, ...stored } = await current(owner, id);
    const res = await call(ctx, owner.auth, "PUT", `/api/shipments/${id}`, { ...stored, ...changes });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown> & { item: Awaited<ReturnType<typeof current>> },
    };
  }

  test("saving a new selection generates it; deleting a document unselects it; generating again makes a new file", async () => {
    const owner = await signUp(ctx);
    const { shipment } = await readyShipment(owner);
    const first = await save(owner, shipment.id, {
      generate_documents: ["commercial_invoice", "proforma_invoice", "packing_list"],
      aes_citation: "x20261120123456",
    });
    expect(first.status).toBe(200);
    expect(first.body.item.aes_citation).toBe("X20261120123456");
    expect(first.body.item.documents.map((d) => d.original_name).sort()).toEqual([
      "commercial-invoice-SREF-1001.pdf",
      "packing-list-SREF-1001.pdf",
      "proforma-invoice-PF-2026-0001.pdf",
    ]);
    const invoice = first.body.item.documents.find((d) => d.document_type === "commercial_invoice")!;
    const file = await call(ctx, owner.auth, "GET", `/api/paperwork/documents/${invoice.id}/download`);
    expect((await readPdfText(new Uint8Array(await file.arrayBuffer()))).text).toContain(
      "AES X20261120123456",
    );

    // The same selection again generates nothing new.
    const again = await save(owner, shipment.id, {});
    expect(again.body.item.documents.length).toBe(3);

    const del = await call(
      ctx,
      owner.auth,
      "DELETE",
      `/api/shipments/documents/${shipment.id}/${invoice.id}`,
    );
    expect(del.status).toBe(200);
    const afterDelete = await current(owner, shipment.id);
    expect(afterDelete.generate_documents.sort()).toEqual(["packing_list", "proforma_invoice"]);
    const regenerated = await save(owner, shipment.id, {
      generate_documents: ["commercial_invoice", "proforma_invoice", "packing_list"],
    });
    const newInvoice = regenerated.body.item.documents.find((d) => d.document_type === "commercial_invoice")!;
    expect(newInvoice.id).not.toBe(invoice.id);
    expect(newInvoice.original_name).toBe("commercial-invoice-SREF-1001.pdf");
  });

  test("a refused generation keeps the save, answers the stored shipment and drops the refused types", async () => {
    const owner = await signUp(ctx);
    const exporter = await createContact(owner, { company: "Acme Export Inc.", country_id: USA });
    const importer = await createContact(owner, { company: "Rosoboronexport" });
    const product = await createProduct(owner, { US_ECCN: "EAR99" });
    const shipment = await createShipment(owner, {
      exporter: exporter.id,
      importer: importer.id,
      items: [{ product, quantity: 1 }],
      fields: { aes_citation: "X20261120123456" },
    });
    const refused = await save(owner, shipment.id, {
      generate_documents: ["commercial_invoice"],
      port_of_export: "Oakland, CA",
    });
    expect(refused.status).toBe(409);
    expect(refused.body.paperwork).toBe(true);
    expect(String(refused.body.message)).toContain("Rosoboronexport");
    expect(refused.body.item.generate_documents).toEqual([]);
    const stored = await current(owner, shipment.id);
    expect(stored.port_of_export).toBe("Oakland, CA");
    expect(stored.updated_at).toBe(refused.body.item.updated_at);
    expect(stored.generate_documents).toEqual([]);
    expect(stored.documents).toEqual([]);
    // The next autosave, based on the answered item, is not stale and tries nothing.
    const next = await save(owner, shipment.id, { port_of_import: "Gdańsk" });
    expect(next.status).toBe(200);
  });

  test("an invalid AES citation is a 422 naming the field", async () => {
    const { shipment } = await readyShipment(who);
    const res = await save(who, shipment.id, { aes_citation: "AES 123" });
    expect(res.status).toBe(422);
    expect(Object.keys((res.body as unknown as { errors: Record<string, unknown> }).errors)).toContain(
      "aes_citation",
    );
  });
});

describe("compliance gate", () => {
  test("a party that failed screening blocks with 409 naming it; after an override generation works", async () => {
    const owner = await signUp(ctx);
    const exporter = await createContact(owner, { company: "Acme Export Inc.", country_id: USA });
    const importer = await createContact(owner, { company: "Rosoboronexport" });
    const product = await createProduct(owner, { US_ECCN: "EAR99" });
    const shipment = await createShipment(owner, {
      exporter: exporter.id,
      importer: importer.id,
      items: [{ product, quantity: 1 }],
      fields: { aes_citation: "X20261120123456" },
    });
    const filesBefore = (await storedFiles()).length;
    const blocked = await generate(owner, shipment.id, ["commercial_invoice"]);
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toContain("Importer of record Rosoboronexport");
    expect(blocked.body.message).toContain("screening screen");
    expect(blocked.body.parties?.map((p) => p.status)).toEqual(["failed"]);
    expect(await documentsOf(shipment.id)).toEqual([]);
    expect((await storedFiles()).length).toBe(filesBefore);

    const trade = (await (
      await call(ctx, owner.auth, "GET", `/api/screenings/trade?itemId=${importer.id}`)
    ).json()) as {
      item: { id: number };
    };
    const note = encodeURIComponent("Different entity, checked by counsel");
    const override = await call(ctx, owner.auth, "POST", "/api/screenings/override", {
      id: trade.item.id,
      status: "passed",
      note: decodeURIComponent(note),
    });
    expect(override.status).toBe(200);
    const cleared = await generate(owner, shipment.id, ["commercial_invoice"]);
    expect(cleared.status).toBe(201);
  });

  test("an unscreened party is not cleared either", async () => {
    const owner = await signUp(ctx);
    const exporter = await createContact(owner, { company: "Acme Export Inc.", country_id: USA });
    // Written directly, so no screening ran for it.
    const [unscreened] = await ctx.database.db
      .insert(contacts)
      .values({
        workspace_id: owner.user.workspace_id,
        company: "Never Screened Ltd",
        partner_type_id: 1,
        tax_id: "X",
        contact_1: "A",
        phone_1: "1",
        email_1: "a@b.example",
      })
      .returning();
    const product = await createProduct(owner, { US_ECCN: "EAR99" });
    const shipment = await createShipment(owner, {
      exporter: exporter.id,
      importer: unscreened.id,
      items: [{ product, quantity: 1 }],
    });
    const res = await generate(owner, shipment.id, ["commercial_invoice"]);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain("Never Screened Ltd (not screened)");
  });
});

describe("packing list contents", () => {
  test("each numbered package prints what the user assigned to it; the marks count the same packages", async () => {
    const owner = await signUp(ctx);
    const { shipment, controlled, plain } = await readyShipment(owner);
    const [cartons] = await ctx.database.db
      .select()
      .from(shipment_packages)
      .where(eq(shipment_packages.shipment_id, shipment.id));
    // The 2 boxes each hold 1 of the licensed product and 400 of the plain one; a crate holds the rest.
    await ctx.database.db
      .update(shipment_packages)
      .set({
        contents: [
          { product_id: controlled.id, quantity: 1 },
          { product_id: plain.id, quantity: 400 },
        ],
      })
      .where(eq(shipment_packages.id, cartons.id));
    await ctx.database.db.insert(shipment_packages).values({
      shipment_id: shipment.id,
      package_id: 2,
      quantity: 1,
      net_weight: "3",
      gross_weight: "4",
      length: "20",
      width: "20",
      height: "20",
      contents: [
        { product_id: controlled.id, quantity: 1 },
        { product_id: plain.id, quantity: 200 },
      ],
    });
    const { status, body } = await generate(owner, shipment.id, ["packing_list"]);
    expect(status).toBe(201);
    const file = await call(
      ctx,
      owner.auth,
      "GET",
      `/api/paperwork/documents/${body.documents[0].id}/download`,
    );
    const pdf = await readPdfText(new Uint8Array(await file.arrayBuffer()));
    const [controlledRow] = await ctx.database.db
      .select()
      .from(products)
      .where(eq(products.id, controlled.id));
    const [plainRow] = await ctx.database.db.select().from(products).where(eq(products.id, plain.id));
    const table = pdf.text.slice(pdf.text.indexOf("Package no."), pdf.text.indexOf("Product no."));
    const rows = table.split(/(?=\b\d of 3\b)/).slice(1);
    expect(rows.map((r) => r.slice(0, 6))).toEqual(["1 of 3", "2 of 3", "3 of 3"]);
    for (const [row, plainPieces] of [
      [rows[0], 400],
      [rows[1], 400],
      [rows[2], 200],
    ] as const) {
      expect(row).toContain("Contents:");
      expect(row).toContain(`1 PCS ${controlledRow.product_number}`);
      expect(row).toContain(`${plainPieces} PCS ${plainRow.product_number}`);
    }
    expect(pdf.text).toContain("PACKAGES 1-3");
  });
});

describe("certificate of origin as a shipping form", () => {
  test("the generated certificate is filed as a shipping form of type 'certificate of origin' with its own copy", async () => {
    const owner = await signUp(ctx);
    const { shipment } = await readyShipment(owner);
    const path = `/api/paperwork/shipments/${shipment.id}/certificate-of-origin/shipping-form`;
    // Nothing to file before the certificate is generated.
    const early = await call(ctx, owner.auth, "POST", path);
    expect(early.status).toBe(409);
    expect(((await early.json()) as { message: string }).message).toContain("no certificate of origin yet");

    const generated = await generate(owner, shipment.id, ["certificate_of_origin"]);
    expect(generated.status).toBe(201);
    const res = await call(ctx, owner.auth, "POST", path);
    expect(res.status).toBe(201);
    const { item } = (await res.json()) as {
      item: { id: number; name: string; document_type: string; document: { id: number } };
    };
    expect(item).toMatchObject({
      name: "Certificate of origin SREF-1001",
      document_type: "certificate of origin",
    });
    // The form is one of the workspace's shipping forms, with the PDF attached.
    const form = await call(ctx, owner.auth, "GET", `/api/shipping-documents/${item.id}`);
    expect(form.status).toBe(200);
    const stored = (await form.json()) as {
      item: { document_type: string; description: string; documents: { id: number; url?: string }[] };
    };
    expect(stored.item.document_type).toBe("certificate of origin");
    expect(stored.item.description).toContain("Order 7781");
    expect(stored.item.documents.map((d) => d.id)).toEqual([item.document.id]);
    // The form's file is a copy: regenerating the shipment's certificate leaves it as filed.
    await generate(owner, shipment.id, ["certificate_of_origin"]);
    const file = await call(ctx, owner.auth, "GET", stored.item.documents[0].url!);
    expect(file.status).toBe(200);
    const pdf = await readPdfText(new Uint8Array(await file.arrayBuffer()));
    expect(pdf.text).toContain("CERTIFICATE OF ORIGIN");
    expect(pdf.text).toContain("Zakład Łódź Sp. z o.o.");

    // Another workspace's shipment is a 404; so is a missing one.
    const other = await signUp(ctx);
    expect((await call(ctx, other.auth, "POST", path)).status).toBe(404);
    expect(
      (
        await call(
          ctx,
          owner.auth,
          "POST",
          "/api/paperwork/shipments/999999/certificate-of-origin/shipping-form",
        )
      ).status,
    ).toBe(404);
  });
});

describe("isolation and settings", () => {
  test("another workspace cannot see, generate, preview, download or read the audit of a shipment", async () => {
    const { shipment } = await readyShipment(who);
    const { body } = await generate(who, shipment.id, ["packing_list"]);
    const other = await signUp(ctx);
    expect((await call(ctx, other.auth, "GET", `/api/paperwork/shipments/${shipment.id}`)).status).toBe(404);
    expect((await generate(other, shipment.id, ["packing_list"])).status).toBe(404);
    const docId = body.documents[0].id;
    expect((await call(ctx, other.auth, "GET", `/api/paperwork/documents/${docId}/preview`)).status).toBe(
      404,
    );
    expect((await call(ctx, other.auth, "GET", `/api/paperwork/documents/${docId}/download`)).status).toBe(
      404,
    );
    const audit = await call(ctx, other.auth, "GET", `/api/paperwork/shipments/${shipment.id}/audit`);
    expect(audit.status).toBe(404);
    expect((await ctx.app.request(`/api/paperwork/shipments/${shipment.id}`)).status).toBe(401);
  });

  test("the paper size is a workspace setting: letter by default, A4 when chosen", async () => {
    const owner = await signUp(ctx);
    const get = await call(ctx, owner.auth, "GET", "/api/paperwork/settings");
    expect(await get.json()).toEqual({ paper_size: "letter" });
    const bad = await call(ctx, owner.auth, "PUT", "/api/paperwork/settings", { paper_size: "legal" });
    expect(bad.status).toBe(422);
    const put = await call(ctx, owner.auth, "PUT", "/api/paperwork/settings", { paper_size: "a4" });
    expect(put.status).toBe(200);
    // Only this workspace changed.
    expect(await (await call(ctx, who.auth, "GET", "/api/paperwork/settings")).json()).toEqual({
      paper_size: "letter",
    });
    const { shipment } = await readyShipment(owner);
    const { body } = await generate(owner, shipment.id, ["packing_list"]);
    const file = await call(
      ctx,
      owner.auth,
      "GET",
      `/api/paperwork/documents/${body.documents[0].id}/download`,
    );
    const pdf = await readPdfText(new Uint8Array(await file.arrayBuffer()));
    expect(pdf.sizes[0]).toEqual([595.28, 841.89]);
  });

  test("the audit log is append-only", async () => {
    await ctx.database.db
      .insert(paperwork_audit_log)
      .values({ workspace_id: 999, shipment_id: 1, documents: [], warnings: [] });
    const [before] = await ctx.database.db.select({ n: sql<number>`count(*)` }).from(paperwork_audit_log);
    const refusal = async (statement: ReturnType<typeof sql>) => {
      try {
        await ctx.database.db.run(statement);
        return "accepted";
      } catch (error) {
        return String((error as Error & { cause?: unknown }).cause ?? error);
      }
    };
    expect(await refusal(sql`update paperwork_audit_log set user_email = 'x'`)).toContain("append-only");
    expect(await refusal(sql`delete from paperwork_audit_log`)).toContain("append-only");
    const [after] = await ctx.database.db.select({ n: sql<number>`count(*)` }).from(paperwork_audit_log);
    expect(after.n).toBe(before.n);
  });
});
