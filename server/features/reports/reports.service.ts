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
  SCREENING_VALUES,
  type TReportColumn,
  type TReportRecord,
} from "../../../db/contracts/reports";

/** Lines per SQL page and per Arrow record batch: big enough to amortise, small enough to stay flat in memory. */
export const REPORT_BATCH_LINES = 16_384;

/** Strings that repeat (statuses, carriers, contacts, products, countries) travel once, as an Arrow dictionary. */
class TextDictionary {
  readonly values: string[] = [];
  private readonly indexOf = new Map<string, number>();
  /** Row id (of a carrier, contact, product…) → index into `values`. */
  readonly byId = new Map<number, number>();
  readonly type: Dictionary<Utf8, Int32>;
  private vector?: Vector<Utf8>;

  constructor(id: number) {
    this.type = new Dictionary(new Utf8(), new Int32(), id);
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
const SHIPMENTS_SQL = `
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
 * file bun:sqlite cannot open) goes through the libSQL client. See docs/decisions/004.
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
    contactCountry: new Map(),
    contactScreening: new Map(),
  };
  const [statuses, carriers, modes, incoterms, currencies, countries, contacts, products, screenings] =
    await client.batch(
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
  for (const r of screenings.rows) {
    l.contactScreening.set(Number(r[0]), SCREENING_VALUES.indexOf(r[1] as "passed" | "failed"));
  }
  return l;
}

const PASSED = SCREENING_VALUES.indexOf("passed");
const FAILED = SCREENING_VALUES.indexOf("failed");
const NOT_SCREENED_INDEX = SCREENING_VALUES.indexOf("not screened");

function toShipment(r: TRow, l: TReportLookups): TShipment {
  const id = (i: number) => (r[i] === null ? null : Number(r[i]));
  const lookup = (d: TextDictionary, value: number | null) =>
    value === null ? null : (d.byId.get(value) ?? null);
  const screening = (contact: number | null) =>
    contact === null ? null : (l.contactScreening.get(contact) ?? NOT_SCREENED_INDEX);
  const [exporter, importer, consignee] = [id(9), id(10), id(11)];
  const outcomes = [screening(exporter), screening(importer), screening(consignee)].filter((o) => o !== null);
  const date = typeof r[4] === "string" && /^\d{4}-\d{2}-\d{2}$/.test(r[4]) ? r[4] : null;
  return {
    id: Number(r[0]),
    name: String(r[1]),
    ref: String(r[2]),
    status: lookup(l.status, id(3)),
    date,
    carrier: lookup(l.carrier, id(5)),
    mode: lookup(l.mode, id(6)),
    incoterm: lookup(l.incoterm, id(7)),
    currency: lookup(l.currency, id(8)),
    exporter: lookup(l.exporter, exporter),
    importer: lookup(l.importer, importer),
    consignee: lookup(l.consignee, consignee),
    destination:
      (consignee === null ? undefined : l.contactCountry.get(consignee)) ??
      (importer === null ? undefined : l.contactCountry.get(importer)) ??
      null,
    exporterScreening: screening(exporter),
    importerScreening: screening(importer),
    consigneeScreening: screening(consignee),
    // failed if any party failed, passed if every named party passed, else not screened.
    partiesScreening:
      outcomes.length === 0
        ? NOT_SCREENED_INDEX
        : outcomes.includes(FAILED)
          ? FAILED
          : outcomes.every((o) => o === PASSED)
            ? PASSED
            : NOT_SCREENED_INDEX,
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
  ship_month: { kind: "text", value: (x) => x.shipment.date?.slice(0, 7) ?? null },
  ship_year: { kind: "int", value: (x) => (x.shipment.date ? Number(x.shipment.date.slice(0, 4)) : null) },
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

const COLUMNS = REPORT_ATTRIBUTES.map((a) => a.name);

/** The page's lines as JSON records: exact decimal strings for money and weights, YYYY-MM-DD dates. */
export function toJsonRecords(rows: TLine[], l: TReportLookups): TReportRecord[] {
  return rows.map((r) => {
    const record = {} as TReportRecord;
    for (const name of COLUMNS) {
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

/** Arrow schema of the report: dictionary-encoded strings, Int32, Float64, DateDay and Bool columns. */
export function reportSchema(l: TReportLookups, names: "keys" | "labels" = "keys"): Schema {
  return new Schema(
    REPORT_ATTRIBUTES.map(({ name, label }) => {
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

/** A validity bitmap (bit set = value present) and its null count, or no bitmap when nothing is null. */
function validity(isNull: (i: number) => boolean, length: number) {
  let nullCount = 0;
  const bitmap = new Uint8Array((length + 7) >> 3);
  for (let i = 0; i < length; i++) {
    if (isNull(i)) nullCount++;
    else bitmap[i >> 3] |= 1 << (i & 7);
  }
  return nullCount === 0 ? { nullCount, nullBitmap: undefined } : { nullCount, nullBitmap: bitmap };
}

const DAY_MS = 86_400_000;
const encoder = new TextEncoder();

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

/**
 * The page's lines as one Arrow record batch. Money and weights go as Float64 (scaled integer ÷
 * 10^scale, the double nearest the exact decimal): the browser's pivot sums doubles anyway, and the
 * exact values stay available as JSON and in the database.
 */
export function toRecordBatch(rows: TLine[], l: TReportLookups, schema: Schema): RecordBatch {
  const length = rows.length;
  const children: Data[] = COLUMNS.map((name, c) => {
    const spec = SPECS[name];
    const type = schema.fields[c].type;
    switch (spec.kind) {
      case "dict": {
        const indexes = new Int32Array(length);
        const present = new Uint8Array(length);
        for (let i = 0; i < length; i++) {
          const index = spec.index(rows[i]);
          if (index !== null) {
            indexes[i] = index;
            present[i] = 1;
          }
        }
        return makeData({
          type,
          length,
          data: indexes,
          dictionary: spec.dict(l).arrow,
          ...validity((i) => present[i] === 0, length),
        } as never);
      }
      case "int": {
        const values = new Int32Array(length);
        const present = new Uint8Array(length);
        for (let i = 0; i < length; i++) {
          const value = spec.value(rows[i]);
          if (value !== null) {
            values[i] = value;
            present[i] = 1;
          }
        }
        return makeData({
          type,
          length,
          data: values,
          ...validity((i) => present[i] === 0, length),
        } as never);
      }
      case "scaled": {
        const values = new Float64Array(length);
        const present = new Uint8Array(length);
        const divisor = 10 ** spec.scale;
        for (let i = 0; i < length; i++) {
          const value = spec.value(rows[i]);
          if (value !== null) {
            values[i] = value / divisor;
            present[i] = 1;
          }
        }
        return makeData({
          type,
          length,
          data: values,
          ...validity((i) => present[i] === 0, length),
        } as never);
      }
      case "date": {
        const days = new Int32Array(length);
        const present = new Uint8Array(length);
        for (let i = 0; i < length; i++) {
          const value = spec.value(rows[i]);
          if (value !== null) {
            days[i] = Date.UTC(+value.slice(0, 4), +value.slice(5, 7) - 1, +value.slice(8, 10)) / DAY_MS;
            present[i] = 1;
          }
        }
        return makeData({ type, length, data: days, ...validity((i) => present[i] === 0, length) } as never);
      }
      case "bool": {
        const values = rows.map((r) => spec.value(r));
        const bits = new Uint8Array((length + 7) >> 3);
        for (let i = 0; i < length; i++) if (values[i]) bits[i >> 3] |= 1 << (i & 7);
        return makeData({
          type,
          length,
          data: bits,
          ...validity((i) => values[i] === null, length),
        } as never);
      }
      default: {
        const values = rows.map((r) => spec.value(r));
        const { offsets, bytes } = utf8Buffers(values);
        return makeData({
          type,
          length,
          valueOffsets: offsets,
          data: bytes,
          ...validity((i) => values[i] === null, length),
        } as never);
      }
    }
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
  options: { pageSize?: number; names?: "keys" | "labels" } = {},
): Promise<ReadableStream<Uint8Array>> {
  const lookups = await loadLookups(client, workspaceId);
  const schema = reportSchema(lookups, options.names);
  const sink = new ChunkSink();
  const writer = new RecordBatchStreamWriter();
  writer.reset(sink, schema);
  const pages = readLinePages(rows, workspaceId, lookups, options.pageSize);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await pages.next();
      if (next.done) {
        // reset() above already wrote the schema, so an empty workspace is still a valid stream.
        writer.finish();
        const rest = sink.take();
        if (rest.byteLength) controller.enqueue(rest);
        controller.close();
        return;
      }
      writer.write(toRecordBatch(next.value, lookups, schema));
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
): Promise<TReportRecord[] | null> {
  const lookups = await loadLookups(client, workspaceId);
  const records: TReportRecord[] = [];
  for await (const lines of readLinePages(rows, workspaceId, lookups)) {
    if (records.length + lines.length > limit) return null;
    records.push(...toJsonRecords(lines, lookups));
  }
  return records;
}
