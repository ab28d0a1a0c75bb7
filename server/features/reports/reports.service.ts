import { Database } from "bun:sqlite";
import type { Client } from "@libsql/client";
import {
  AsyncByteQueue,
  Bool,
  type Data,
  DateDay,
  Dictionary,
  Field,
  Float64,
  Int8,
  Int16,
  Int32,
  makeData,
  RecordBatch,
  RecordBatchStreamWriter,
  Schema,
  Struct,
  Utf8,
  type Vector,
  vectorFromArray,
} from "apache-arrow";
import { scaledToDecimal } from "../../../db/contracts/decimal";
import {
  REPORT_ATTRIBUTES,
  type REPORT_GROUPABLE,
  REPORT_SUMMARY_MAX_RECORDS,
  SCREENING_VALUES,
  type TReportColumn,
  type TReportRecord,
} from "../../../db/contracts/reports";
import { offThreadRowSource } from "./report-read-pool";

/** Lines per SQL page and per Arrow record batch: big enough to amortise, small enough to stay flat in memory. */
export const REPORT_BATCH_LINES = 32_768;

/** The narrowest signed index type for a dictionary of `size` strings (Arrow indexes are signed). */
function indexType(size: number): Int8 | Int16 | Int32 {
  return size <= 127 ? new Int8() : size <= 32_767 ? new Int16() : new Int32();
}

/** Strings that repeat (statuses, carriers, contacts, products, countries) travel once, as an Arrow dictionary. */
class TextDictionary {
  readonly values: string[] = [];
  private readonly indexOf = new Map<string, number>();
  /** Row id (of a carrier, contact, product…) → index into `values`. */
  readonly byId = new Map<number, number>();
  private dictionaryType?: Dictionary<Utf8, Int8 | Int16 | Int32>;
  private vector?: Vector<Utf8>;

  constructor(readonly id: number) {}

  /**
   * Fixed once every string is known (the look-ups are loaded before the schema is made): the indexes
   * are as narrow as the dictionary allows, so most columns cost 1 byte per line to build, send and load.
   */
  get type(): Dictionary<Utf8, Int8 | Int16 | Int32> {
    this.dictionaryType ??= new Dictionary(new Utf8(), indexType(this.values.length), this.id);
    return this.dictionaryType;
  }

  /** The typed array that holds this dictionary's indexes. */
  indexArray(length: number): Int8Array | Int16Array | Int32Array {
    const type = this.type.indices;
    return type.bitWidth === 8
      ? new Int8Array(length)
      : type.bitWidth === 16
        ? new Int16Array(length)
        : new Int32Array(length);
  }

  /** Index of a string already in the dictionary, or null. */
  find(value: string): number | null {
    return this.indexOf.get(value) ?? null;
  }

  /** Index of a string, adding it once. */
  add(value: string): number {
    let index = this.indexOf.get(value);
    if (index === undefined) {
      index = this.values.length;
      this.values.push(value);
      this.indexOf.set(value, index);
    }
    return index;
  }

  setId(id: number, value: string) {
    this.byId.set(id, this.add(value));
  }

  /** Built once and shared by every batch, so the IPC writer sends the dictionary once, before the first batch. */
  get arrow(): Vector<Utf8> {
    this.vector ??= vectorFromArray(this.values, new Utf8());
    return this.vector;
  }
}

/**
 * One page of lines, keyset-paginated over the item id: only the item's own numbers. Templates
 * (status 1) are not lines. CROSS JOIN keeps shipment_items as the outer loop (SQLite does not
 * reorder it), so each page walks the item ids from the last one on and stops at the limit; with a
 * plain JOIN the planner started from the workspace's shipments and sorted all their lines per page.
 */
const ITEMS_SQL = `
select i.id, i.shipment_id, i.product_id, i.quantity, i.extended_value
from shipment_items i
cross join shipments s on s.id = i.shipment_id
where s.workspace_id = ? and s.shipping_status_id <> 1 and i.id > ?
order by i.id
limit ?`;

/**
 * The shipments of one page, once each (a shipment has several lines): ids and numbers only. The
 * page's ids drive the join (CROSS JOIN keeps json_each outside), so each shipment is one primary-key
 * look-up. Written as `s.id in (select value from json_each(?))` the planner walked the workspace
 * index instead and read every shipment of the workspace for every page: 1M lines took ~4.5 s of CPU.
 */
export const SHIPMENTS_SQL = `
select s.id, s.name, s.shipper_reference_number, s.shipping_status_id, s.ship_date, s.carrier_id,
  s.mode_of_transport_id, s.incoterm_id, s.currency_id, s.exporter_of_record_id,
  s.importer_of_record_id, s.ultimate_consignee_id, s.total_invoice_value,
  (select coalesce(sum(p.gross_weight), 0) from shipment_packages p where p.shipment_id = s.id)
from json_each(?) j
cross join shipments s on s.id = j.value
where s.workspace_id = ?`;

/** A product's columns as dictionary indexes, computed once per request. */
type TProduct = {
  number: number;
  name: number;
  eccn: number;
  hts: number;
  origin: number;
  grams: number;
  hasLicense: boolean;
};

/** A shipment's columns, computed once for all of its lines: strings as dictionary indexes. */
type TShipment = {
  id: number;
  name: string;
  ref: string;
  status: number | null;
  date: string | null;
  /** The ship date as days since 1970-01-01 (Arrow's DateDay), its year, and its YYYY-MM as a `month` index. */
  days: number | null;
  year: number | null;
  month: number | null;
  carrier: number | null;
  mode: number | null;
  incoterm: number | null;
  currency: number | null;
  exporter: number | null;
  importer: number | null;
  consignee: number | null;
  destination: number | null;
  exporterScreening: number | null;
  importerScreening: number | null;
  consigneeScreening: number | null;
  partiesScreening: number;
  invoiceCents: number;
  grossGrams: number;
};

type TRow = ArrayLike<unknown>;

