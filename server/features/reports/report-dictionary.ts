// The report's repeated strings as Arrow dictionaries: each string once, each line an index into it.
import { Dictionary, Int8, Int16, Int32, Utf8, type Vector, vectorFromArray } from "apache-arrow";

/** The narrowest signed index type for a dictionary of `size` strings (Arrow indexes are signed). */
function indexType(size: number): Int8 | Int16 | Int32 {
  return size <= 127 ? new Int8() : size <= 32_767 ? new Int16() : new Int32();
}

/** Strings that repeat (statuses, carriers, contacts, products, countries) travel once, as an Arrow dictionary. */
export class TextDictionary {
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
