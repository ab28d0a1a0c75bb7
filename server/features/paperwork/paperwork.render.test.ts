import { describe, expect, test } from "bun:test";
import { DESTINATION_CONTROL_STATEMENT } from "../../../db/contracts/paperwork";
import { formatDimensions, formatMoney, formatVolume, formatWeight, volumeMicroCubicInches } from "./format";
import {
  ACTUAL_PRICE_DECLARATION,
  CHAMBER_CERTIFICATION,
  ORIGIN_DECLARATION,
  renderPaperwork,
} from "./paperwork.render";
import { readPdfText } from "./pdf-text";
import { paperLine, paperModel, paperParty } from "./test-model";

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/** A table row's text: from `start` to `end` (or the end), wrapped cells joined with spaces. */
function rowText(text: string, start: string, end?: string): string {
  const from = text.indexOf(start);
  if (from < 0) throw new Error(`No ${start} in:\n${text}`);
  const to = end ? text.indexOf(end, from + start.length) : -1;
  return collapse(text.slice(from, to < 0 ? undefined : to));
}

/** The text line that holds `needle` (pdf.js groups a table row's cells on one baseline). */
function lineWith(text: string, needle: string): string {
  const line = text.split("\n").find((l) => l.includes(needle));
  if (!line) throw new Error(`No line with ${needle} in:\n${text}`);
  return line;
}

// A 1×1 transparent PNG: the signature image path must work with alpha.
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

describe("format", () => {
  test("money: thousands separators, two decimals, the currency code", () => {
    expect(formatMoney("999999990.3", "USD")).toBe("USD 999,999,990.30");
    expect(formatMoney("0.1", "EUR")).toBe("EUR 0.10");
    expect(formatMoney("1234", "")).toBe("1,234.00");
  });
  test("weights in kg with lb in brackets, exact to the gram", () => {
    expect(formatWeight("1")).toBe("1.000 kg (2.20 lb)");
    expect(formatWeight("0.45359237".slice(0, 5))).toBe("0.453 kg (1.00 lb)");
    expect(formatWeight("1234.5")).toBe("1,234.500 kg (2,721.61 lb)");
    expect(formatWeight("0.002")).toBe("0.002 kg (< 0.01 lb)");
    expect(formatWeight("0.003")).toBe("0.003 kg (0.01 lb)");
    expect(formatWeight("0")).toBe("0.000 kg (0.00 lb)");
  });
  test("dimensions in inches and centimetres, volume in m³ and ft³", () => {
    expect(formatDimensions("12", "10.5", "1")).toBe("12.00 × 10.50 × 1.00 in (30.48 × 26.67 × 2.54 cm)");
    // 12 × 12 × 12 in = exactly 1 ft³ = 0.028316846592 m³
    expect(formatVolume(volumeMicroCubicInches(1, "12", "12", "12"))).toBe("0.028 m³ (1.00 ft³)");
  });
});