/** Runs one read query and answers its rows as arrays. */
export type TRowSource = (sql: string, args: (number | string)[]) => Promise<TRow[]>;

const readers = new Map<string, Database>();

/**
 * Where the report's pages are read from. For an embedded database file that is a read-only
 * bun:sqlite connection: measured on 100,000 lines, libSQL's client spent ~1.2–1.8 s building row
 * objects for a query SQLite itself ran in ~0.07 s, bun:sqlite ~0.2 s. A libSQL server URL (or a
 * file bun:sqlite cannot open) goes through the libSQL client. See docs/decisions/007-reports-read-path.md.
 */
export function reportRowSource(client: Client, databaseUrl: string): TRowSource {
  const viaClient: TRowSource = async (sql, args) => (await client.execute({ sql, args })).rows;
  if (!databaseUrl.startsWith("file:")) return viaClient;
  const file = databaseUrl.slice("file:".length).split("?")[0];
  let reader = readers.get(file);
  if (!reader) {
    try {
      reader = new Database(file, { readonly: true });
      readers.set(file, reader);
    } catch {
      return viaClient;
    }
  }
  const db = reader;
  return async (sql, args) => db.query(sql).values(...args) as TRow[];
}

/**
 * Where a summary's GROUP BY runs: for an embedded database file, a background worker's read-only
 * connection (about a second of CPU at a million lines, which on this thread held every other
 * request, the page's own scripts among them); otherwise as reportRowSource.
 */
export function reportSummaryRowSource(client: Client, databaseUrl: string): TRowSource {
  const here = reportRowSource(client, databaseUrl);
  if (!databaseUrl.startsWith("file:")) return here;
  return offThreadRowSource(databaseUrl.slice("file:".length).split("?")[0], here);
}

/** One report line: its shipment, its product and its own numbers. */
export type TLine = {
  shipment: TShipment;
  product: TProduct | undefined;
  quantity: number;
  extendedCents: number;
};

/** The workspace's strings behind the ids, loaded once per request. */
export type TReportLookups = {
  status: TextDictionary;
  month: TextDictionary;
  carrier: TextDictionary;
  mode: TextDictionary;
  incoterm: TextDictionary;
  currency: TextDictionary;
  exporter: TextDictionary;
  importer: TextDictionary;
  consignee: TextDictionary;
  country: TextDictionary;
  productNumber: TextDictionary;
  productName: TextDictionary;
  eccn: TextDictionary;
  hts: TextDictionary;
  origin: TextDictionary;
  exporterScreening: TextDictionary;
  importerScreening: TextDictionary;
  consigneeScreening: TextDictionary;
  partiesScreening: TextDictionary;
  products: Map<number, TProduct>;
  /**
   * Year × 12 + month − 1 of `month`'s first entry when it holds every month from the workspace's
   * first ship date to its last (so a month's index is arithmetic), else null (look it up by name).
   */
  monthBase: number | null;
  /** Contact id → index of its country in `country`. */
  contactCountry: Map<number, number>;
  /** Contact id → index into SCREENING_VALUES of its newest screening outcome. */
  contactScreening: Map<number, number>;
};

/** Reads the lookups the lines refer to: reference tables plus this workspace's contacts, products and screenings. */
export async function loadLookups(client: Client, workspaceId: number): Promise<TReportLookups> {
  let nextId = 0;
  const dict = () => new TextDictionary(nextId++);
  const screeningDict = () => {
    const d = dict();
    for (const value of SCREENING_VALUES) d.add(value);
    return d;
  };
  const l: TReportLookups = {
    status: dict(),
    month: dict(),
    carrier: dict(),
    mode: dict(),
    incoterm: dict(),
    currency: dict(),
    exporter: dict(),
    importer: dict(),
    consignee: dict(),
    country: dict(),
    productNumber: dict(),
    productName: dict(),
    eccn: dict(),
    hts: dict(),
    origin: dict(),
    exporterScreening: screeningDict(),
    importerScreening: screeningDict(),
    consigneeScreening: screeningDict(),
    partiesScreening: screeningDict(),
    products: new Map(),
    monthBase: null,
    contactCountry: new Map(),
    contactScreening: new Map(),
  };
  const [
    statuses,
    carriers,
    modes,
    incoterms,
    currencies,
    countries,
    contacts,
    products,
    screenings,
    months,
  ] = await client.batch(
    [
      "select id, label from shipping_statuses",
      "select id, name from carriers",
      "select id, name from modes_of_transport",
      "select id, code from incoterms",
      "select id, code from currencies",
      "select id, name from countries",
      { sql: "select id, company, country_id from contacts where workspace_id = ?", args: [workspaceId] },
      {
        sql: "select id, product_number, name, us_eccn, hts, country_of_origin_id, net_weight, has_license from products where workspace_id = ?",
        args: [workspaceId],
      },
      {
        // SQLite takes the bare column (status) from the row that has max(id): the newest outcome.
        sql: "select contact_id, status, max(id) from contact_screening_results where workspace_id = ? group by contact_id",
        args: [workspaceId],
      },
      {
        // The first and last ship dates: two seeks in shipments_ws_ship_date_idx.
        sql: `select (select ship_date from shipments where workspace_id = ?1 and ${VALID_DATE}
            order by ship_date limit 1),
          (select ship_date from shipments where workspace_id = ?1 and ${VALID_DATE}
            order by ship_date desc limit 1)`,
        args: [workspaceId],
      },
    ],
    "read",
  );
  for (const r of statuses.rows) l.status.setId(Number(r[0]), String(r[1]).toUpperCase());
  for (const r of carriers.rows) l.carrier.setId(Number(r[0]), String(r[1]));
  for (const r of modes.rows) l.mode.setId(Number(r[0]), String(r[1]));
  for (const r of incoterms.rows) l.incoterm.setId(Number(r[0]), String(r[1]));
  for (const r of currencies.rows) l.currency.setId(Number(r[0]), String(r[1]));
  const countryName = new Map<number, string>();
  for (const r of countries.rows) {
    countryName.set(Number(r[0]), String(r[1]));
    l.country.setId(Number(r[0]), String(r[1]));
  }
  for (const r of contacts.rows) {
    const id = Number(r[0]);
    for (const d of [l.exporter, l.importer, l.consignee]) d.setId(id, String(r[1]));
    if (r[2] !== null) l.contactCountry.set(id, l.country.byId.get(Number(r[2]))!);
  }
  for (const r of products.rows) {
    const id = Number(r[0]);
    l.products.set(id, {
      number: l.productNumber.add(String(r[1])),
      name: l.productName.add(String(r[2])),
      eccn: l.eccn.add(String(r[3])),
      hts: l.hts.add(String(r[4])),
      origin: l.origin.add(countryName.get(Number(r[5])) ?? ""),
      grams: Number(r[6]),
      hasLicense: Number(r[7]) === 1,
    });
  }
  // Ship month is a dictionary (1 byte a line instead of a 7-character string), so its values must be
  // known before the first batch: every month from the first ship date to the last. Unused months in
  // between never show (a pivot groups the lines, not the dictionary).
  const [first, last] = [months.rows[0]?.[0], months.rows[0]?.[1]];
  if (typeof first === "string" && typeof last === "string") {
    const ordinal = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
    const [from, to] = [ordinal(first), ordinal(last)];
    if (to - from < MAX_MONTH_RANGE) {
      l.monthBase = from;
      for (let m = from; m <= to; m++) {
        l.month.add(
          `${String(Math.floor(m / 12)).padStart(4, "0")}-${String((m % 12) + 1).padStart(2, "0")}`,
        );
      }
    } else {
      // Dates centuries apart (a typo in a year): only the months in use, found by name.
      const used = await client.execute({
        sql: `select distinct substr(ship_date, 1, 7) from shipments where workspace_id = ? and ${VALID_DATE} order by 1`,
        args: [workspaceId],
      });
      for (const r of used.rows) l.month.add(String(r[0]));
    }
  }
  for (const r of screenings.rows) {
    l.contactScreening.set(Number(r[0]), SCREENING_VALUES.indexOf(r[1] as "passed" | "failed"));
  }
  return l;
}

