// The screening index as one block of bytes, so a process can load a built index instead of building
// it (see ../index-cache.ts): a JSON header with the small parts, then every typed array of the
// index, its lists of strings (TEXT_LISTS) and its entries (each as JSON, read when a screening
// reports it), 8-byte aligned, loaded as views of the bytes read.
//
// What an index holds follows from two things only: the code of the engine and the entries it was
// built from. Both go into the key a packed index is stored and checked under (indexKey), so a
// packed index is used only where building again would give the same one.

import { readFileSync } from "node:fs";
import path from "node:path";
import {
  type EntryStore,
  type IndexStats,
  makeScratch,
  type NameField,
  type ScreeningIndex,
} from "./screening-index";
import type { ListEntry } from "./types";

/** Layout of the packed bytes; the engine's own changes are covered by ENGINE_FINGERPRINT. */
const FORMAT = "tradewinds-screening-index/4";
const MAGIC = new TextEncoder().encode("TWSIDX04");
/** The packed bytes end with Bun.hash of all before them (header and arrays), in this many hex digits. */
const HASH_LENGTH = 16;

/** The hash a packed index ends with: of every byte before it, so a change anywhere is detected. */
function hashOf(bytes: Uint8Array): Uint8Array {
  return new TextEncoder().encode(Bun.hash(bytes).toString(16).padStart(HASH_LENGTH, "0"));
}

/** The engine's modules whose code decides what an index holds (this one included). */
export const ENGINE_SOURCES = [
  "acronyms.ts",
  "blocking.ts",
  "countries.ts",
  "hash-keys.ts",
  "index-build.ts",
  "index-model.ts",
  "index-pack.ts",
  "legal-forms.ts",
  "lexicon.ts",
  "lost-words.ts",
  "name-scoring.ts",
  "normalize.ts",
  "score.ts",
  "screen-evidence.ts",
  "screening-index.ts",
  "similarity.ts",
  "types.ts",
];

/** A hash of the engine's source in `dir`: any change to how an index is built gives another key. */
export function engineSourceHash(dir: string): string {
  return Bun.hash(
    ENGINE_SOURCES.map((file) => readFileSync(path.join(dir, file), "utf8")).join("\u0000"),
  ).toString(16);
}

// The executable has no source files: scripts/build-binary.ts defines the hash of the ones it built.
declare const SCREENING_ENGINE_FINGERPRINT: string | undefined;

/** The engine's fingerprint, or undefined when it cannot be known (then nothing is cached). */
export const ENGINE_FINGERPRINT: string | undefined = (() => {
  if (typeof SCREENING_ENGINE_FINGERPRINT === "string") return SCREENING_ENGINE_FINGERPRINT;
  try {
    return engineSourceHash(import.meta.dir);
  } catch {
    return undefined;
  }
})();

/**
 * A hash of every entry field the build reads, in order (entry positions are part of the index):
 * the source key of entries that come from nowhere else (tests, the benchmarks).
 */
export function entriesKey(entries: readonly ListEntry[]): string {
  const parts: string[] = [];
  for (const e of entries) {
    parts.push(JSON.stringify(e));
  }
  return `entries:${entries.length}:${Bun.hash(parts.join("\u0000")).toString(16)}`;
}

/**
 * The key an index is stored and checked under: the format, the engine's fingerprint and what
 * identifies its entries (`sourceKey`: the list versions they were imported as, or entriesKey).
 * Undefined when the engine's fingerprint is unknown: then nothing may be cached.
 */
export function indexKey(sourceKey: string): string | undefined {
  if (ENGINE_FINGERPRINT === undefined) return undefined;
  return `${FORMAT}:${ENGINE_FINGERPRINT}:${sourceKey}`;
}

/** Entries kept as JSON in the packed bytes, each parsed when a screening first reports it. */
class PackedEntries implements EntryStore {
  readonly length: number;
  private readonly decoder = new TextDecoder();
  private readonly recent = new Map<number, ListEntry>();

  constructor(
    private readonly blob: Uint8Array,
    private readonly start: Int32Array,
  ) {
    this.length = start.length - 1;
  }

  at(i: number): ListEntry | undefined {
    if (!(i >= 0 && i < this.length)) return undefined;
    let entry = this.recent.get(i);
    if (entry === undefined) {
      const json = this.decoder.decode(this.blob.subarray(this.start[i], this.start[i + 1]));
      entry = JSON.parse(json) as ListEntry;
      // The entries reported lately stay parsed; a long-running server does not grow them all back.
      if (this.recent.size >= 4096) this.recent.clear();
      this.recent.set(i, entry);
    }
    return entry;
  }
}

type TTyped = Int32Array | Uint8Array | Float32Array | Float64Array;
const TYPES = { Int32Array, Uint8Array, Float32Array, Float64Array } as const;
type TTypeName = keyof typeof TYPES;

/** The typed arrays of an index, by the path of their field. */
const TYPED_FIELDS = [
  "nameTotal",
  "refStart",
  "refEntry",
  "refDisplay",
  "uniformNames",
  "postingStart",
  "postingName",
  "postingWeight",
  "postingWord",
] as const;

