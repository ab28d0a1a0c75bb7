import type { Client, Row } from "@libsql/client";
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

/** The SQL row of one line: see LINES_SQL for the order. */
const L = {
  shipmentId: 1,
  productId: 2,
  quantity: 3,
  extendedCents: 4,
  name: 5,
  shipperRef: 6,
  statusId: 7,
  shipDate: 8,
  carrierId: 9,
  modeId: 10,
  incotermId: 11,
  currencyId: 12,
  exporterId: 13,
  importerId: 14,
  consigneeId: 15,
  invoiceCents: 16,
  grossGrams: 17,
} as const;

/**
 * One page of lines, keyset-paginated over the item id. Only ids and numbers come from SQL; the
 * strings they stand for are looked up once per request (see loadLookups), which keeps the page
 * query to two tables and the response to dictionary indexes. Templates (status 1) are not lines.
 */
const LINES_SQL = `
select i.id, i.shipment_id, i.product_id, i.quantity, i.extended_value,
  s.name, s.shipper_reference_number, s.shipping_status_id, s.ship_date, s.carrier_id,
  s.mode_of_transport_id, s.incoterm_id, s.currency_id, s.exporter_of_record_id,
  s.importer_of_record_id, s.ultimate_consignee_id, s.total_invoice_value,
  (select coalesce(sum(p.gross_weight), 0) from shipment_packages p where p.shipment_id = s.id)
from shipment_items i
join shipments s on s.id = i.shipment_id
where s.workspace_id = ? and s.shipping_status_id <> 1 and i.id > ?
order by i.id
limit ?`;

type TProduct = { grams: number; hasLicense: boolean };

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
    l.productNumber.setId(id, String(r[1]));
    l.productName.setId(id, String(r[2]));
    l.eccn.setId(id, String(r[3]));
    l.hts.setId(id, String(r[4]));
    l.origin.setId(id, countryName.get(Number(r[5])) ?? "");
    l.products.set(id, { grams: Number(r[6]), hasLicense: Number(r[7]) === 1 });
  }
  for (const r of screenings.rows) {
    l.contactScreening.set(Number(r[0]), SCREENING_VALUES.indexOf(r[1] as "passed" | "failed"));
  }
  return l;
}

/** Yields the workspace's non-template lines page by page, never holding more than one page. */
export async function* readLinePages(
  client: Client,
  workspaceId: number,
  pageSize = REPORT_BATCH_LINES,
): AsyncGenerator<Row[]> {
  let after = 0;
  while (true) {
    const page = await client.execute({ sql: LINES_SQL, args: [workspaceId, after, pageSize] });
    if (page.rows.length === 0) return;
    yield page.rows;
    if (page.rows.length < pageSize) return;
    after = Number(page.rows[page.rows.length - 1][0]);
  }
}

const NOT_SCREENED = SCREENING_VALUES.indexOf("not screened");
const FAILED = SCREENING_VALUES.indexOf("failed");
const PASSED = SCREENING_VALUES.indexOf("passed");

const idOf = (r: Row, i: number): number | null => (r[i] === null ? null : Number(r[i]));
const lookup = (d: TextDictionary, id: number | null) => (id === null ? null : (d.byId.get(id) ?? null));
const screeningOf = (l: TReportLookups, contactId: number | null) =>
  contactId === null ? null : (l.contactScreening.get(contactId) ?? NOT_SCREENED);
const dateOf = (r: Row): string | null => {
  const value = r[L.shipDate];
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
};

/** How one column is read from a line and encoded; `dict` columns give an index into their dictionary. */
type TColumnSpec =
  | {
      kind: "dict";
      dict: (l: TReportLookups) => TextDictionary;
      index: (r: Row, l: TReportLookups) => number | null;
    }
  | { kind: "int"; value: (r: Row, l: TReportLookups) => number | null }
  | { kind: "scaled"; scale: number; value: (r: Row, l: TReportLookups) => number | null }
  | { kind: "text"; value: (r: Row) => string | null }
  | { kind: "date"; value: (r: Row) => string | null }
  | { kind: "bool"; value: (r: Row, l: TReportLookups) => boolean | null };