/** A ship date that reads as YYYY-MM-DD (the only ones the report shows). */
const VALID_DATE = `ship_date between '0000-01-01' and '9999-12-31'
  and ship_date glob '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'`;
/** Up to two centuries of months as one contiguous dictionary; wider spans list only the months in use. */
export const MAX_MONTH_RANGE = 2400;

const PASSED = SCREENING_VALUES.indexOf("passed");
const FAILED = SCREENING_VALUES.indexOf("failed");
const NOT_SCREENED_INDEX = SCREENING_VALUES.indexOf("not screened");

/** Failed if any named party failed, passed if every named party passed, else not screened. */
function partiesOutcome(a: number | null, b: number | null, c: number | null): number {
  if (a === FAILED || b === FAILED || c === FAILED) return FAILED;
  if (a === null && b === null && c === null) return NOT_SCREENED_INDEX;
  return (a ?? PASSED) === PASSED && (b ?? PASSED) === PASSED && (c ?? PASSED) === PASSED
    ? PASSED
    : NOT_SCREENED_INDEX;
}

/** A month's index in the `month` dictionary, or null when it has none (first used after the look-ups were read). */
function monthIndex(l: TReportLookups, date: string, year: number, month: number): number | null {
  if (l.monthBase === null) return l.month.find(date.slice(0, 7));
  const index = year * 12 + month - 1 - l.monthBase;
  return index >= 0 && index < l.month.values.length ? index : null;
}

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A nullable id column as a number. */
function idOf(value: unknown): number | null {
  return value === null ? null : Number(value);
}

/** The dictionary index of a reference row (carrier, status…) by its id, or null. */
function lookup(d: TextDictionary, id: number | null): number | null {
  return id === null ? null : (d.byId.get(id) ?? null);
}

/** A contact's newest screening outcome (as an index into SCREENING_VALUES), or null without a contact. */
function screeningOf(l: TReportLookups, contact: number | null): number | null {
  return contact === null ? null : (l.contactScreening.get(contact) ?? NOT_SCREENED_INDEX);
}

/** One shipment's columns, computed once for all of its lines (plain code: it runs once per shipment). */
function toShipment(r: TRow, l: TReportLookups): TShipment {
  const exporter = idOf(r[9]);
  const importer = idOf(r[10]);
  const consignee = idOf(r[11]);
  const exporterScreening = screeningOf(l, exporter);
  const importerScreening = screeningOf(l, importer);
  const consigneeScreening = screeningOf(l, consignee);
  const raw = r[4];
  const date = typeof raw === "string" && DATE_PATTERN.test(raw) ? raw : null;
  let year: number | null = null;
  let days: number | null = null;
  let month: number | null = null;
  if (date !== null) {
    year = Number(date.slice(0, 4));
    const monthOfYear = Number(date.slice(5, 7));
    days = Date.UTC(year, monthOfYear - 1, Number(date.slice(8, 10))) / DAY_MS;
    // A month first used after the look-ups were read (a shipment saved during the stream) has no
    // dictionary entry yet: that line's month stays empty until the next load, in JSON and Arrow alike.
    month = monthIndex(l, date, year, monthOfYear);
  }
  const consigneeCountry = consignee === null ? undefined : l.contactCountry.get(consignee);
  const importerCountry = importer === null ? undefined : l.contactCountry.get(importer);
  return {
    id: Number(r[0]),
    name: String(r[1]),
    ref: String(r[2]),
    status: lookup(l.status, idOf(r[3])),
    date,
    days,
    year,
    month,
    carrier: lookup(l.carrier, idOf(r[5])),
    mode: lookup(l.mode, idOf(r[6])),
    incoterm: lookup(l.incoterm, idOf(r[7])),
    currency: lookup(l.currency, idOf(r[8])),
    exporter: lookup(l.exporter, exporter),
    importer: lookup(l.importer, importer),
    consignee: lookup(l.consignee, consignee),
    destination: consigneeCountry ?? importerCountry ?? null,
    exporterScreening,
    importerScreening,
    consigneeScreening,
    partiesScreening: partiesOutcome(exporterScreening, importerScreening, consigneeScreening),
    invoiceCents: Number(r[12]),
    grossGrams: Number(r[13]),
  };
}