interface Header {
  key: string;
  stats: IndexStats;
  nameFields: Array<Pick<NameField, "key" | "kind">>;
  countrySets: string[][];
  sections: Array<{ name: string; type: TTypeName; offset: number; length: number }>;
}

/**
 * The index's lists of strings, stored as sections (`text.<name>`: the strings joined, as UTF-8, and
 * `text.<name>.start`: where each starts in the joined text, in UTF-16 units) rather than in the JSON
 * header: one decode and a slice per string loads them several times faster than JSON.parse did
 * (~0.1 s of every worker's start, before its first screening).
 */
const TEXT_LISTS = ["strings", "vocabKeys", "acronymKeys", "acronymDisplays"] as const;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textSections(name: string, list: readonly string[]): Array<[string, TTyped]> {
  // UTF-8 has no lone surrogate: such a string would come back changed (as U+FFFD), so an index
  // holding one is not stored (the caller keeps the one it built).
  if (list.some((text) => LONE_SURROGATE.test(text)))
    throw new Error(`packed screening index: ${name} holds a string that is not well-formed UTF-16`);
  const start = new Int32Array(list.length + 1);
  for (let i = 0; i < list.length; i++) start[i + 1] = (start[i] as number) + (list[i] as string).length;
  return [
    [`text.${name}`, new TextEncoder().encode(list.join(""))],
    [`text.${name}.start`, start],
  ];
}

function textList(joined: Uint8Array, start: Int32Array): string[] {
  const text = new TextDecoder("utf-8", { fatal: true }).decode(joined);
  if (text.length !== start[start.length - 1]) throw new Error("packed screening index: text lengths differ");
  const list = new Array<string>(start.length - 1);
  for (let i = 0; i < list.length; i++) list[i] = text.slice(start[i], start[i + 1]);
  return list;
}

function typeName(array: TTyped): TTypeName {
  if (array instanceof Int32Array) return "Int32Array";
  if (array instanceof Uint8Array) return "Uint8Array";
  if (array instanceof Float32Array) return "Float32Array";
  return "Float64Array";
}

/**
 * The index as bytes (see unpackIndex); `key` is indexKey of the entries it was built from. Throws
 * for an index whose strings cannot be stored exactly (see textSections).
 */
export function packIndex(index: ScreeningIndex, key: string): Uint8Array {
  const arrays: Array<[string, TTyped]> = TYPED_FIELDS.map((field) => [field, index[field]]);
  index.nameFields.forEach((field, f) => {
    arrays.push(
      [`nameField.${f}.start`, field.start],
      [`nameField.${f}.ids`, field.ids],
      [`nameField.${f}.nums`, field.nums],
    );
  });
  arrays.push(
    ["deletions.packed", index.deletions.packed],
    ["deletions.directory", index.deletions.directory],
    ["phonetic.packed", index.phonetic.packed],
    ["phonetic.directory", index.phonetic.directory],
  );
  // Shared country sets once each, and one set number per entry.
  const setIds = new Map<ReadonlySet<string>, number>();
  const countrySets: string[][] = [];
  const entryCountrySet = new Int32Array(index.entryCountries.length);
  index.entryCountries.forEach((set, e) => {
    let id = setIds.get(set);
    if (id === undefined) {
      id = countrySets.length;
      setIds.set(set, id);
      countrySets.push([...set]);
    }
    entryCountrySet[e] = id;
  });
  arrays.push(["entryCountrySet", entryCountrySet]);
  const acronymKeys: string[] = [];
  const acronymDisplays: string[] = [];
  const acronymStart: number[] = [0];
  const acronymName: number[] = [];
  for (const [acronym, names] of index.acronyms) {
    acronymKeys.push(acronym);
    for (const { name, display } of names) {
      acronymName.push(name);
      acronymDisplays.push(display);
    }
    acronymStart.push(acronymName.length);
  }
  arrays.push(["acronymStart", Int32Array.from(acronymStart)], ["acronymName", Int32Array.from(acronymName)]);
  const encoder = new TextEncoder();
  const entryJson: Uint8Array[] = [];
  const entryStart = new Int32Array(index.entries.length + 1);
  for (let e = 0; e < index.entries.length; e++) {
    const json = encoder.encode(JSON.stringify(index.entries.at(e)));
    entryJson.push(json);
    entryStart[e + 1] = (entryStart[e] as number) + json.length;
  }
  const entryBlob = new Uint8Array(entryStart[index.entries.length] as number);
  entryJson.forEach((json, e) => {
    entryBlob.set(json, entryStart[e] as number);
  });
  arrays.push(["entryStart", entryStart], ["entryBlob", entryBlob]);
  const texts = { strings: index.strings, vocabKeys: index.vocabKeys, acronymKeys, acronymDisplays };
  for (const name of TEXT_LISTS) arrays.push(...textSections(name, texts[name]));

  let offset = 0;
  const sections = arrays.map(([name, array]) => {
    const section = { name, type: typeName(array), offset, length: array.length };
    offset += Math.ceil(array.byteLength / 8) * 8;
    return section;
  });
  const data = new Uint8Array(offset);
  arrays.forEach(([, array], i) => {
    data.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), sections[i]?.offset ?? 0);
  });
  const header: Header = {
    key,
    stats: index.stats,
    nameFields: index.nameFields.map(({ key, kind }) => ({ key, kind })),
    countrySets,
    sections,
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const dataStart = Math.ceil((MAGIC.length + 4 + json.length) / 8) * 8;
  const out = new Uint8Array(dataStart + offset + HASH_LENGTH);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(MAGIC.length, json.length, true);
  out.set(json, MAGIC.length + 4);
  out.set(data, dataStart);
  // A damaged file (header or arrays) is built again, not read.
  out.set(hashOf(out.subarray(0, dataStart + offset)), dataStart + offset);
  return out;
}