const SPECS: Record<TReportColumn, TColumnSpec> = {
  shipment_id: { kind: "int", value: (r) => Number(r[L.shipmentId]) },
  shipment_name: { kind: "text", value: (r) => String(r[L.name]) },
  shipper_reference: { kind: "text", value: (r) => String(r[L.shipperRef]) },
  status: { kind: "dict", dict: (l) => l.status, index: (r, l) => lookup(l.status, idOf(r, L.statusId)) },
  ship_date: { kind: "date", value: dateOf },
  ship_month: { kind: "text", value: (r) => dateOf(r)?.slice(0, 7) ?? null },
  ship_year: {
    kind: "int",
    value: (r) => {
      const date = dateOf(r);
      return date ? Number(date.slice(0, 4)) : null;
    },
  },
  carrier: { kind: "dict", dict: (l) => l.carrier, index: (r, l) => lookup(l.carrier, idOf(r, L.carrierId)) },
  mode_of_transport: {
    kind: "dict",
    dict: (l) => l.mode,
    index: (r, l) => lookup(l.mode, idOf(r, L.modeId)),
  },
  incoterm: {
    kind: "dict",
    dict: (l) => l.incoterm,
    index: (r, l) => lookup(l.incoterm, idOf(r, L.incotermId)),
  },
  currency: {
    kind: "dict",
    dict: (l) => l.currency,
    index: (r, l) => lookup(l.currency, idOf(r, L.currencyId)),
  },
  exporter: {
    kind: "dict",
    dict: (l) => l.exporter,
    index: (r, l) => lookup(l.exporter, idOf(r, L.exporterId)),
  },
  importer: {
    kind: "dict",
    dict: (l) => l.importer,
    index: (r, l) => lookup(l.importer, idOf(r, L.importerId)),
  },
  ultimate_consignee: {
    kind: "dict",
    dict: (l) => l.consignee,
    index: (r, l) => lookup(l.consignee, idOf(r, L.consigneeId)),
  },
  destination_country: {
    kind: "dict",
    dict: (l) => l.country,
    index: (r, l) => {
      const consignee = idOf(r, L.consigneeId);
      const importer = idOf(r, L.importerId);
      return (
        (consignee === null ? undefined : l.contactCountry.get(consignee)) ??
        (importer === null ? undefined : l.contactCountry.get(importer)) ??
        null
      );
    },
  },
  product_number: {
    kind: "dict",
    dict: (l) => l.productNumber,
    index: (r, l) => lookup(l.productNumber, idOf(r, L.productId)),
  },
  product_name: {
    kind: "dict",
    dict: (l) => l.productName,
    index: (r, l) => lookup(l.productName, idOf(r, L.productId)),
  },
  eccn: { kind: "dict", dict: (l) => l.eccn, index: (r, l) => lookup(l.eccn, idOf(r, L.productId)) },
  hts: { kind: "dict", dict: (l) => l.hts, index: (r, l) => lookup(l.hts, idOf(r, L.productId)) },
  country_of_origin: {
    kind: "dict",
    dict: (l) => l.origin,
    index: (r, l) => lookup(l.origin, idOf(r, L.productId)),
  },
  quantity: { kind: "int", value: (r) => Number(r[L.quantity]) },
  extended_value: { kind: "scaled", scale: 2, value: (r) => Number(r[L.extendedCents]) },
  total_invoice_value: { kind: "scaled", scale: 2, value: (r) => Number(r[L.invoiceCents]) },
  net_weight_kg: {
    kind: "scaled",
    scale: 3,
    value: (r, l) => {
      const product = l.products.get(Number(r[L.productId]));
      return product ? product.grams * Number(r[L.quantity]) : null;
    },
  },
  gross_weight_kg: { kind: "scaled", scale: 3, value: (r) => Number(r[L.grossGrams]) },
  has_license: {
    kind: "bool",
    value: (r, l) => l.products.get(Number(r[L.productId]))?.hasLicense ?? null,
  },
  exporter_screening: {
    kind: "dict",
    dict: (l) => l.exporterScreening,
    index: (r, l) => screeningOf(l, idOf(r, L.exporterId)),
  },
  importer_screening: {
    kind: "dict",
    dict: (l) => l.importerScreening,
    index: (r, l) => screeningOf(l, idOf(r, L.importerId)),
  },
  consignee_screening: {
    kind: "dict",
    dict: (l) => l.consigneeScreening,
    index: (r, l) => screeningOf(l, idOf(r, L.consigneeId)),
  },
  parties_screening: {
    kind: "dict",
    dict: (l) => l.partiesScreening,
    index: (r, l) => {
      const outcomes = [L.exporterId, L.importerId, L.consigneeId]
        .map((i) => screeningOf(l, idOf(r, i)))
        .filter((o) => o !== null);
      if (outcomes.length === 0) return NOT_SCREENED;
      if (outcomes.includes(FAILED)) return FAILED;
      return outcomes.every((o) => o === PASSED) ? PASSED : NOT_SCREENED;
    },
  },
};