/**
 * Yields the workspace's non-template lines page by page, never holding more than one page: the
 * page's items, then its shipments in one query (each once, however many lines it has).
 */
export async function* readLinePages(
  rows: TRowSource,
  workspaceId: number,
  lookups: TReportLookups,
  pageSize = REPORT_BATCH_LINES,
): AsyncGenerator<TLine[]> {
  let after = 0;
  while (true) {
    const items = await rows(ITEMS_SQL, [workspaceId, after, pageSize]);
    if (items.length === 0) return;
    const ids = [...new Set(items.map((r) => Number(r[1])))];
    const shipmentRows = await rows(SHIPMENTS_SQL, [JSON.stringify(ids), workspaceId]);
    const shipments = new Map<number, TShipment>();
    for (const r of shipmentRows) shipments.set(Number(r[0]), toShipment(r, lookups));
    const lines: TLine[] = [];
    for (const r of items) {
      const shipment = shipments.get(Number(r[1]));
      if (!shipment) continue;
      lines.push({
        shipment,
        product: lookups.products.get(Number(r[2])),
        quantity: Number(r[3]),
        extendedCents: Number(r[4]),
      });
    }
    yield lines;
    if (items.length < pageSize) return;
    after = Number(items[items.length - 1][0]);
  }
}

/** How one column is read from a line and encoded; `dict` columns give an index into their dictionary. */
type TColumnSpec =
  | { kind: "dict"; dict: (l: TReportLookups) => TextDictionary; index: (line: TLine) => number | null }
  | { kind: "int"; value: (line: TLine) => number | null }
  | { kind: "scaled"; scale: number; value: (line: TLine) => number | null }
  | { kind: "text"; value: (line: TLine) => string | null }
  | { kind: "date"; value: (line: TLine) => string | null }
  | { kind: "bool"; value: (line: TLine) => boolean | null };

const SPECS: Record<TReportColumn, TColumnSpec> = {
  shipment_id: { kind: "int", value: (x) => x.shipment.id },
  shipment_name: { kind: "text", value: (x) => x.shipment.name },
  shipper_reference: { kind: "text", value: (x) => x.shipment.ref },
  status: { kind: "dict", dict: (l) => l.status, index: (x) => x.shipment.status },
  ship_date: { kind: "date", value: (x) => x.shipment.date },
  ship_month: { kind: "dict", dict: (l) => l.month, index: (x) => x.shipment.month },
  ship_year: { kind: "int", value: (x) => x.shipment.year },
  carrier: { kind: "dict", dict: (l) => l.carrier, index: (x) => x.shipment.carrier },
  mode_of_transport: { kind: "dict", dict: (l) => l.mode, index: (x) => x.shipment.mode },
  incoterm: { kind: "dict", dict: (l) => l.incoterm, index: (x) => x.shipment.incoterm },
  currency: { kind: "dict", dict: (l) => l.currency, index: (x) => x.shipment.currency },
  exporter: { kind: "dict", dict: (l) => l.exporter, index: (x) => x.shipment.exporter },
  importer: { kind: "dict", dict: (l) => l.importer, index: (x) => x.shipment.importer },
  ultimate_consignee: { kind: "dict", dict: (l) => l.consignee, index: (x) => x.shipment.consignee },
  destination_country: { kind: "dict", dict: (l) => l.country, index: (x) => x.shipment.destination },
  product_number: { kind: "dict", dict: (l) => l.productNumber, index: (x) => x.product?.number ?? null },
  product_name: { kind: "dict", dict: (l) => l.productName, index: (x) => x.product?.name ?? null },
  eccn: { kind: "dict", dict: (l) => l.eccn, index: (x) => x.product?.eccn ?? null },
  hts: { kind: "dict", dict: (l) => l.hts, index: (x) => x.product?.hts ?? null },
  country_of_origin: { kind: "dict", dict: (l) => l.origin, index: (x) => x.product?.origin ?? null },
  quantity: { kind: "int", value: (x) => x.quantity },
  extended_value: { kind: "scaled", scale: 2, value: (x) => x.extendedCents },
  total_invoice_value: { kind: "scaled", scale: 2, value: (x) => x.shipment.invoiceCents },
  net_weight_kg: {
    kind: "scaled",
    scale: 3,
    value: (x) => (x.product ? x.product.grams * x.quantity : null),
  },
  gross_weight_kg: { kind: "scaled", scale: 3, value: (x) => x.shipment.grossGrams },
  has_license: { kind: "bool", value: (x) => x.product?.hasLicense ?? null },
  exporter_screening: {
    kind: "dict",
    dict: (l) => l.exporterScreening,
    index: (x) => x.shipment.exporterScreening,
  },
  importer_screening: {
    kind: "dict",
    dict: (l) => l.importerScreening,
    index: (x) => x.shipment.importerScreening,
  },
  consignee_screening: {
    kind: "dict",
    dict: (l) => l.consigneeScreening,
    index: (x) => x.shipment.consigneeScreening,
  },
  parties_screening: {
    kind: "dict",
    dict: (l) => l.partiesScreening,
    index: (x) => x.shipment.partiesScreening,
  },
};

const COLUMNS: readonly TReportColumn[] = REPORT_ATTRIBUTES.map((a) => a.name);

/**
 * The page's lines as JSON records: exact decimal strings for money and weights, YYYY-MM-DD dates.
 * `columns`: only these keys (in the attributes' order), for a caller that needs a few.
 */