/**
 * The index packed in `bytes`, with its entries; undefined when the bytes are not a whole packed
 * index of exactly this key (another engine, other entries, a truncated or damaged file).
 */
export function unpackIndex(bytes: Uint8Array, key: string): ScreeningIndex | undefined {
  try {
    if (bytes.length < MAGIC.length + 4 + HASH_LENGTH || MAGIC.some((b, i) => bytes[i] !== b))
      return undefined;
    const hashAt = bytes.length - HASH_LENGTH;
    const hash = hashOf(bytes.subarray(0, hashAt));
    if (hash.some((b, i) => bytes[hashAt + i] !== b)) return undefined;
    // Views need aligned memory: a buffer read at an odd offset is copied once.
    const data = (bytes.byteOffset % 8 === 0 ? bytes : bytes.slice()).subarray(0, hashAt);
    const jsonLength = new DataView(data.buffer, data.byteOffset).getUint32(MAGIC.length, true);
    if (MAGIC.length + 4 + jsonLength > data.length) return undefined;
    const header = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(
        data.subarray(MAGIC.length + 4, MAGIC.length + 4 + jsonLength),
      ),
    ) as Header;
    if (header.key !== key) return undefined;
    const dataStart = Math.ceil((MAGIC.length + 4 + jsonLength) / 8) * 8;
    const typed = new Map<string, TTyped>();
    for (const section of header.sections) {
      const Type = TYPES[section.type];
      const start = dataStart + section.offset;
      if (Type === undefined || start + section.length * Type.BYTES_PER_ELEMENT > data.length)
        return undefined;
      typed.set(section.name, new Type(data.buffer as ArrayBuffer, data.byteOffset + start, section.length));
    }
    const get = <T extends TTyped>(name: string): T => {
      const array = typed.get(name);
      if (array === undefined) throw new Error(`packed screening index: no ${name}`);
      return array as T;
    };
    const fields = Object.fromEntries(TYPED_FIELDS.map((field) => [field, get(field)])) as Pick<
      ScreeningIndex,
      (typeof TYPED_FIELDS)[number]
    >;
    const [strings, vocabKeys, acronymKeys, acronymDisplays] = TEXT_LISTS.map((name) =>
      textList(get<Uint8Array>(`text.${name}`), get<Int32Array>(`text.${name}.start`)),
    ) as [string[], string[], string[], string[]];
    const vocabulary = new Map<string, number>();
    for (let v = 0; v < vocabKeys.length; v++) vocabulary.set(vocabKeys[v] as string, v);
    const sets = header.countrySets.map((codes) => new Set(codes));
    const entryCountrySet = get<Int32Array>("entryCountrySet");
    const entryCountries = Array.from(entryCountrySet, (id) => sets[id] as Set<string>);
    const acronymStart = get<Int32Array>("acronymStart");
    const acronymName = get<Int32Array>("acronymName");
    const acronyms = new Map<string, Array<{ name: number; display: string }>>();
    acronymKeys.forEach((acronym, a) => {
      const names: Array<{ name: number; display: string }> = [];
      for (let i = acronymStart[a] as number; i < (acronymStart[a + 1] as number); i++)
        names.push({ name: acronymName[i] as number, display: acronymDisplays[i] as string });
      acronyms.set(acronym, names);
    });
    const entries = new PackedEntries(get<Uint8Array>("entryBlob"), get<Int32Array>("entryStart"));
    if (entries.length !== header.stats.entries) return undefined;
    const nameFields: NameField[] = header.nameFields.map(({ key, kind }, f) => ({
      key,
      kind,
      start: get<Int32Array>(`nameField.${f}.start`),
      ids: get<Int32Array>(`nameField.${f}.ids`),
      nums: get<Float64Array>(`nameField.${f}.nums`),
    }));
    return {
      entries,
      stats: header.stats,
      strings,
      nameFields,
      ...fields,
      vocabulary,
      vocabKeys,
      deletions: { packed: get("deletions.packed"), directory: get("deletions.directory") },
      phonetic: { packed: get("phonetic.packed"), directory: get("phonetic.directory") },
      entryCountries,
      acronyms,
      scratch: makeScratch(fields.uniformNames.length, vocabKeys.length),
    };
  } catch {
    return undefined;
  }
}