describe("commercial invoice", () => {
  test("parties with non-Latin names come back as the same text", async () => {
    const model = paperModel({
      exporter: paperParty({ company: "Ελληνικά Εξαγωγές Α.Ε.", city: "Αθήνα", country: "Greece" }),
      importer: paperParty({ company: "Müller Handels GmbH", city: "Łódź", country: "Poland" }),
      consignee: paperParty({
        company: "北京进出口有限公司",
        street: "ул. Тверская 7",
        city: "Москва",
        country: "Russia",
      }),
    });
    const pdf = await readPdfText(await renderPaperwork("commercial_invoice", model));
    for (const name of [
      "Ελληνικά Εξαγωγές Α.Ε.",
      "Αθήνα",
      "Müller Handels GmbH",
      "Łódź",
      "北京进出口有限公司",
      "ул. Тверская 7",
      "Москва",
    ]) {
      expect(pdf.text).toContain(name);
    }
    expect(pdf.pages[0]).toContain("COMMERCIAL INVOICE");
    expect(pdf.pages[0]).toContain("Invoice No. INV-2026-0042");
    expect(pdf.pages[0]).toContain("Date 20-NOV-2026");
    expect(pdf.pages[0]).toContain("Page 1 of 1");
  });

  test("a cell mixing CJK with Greek, Cyrillic and Polish keeps every letter (runs in both fonts)", async () => {
    // Noto Sans has no CJK; Noto Sans SC lacks ά, Ł and ź: one font per cell lost letters either way.
    const mixed = "Ελληνικά 北京 Москва";
    const model = paperModel({
      exporter: paperParty({ company: `${mixed} Trading`, city: "Łódź" }),
      consignee: paperParty({
        company: mixed,
        street: "ul. Łódzka 5 北京路",
        city: "Łódź",
        country: "Poland",
      }),
      lines: [
        paperLine(1, { name: "Ελληνικά 北京 Москва widget", description: `Précis ${mixed} ź Ł` }),
        // Long enough to wrap inside its column: the wrapped lines still hold every letter.
        paperLine(2, {
          name: "Widget",
          description: `${mixed} ${mixed} ${mixed} ${mixed} ${mixed} ${mixed}`,
        }),
        paperLine(3),
      ],
    });
    const pdf = await readPdfText(await renderPaperwork("commercial_invoice", model));
    const text = collapse(pdf.text);
    expect(text).toContain(`${mixed} Trading`);
    expect(text).toContain(mixed);
    expect(text).toContain("ul. Łódzka 5 北京路");
    // Description cells wrap (CJK may break between two characters): compared without spaces.
    const squash = (value: string) => value.replace(/\s+/g, "");
    expect(squash(text)).toContain(squash(`Ελληνικά 北京 Москва widget — Précis ${mixed} ź Ł`));
    expect(squash(text)).toContain(squash(`Widget — ${Array(6).fill(mixed).join(" ")} 8471.30.0100`));
    // Every ά: exporter (parties, and the header of each page), consignee, line 1 twice, line 2 six times.
    expect(text.split("ά").length - 1).toBe(1 + pdf.pageCount + 1 + 2 + 6);
    const packing = collapse((await readPdfText(await renderPaperwork("packing_list", model))).text);
    expect(squash(packing)).toContain(squash(`Ελληνικά 北京 Москва widget — Précis ${mixed} ź Ł`));
    expect(packing).toContain("ul. Łódzka 5 北京路");
  });

  test("every script the address book takes is printed and reads back in logical order", async () => {
    const names = {
      arabic: "شركة الخليج للتجارة",
      arabicStreet: "شارع الملك فهد",
      hebrew: "חברת הסחר בע״מ",
      devanagari: "भारत निर्यात प्राइवेट लिमिटेड",
      bengali: "বাংলা ট্রেডিং লিমিটেড",
      thai: "บริษัท ไทยเทรด จำกัด",
      khmer: "ក្រុមហ៊ុន ខ្មែរ",
      georgian: "თბილისი",
      armenian: "Երևան",
      korean: "한국무역 주식회사",
      japanese: "東京貿易株式会社",
      chinese: "北京进出口有限公司",
    };
    const model = paperModel({
      exporter: paperParty({ company: names.arabic, street: names.arabicStreet, city: "الرياض" }),
      importer: paperParty({ company: names.hebrew, street: names.devanagari, contact: names.bengali }),
      consignee: paperParty({
        company: names.thai,
        street: names.khmer,
        city: names.georgian,
        state_province: names.armenian,
        contact: names.korean,
        phone: names.japanese,
        email: names.chinese,
      }),
      lines: [paperLine(1, { name: names.arabic, description: names.devanagari })],
    });
    const bytes = await renderPaperwork("commercial_invoice", model);
    const pdf = await readPdfText(bytes);
    // A cell may wrap (CJK between any two characters): compared without line breaks.
    const text = pdf.text.replace(/\n/g, "");
    for (const name of Object.values(names)) expect(text).toContain(name);
    // Exporter cell, item line and the page header (drawn outside any table).
    expect(pdf.text.split(names.arabic).length - 1).toBe(3);
    // A line mixing Arabic with Latin: the Arabic word keeps its place as typed.
    expect(pdf.text).toContain("الرياض, CA, 90802");
  }, 30_000);

  test("a notify party is printed under the parties; without one there is no such block", async () => {
    const model = paperModel({
      notify_party: paperParty({
        company: "Rotterdam Customs Brokers B.V.",
        city: "Rotterdam",
        country: "Netherlands",
        email: "entries@rcb.example",
      }),
    });
    const pdf = await readPdfText(await renderPaperwork("commercial_invoice", model));
    expect(pdf.text).toContain("Notify Party");
    expect(collapse(pdf.text)).toContain(
      "Rotterdam Customs Brokers B.V. · 100 Harbor Blvd · Rotterdam, CA, 90802",
    );
    expect(pdf.text).toContain("entries@rcb.example");
    const without = await readPdfText(await renderPaperwork("commercial_invoice", paperModel()));
    expect(without.text).not.toContain("Notify Party");
  });

  test("party identifiers print with their labels", async () => {
    const model = paperModel({
      importer: paperParty({
        company: "Hanseatic Machinery GmbH",
        tax_id: "DE811234567",
        tax_id_label: "VAT",
        other_id_label: "EORI",
        other_id: "DE123456789012345",
      }),
      consignee: paperParty({
        company: "上海机械有限公司",
        tax_id: "91310000MA1FL8XY2K",
        tax_id_label: "USCI",
      }),
    });
    const pdf = await readPdfText(await renderPaperwork("commercial_invoice", model));
    expect(pdf.text).toContain("VAT: DE811234567");
    expect(pdf.text).toContain("EORI: DE123456789012345");
    expect(pdf.text).toContain("USCI: 91310000MA1FL8XY2K");
    // The exporter has no label: 'Tax ID'.
    expect(pdf.text).toContain("Tax ID: 12-3456789");
  });

  test("the consignee reads 'same as importer' when it is the importer", async () => {
    const pdf = await readPdfText(
      await renderPaperwork("commercial_invoice", paperModel({ consignee: null })),
    );
    expect(pdf.text).toContain("Same as importer of record");
  });

  test("each line carries its own HTS, ECCN, origin, quantity, values, weight and licence", async () => {
    const model = paperModel({
      lines: [
        paperLine(1, {
          product_number: "RTR-100",
          hts: "8517.62.0090",
          eccn: "5A002.a",
          origin: "Germany",
          quantity: 7,
          unit_value: "1234.56",
          extended_value: "8641.92",
          unit_net_weight: "2.5",
          license_number: "D1234567",
        }),
        paperLine(2, {
          product_number: "CBL-200",
          hts: "8544.42.9090",
          eccn: "EAR99",
          origin: "Mexico",
          quantity: 1000,
          unit_value: "0.10",
          extended_value: "100.00",
          unit_net_weight: "0.001",
        }),
      ],
    });
    const pdf = await readPdfText(await renderPaperwork("commercial_invoice", model));
    const first = rowText(pdf.text, "RTR-100", "CBL-200");
    for (const v of [
      "8517.62.0090",
      "5A002.a",
      "Germany",
      " 7 ",
      "1,234.56",
      "8,641.92",
      "17.500 kg (38.58 lb)",
      "Licence: D1234567",
    ])
      expect(first).toContain(v);
    const second = rowText(pdf.text, "CBL-200", "Total packages");
    for (const v of ["8544.42.9090", "EAR99", "Mexico", "1000", "0.10", "100.00", "1.000 kg (2.20 lb)"])
      expect(second).toContain(v);
    expect(pdf.text).toContain("Licence: D1234567");
    expect(pdf.text.match(/Licence:/g)?.length).toBe(1);
    // references
    for (const v of [
      "21-NOV-2026",
      "DHL Express",
      "Air",
      "HAWB 123-45678901",
      "Los Angeles, CA",
      "Warsaw Chopin (WAW)",
      "DAP Warsaw Chopin (WAW)",
      "Net 30",
      "PO-7781",
    ]) {
      expect(pdf.text).toContain(v);
    }
  });

  test("totals are exact on awkward values", async () => {
    const model = paperModel({
      lines: [
        paperLine(1, { quantity: 1000, unit_value: "999999.99", extended_value: "999999990.00" }),
        paperLine(2, { quantity: 1, unit_value: "0.10", extended_value: "0.10" }),
        paperLine(3, { quantity: 1, unit_value: "0.20", extended_value: "0.20" }),
      ],
      freight: "0.10",
      insurance: "0.20",
      packages: [
        {
          type: "Box",
          quantity: 3,
          net_weight: "0.1",
          gross_weight: "0.2",
          length: "1",
          width: "1",
          height: "1",
        },
        {
          type: "Pallet",
          quantity: 1,
          net_weight: "0.2",
          gross_weight: "0.3",
          length: "40",
          width: "48",
          height: "50",
        },
      ],
    });
    const pdf = await readPdfText(await renderPaperwork("commercial_invoice", model));
    expect(lineWith(pdf.text, "Total value")).toContain("USD 999,999,990.30");
    expect(lineWith(pdf.text, "Freight")).toContain("USD 0.10");
    expect(lineWith(pdf.text, "Insurance")).toContain("USD 0.20");
    expect(lineWith(pdf.text, "Total invoice value")).toContain("USD 999,999,990.60");
    expect(lineWith(pdf.text, "Total packages")).toContain("4");
    expect(lineWith(pdf.text, "Total packages (pieces)")).toContain("4");
    expect(lineWith(pdf.text, "Total quantity (units)")).toContain("1002");
    // 3 × 0.1 + 0.2 = 0.5 kg net; 3 × 0.2 + 0.3 = 0.9 kg gross (not 0.8999999…)
    expect(lineWith(pdf.text, "Total net weight")).toContain("0.500 kg (1.10 lb)");
    expect(lineWith(pdf.text, "Total gross weight")).toContain("0.900 kg (1.98 lb)");
    expect(pdf.text).toContain(ACTUAL_PRICE_DECLARATION.slice(0, 60));
  });

  test("the Destination Control Statement is printed, exactly, when a line is on the CCL", async () => {
    const controlled = paperModel({ lines: [paperLine(1), paperLine(2, { eccn: "3A090.a" })] });
    const pdf = await readPdfText(await renderPaperwork("commercial_invoice", controlled));
    expect(collapse(pdf.text)).toContain(DESTINATION_CONTROL_STATEMENT);
    expect(pdf.text).not.toContain("Diversion contrary");

    // Already in the statement: printed once, with the user's own addition.
    const withStatement = paperModel({
      lines: [paperLine(1, { eccn: "5A992.c" })],
      statement: `${DESTINATION_CONTROL_STATEMENT}\nGoods are shipped in sealed cartons.`,
    });
    const again = collapse(
      (await readPdfText(await renderPaperwork("commercial_invoice", withStatement))).text,
    );
    expect(again.split("These items are controlled by the U.S. Government").length - 1).toBe(1);
    expect(again).toContain("Goods are shipped in sealed cartons.");
  });

  test("EAR99-only shipments get no DCS", async () => {
    const pdf = await readPdfText(await renderPaperwork("commercial_invoice", paperModel()));
    expect(pdf.text).not.toContain("controlled by the U.S. Government");
    expect(pdf.text).not.toContain("Diversion contrary");
  });

  test("the AES citation prints an ITN as AES X… and a legend as itself", async () => {
    const itn = await readPdfText(
      await renderPaperwork("commercial_invoice", paperModel({ aes_citation: "X20261120123456" })),
    );
    expect(itn.text).toContain("AES X20261120123456");
    const legend = await readPdfText(
      await renderPaperwork("commercial_invoice", paperModel({ aes_citation: "NOEEI § 30.37(a)" })),
    );
    expect(legend.text).toContain("NOEEI § 30.37(a)");
    const none = await readPdfText(await renderPaperwork("commercial_invoice", paperModel()));
    expect(none.text).not.toContain("NOEEI");
    expect(none.text).not.toMatch(/AES X/);
  });

  test("a 120-line invoice breaks across pages, repeats the header and numbers every page", async () => {
    const model = paperModel({}, 120);
    const pdf = await readPdfText(await renderPaperwork("commercial_invoice", model));
    expect(pdf.pageCount).toBeGreaterThan(2);
    pdf.pages.forEach((page, i) => {
      expect(page).toContain("COMMERCIAL INVOICE");
      expect(page).toContain("Invoice No. INV-2026-0042");
      expect(page).toContain("Date 20-NOV-2026");
      expect(page).toContain(`Page ${i + 1} of ${pdf.pageCount}`);
    });
    // Every page that carries item lines starts them under a repeated header row.
    const pagesWithLines = pdf.pages.filter((p) => /P-\d{4}/.test(p));
    expect(pagesWithLines.length).toBeGreaterThan(2);
    for (const page of pagesWithLines) expect(page).toContain("Product no.");
    // Each line exactly once, none cut off.
    for (let i = 1; i <= 120; i++) {
      const number = `P-${String(i).padStart(4, "0")}`;
      expect(pdf.text.split(number).length - 1).toBe(1);
    }
    // Totals on the last page only.
    const last = pdf.pages[pdf.pageCount - 1];
    expect(last).toContain("Total invoice value");
    expect(lineWith(last, "Total invoice value")).toContain("USD 3,636.30");
    expect(pdf.pages.slice(0, -1).join("\n")).not.toContain("Total invoice value");
    expect(pdf.sizes[0]).toEqual([612, 792]);
  });

  test("multi-page invoices carry page subtotals, carried and brought forward, and keep each line whole", async () => {
    const model = paperModel({}, 120);
    const pdf = await readPdfText(await renderPaperwork("commercial_invoice", model));
    const itemPages = pdf.pages.filter((p) => /P-\d{4}/.test(p));
    let carried = 0;
    const usd = (cents: number) => (cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 });
    itemPages.forEach((page, i) => {
      const count = (page.match(/P-\d{4}/g) ?? []).length;
      // Every line of this fixture is USD 30.30.
      expect(lineWith(page, "Page subtotal")).toContain(`Page subtotal USD ${usd(count * 3030)}`);
      if (i > 0) expect(lineWith(page, "Brought forward")).toContain(`Brought forward USD ${usd(carried)}`);
      carried += count * 3030;
      if (i < itemPages.length - 1) {
        expect(lineWith(page, "Carried forward")).toContain(`Carried forward USD ${usd(carried)}`);
      } else expect(page).not.toContain("Carried forward");
      // A line's two description rows never part across the break.
      for (const number of page.match(/Widget \d+ —/g) ?? []) {
        const n = number.match(/\d+/)?.[0];
        expect(page).toContain(`widget, model ${n}`);
      }
    });
  });

  test("the signature stays on the page of its declaration for every line count from 1 to 40", async () => {
    for (let lines = 1; lines <= 40; lines++) {
      const pdf = await readPdfText(await renderPaperwork("commercial_invoice", paperModel({}, lines)));
      const declaration = pdf.pages.findIndex((p) => p.includes("It is hereby certified"));
      const signature = pdf.pages.findIndex((p) => p.includes("Authorized signature"));
      expect({ lines, declaration }).toEqual({ lines, declaration: signature });
      expect(pdf.pages[signature]).toContain("Jane Doe, Export Manager");
    }
  }, 60_000);

  test("the packing list's 'Prepared by' stays on the page of the last package row, 1 to 14 packages with contents, letter and A4", async () => {
    for (const page_size of ["letter", "a4"] as const) {
      for (let count = 1; count <= 14; count++) {
        const model = paperModel(
          {
            page_size,
            packages: Array.from({ length: count }, (_, i) => ({
              type: `Carton ${i + 1}`,
              quantity: 1,
              net_weight: "1.125",
              gross_weight: "1.500",
              length: "12",
              width: "10",
              height: "8",
              contents: [
                {
                  product_number: `P-000${(i % 3) + 1}`,
                  description: `Widget ${(i % 3) + 1}`,
                  quantity: 2,
                  unit_of_measure: "PCS",
                },
                { product_number: "P-0009", description: "Spare cable", quantity: 1, unit_of_measure: "PCS" },
              ],
            })),
          },
          3,
        );
        const pdf = await readPdfText(await renderPaperwork("packing_list", model));
        const last = pdf.pages.findIndex((p) => new RegExp(`(?<!Page )\\b${count} of ${count}\\b`).test(p));
        const signature = pdf.pages.findIndex((p) => p.includes("Prepared by"));
        expect({ page_size, count, last }).toEqual({ page_size, count, last: signature });
        expect(pdf.pages[signature]).toContain("Marks and numbers");
        // Every package row is printed once.
        expect(pdf.pages.join("\n").match(/(?<!Page )\b\d+ of \d+/g)?.length).toBe(count);
      }
    }
  }, 120_000);

  test("figures never break inside themselves; e-mail addresses break after @ or a dot", async () => {
    const model = paperModel({
      exporter: paperParty({
        email: "international.export.department.orders@extraordinarily-long-domain-name.example.com",
      }),
      lines: [
        paperLine(1, {
          quantity: 99_999_999,
          unit_value: "9.99",
          extended_value: "999999990.01",
          unit_net_weight: "825.000",
        }),
      ],
    });
    const pdf = await readPdfText(await renderPaperwork("commercial_invoice", model));
    // Each figure comes back whole on one text line (a break would put a newline inside it).
    for (const figure of [
      "99999999",
      "9.99",
      "999,999,990.01",
      "82,499,999,175.000 kg",
      "(181,881,364,483.71 lb)",
    ]) {
      expect(pdf.text.split("\n").some((line) => line.includes(figure))).toBe(true);
    }
    const lines = pdf.text.split("\n");
    const emailLines = lines.filter((l) => /international|extraordinarily|example\.com/.test(l));
    expect(emailLines.join("")).toContain(
      "international.export.department.orders@extraordinarily-long-domain-name.example.com",
    );
    for (const line of emailLines.slice(0, -1)) expect(line).toMatch(/[@.-]$/);
  });

  test("A4 when the workspace prints on A4, with the signature image", async () => {
    const bytes = await renderPaperwork(
      "commercial_invoice",
      paperModel({ page_size: "a4", signature: { image: PNG, name: "Jane Doe", title: "Export Manager" } }),
    );
    const pdf = await readPdfText(bytes);
    expect(pdf.sizes[0]).toEqual([595.28, 841.89]);
    expect(pdf.text).toContain("Jane Doe, Export Manager");
    expect(new TextDecoder("latin1").decode(bytes)).toContain("/Subtype /Image");
  });
});