export function toJsonRecords(
  rows: TLine[],
  l: TReportLookups,
  columns: readonly TReportColumn[] = COLUMNS,
): TReportRecord[] {
  return rows.map((r) => {
    const record = {} as TReportRecord;
    for (const name of columns) {
      const spec = SPECS[name];
      switch (spec.kind) {
        case "dict": {
          const index = spec.index(r);
          record[name] = index === null ? null : spec.dict(l).values[index];
          break;
        }
        case "scaled": {
          const value = spec.value(r);
          record[name] = value === null ? null : scaledToDecimal(value, spec.scale);
          break;
        }
        case "int":
        case "bool":
          record[name] = spec.value(r);
          break;
        default:
          record[name] = spec.value(r);
      }
    }
    return record;
  });
}

/**
 * Arrow schema of the report: dictionary-encoded strings, Int32, Float64, DateDay and Bool columns;
 * with `columns`, only those (in the attributes' order).
 */
export function reportSchema(
  l: TReportLookups,
  names: "keys" | "labels" = "keys",
  columns: readonly TReportColumn[] = COLUMNS,
): Schema {
  return new Schema(
    REPORT_ATTRIBUTES.filter(({ name }) => columns.includes(name)).map(({ name, label }) => {
      const spec = SPECS[name];
      const type =
        spec.kind === "dict"
          ? spec.dict(l).type
          : spec.kind === "int"
            ? new Int32()
            : spec.kind === "scaled"
              ? new Float64()
              : spec.kind === "date"
                ? new DateDay()
                : spec.kind === "bool"
                  ? new Bool()
                  : new Utf8();
      return new Field(names === "labels" ? label : name, type, true);
    }),
  );
}

const DAY_MS = 86_400_000;
const encoder = new TextEncoder();

/** A validity bitmap (bit set = value present) being filled line by line, and its null count. */
class Validity {
  readonly bits: Uint8Array;
  nulls = 0;
  constructor(length: number) {
    this.bits = new Uint8Array((length + 7) >> 3);
  }
  /** No bitmap when nothing is null (Arrow's and Perspective's fast path). */
  get data() {
    return this.nulls === 0
      ? { nullCount: 0, nullBitmap: undefined }
      : { nullCount: this.nulls, nullBitmap: this.bits };
  }
}

/** A Utf8 column's offsets and bytes, written directly (Arrow's generic builder was the slow part). */
function utf8Buffers(values: (string | null)[]) {
  const offsets = new Int32Array(values.length + 1);
  let bytes = new Uint8Array(values.length * 24 + 64);
  let position = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value) {
      if (bytes.length - position < value.length * 3) {
        const grown = new Uint8Array(Math.max(bytes.length * 2, position + value.length * 3));
        grown.set(bytes.subarray(0, position));
        bytes = grown;
      }
      let ascii = true;
      for (let c = 0; c < value.length; c++) {
        const code = value.charCodeAt(c);
        if (code > 127) {
          ascii = false;
          break;
        }
        bytes[position + c] = code;
      }
      position += ascii ? value.length : encoder.encodeInto(value, bytes.subarray(position)).written;
    }
    offsets[i + 1] = position;
  }
  return { offsets, bytes: bytes.subarray(0, position) };
}

type TShipmentIndexKey = {
  [K in keyof TShipment]: TShipment[K] extends number | null ? K : never;
}[keyof TShipment];
type TProductIndexKey = "number" | "name" | "eccn" | "hts" | "origin";

/** Dictionary columns filled from the shipment of each line (its strings as indexes). */
const SHIPMENT_DICTS: [TReportColumn, TShipmentIndexKey, (l: TReportLookups) => TextDictionary][] = [
  ["status", "status", (l) => l.status],
  ["ship_month", "month", (l) => l.month],
  ["carrier", "carrier", (l) => l.carrier],
  ["mode_of_transport", "mode", (l) => l.mode],
  ["incoterm", "incoterm", (l) => l.incoterm],
  ["currency", "currency", (l) => l.currency],
  ["exporter", "exporter", (l) => l.exporter],
  ["importer", "importer", (l) => l.importer],
  ["ultimate_consignee", "consignee", (l) => l.consignee],
  ["destination_country", "destination", (l) => l.country],
  ["exporter_screening", "exporterScreening", (l) => l.exporterScreening],
  ["importer_screening", "importerScreening", (l) => l.importerScreening],
  ["consignee_screening", "consigneeScreening", (l) => l.consigneeScreening],
  ["parties_screening", "partiesScreening", (l) => l.partiesScreening],
];

/** Dictionary columns filled from the product of each line (null when the product is gone). */
const PRODUCT_DICTS: [TReportColumn, TProductIndexKey, (l: TReportLookups) => TextDictionary][] = [
  ["product_number", "number", (l) => l.productNumber],
  ["product_name", "name", (l) => l.productName],
  ["eccn", "eccn", (l) => l.eccn],
  ["hts", "hts", (l) => l.hts],
  ["country_of_origin", "origin", (l) => l.origin],
];

/**
 * The page's lines as one Arrow record batch, each column written straight into its typed array in
 * one loop over the lines (no per-value callbacks: they were most of the conversion's time). It
 * gives the same values as SPECS/toJsonRecords; the tests compare both on every cell. Money and
 * weights go as Float64 (scaled integer ÷ 10^scale, the double nearest the exact decimal): the
 * browser's pivot sums doubles anyway, and the exact values stay available as JSON and in the database.
 */
