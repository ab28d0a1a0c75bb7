import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import type { TShipment } from "../../../db/contracts/shipments";
import { buildContact, buildProduct, call, signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import { solidPng } from "../exporter-profile/test-png";
import { readPdfText } from "./pdf-text";

const POLAND = 176;
const USA = 236;
const GERMANY = 84;
const DAP = 5;
const EUR_OR_USD = 1;

type TWho = Awaited<ReturnType<typeof signUp>>;
let ctx: TTestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

async function created(who: TWho, path: string, body: unknown): Promise<{ id: number }> {
  const res = await call(ctx, who.auth, "POST", path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { item: { id: number } }).item;
}

/** A shipment saved through the API: no exporter of record, lines with their own unit, price and origin. */
async function shipmentWithoutExporter(who: TWho, overrides: Record<string, unknown> = {}) {
  const importer = await created(
    who,
    "/api/contacts",
    buildContact({ company: "Kowalski Import Sp. z o.o.", country_id: POLAND }),
  );
  const valve = await created(
    who,
    "/api/products",
    buildProduct(1, { unit_value: "19.99", country_of_origin_id: USA, name: "Brass valve" }),
  );
  const cable = await created(
    who,
    "/api/products",
    buildProduct(2, { unit_value: "0.10", country_of_origin_id: USA, name: "Copper cable" }),
  );
  const draft = ((await (await call(ctx, who.auth, "POST", "/api/shipments")).json()) as { item: TShipment })
    .item;
  const res = await call(ctx, who.auth, "PUT", `/api/shipments/${draft.id}`, {
    updated_at: draft.updated_at,
    name: "Valves to Poznań",
    importer_of_record_id: importer.id,
    currency_id: EUR_OR_USD,
    incoterm_id: DAP,
    ship_date: "2026-12-10",
    shipper_reference_number: "SREF-30",
    freight: "10.10",
    insurance: "0.20",
    other_charges: "5.05",
    other_charges_label: "Export packing",
    discount: "20.01",
    items: [
      {
        product_id: valve.id,
        quantity: 3,
        unit_of_measure: "SET",
        unit_price: "17.50",
        origin_country_id: GERMANY,
      },
      { product_id: cable.id, quantity: 250, unit_of_measure: "M" },
    ],
    packages: [
      {
        package_id: 1,
        quantity: 2,
        net_weight: "1.5",
        gross_weight: "2",
        length: "10",
        width: "10",
        height: "10",
      },
    ],
    ...overrides,
  });
  if (res.status !== 200) throw new Error(`shipment: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { item: TShipment }).item;
}

async function generate(who: TWho, shipmentId: number, types: string[]) {
  const res = await call(ctx, who.auth, "POST", `/api/paperwork/shipments/${shipmentId}/generate`, { types });
  return {
    status: res.status,
    body: (await res.json()) as {
      documents: { id: number; document_type: string }[];
      errors?: Record<string, string[]>;
    },
  };
}

async function pdfOf(who: TWho, documentId: number) {
  const res = await call(ctx, who.auth, "GET", `/api/paperwork/documents/${documentId}/preview`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (process.env.PAPERWORK_PDF_DIR) {
    mkdirSync(process.env.PAPERWORK_PDF_DIR, { recursive: true });
    writeFileSync(`${process.env.PAPERWORK_PDF_DIR}/doc-${documentId}.pdf`, bytes);
  }
  return readPdfText(bytes);
}

const flat = (text: string) => text.replace(/\s+/g, " ");

describe("the exporter profile on the paperwork", () => {
  test("without an exporter of record the documents cannot be generated until the profile names one", async () => {
    const who = await signUp(ctx);
    const shipment = await shipmentWithoutExporter(who);
    const refused = await generate(who, shipment.id, ["commercial_invoice"]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.exporter_of_record_id).toEqual([
      "Choose the exporter of record, or fill in the exporter profile.",
    ]);
  });

  test("the profile is exporter and seller, with its EIN, EORI, letterhead and default signatory", async () => {
    const who = await signUp(ctx);
    const saved = await call(ctx, who.auth, "PUT", "/api/exporter-profile", {
      company: "Acme Valves LLC",
      street: "1 Harbor Way",
      city: "Seattle",
      state_province: "WA",
      postal_code: "98101",
      country_id: USA,
      ein: "123456789",
      eori: "DE123456789012345",
      phone: "+1 206 555 0100",
      email: "export@acme.example",
      letterhead: "Makers of fine valves since 1921",
      signatory_name: "Grace Signer",
      signatory_title: "Head of Export",
    });
    expect(saved.status).toBe(200);
    const form = new FormData();
    form.append("logo", new File([solidPng(120, 40, [16, 80, 140])], "logo.png", { type: "image/png" }));
    const logo = await ctx.app.request("/api/exporter-profile/logo", {
      method: "POST",
      body: form,
      headers: who.auth,
    });
    expect(logo.status).toBe(200);
    const shipment = await shipmentWithoutExporter(who, { user_name: "", user_title: "" });
    const { status, body } = await generate(who, shipment.id, ["commercial_invoice", "packing_list"]);
    expect(status).toBe(201);
    const invoice = flat((await pdfOf(who, body.documents[0].id)).text);
    // The logo is drawn once as an image and reused on every page.
    const raw = await call(ctx, who.auth, "GET", `/api/paperwork/documents/${body.documents[0].id}/preview`);
    const pdfSource = new TextDecoder("latin1").decode(new Uint8Array(await raw.arrayBuffer()));
    expect(pdfSource.match(/\/Subtype \/Image/g)?.length).toBe(1);
    for (const text of [
      "Acme Valves LLC",
      "1 Harbor Way",
      "EIN: 12-3456789",
      "EORI: DE123456789012345",
      "Makers of fine valves since 1921",
      "Grace Signer, Head of Export",
      "export@acme.example",
    ]) {
      expect(invoice).toContain(text);
    }
    // The profile's country is the country of export.
    expect(invoice).toMatch(/Country of export:? United States/);
  });
});

describe("lines, charges and packages on the documents", () => {
  test("invoices print unit, the sale's unit price, origin per line, other charges and discount", async () => {
    const who = await signUp(ctx);
    const exporter = await created(
      who,
      "/api/contacts",
      buildContact({ company: "Acme Export Inc.", country_id: USA }),
    );
    const shipment = await shipmentWithoutExporter(who, { exporter_of_record_id: exporter.id });
    // 3 × 17.50 + 250 × 0.10 = 77.50; + 10.10 + 0.20 + 5.05 − 20.01 = 72.84
    expect(shipment.total_value).toBe("77.50");
    expect(shipment.total_invoice_value).toBe("72.84");
    const { status, body } = await generate(who, shipment.id, [
      "commercial_invoice",
      "proforma_invoice",
      "packing_list",
      "certificate_of_origin",
    ]);
    expect(status).toBe(201);
    const [invoice, proforma, packing, certificate] = await Promise.all(
      body.documents.map(async (d) => flat((await pdfOf(who, d.id)).text)),
    );
    for (const text of [invoice, proforma]) {
      expect(text).toContain("Unit price");
      expect(text).toContain("3 SET");
      expect(text).toContain("250 M");
      expect(text).toContain("17.50");
      expect(text).toContain("52.50");
      expect(text).toContain("Germany");
      expect(text).toContain("Other charges: Export packing");
      expect(text).toContain("5.05");
      expect(text).toMatch(/Discount − \S* ?20\.01/);
      expect(text).toContain("72.84");
      expect(text).toContain("2 packages: 2 Box");
    }
    // The line's origin wins over the product's (United States) on the certificate too.
    expect(certificate).toContain("Germany");
    expect(certificate).toContain("3 SET");
    expect(certificate).toContain("2 packages: 2 Box");
    expect(packing).toContain("3 SET");
    expect(packing).toContain("Number and kind of packages");
  });
});