describe("proforma invoice", () => {
  test("is marked PROFORMA, carries its number and validity, and no declaration of actual price", async () => {
    const model = paperModel({
      number: "PF-2026-0007",
      valid_until: "2026-12-21",
      lines: [paperLine(1, { eccn: "5A002.a" })],
    });
    const pdf = await readPdfText(await renderPaperwork("proforma_invoice", model));
    expect(pdf.pages[0]).toContain("PROFORMA INVOICE");
    expect(pdf.pages[0]).toContain("Proforma No. PF-2026-0007");
    expect(lineWith(pdf.text, "Valid until")).toContain("21-DEC-2026");
    expect(collapse(pdf.text)).toContain("not a demand for payment");
    expect(pdf.text).not.toContain("It is hereby certified");
    expect(lineWith(pdf.text, "Total invoice value")).toContain("USD 30.60");
  });
});

describe("packing list", () => {
  test("lists packages with weights in kg and lb, dimensions in in and cm, volume and totals — and no prices", async () => {
    const model = paperModel({
      packages: [
        {
          type: "Box",
          quantity: 2,
          net_weight: "1.125",
          gross_weight: "1.5",
          length: "12",
          width: "10",
          height: "8",
        },
        {
          type: "Pallet",
          quantity: 1,
          net_weight: "100",
          gross_weight: "120.5",
          length: "48",
          width: "40",
          height: "36.5",
        },
      ],
    });
    const pdf = await readPdfText(await renderPaperwork("packing_list", model));
    expect(pdf.pages[0]).toContain("PACKING LIST");
    // Each physical package is its own numbered row: the line of 2 boxes is packages 1 and 2.
    for (const n of [1, 2]) {
      const box = lineWith(pdf.text, `${n} of 3`);
      for (const v of [
        "Box",
        "1.125 kg (2.48 lb)",
        "1.500 kg (3.31 lb)",
        "12.00 × 10.00 × 8.00 in (30.48 × 25.40 × 20.32 cm)",
        "0.016 m³ (0.56 ft³)",
      ]) {
        expect(box).toContain(v);
      }
    }
    expect(lineWith(pdf.text, "3 of 3")).toContain("Pallet");
    const pallet = rowText(pdf.text, "Pallet", "Product no.");
    for (const v of [
      "100.000 kg (220.46 lb)",
      "120.500 kg (265.66 lb)",
      "48.00 × 40.00 × 36.50 in (121.92 × 101.60 × 92.71 cm)",
      "1.148 m³ (40.56 ft³)",
    ]) {
      expect(pallet).toContain(v);
    }
    expect(lineWith(pdf.text, "Total packages")).toContain("3");
    expect(lineWith(pdf.text, "Total quantity (units)")).toContain("6");
    // One meaning of 'pieces' everywhere: the form's total pieces are the packages.
    expect(pdf.text).not.toMatch(/Total pieces/);
    // 2 × 1.125 + 100 = 102.25 kg net; 2 × 1.5 + 120.5 = 123.5 kg gross
    expect(lineWith(pdf.text, "Total net weight")).toContain("102.250 kg (225.42 lb)");
    expect(lineWith(pdf.text, "Total gross weight")).toContain("123.500 kg (272.27 lb)");
    // 2 × 960 + 70080 = 72000 in³ = 1.180 m³, 41.67 ft³
    expect(lineWith(pdf.text, "Total volume")).toContain("1.180 m³ (41.67 ft³)");
    expect(pdf.text).toContain("Marks and numbers");
    expect(pdf.text).toContain("MÜLLER HANDELS GMBH / ŁÓDŹ");
    // No prices anywhere.
    for (const price of ["USD", "10.10", "30.30", "Unit value", "Total value", "Freight", "Insurance"]) {
      expect(pdf.text).not.toContain(price);
    }
  });
});