export function toRecordBatch(
  rows: TLine[],
  l: TReportLookups,
  schema: Schema,
  columns: readonly TReportColumn[] = COLUMNS,
): RecordBatch {
  const length = rows.length;
  const data = new Map<TReportColumn, Data>();
  // The schema's fields are `columns` in order (reportSchema); a column left out is never built.
  const typeOf = new Map(schema.fields.map((f, i) => [columns[i], f.type]));
  const put = (name: TReportColumn, parts: Record<string, unknown>) => {
    if (typeOf.has(name)) data.set(name, makeData({ type: typeOf.get(name), length, ...parts } as never));
  };

  for (const [name, key, dictOf] of SHIPMENT_DICTS) {
    if (!typeOf.has(name)) continue;
    const dict = dictOf(l);
    const indexes = dict.indexArray(length);
    const valid = new Validity(length);
    for (let i = 0; i < length; i++) {
      const index = rows[i].shipment[key];
      if (index === null) valid.nulls++;
      else {
        indexes[i] = index;
        valid.bits[i >> 3] |= 1 << (i & 7);
      }
    }
    put(name, { data: indexes, dictionary: dict.arrow, ...valid.data });
  }
  for (const [name, key, dictOf] of PRODUCT_DICTS) {
    if (!typeOf.has(name)) continue;
    const dict = dictOf(l);
    const indexes = dict.indexArray(length);
    const valid = new Validity(length);
    for (let i = 0; i < length; i++) {
      const product = rows[i].product;
      if (product === undefined) valid.nulls++;
      else {
        indexes[i] = product[key];
        valid.bits[i >> 3] |= 1 << (i & 7);
      }
    }
    put(name, { data: indexes, dictionary: dict.arrow, ...valid.data });
  }

  // The per-line numbers, the shipment's own numbers and the product's, in one pass.
  const shipmentId = new Int32Array(length);
  const days = new Int32Array(length);
  const year = new Int32Array(length);
  const dated = new Validity(length);
  const quantity = new Int32Array(length);
  const extended = new Float64Array(length);
  const invoice = new Float64Array(length);
  const gross = new Float64Array(length);
  const net = new Float64Array(length);
  const license = new Uint8Array((length + 7) >> 3);
  const withProduct = new Validity(length);
  const names: string[] = new Array(length);
  const refs: string[] = new Array(length);
  for (let i = 0; i < length; i++) {
    const line = rows[i];
    const shipment = line.shipment;
    const bit = 1 << (i & 7);
    shipmentId[i] = shipment.id;
    names[i] = shipment.name;
    refs[i] = shipment.ref;
    if (shipment.days === null) dated.nulls++;
    else {
      days[i] = shipment.days;
      year[i] = shipment.year!;
      dated.bits[i >> 3] |= bit;
    }
    quantity[i] = line.quantity;
    extended[i] = line.extendedCents / 100;
    invoice[i] = shipment.invoiceCents / 100;
    gross[i] = shipment.grossGrams / 1000;
    const product = line.product;
    if (product === undefined) withProduct.nulls++;
    else {
      net[i] = (product.grams * line.quantity) / 1000;
      if (product.hasLicense) license[i >> 3] |= bit;
      withProduct.bits[i >> 3] |= bit;
    }
  }
  const none = { nullCount: 0, nullBitmap: undefined };
  put("shipment_id", { data: shipmentId, ...none });
  put("ship_date", { data: days, ...dated.data });
  put("ship_year", { data: year, ...dated.data });
  put("quantity", { data: quantity, ...none });
  put("extended_value", { data: extended, ...none });
  put("total_invoice_value", { data: invoice, ...none });
  put("gross_weight_kg", { data: gross, ...none });
  put("net_weight_kg", { data: net, ...withProduct.data });
  put("has_license", { data: license, ...withProduct.data });
  for (const [name, values] of [
    ["shipment_name", names],
    ["shipper_reference", refs],
  ] as const) {
    if (!typeOf.has(name)) continue;
    const { offsets, bytes } = utf8Buffers(values);
    put(name, { valueOffsets: offsets, data: bytes, ...none });
  }

  const children = columns.map((name) => {
    const column = data.get(name);
    if (!column) throw new Error(`Report column ${name} has no Arrow encoding`);
    return column;
  });
  return new RecordBatch(
    schema,
    makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }),
  );
}

/** Collects what the IPC writer emits, so each batch's bytes can be handed on as soon as it is written. */
class ChunkSink extends AsyncByteQueue {
  chunks: Uint8Array[] = [];
  override write(value: unknown) {
    if (value instanceof Uint8Array && value.byteLength > 0) this.chunks.push(value);
  }
  take(): Uint8Array {
    const chunks = this.chunks;
    this.chunks = [];
    if (chunks.length === 1) return chunks[0];
    const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
    let offset = 0;
    for (const c of chunks) {
      out.set(c, offset);
      offset += c.byteLength;
    }
    return out;
  }
}

/**
 * The workspace's lines as an Arrow IPC stream. Pull-driven: the next SQL page is read only when the
 * client has taken the previous batch, so a million lines never sit in memory at once.
 */
export async function reportArrowStream(
  client: Client,
  rows: TRowSource,
  workspaceId: number,
  options: { pageSize?: number; names?: "keys" | "labels"; columns?: readonly TReportColumn[] } = {},
): Promise<ReadableStream<Uint8Array>> {
  const lookups = await loadLookups(client, workspaceId);
  const columns = options.columns ? COLUMNS.filter((c) => options.columns?.includes(c)) : COLUMNS;
  const schema = reportSchema(lookups, options.names, columns);
  const sink = new ChunkSink();
  const writer = new RecordBatchStreamWriter();
  writer.reset(sink, schema);
  const pages = readLinePages(rows, workspaceId, lookups, options.pageSize);
  let isFirst = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // A page is synchronous work (bun:sqlite) and a fast reader pulls the next one at once, in
      // the same turn: without a turn of the event loop between pages, a million-line stream kept
      // every other request (the page's own scripts and WASM among them) waiting until its end.
      if (!isFirst) await new Promise<void>((resolve) => setImmediate(resolve));
      isFirst = false;
      const next = await pages.next();
      if (next.done) {
        // reset() above already wrote the schema, so an empty workspace is still a valid stream.
        writer.finish();
        const rest = sink.take();
        if (rest.byteLength) controller.enqueue(rest);
        controller.close();
        return;
      }
      writer.write(toRecordBatch(next.value, lookups, schema, columns));
      controller.enqueue(sink.take());
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}

