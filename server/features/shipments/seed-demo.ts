import type { Client, InArgs } from "@libsql/client";
import { eq } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { decimalToScaled } from "../../../db/contracts/decimal";
import { computeShipmentTotals, SHIPMENT_STATUS } from "../../../db/contracts/shipments";
import { countries, currencies, users, workspaces } from "../../../db/schema";

/**
 * Demo data for trying the product and for the benchmarks: one workspace with a known login, an address book in many countries, a
 * catalogue with real-looking export classifications, licences, and shipments over the two years
 * before `today` in every status (plus templates), each with items and packages. The same seed and
 * day give the same data. Rows go in as large multi-row INSERTs inside transactions, not through the
 * HTTP API, so 100,000 shipments take seconds, not hours.
 */

export const DEMO_EMAIL = "demo@tradewinds.local";
export const DEMO_PASSWORD = "tradewinds-demo";

export type TSeedDemoOptions = {
  shipments: number;
  seed: number;
  /** The day the data ends on (YYYY-MM-DD); shipments spread over the two years before it. */
  today: string;
  email?: string;
  password?: string;
  /** Called after each batch of shipments with how many are done. */
  onProgress?: (done: number, total: number) => void;
};

export type TSeedDemoResult = {
  email: string;
  password: string;
  workspaceId: number;
  contacts: number;
  products: number;
  licenses: number;
  shipments: number;
  templates: number;
};

/** mulberry32: small, fast and the same on every platform. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  /** k distinct items of the list. */
  const sample = <T>(list: readonly T[], k: number): T[] => {
    const copy = [...list];
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, k);
  };
  return { next, int, pick, sample };
}

/** Cities with their ISO country code, legal form and phone prefix: where the demo's partners sit. */
const PLACES = [
  ["Hamburg", "DE", "GmbH", "+49 40"],
  ["Munich", "DE", "GmbH", "+49 89"],
  ["Rotterdam", "NL", "B.V.", "+31 10"],
  ["Antwerp", "BE", "NV", "+32 3"],
  ["Lyon", "FR", "S.A.S.", "+33 4"],
  ["Milan", "IT", "S.r.l.", "+39 02"],
  ["Barcelona", "ES", "S.L.", "+34 93"],
  ["Gothenburg", "SE", "AB", "+46 31"],
  ["Gdańsk", "PL", "Sp. z o.o.", "+48 58"],
  ["Zürich", "CH", "AG", "+41 44"],
  ["Manchester", "GB", "Ltd", "+44 161"],
  ["Dublin", "IE", "Ltd", "+353 1"],
  ["Toronto", "CA", "Inc.", "+1 416"],
  ["Monterrey", "MX", "S.A. de C.V.", "+52 81"],
  ["São Paulo", "BR", "Ltda.", "+55 11"],
  ["Santiago", "CL", "S.A.", "+56 2"],
  ["Shenzhen", "CN", "Co., Ltd.", "+86 755"],
  ["Shanghai", "CN", "Co., Ltd.", "+86 21"],
  ["Osaka", "JP", "K.K.", "+81 6"],
  ["Busan", "KR", "Co., Ltd.", "+82 51"],
  ["Taipei", "TW", "Co., Ltd.", "+886 2"],
  ["Singapore", "SG", "Pte. Ltd.", "+65"],
  ["Bangalore", "IN", "Pvt. Ltd.", "+91 80"],
  ["Dubai", "AE", "LLC", "+971 4"],
  ["Istanbul", "TR", "A.Ş.", "+90 212"],
  ["Johannesburg", "ZA", "(Pty) Ltd", "+27 11"],
  ["Sydney", "AU", "Pty Ltd", "+61 2"],
  ["Auckland", "NZ", "Ltd", "+64 9"],
  ["Tel Aviv", "IL", "Ltd.", "+972 3"],
  ["Nairobi", "KE", "Ltd", "+254 20"],
] as const;

/** US places for the workspace's own exporting entities. */
const US_PLACES = [
  ["Houston", "TX", "+1 713"],
  ["San Jose", "CA", "+1 408"],
  ["Chicago", "IL", "+1 312"],
  ["Boston", "MA", "+1 617"],
] as const;