describe("packing list contents", () => {
  test("every package of a line prints the line's contents, and a single package also its own", async () => {
    const model = paperModel({
      packages: [
        {
          type: "Carton",
          quantity: 2,
          net_weight: "4.5",
          gross_weight: "5",
          length: "24",
          width: "16",
          height: "12",
          contents: [
            { product_number: "P-0001", description: "Widget 1", quantity: 3, unit_of_measure: "PCS" },
            {
              product_number: "P-0002",
              description: "Widget 2",
              quantity: 1,
              unit_of_measure: "SET",
              package: 2,
            },
          ],
        },
        {
          type: "Pallet",
          quantity: 1,
          net_weight: "100",
          gross_weight: "120",
          length: "48",
          width: "40",
          height: "36",
        },
      ],
    });
    const pdf = await readPdfText(await renderPaperwork("packing_list", model));
    const table = pdf.text.slice(pdf.text.indexOf("Package no."), pdf.text.indexOf("Product no."));
    const rows = table.split(/(?=\b\d of 3\b)/).slice(1);
    expect(rows.map((r) => r.slice(0, 6))).toEqual(["1 of 3", "2 of 3", "3 of 3"]);
    expect(rows[0]).toContain("3 PCS P-0001 Widget 1");
    expect(rows[0]).not.toContain("P-0002");
    expect(rows[1]).toContain("3 PCS P-0001 Widget 1");
    expect(rows[1]).toContain("1 SET P-0002 Widget 2");
    // No contents assigned: no contents printed.
    expect(rows[2]).not.toContain("Contents");
  });
});