const COLUMNS = REPORT_ATTRIBUTES.map((a) => a.name);

/** The page's lines as JSON records: exact decimal strings for money and weights, YYYY-MM-DD dates. */
export function toJsonRecords(rows: Row[], l: TReportLookups): TReportRecord[] {
  return rows.map((r) => {
    const record = {} as TReportRecord;
    for (const name of COLUMNS) {
      const spec = SPECS[name];
      switch (spec.kind) {
        case "dict": {
          const index = spec.index(r, l);
          record[name] = index === null ? null : spec.dict(l).values[index];
          break;
        }
        case "scaled": {
          const value = spec.value(r, l);
          record[name] = value === null ? null : scaledToDecimal(value, spec.scale);
          break;
        }
        case "int":
        case "bool":
          record[name] = spec.value(r, l);
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

/**
 * The page's lines as one Arrow record batch. Money and weights go as Float64 (scaled integer ÷
 * 10^scale, the double nearest the exact decimal): the browser's pivot sums doubles anyway, and the
 * exact values stay available as JSON and in the database.
 */
export function toRecordBatch(rows: Row[], l: TReportLookups, schema: Schema): RecordBatch {
  const length = rows.length;
  const children: Data[] = COLUMNS.map((name, c) => {
    const spec = SPECS[name];
    const type = schema.fields[c].type;
    switch (spec.kind) {
      case "dict": {
        const indexes = new Int32Array(length);
        const present = new Uint8Array(length);
        for (let i = 0; i < length; i++) {
          const index = spec.index(rows[i], l);
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
          const value = spec.value(rows[i], l);
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
          const value = spec.value(rows[i], l);
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
      case "bool":
        return vectorFromArray(
          rows.map((r) => spec.value(r, l)),
          new Bool(),
        ).data[0];
      default:
        return vectorFromArray(
          rows.map((r) => spec.value(r)),
          new Utf8(),
        ).data[0];
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
  workspaceId: number,
  options: { pageSize?: number; names?: "keys" | "labels" } = {},
): Promise<ReadableStream<Uint8Array>> {
  const lookups = await loadLookups(client, workspaceId);
  const schema = reportSchema(lookups, options.names);
  const sink = new ChunkSink();
  const writer = new RecordBatchStreamWriter();
  writer.reset(sink, schema);
  const pages = readLinePages(client, workspaceId, options.pageSize);
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
  workspaceId: number,
  limit: number,
): Promise<TReportRecord[] | null> {
  const lookups = await loadLookups(client, workspaceId);
  const records: TReportRecord[] = [];
  for await (const rows of readLinePages(client, workspaceId)) {
    if (records.length + rows.length > limit) return null;
    records.push(...toJsonRecords(rows, lookups));
  }
  return records;
}
