// Appends the report's Arrow record batches to a DuckDB table through DuckDB's own vectors: each
// column's typed array is copied as it is (dictionary indexes remapped to the ENUM's), so a million
// lines load without a value-by-value call per cell. Only text columns cross one string at a time.
import {
  type DuckDBAppender,
  DuckDBDataChunk,
  DuckDBEnumType,
  type DuckDBType,
  DuckDBTypeId,
} from "@duckdb/node-api";
import duckdb from "@duckdb/node-bindings";
import type { Data, RecordBatch } from "apache-arrow";

type TVector = ReturnType<typeof duckdb.data_chunk_get_vector>;

/** Writes rows [from, from + count) of one Arrow column into a DuckDB vector. */
type TColumnWriter = (vector: TVector, data: Data, from: number, count: number) => void;

const copy = (vector: TVector, values: ArrayBufferView) =>
  duckdb.copy_data_to_vector(vector, 0, values.buffer as ArrayBuffer, values.byteOffset, values.byteLength);

/** Arrow's validity bits (least significant first, as DuckDB's): rows `from` on, `from` a multiple of 8. */
function copyValidity(vector: TVector, data: Data, from: number, count: number): void {
  const bitmap = data.nullBitmap;
  if (!bitmap || data.nullCount === 0) return;
  duckdb.vector_ensure_validity_writable(vector);
  duckdb.copy_data_to_vector_validity(
    vector,
    0,
    bitmap.buffer as ArrayBuffer,
    bitmap.byteOffset + (from >> 3),
    (count + 7) >> 3,
  );
}

const valid = (data: Data, row: number) =>
  !data.nullBitmap || data.nullCount === 0 || (data.nullBitmap[row >> 3] & (1 << (row & 7))) !== 0;

const ENUM_ARRAYS = {
  [DuckDBTypeId.UTINYINT]: Uint8Array,
  [DuckDBTypeId.USMALLINT]: Uint16Array,
  [DuckDBTypeId.UINTEGER]: Uint32Array,
} as const;

/** The writer for a column of `type` whose Arrow data is `sample`'s (the first batch decides). */
function writerFor(type: DuckDBType, sample: Data): TColumnWriter {
  if (type instanceof DuckDBEnumType) {
    // The Arrow dictionary's index → the ENUM's index of the same text.
    const dictionary = sample.dictionary?.toArray() as (string | null)[] | undefined;
    if (!dictionary) throw new Error(`An ENUM column needs dictionary data, not ${sample.type}`);
    const remap = Uint32Array.from(dictionary, (text) => type.indexForValue(String(text)));
    const Indexes = ENUM_ARRAYS[type.internalTypeId as keyof typeof ENUM_ARRAYS];
    if (!Indexes) throw new Error(`Unexpected ENUM storage ${type.internalTypeId}`);
    const out = new Indexes(duckdb.vector_size());
    return (vector, data, from, count) => {
      const indexes = data.values as Int8Array | Int16Array | Int32Array;
      for (let i = 0; i < count; i++) out[i] = remap[indexes[from + i]] ?? 0;
      copy(vector, out.subarray(0, count));
      copyValidity(vector, data, from, count);
    };
  }
  switch (type.typeId) {
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.DATE:
    case DuckDBTypeId.DOUBLE:
      return (vector, data, from, count) => {
        copy(vector, (data.values as Int32Array | Float64Array).subarray(from, from + count));
        copyValidity(vector, data, from, count);
      };
    case DuckDBTypeId.BOOLEAN: {
      const out = new Uint8Array(duckdb.vector_size());
      return (vector, data, from, count) => {
        const bits = data.values as Uint8Array;
        for (let i = 0; i < count; i++) out[i] = (bits[(from + i) >> 3] >> ((from + i) & 7)) & 1;
        copy(vector, out.subarray(0, count));
        copyValidity(vector, data, from, count);
      };
    }
    case DuckDBTypeId.VARCHAR:
      if (sample.dictionary) {
        // A dictionary too large for an ENUM: its texts one by one.
        const dictionary = sample.dictionary.toArray() as string[];
        return (vector, data, from, count) => {
          const indexes = data.values as Int32Array;
          copyValidity(vector, data, from, count);
          for (let i = 0; i < count; i++) {
            if (valid(data, from + i))
              duckdb.vector_assign_string_element(vector, i, dictionary[indexes[from + i]]);
          }
        };
      }
      return (vector, data, from, count) => {
        const offsets = data.valueOffsets as Int32Array;
        const bytes = data.values as Uint8Array;
        copyValidity(vector, data, from, count);
        for (let i = 0; i < count; i++) {
          if (valid(data, from + i)) {
            duckdb.vector_assign_string_element_len(
              vector,
              i,
              bytes.subarray(offsets[from + i], offsets[from + i + 1]),
            );
          }
        }
      };
    default:
      throw new Error(`The pivot table has a column of type ${type.toString()} that lines cannot fill`);
  }
}

/** Appends record batches to the appender's table, whose columns are the batches' in order. */
export class BatchAppender {
  #appender: DuckDBAppender;
  #types: DuckDBType[];
  #writers: TColumnWriter[] | undefined;
  #chunk: DuckDBDataChunk;

  constructor(appender: DuckDBAppender) {
    this.#appender = appender;
    this.#types = Array.from({ length: appender.columnCount }, (_, i) => appender.columnType(i));
    this.#chunk = DuckDBDataChunk.create(this.#types);
  }

  append(batch: RecordBatch): void {
    const columns = batch.data.children;
    if (columns.length !== this.#types.length) {
      throw new Error(`The pivot table has ${this.#types.length} columns, the lines ${columns.length}`);
    }
    this.#writers ??= this.#types.map((type, c) => writerFor(type, columns[c]));
    const size = duckdb.vector_size();
    const raw = this.#chunk.chunk;
    for (let from = 0; from < batch.numRows; from += size) {
      const count = Math.min(size, batch.numRows - from);
      duckdb.data_chunk_reset(raw);
      for (let c = 0; c < columns.length; c++) {
        this.#writers[c](duckdb.data_chunk_get_vector(raw, c), columns[c], from, count);
      }
      duckdb.data_chunk_set_size(raw, count);
      this.#appender.appendDataChunk(this.#chunk);
    }
  }

  /** Writes what is buffered to the table. */
  flush(): void {
    this.#appender.flushSync();
  }

  /** Writes what is buffered to the table and ends the appender. */
  close(): void {
    try {
      this.#appender.flushSync();
    } finally {
      this.#appender.closeSync();
    }
  }
}
