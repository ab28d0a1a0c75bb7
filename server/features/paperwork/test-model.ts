// Models for the paperwork tests and the benchmark: realistic parties, awkward values.
import type { TPaperLine, TPaperParty, TPaperworkModel } from "./paperwork.render";

export function paperParty(overrides: Partial<TPaperParty> = {}): TPaperParty {
  return {
    company: "Acme Export Inc.",
    street: "100 Harbor Blvd",
    city: "Long Beach",
    state_province: "CA",
    postal_code: "90802",
    country: "United States",
    tax_id: "12-3456789",
    tax_id_label: "",
    other_id_label: "",
    other_id: "",
    contact: "Jane Doe",
    phone: "+1 562 555 0100",
    email: "jane@acme.example",
    ...overrides,
  };
}

export function paperLine(i: number, overrides: Partial<TPaperLine> = {}): TPaperLine {
  return {
    product_number: `P-${String(i).padStart(4, "0")}`,
    name: `Widget ${i}`,
    description: `Precision widget, model ${i}`,
    hts: "8471.30.0100",
    eccn: "EAR99",
    origin: "United States",
    quantity: 3,
    unit_value: "10.10",
    extended_value: "30.30",
    unit_net_weight: "0.250",
    license_number: null,
    ...overrides,
  };
}

/** A shipment's paperwork model with `lineCount` lines (default 2). */
export function paperModel(overrides: Partial<TPaperworkModel> = {}, lineCount = 2): TPaperworkModel {
  return {
    number: "INV-2026-0042",
    date: "2026-11-20",
    page_size: "letter",
    exporter: paperParty(),
    importer: paperParty({
      company: "Müller Handels GmbH",
      city: "Łódź",
      country: "Poland",
      tax_id: "PL5260250274",
    }),
    consignee: null,
    notify_party: null,
    ship_date: "2026-11-21",
    carrier: "DHL Express",
    mode_of_transport: "Air",
    bol_hawb_tracking: "HAWB 123-45678901",
    tracking_numbers: ["1Z999AA10123456784"],
    port_of_export: "Los Angeles, CA",
    port_of_import: "Warsaw Chopin (WAW)",
    country_of_export: "United States",
    country_of_destination: "Poland",
    reason_for_export: "Sale",
    incoterm: "DAP",
    incoterm_place: "Warsaw Chopin (WAW)",
    currency: "USD",
    payment_terms: "Net 30",
    consignee_reference: "PO-7781",
    shipper_reference: "INV-2026-0042",
    lines: Array.from({ length: lineCount }, (_, i) => paperLine(i + 1)),
    packages: [
      {
        type: "Box",
        quantity: 2,
        net_weight: "1.125",
        gross_weight: "1.500",
        length: "12",
        width: "10",
        height: "8",
      },
    ],
    freight: "0.10",
    insurance: "0.20",
    statement: "",
    aes_citation: "",
    valid_until: null,
    marks: "MÜLLER HANDELS GMBH / ŁÓDŹ / INV-2026-0042 / 1-2",
    signature: { image: null, name: "Jane Doe", title: "Export Manager" },
    ...overrides,
  };
}