const NAME_STEMS = [
  "Atlas",
  "Meridian",
  "Northwind",
  "Harbor",
  "Summit",
  "Eastgate",
  "Crescent",
  "Evergreen",
  "Ironbridge",
  "Oakmont",
  "Redstone",
  "Pioneer",
  "Horizon",
  "Bluewater",
  "Silverline",
  "Keystone",
];
const TRADES = [
  "Instruments",
  "Electronics",
  "Precision Components",
  "Industrial Supply",
  "Medical Systems",
  "Optics",
  "Automation",
  "Semiconductors",
  "Test & Measurement",
  "Telecom",
];
const FIRST = [
  "Anna",
  "Jonas",
  "Mei",
  "Carlos",
  "Priya",
  "Lars",
  "Yuki",
  "Fatima",
  "Tom",
  "Sofia",
  "Ahmed",
  "Elena",
];
const LAST = [
  "Schmidt",
  "Janssen",
  "Chen",
  "García",
  "Sharma",
  "Nilsson",
  "Tanaka",
  "Haddad",
  "Walsh",
  "Rossi",
];

/** Products with plausible export classifications: mostly EAR99 and 3A992/5A992, some controlled. */
const PRODUCTS = [
  ["Bench multimeter 6½ digit", "DMM-6500", "EAR99", "9030.33.0000", "1450.00", "3.2"],
  ["Handheld oscilloscope 200 MHz", "OSC-H200", "EAR99", "9030.20.1000", "2890.00", "2.1"],
  ["Spectrum analyser 26.5 GHz", "SA-2650", "3A992.a", "9030.40.0000", "48500.00", "18.5"],
  ["Vector network analyser 43.5 GHz", "VNA-4350", "3A002.e", "9030.40.0000", "112000.00", "22.0"],
  ["Signal generator 6 GHz", "SG-6000", "3A992.a", "8543.20.0000", "18750.00", "9.8"],
  ["Arbitrary waveform generator", "AWG-2400", "EAR99", "8543.20.0000", "7420.00", "6.4"],
  ["High-speed ADC evaluation board", "ADC-EVB12", "3A001.a.5", "8473.30.1180", "2350.00", "0.4"],
  ["Radiation-hardened FPGA", "FPGA-RH400", "9A515.e.1", "8542.39.0001", "36500.00", "0.05"],
  ["Industrial Ethernet switch", "IES-2408", "5A992.c", "8517.62.0050", "1280.00", "1.9"],
  ["Encrypted VPN router", "VPN-R900", "5A002.a", "8517.62.0050", "4900.00", "2.6"],
  ["Network encryption appliance", "NEA-10G", "5A002.a", "8471.50.0150", "28900.00", "11.3"],
  ["Secure USB flash drive 64 GB", "SUSB-64", "5A992.c", "8523.51.0000", "89.90", "0.03"],
  ["Thermal imaging camera 640×480", "TIC-640", "6A993.a", "9027.50.8015", "9850.00", "1.4"],
  ["Infrared focal plane array", "IRFPA-12", "6A002.a.3", "8541.49.9500", "54000.00", "0.6"],
  ["Laser diode module 808 nm", "LDM-808", "6A005.b", "9013.20.0000", "3150.00", "0.8"],
  ["Optical power meter", "OPM-200", "EAR99", "9030.39.0100", "640.00", "0.7"],
  ["Fibre splicer", "FS-90S", "EAR99", "8515.80.0080", "6800.00", "2.3"],
  ["5-axis CNC controller", "CNC-5X", "2B001.b", "8537.10.9170", "21400.00", "14.0"],
  ["Precision linear stage", "PLS-300", "2B991", "8466.93.9885", "3980.00", "6.1"],
  ["Digital pressure transducer", "DPT-350", "EAR99", "9026.20.4000", "410.00", "0.35"],
  ["Mass flow controller", "MFC-50", "2B350.d", "9026.10.2040", "2450.00", "1.1"],
  ["Lithium-ion battery pack 48 V", "LIB-48", "EAR99", "8507.60.0020", "1890.00", "24.0"],
  ["Servo motor 2 kW", "SRV-2K", "EAR99", "8501.52.8040", "760.00", "7.5"],
  ["Programmable logic controller", "PLC-S7X", "EAR99", "8537.10.9170", "1320.00", "1.2"],
  ["GNSS receiver module", "GNSS-M9", "7A994", "8526.91.0040", "185.00", "0.02"],
  ["Inertial measurement unit", "IMU-30", "7A003.b", "9014.20.8080", "16800.00", "0.9"],
  ["Ultrasonic flaw detector", "UFD-500", "EAR99", "9031.80.8085", "8900.00", "2.2"],
  ["Laboratory centrifuge", "LC-15K", "2B352.c", "8421.19.0000", "11200.00", "38.0"],
  ["Hand tools kit, insulated", "HTK-1000V", "EAR99", "8206.00.0000", "245.50", "4.8"],
  ["Calibration weights set", "CWS-E2", "EAR99", "9016.00.6000", "1175.00", "6.9"],
] as const;