/** Every line as JSON records, or null when there are more than `limit` (the caller then points to Arrow). */
export async function reportJsonRecords(
  client: Client,
  rows: TRowSource,
  workspaceId: number,
  limit: number,
  only?: readonly TReportColumn[],
): Promise<TReportRecord[] | null> {
  const lookups = await loadLookups(client, workspaceId);
  const columns = only ? COLUMNS.filter((c) => only.includes(c)) : COLUMNS;
  const records: TReportRecord[] = [];
  for await (const lines of readLinePages(rows, workspaceId, lookups)) {
    if (records.length + lines.length > limit) return null;
    records.push(...toJsonRecords(lines, lookups, columns));
  }
  return records;
}

/**
 * What a summary groups by in SQL for each column: the shipment's own ids and values, read back
 * through toShipment (so every label, month and screening outcome comes out exactly as on the lines).
 * Months and years group by the month's first day, so a day-by-day seed does not multiply the groups;
 * a date that does not read as YYYY-MM-DD stays NULL, as on the lines.
 */
const SUMMARY_MONTH = `case when s.ship_date glob '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
  then substr(s.ship_date, 1, 7) || '-01' end`;
/** The ultimate consignee's country, else the importer's: the workspace's contacts only, as loadLookups reads them. */
const SUMMARY_DESTINATION = `coalesce(
  (select c.country_id from contacts c where c.id = s.ultimate_consignee_id and c.workspace_id = s.workspace_id),
  (select c.country_id from contacts c where c.id = s.importer_of_record_id and c.workspace_id = s.workspace_id))`;

/** Position of a raw value in a SHIPMENTS_SQL row (toShipment's input). */
const RAW = {
  id: 0,
  name: 1,
  ref: 2,
  status: 3,
  date: 4,
  carrier: 5,
  mode: 6,
  incoterm: 7,
  currency: 8,
  exporter: 9,
  importer: 10,
  consignee: 11,
} as const;
type TRaw = keyof typeof RAW | "month" | "destination" | "product";

const SUMMARY_SQL_OF: Record<TRaw, string> = {
  id: "s.id",
  name: "s.name",
  ref: "s.shipper_reference_number",
  status: "s.shipping_status_id",
  date: "s.ship_date",
  month: SUMMARY_MONTH,
  carrier: "s.carrier_id",
  mode: "s.mode_of_transport_id",
  incoterm: "s.incoterm_id",
  currency: "s.currency_id",
  exporter: "s.exporter_of_record_id",
  importer: "s.importer_of_record_id",
  consignee: "s.ultimate_consignee_id",
  destination: SUMMARY_DESTINATION,
  product: "i.product_id",
};

/** The raw values each groupable column is computed from. */
const SUMMARY_NEEDS: Record<(typeof REPORT_GROUPABLE)[number], TRaw[]> = {
  shipment_id: ["id"],
  shipment_name: ["name"],
  shipper_reference: ["ref"],
  status: ["status"],
  ship_date: ["date"],
  ship_month: ["month"],
  ship_year: ["month"],
  carrier: ["carrier"],
  mode_of_transport: ["mode"],
  incoterm: ["incoterm"],
  currency: ["currency"],
  exporter: ["exporter"],
  importer: ["importer"],
  ultimate_consignee: ["consignee"],
  destination_country: ["destination"],
  product_number: ["product"],
  product_name: ["product"],
  eccn: ["product"],
  hts: ["product"],
  country_of_origin: ["product"],
  has_license: ["product"],
  exporter_screening: ["exporter"],
  importer_screening: ["importer"],
  consignee_screening: ["consignee"],
  parties_screening: ["exporter", "importer", "consignee"],
};

const INT32_MAX = 2 ** 31 - 1;

/**
 * The workspace's lines summed by `groupBy` (`sums`: quantity, extended value, invoice value), as
 * lines the Arrow and JSON encoders take: one per distinct combination of the columns' values, its
 * numbers the exact sums of that combination's lines (integer cents and units, added up by SQL).
 * A pivot that sums these columns over them shows what it shows over the lines. Combinations that
 * read the same (two contacts of one name, the days of one month) are merged here; a quantity
 * beyond Int32 is spread over several records of the same combination, whose sum is still exact.
 * With `limit`, null when SQL finds more than `limit` combinations (only `limit + 1` rows are read).
 */
