import { expect, test } from "bun:test";
import carriers from "./carriers.json";
import countries from "./countries.json";
import currencies from "./currencies.json";
import incoterms from "./incoterms.json";
import modesOfTransport from "./modes_of_transport.json";
import packages from "./packages.json";
import partnerTypes from "./partner_types.json";
import paymentTerms from "./payment_terms.json";
import shippingStatuses from "./shipping_statuses.json";

const all: Record<string, { id: number }[]> = {
  countries,
  currencies,
  incoterms,
  modesOfTransport,
  packages,
  carriers,
  paymentTerms,
  partnerTypes,
  shippingStatuses,
};

const unique = (xs: unknown[]) => new Set(xs).size === xs.length;

for (const [name, rows] of Object.entries(all)) {
  test(`${name}: non-empty, ids 1..N contiguous`, () => {
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.id)).toEqual(rows.map((_, i) => i + 1));
  });
}

test("codes and names are unique", () => {
  expect(unique(countries.map((c) => c.code_iso_2))).toBe(true);
  expect(unique(countries.map((c) => c.name))).toBe(true);
  expect(unique(currencies.map((c) => c.code))).toBe(true);
  expect(unique(incoterms.map((c) => c.code))).toBe(true);
  expect(unique(modesOfTransport.map((c) => c.code))).toBe(true);
  expect(unique(packages.map((c) => c.code))).toBe(true);
  expect(unique(carriers.map((c) => c.name))).toBe(true);
  expect(unique(carriers.map((c) => c.scac_or_code).filter((c) => c !== null))).toBe(true);
  expect(unique(paymentTerms.map((c) => c.name))).toBe(true);
  expect(unique(partnerTypes.map((c) => c.partner_type))).toBe(true);
  expect(unique(shippingStatuses.map((c) => c.name))).toBe(true);
});

test("countries: count, codes, coordinates, order", () => {
  expect(countries.length).toBeGreaterThanOrEqual(240);
  expect(countries[0]!.name).toBe("Afghanistan");
  for (const c of countries) {
    expect(c.code_iso_2).toMatch(/^[A-Z]{2}$/);
    expect(c.name.length).toBeGreaterThan(0);
    expect(c.lat).toBeGreaterThanOrEqual(-90);
    expect(c.lat).toBeLessThanOrEqual(90);
    expect(c.lng).toBeGreaterThanOrEqual(-180);
    expect(c.lng).toBeLessThanOrEqual(180);
  }
  for (let i = 1; i < countries.length; i++) {
    expect(countries[i - 1]!.name.localeCompare(countries[i]!.name, "en")).toBeLessThan(0);
  }
  // spot checks: [code, lat range, lng range]
  const spots: [string, [number, number], [number, number]][] = [
    ["US", [25, 50], [-125, -65]],
    ["DE", [47, 55], [5, 15]],
    ["CN", [20, 50], [75, 135]],
    ["RU", [45, 75], [30, 180]],
    ["IR", [25, 40], [44, 64]],
    ["KP", [37, 43], [124, 131]],
  ];
  for (const [code, [latMin, latMax], [lngMin, lngMax]] of spots) {
    const c = countries.find((x) => x.code_iso_2 === code);
    expect(c, code).toBeDefined();
    expect(c!.lat).toBeGreaterThanOrEqual(latMin);
    expect(c!.lat).toBeLessThanOrEqual(latMax);
    expect(c!.lng).toBeGreaterThanOrEqual(lngMin);
    expect(c!.lng).toBeLessThanOrEqual(lngMax);
  }
});

test("currencies: USD first, rest sorted case-insensitively by label, no funds/metals", () => {
  expect(currencies[0]).toEqual({ id: 1, code: "USD", name: "US Dollar", currency: "USD - US Dollar" });
  const labels = currencies.slice(1).map((c) => c.currency.toLowerCase());
  expect(labels).toEqual([...labels].sort());
  for (const c of currencies) {
    expect(c.code).toMatch(/^[A-Z]{3}$/);
    expect(c.currency).toBe(`${c.code} - ${c.name}`);
  }
  const codes = new Set(currencies.map((c) => c.code));
  for (const keep of ["EUR", "GBP", "JPY", "CNY", "XAF", "XOF", "XCD", "XPF"])
    expect(codes.has(keep)).toBe(true);
  for (const drop of ["XAU", "XAG", "XTS", "XXX", "XDR", "USN"]) expect(codes.has(drop)).toBe(false);
});

test("incoterms: Incoterms 2020 order", () => {
  expect(incoterms.map((i) => i.code)).toEqual([
    "EXW",
    "FCA",
    "CPT",
    "CIP",
    "DAP",
    "DPU",
    "DDP",
    "FAS",
    "FOB",
    "CFR",
    "CIF",
  ]);
  for (const i of incoterms) {
    expect(i.name.startsWith(`${i.code} - `)).toBe(true);
    expect(i.description.length).toBeGreaterThan(20);
  }
});

test("modes of transport: Rec. 19 codes 1..8", () => {
  expect(modesOfTransport.map((m) => m.code)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
});

test("packages: 2-character Rec. 21 codes", () => {
  for (const p of packages) expect(p.code).toMatch(/^[A-Z0-9]{2}$/);
});

test("carriers / payment terms / partner types: fixed order", () => {
  expect(carriers.map((c) => c.name)).toEqual([
    "FedEx",
    "UPS",
    "DHL Express",
    "USPS",
    "Maersk",
    "MSC",
    "CMA CGM",
    "COSCO",
    "Hapag-Lloyd",
    "ONE",
    "Evergreen",
    "HMM",
    "Yang Ming",
    "ZIM",
    "Other",
  ]);
  expect(paymentTerms.map((p) => p.name)).toEqual([
    "Prepaid",
    "Collect",
    "Net 30",
    "Net 60",
    "Cash in advance",
    "Letter of credit",
    "Documentary collection",
    "Open account",
  ]);
  expect(partnerTypes.map((p) => p.partner_type)).toEqual([
    "Customer",
    "Supplier",
    "Freight forwarder",
    "Carrier",
    "Bank",
    "Ultimate consignee",
    "Other",
  ]);
});

test("shipping statuses: fixed ids", () => {
  expect(shippingStatuses).toEqual([
    { id: 1, name: "template", label: "Template", color: "gray" },
    { id: 2, name: "draft", label: "Draft", color: "yellow" },
    { id: 3, name: "in transit", label: "In Transit", color: "blue" },
    { id: 4, name: "customs", label: "Customs", color: "orange" },
    { id: 5, name: "delayed", label: "Delayed", color: "red" },
    { id: 6, name: "delivered", label: "Delivered", color: "green" },
  ]);
});