/** Day number (days since 1970-01-01) of a YYYY-MM-DD date, and back. */
const dayOf = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
const dateOf = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
const stampOf = (day: number, seconds: number) => new Date(day * 86_400_000 + seconds * 1000).toISOString();

/** Inserts rows as multi-row INSERTs of at most `perStatement` rows. */
async function insertRows(
  run: (stmt: { sql: string; args: InArgs }) => Promise<unknown>,
  table: string,
  columns: readonly string[],
  rows: unknown[][],
  perStatement = Math.floor(30_000 / columns.length),
) {
  const placeholders = `(${columns.map(() => "?").join(",")})`;
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    await run({
      sql: `insert into ${table} (${columns.join(",")}) values ${chunk.map(() => placeholders).join(",")}`,
      args: chunk.flat() as InArgs,
    });
  }
}

const SHIPMENT_COLUMNS = [
  "id",
  "workspace_id",
  "name",
  "exporter_of_record_id",
  "importer_of_record_id",
  "ultimate_consignee_id",
  "freight",
  "insurance",
  "total_value",
  "total_invoice_value",
  "ship_date",
  "consignee_reference_number",
  "shipper_reference_number",
  "incoterm_id",
  "carrier_id",
  "bol_hawb_tracking",
  "payment_terms_id",
  "currency_id",
  "mode_of_transport_id",
  "port_of_export",
  "port_of_import",
  "instructions_notes",
  "user_name",
  "user_title",
  "user_id",
  "shipping_status_id",
  "tracking_number_1",
  "tracking_number_2",
  "total_pieces",
  "preview_statement_text",
  "generate_documents",
  "created_at",
  "updated_at",
] as const;

const PORTS_OF_EXPORT = [
  "Houston, TX",
  "Los Angeles, CA",
  "Newark, NJ",
  "Chicago O'Hare, IL",
  "Savannah, GA",
];
const NOTES = [
  "",
  "",
  "",
  "Deliver to loading dock 3; call ahead.",
  "Keep dry. Fragile instruments.",
  "End-user statement on file.",
  "Consolidate with next week's order if possible.",
];

