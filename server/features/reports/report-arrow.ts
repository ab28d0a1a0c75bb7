// The report's lines as Arrow: the schema, one record batch per page, and the bytes the IPC writer emits.
import {
  AsyncByteQueue,
  Bool,
  type Data,
  DateDay,
  Field,
  Float64,
  Int32,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Utf8,
} from "apache-arrow";
import { REPORT_ATTRIBUTES, type TReportColumn } from "../../../db/contracts/reports";
import { COLUMNS, SPECS } from "./report-columns";
import type { TextDictionary } from "./report-dictionary";
import type { TLine, TShipment } from "./report-lines";
import type { TReportLookups } from "./report-lookups";

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
  ["created_by", "createdBy", (l) => l.createdBy],
  ["last_edited_by", "editedBy", (l) => l.editedBy],
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
  const extendedUsd = new Float64Array(length);
  const converted = new Validity(length);
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
    if (line.usdCents === null) converted.nulls++;
    else {
      extendedUsd[i] = line.usdCents / 100;
      converted.bits[i >> 3] |= bit;
    }
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
  put("extended_value_usd", { data: extendedUsd, ...converted.data });
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
export class ChunkSink extends AsyncByteQueue {
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