describe("certificate of origin", () => {
  test("names exporter, consignee, route, goods with HS code and origin, the declaration and the chamber's box", async () => {
    const model = paperModel({
      consignee: paperParty({ company: "Zakład Łódź Sp. z o.o.", city: "Łódź", country: "Poland" }),
      lines: [
        paperLine(1, { name: "Spectrum analyser", origin: "Germany", hts: "9030.40.0000" }),
        paperLine(2, { name: "Probe", origin: "United States", hts: "9030.90.8400" }),
      ],
    });
    const pdf = await readPdfText(await renderPaperwork("certificate_of_origin", model));
    const text = collapse(pdf.text);
    expect(pdf.pages[0]).toContain("CERTIFICATE OF ORIGIN");
    expect(text).toContain("1. Exporter (name, address, country)");
    expect(text).toContain("Acme Export Inc. 100 Harbor Blvd Long Beach, CA, 90802 United States");
    expect(text).toContain("Zakład Łódź Sp. z o.o.");
    expect(lineWith(pdf.text, "3. Means of transport")).toContain(
      "Air · DHL Express · Los Angeles, CA to Warsaw Chopin (WAW)",
    );
    expect(lineWith(pdf.text, "4. Country of destination")).toContain("Poland");
    expect(lineWith(pdf.text, "5. Country of origin")).toContain("Germany, United States");
    expect(lineWith(pdf.text, "Spectrum analyser")).toContain("9030.40.0000");
    expect(lineWith(pdf.text, "Spectrum analyser")).toContain("Germany");
    expect(lineWith(pdf.text, "Probe")).toContain("United States");
    expect(lineWith(pdf.text, "Invoice")).toContain("INV-2026-0042, 20-NOV-2026");
    expect(text).toContain(ORIGIN_DECLARATION);
    expect(text).toContain(CHAMBER_CERTIFICATION);
    expect(text).toContain("Chamber of commerce: stamp, place, date and signature");
    // Signed by the exporter, on the page of the declaration.
    const declaration = pdf.pages.findIndex((p) => collapse(p).includes(ORIGIN_DECLARATION));
    expect(pdf.pages[declaration]).toContain("Jane Doe, Export Manager");
    // No prices on a certificate of origin.
    expect(text).not.toContain("USD");
  });
});