/** Creates the demo workspace and its data; refuses when the login already exists. */
export async function seedDemo(db: TDb, client: Client, options: TSeedDemoOptions): Promise<TSeedDemoResult> {
  const email = (options.email ?? DEMO_EMAIL).toLowerCase();
  const password = options.password ?? DEMO_PASSWORD;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(options.today) || Number.isNaN(dayOf(options.today))) {
    throw new Error(`--today must be a date as YYYY-MM-DD, not "${options.today}"`);
  }
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (existing) {
    throw new Error(
      `A user ${email} already exists: seed another login with --email, or use a fresh DATA_DIR.`,
    );
  }
  const r = prng(options.seed);
  const today = dayOf(options.today);
  const [countryRows, currencyRows] = await Promise.all([
    db.select({ id: countries.id, code: countries.code_iso_2 }).from(countries),
    db.select({ id: currencies.id, code: currencies.code }).from(currencies),
  ]);
  const countryId = new Map(countryRows.map((c) => [c.code, c.id]));
  const currencyId = new Map(currencyRows.map((c) => [c.code, c.id]));
  const created = stampOf(today - 731, 9 * 3600);

  const [workspace] = await db.insert(workspaces).values({ name: "Tradewinds Demo" }).returning();
  const [user] = await db
    .insert(users)
    .values({
      workspace_id: workspace.id,
      title: "Ms.",
      name: "Dana",
      surname: "Demo",
      email,
      password_hash: await Bun.password.hash(password, { algorithm: "argon2id" }),
      email_verified_at: created,
      created_at: created,
      updated_at: created,
    })
    .returning();
  await db.update(workspaces).set({ owner_user_id: user.id }).where(eq(workspaces.id, workspace.id));

  const tx = await client.transaction("write");
  const run = (stmt: { sql: string; args: InArgs }) => tx.execute(stmt);
  // A large page cache for this connection keeps the shipments' many indexes in memory while
  // they grow (the default 2,000 pages spill to disk on every batch and made 100k rows I/O-bound).
  await tx.execute("PRAGMA cache_size = -262144");
  try {
    // Address book: our own exporting entities in the US, partners around the world.
    const contactRows: unknown[][] = [];
    const exporterIdx: number[] = [];
    const partnerIdx: number[] = [];
    const contactCountry: string[] = [];
    const addContact = (
      company: string,
      city: string,
      code: string,
      partnerType: number,
      phone: string,
      state = "",
    ) => {
      const i = contactRows.length;
      const person = `${r.pick(FIRST)} ${r.pick(LAST)}`;
      const domain = company
        .toLowerCase()
        .normalize("NFD")
        .replace(/[^a-z]+/g, "")
        .slice(0, 18);
      const isSensitive = r.next() < 0.04;
      contactRows.push([
        workspace.id,
        user.id,
        company,
        isSensitive ? 1 : 0,
        isSensitive ? "Dual-use end use: end-user statement required." : "-",
        partnerType,
        0,
        "-",
        `${code}${String(10_000_000 + r.int(0, 89_999_999))}`,
        `${r.int(1, 250)} ${r.pick(["Harbour Road", "Industriestraße", "Market Street", "Avenue des Arts", "Ring Road", "Science Park"])}`,
        city,
        state,
        String(r.int(10_000, 99_999)),
        countryId.get(code) ?? null,
        person,
        `${phone} ${r.int(100, 999)} ${r.int(1000, 9999)}`,
        `${person.split(" ")[0].toLowerCase()}@${domain}.example`,
        created,
        created,
      ]);
      contactCountry.push(code);
      return i;
    };
    for (const [city, state, phone] of US_PLACES) {
      exporterIdx.push(
        addContact(`${r.pick(NAME_STEMS)} ${r.pick(TRADES)} Inc.`, city, "US", 2, phone, state),
      );
    }
    const partnerCount = Math.max(30, Math.min(400, Math.round(options.shipments / 10)));
    for (let i = 0; i < partnerCount; i++) {
      const [city, code, form, phone] = PLACES[i % PLACES.length];
      partnerIdx.push(
        addContact(
          `${r.pick(NAME_STEMS)} ${r.pick(TRADES)} ${form}`,
          city,
          code,
          r.pick([1, 1, 1, 6]),
          phone,
        ),
      );
    }
    const firstContact = await nextId(tx, "contacts");
    await insertRows(
      run,
      "contacts",
      [
        "workspace_id",
        "user_id",
        "company",
        "is_sensitive",
        "sensitive_note",
        "partner_type_id",
        "is_restricted",
        "restricted_note",
        "tax_id",
        "street",
        "city",
        "state_province",
        "postal_code",
        "country_id",
        "contact_1",
        "phone_1",
        "email_1",
        "created_at",
        "updated_at",
      ],
      contactRows,
    );
    const contactId = (i: number) => firstContact + i;

    // Catalogue.
    const firstProduct = await nextId(tx, "products");
    await insertRows(
      run,
      "products",
      [
        "workspace_id",
        "name",
        "description",
        "product_number",
        "country_of_origin_id",
        "has_license",
        "us_eccn",
        "hts",
        "unit_value",
        "net_weight",
        "created_at",
        "updated_at",
      ],
      PRODUCTS.map(([name, number, eccn, hts, value, weight], i) => [
        workspace.id,
        name,
        `${name}, model ${number}`,
        number,
        countryId.get(i % 5 === 4 ? "DE" : "US"),
        eccn === "EAR99" || /^[0-9][A-E]99/.test(eccn) ? 0 : 1,
        eccn,
        hts,
        decimalToScaled(value, 2),
        decimalToScaled(weight, 3),
        created,
        created,
      ]),
    );
    const unitValues = PRODUCTS.map((p) => p[4] as string);

    // Licences for the controlled products.
    const licensed = PRODUCTS.map((p, i) => ({ eccn: p[2], i })).filter(
      ({ eccn }) => eccn !== "EAR99" && !/^[0-9][A-E]99/.test(eccn),
    );
    await insertRows(
      run,
      "licenses",
      [
        "workspace_id",
        "licence_name",
        "valid_date",
        "expiration_date",
        "reference_number_1",
        "reference_number_2",
        "status",
        "country_id",
        "contact_id",
        "product_id",
        "created_at",
        "updated_at",
      ],
      licensed.map(({ eccn, i }, n) => {
        const partner = partnerIdx[n % partnerIdx.length];
        const valid = today - r.int(30, 600);
        return [
          workspace.id,
          `BIS licence ${eccn} – ${PRODUCTS[i][1]}`,
          dateOf(valid),
          dateOf(valid + 730),
          `D${String(1_000_000 + r.int(0, 8_999_999))}`,
          `Z${String(r.int(100_000, 999_999))}`,
          valid + 730 < today ? "expired" : r.pick(["approved", "approved", "pending"]),
          countryId.get(contactCountry[partner]),
          contactId(partner),
          firstProduct + i,
          created,
          created,
        ];
      }),
    );

    // Shipments, with their lines, in batches.
    const templates = Math.min(5, Math.max(1, Math.floor(options.shipments / 100)));
    const total = options.shipments + templates;
    const firstShipment = await nextId(tx, "shipments");
    const batchSize = 2_000;
    const userName = `${user.name} ${user.surname}`;
    const usd = currencyId.get("USD") ?? 1;
    const currencyChoices = [usd, usd, usd, usd, currencyId.get("EUR") ?? usd, currencyId.get("GBP") ?? usd];
    const productIndexes = PRODUCTS.map((_, i) => i);
    const packageTypes = [1, 2, 3, 4, 5, 7];
    for (let start = 0; start < total; start += batchSize) {
      const shipmentRows: unknown[][] = [];
      const itemRows: unknown[][] = [];
      const packageRows: unknown[][] = [];
      for (let n = start; n < Math.min(total, start + batchSize); n++) {
        const id = firstShipment + n;
        const isTemplate = n >= options.shipments;
        // Spread over the two years before today, denser towards the present.
        const age = Math.floor(730 * r.next() ** 1.3);
        const shipDay = today - age;
        const status = isTemplate
          ? SHIPMENT_STATUS.TEMPLATE
          : age > 45
            ? r.next() < 0.96
              ? SHIPMENT_STATUS.DELIVERED
              : SHIPMENT_STATUS.DELAYED
            : age > 7
              ? r.pick([3, 4, 5, 6, 6, 6])
              : r.pick([2, 2, 3, 3, 4]);
        const exporter = contactId(r.pick(exporterIdx));
        const importerIndex = r.pick(partnerIdx);
        const importer = contactId(importerIndex);
        const consignee = r.next() < 0.7 ? importer : contactId(r.pick(partnerIdx));
        const products3 = r.sample(productIndexes, 3);
        // Expensive instruments ship a few at a time, cheap parts by the dozen.
        const quantities = products3.map((p) => (Number(unitValues[p]) > 5000 ? r.int(1, 4) : r.int(1, 40)));
        const packages2 = r.sample(packageTypes, 2);
        const pieces = packages2.map(() => r.int(1, 12));
        const freight = `${r.int(40, 4000)}.${String(r.int(0, 99)).padStart(2, "0")}`;
        const insurance = `${r.int(0, 400)}.${String(r.int(0, 99)).padStart(2, "0")}`;
        const totals = computeShipmentTotals({
          items: products3.map((p, k) => ({ unit_value: unitValues[p], quantity: quantities[k] })),
          packages: pieces.map((quantity) => ({ quantity })),
          freight,
          insurance,
        });
        const isShipped = status >= SHIPMENT_STATUS.IN_TRANSIT;
        const carrier = r.int(1, 14);
        const reference = `PO-${String(100_000 + n).padStart(6, "0")}`;
        // Stamps end the day before `today`: seeded in the morning (or read west of UTC), a time later
        // on `today` would show as 'Last Updated' in the future.
        const stamp = stampOf(Math.min(today - 1, shipDay - r.int(0, 3)), r.int(8 * 3600, 18 * 3600));
        const laterStamp = stampOf(
          Math.min(today - 1, shipDay + (isShipped ? r.int(0, 20) : 0)),
          r.int(8 * 3600, 18 * 3600),
        );
        const updated = [stamp, laterStamp].sort()[1];
        shipmentRows.push([
          id,
          workspace.id,
          isTemplate
            ? `Template: ${PRODUCTS[products3[0]][0]} to ${PLACES[importerIndex % PLACES.length][0]}`
            : `${PRODUCTS[products3[0]][1]} + ${products3.length - 1} more to ${PLACES[importerIndex % PLACES.length][0]}`,
          exporter,
          importer,
          consignee,
          decimalToScaled(freight, 2),
          decimalToScaled(insurance, 2),
          decimalToScaled(totals.total_value, 2),
          decimalToScaled(totals.total_invoice_value, 2),
          isTemplate ? null : dateOf(shipDay),
          `SO-${r.int(10_000, 99_999)}`,
          reference,
          r.int(1, 11),
          carrier,
          isShipped ? `BOL${r.int(10_000_000, 99_999_999)}` : "",
          r.int(1, 8),
          r.pick(currencyChoices),
          carrier <= 4 ? 4 : 1,
          r.pick(PORTS_OF_EXPORT),
          PLACES[importerIndex % PLACES.length][0],
          r.pick(NOTES),
          userName,
          user.title,
          user.id,
          status,
          isShipped && !isTemplate
            ? `1Z${String(r.int(100_000_000, 999_999_999))}${r.int(10_000, 99_999)}`
            : "",
          isShipped && !isTemplate && r.next() < 0.3 ? `TRK${r.int(10_000_000, 99_999_999)}` : "",
          totals.total_pieces,
          products3.some((p) => PRODUCTS[p][2] !== "EAR99")
            ? "These items are controlled by the US government."
            : "",
          "[]",
          stamp,
          [stamp, updated].sort()[1], // ISO text sorts like time: never updated before created
        ]);
        products3.forEach((p, k) => {
          itemRows.push([id, firstProduct + p, quantities[k], decimalToScaled(totals.extended_values[k], 2)]);
        });
        packages2.forEach((type, k) => {
          const net = r.int(50, 90_000); // grams
          packageRows.push([
            id,
            type,
            pieces[k],
            net,
            net + r.int(100, 5_000),
            r.int(400, 4_800), // inches ×100
            r.int(400, 4_000),
            r.int(200, 3_600),
          ]);
        });
      }
      await insertRows(run, "shipments", SHIPMENT_COLUMNS, shipmentRows);
      await insertRows(
        run,
        "shipment_items",
        ["shipment_id", "product_id", "quantity", "extended_value"],
        itemRows,
      );
      await insertRows(
        run,
        "shipment_packages",
        ["shipment_id", "package_id", "quantity", "net_weight", "gross_weight", "length", "width", "height"],
        packageRows,
      );
      options.onProgress?.(Math.min(total, start + batchSize), total);
    }
    // Each contact's latest non-template ship date, in one statement.
    await tx.execute({
      sql: `update contacts set last_shipment_date = (select max(s.ship_date) from shipments s
              where s.workspace_id = contacts.workspace_id and s.shipping_status_id <> 1
                and (s.exporter_of_record_id = contacts.id or s.importer_of_record_id = contacts.id
                     or s.ultimate_consignee_id = contacts.id))
            where workspace_id = ?`,
      args: [workspace.id],
    });
    await tx.commit();
    return {
      email,
      password,
      workspaceId: workspace.id,
      contacts: contactRows.length,
      products: PRODUCTS.length,
      licenses: licensed.length,
      shipments: options.shipments,
      templates,
    };
  } catch (error) {
    await tx.rollback().catch(() => {});
    // Without its data the login is useless: take it back so a retry can use the same e-mail.
    await db.delete(workspaces).where(eq(workspaces.id, workspace.id));
    throw error;
  } finally {
    tx.close();
  }
}

/** The id the next row of an AUTOINCREMENT table gets (the transaction holds the write lock). */
async function nextId(tx: { execute: Client["execute"] }, table: string): Promise<number> {
  const result = await tx.execute({
    sql: `select coalesce(max(seq), 0) + 1 as next from sqlite_sequence where name = ?`,
    args: [table],
  });
  const fromSequence = Number(result.rows[0]?.next ?? 1);
  const fromTable = await tx.execute(`select coalesce(max(id), 0) + 1 as next from ${table}`);
  return Math.max(fromSequence, Number(fromTable.rows[0].next));
}