export async function reportSummaryLines(
  client: Client,
  rows: TRowSource,
  workspaceId: number,
  groupBy: readonly (typeof REPORT_GROUPABLE)[number][],
  lookups?: TReportLookups,
  limit?: number,
  drive?: TSummaryDrive,
): Promise<{ lines: TLine[]; lookups: TReportLookups } | null> {
  const l = lookups ?? (await loadLookups(client, workspaceId));
  const raws = [...new Set(groupBy.flatMap((c) => SUMMARY_NEEDS[c]))];
  // A month stands in for the date when the date itself is not wanted.
  const dims = raws.includes("date") ? raws.filter((r) => r !== "month") : raws;
  const select = dims.map((r) => SUMMARY_SQL_OF[r]);
  const from =
    (drive ?? (await summaryDriveFor(rows, workspaceId))) === "items"
      ? "shipment_items i\ncross join shipments s on s.id = i.shipment_id"
      : "shipments s\ncross join shipment_items i on i.shipment_id = s.id";
  const sql = `
select ${[...select, "sum(i.quantity)", "sum(i.extended_value)", "sum(s.total_invoice_value)"].join(", ")}
from ${from}
where s.workspace_id = ? and s.shipping_status_id <> 1
${dims.length > 0 ? `group by ${dims.map((_, i) => i + 1).join(", ")}` : ""}
${limit === undefined ? "" : "limit ?"}`;
  const groups = await rows(sql, limit === undefined ? [workspaceId] : [workspaceId, limit + 1]);
  if (limit !== undefined && groups.length > limit) return null;
  const merged = new Map<string, TLine[]>();
  for (const g of groups) {
    if (dims.length === 0 && g[0] === null) break; // No lines: sum() over nothing is one NULL row.
    const raw: unknown[] = new Array(14).fill(null);
    raw[12] = 0;
    raw[13] = 0;
    let destination: number | null = null;
    let product: TProduct | undefined;
    dims.forEach((dim, i) => {
      const value = g[i];
      if (dim === "month") raw[RAW.date] = value;
      else if (dim === "destination") destination = value === null ? null : Number(value);
      else if (dim === "product") product = value === null ? undefined : l.products.get(Number(value));
      else raw[RAW[dim]] = value;
    });
    const shipment = toShipment(raw, l);
    if (dims.includes("destination")) {
      shipment.destination = destination === null ? null : (l.country.byId.get(destination) ?? null);
    }
    const quantity = Number(g[dims.length]);
    shipment.invoiceCents = Number(g[dims.length + 2]);
    const line: TLine = { shipment, product, quantity, extendedCents: Number(g[dims.length + 1]) };
    const key = groupBy
      .map((c) => {
        const spec = SPECS[c];
        return String(spec.kind === "dict" ? spec.index(line) : spec.value(line));
      })
      .join("\u0001");
    const same = merged.get(key);
    if (!same) merged.set(key, [line]);
    else {
      const last = same[same.length - 1];
      last.extendedCents += line.extendedCents;
      last.shipment.invoiceCents += line.shipment.invoiceCents;
      if (last.quantity + line.quantity <= INT32_MAX) last.quantity += line.quantity;
      else same.push({ ...line, shipment: { ...line.shipment, invoiceCents: 0 }, extendedCents: 0 });
    }
  }
  const lines: TLine[] = [];
  for (const same of merged.values()) {
    for (const line of same) {
      // A single group's quantity beyond Int32 (SQL summed it whole): the rest in records of its own.
      while (line.quantity > INT32_MAX) {
        lines.push({
          ...line,
          shipment: { ...line.shipment, invoiceCents: 0 },
          extendedCents: 0,
          quantity: INT32_MAX,
        });
        line.quantity -= INT32_MAX;
      }
      lines.push(line);
    }
  }
  return { lines, lookups: l };
}

/**
 * Where a summary's join starts. "items": every item of the database in id order, each shipment a
 * primary-key look-up (as ITEMS_SQL); "shipments": the workspace's shipments through its index, each
 * one's items through theirs. Same rows either way. Measured (bun:sqlite CPU, a database of a 1M-line
 * and a 100k-line workspace, destination × status): the 1M workspace 1.34–1.53 s from items against
 * 1.58–1.82 s from shipments; the 100k one 0.21–0.27 s from items (it walks the other workspace's
 * items too) against 0.13 s from shipments.
 */
export type TSummaryDrive = "items" | "shipments";

/** From items when the workspace holds more than half of the database's shipments, else from its shipments. */
export function summaryDrive(workspaceShipments: number, allShipments: number): TSummaryDrive {
  return workspaceShipments * 2 > allShipments ? "items" : "shipments";
}

async function summaryDriveFor(rows: TRowSource, workspaceId: number): Promise<TSummaryDrive> {
  const [counts] = await rows(
    "select (select count(*) from shipments where workspace_id = ?), (select count(*) from shipments)",
    [workspaceId],
  );
  return summaryDrive(Number(counts?.[0] ?? 0), Number(counts?.[1] ?? 0));
}

/** A summary's columns, in the attributes' order: its group_by columns and the ones it sums. */
export function summaryColumns(
  groupBy: readonly TReportColumn[],
  sums: readonly TReportColumn[] = [],
): TReportColumn[] {
  return COLUMNS.filter((c) => groupBy.includes(c) || sums.includes(c));
}

/**
 * A summary (reportSummaryLines) as an Arrow IPC stream of one record batch, the lines' dictionaries
 * and types; null above REPORT_SUMMARY_MAX_RECORDS combinations (the caller answers 413).
 */
export async function reportSummaryArrow(
  client: Client,
  rows: TRowSource,
  workspaceId: number,
  options: {
    groupBy: readonly (typeof REPORT_GROUPABLE)[number][];
    sums?: readonly TReportColumn[];
    names?: "keys" | "labels";
  },
): Promise<Uint8Array | null> {
  const summary = await reportSummaryLines(
    client,
    rows,
    workspaceId,
    options.groupBy,
    undefined,
    REPORT_SUMMARY_MAX_RECORDS,
  );
  if (!summary) return null;
  const { lines, lookups } = summary;
  const columns = summaryColumns(options.groupBy, options.sums);
  const schema = reportSchema(lookups, options.names, columns);
  const sink = new ChunkSink();
  const writer = new RecordBatchStreamWriter();
  writer.reset(sink, schema);
  if (lines.length > 0) writer.write(toRecordBatch(lines, lookups, schema, columns));
  writer.finish();
  return sink.take();
}

/**
 * A summary as JSON records: exact decimal strings for the summed money, as the lines' records;
 * null above REPORT_SUMMARY_MAX_RECORDS combinations (the caller answers 413).
 */
export async function reportSummaryRecords(
  client: Client,
  rows: TRowSource,
  workspaceId: number,
  groupBy: readonly (typeof REPORT_GROUPABLE)[number][],
  sums: readonly TReportColumn[] = [],
): Promise<TReportRecord[] | null> {
  const summary = await reportSummaryLines(
    client,
    rows,
    workspaceId,
    groupBy,
    undefined,
    REPORT_SUMMARY_MAX_RECORDS,
  );
  if (!summary) return null;
  return toJsonRecords(summary.lines, summary.lookups, summaryColumns(groupBy, sums));
}
