// The shape of a built screening index: its typed arrays, the names packed in them and read back
// for scoring (nameAt, refsOf), and the per-query working memory it carries.

import type { HashMultimap } from "./hash-keys";
import type { PreparedName } from "./score";
import type { ListEntry } from "./types";

/** Build statistics, for logs and the benchmark. */
export interface IndexStats {
  entries: number;
  /** Distinct normalised names and aliases indexed. */
  names: number;
  /** Distinct comparison keys, including joined-pair keys. */
  vocabulary: number;
  postings: number;
  blockingKeys: number;
  buildMs: number;
}

/** The entries of an index by position: an array, or read from a packed index on demand. */
export interface EntryStore {
  readonly length: number;
  at(index: number): ListEntry | undefined;
}

/** In-memory screening index built from list entries; immutable once built. */
export interface ScreeningIndex {
  readonly entries: EntryStore;
  readonly stats: IndexStats;
  /**
   * @internal Names packed in typed arrays (see nameAt): each field of PreparedName as the build's
   * prepareTokens gave it, by name: string lists as ids into `strings`, number lists and numbers as
   * doubles, name n's items at start[n] .. start[n + 1]. The entries owning name n are refs
   * refStart[n] .. refStart[n + 1], each an entry and the display string the list wrote.
   */
  readonly strings: readonly string[];
  readonly nameFields: readonly NameField[];
  /** Sum of each name's word weights (PreparedName.total), for the bound before it is prepared. */
  readonly nameTotal: Float64Array;
  readonly refStart: Int32Array;
  readonly refEntry: Int32Array;
  readonly refDisplay: Int32Array;
  /** Names of vessels and aircraft, scored with uniform word weights. */
  readonly uniformNames: Uint8Array;
  readonly vocabulary: ReadonlyMap<string, number>;
  readonly vocabKeys: readonly string[];
  readonly postingStart: Int32Array;
  readonly postingName: Int32Array;
  readonly postingWeight: Float32Array;
  /** Position of the posted word in its name (first word of a joined pair), capped at 31. */
  readonly postingWord: Uint8Array;
  readonly deletions: HashMultimap;
  readonly phonetic: HashMultimap;
  readonly entryCountries: ReadonlyArray<ReadonlySet<string>>;
  /** Initials of names of three or more words ("irisl") -> those names' ids. */
  readonly acronyms: ReadonlyMap<string, ReadonlyArray<{ name: number; display: string }>>;
  readonly scratch: Scratch;
}

export interface Scratch {
  query: number;
  unit: number;
  /**
   * Per name, NAME_INTS ints side by side (one cache line for the posting loop, which reads names
   * in no order): the query stamp, the unit stamp, the bit set of the name's words hit by the current
   * blocking unit, and the bit set of the query's possibly-missed words (mayEscapeBlocking) that did
   * reach the name.
   */
  nameInts: Int32Array;
  /**
   * Per name, NAME_FLOATS doubles side by side: the current unit's best similarity and heaviest
   * word, the matched weight blocking saw (the bound's numerator counts it on both sides), and the
   * query's and the name's weight hit.
   */
  nameFloats: Float64Array;
  vocabStamp: Int32Array;
  addressCache: Map<number, Set<string>>;
  /** Names prepared for scoring lately (see nameAt): a direct-mapped cache by name id. */
  nameTags: Int32Array;
  nameSlots: Array<PreparedName | undefined>;
}

/** One field of the prepared names, packed (see ScreeningIndex.nameFields). */
export interface NameField {
  key: string;
  kind: "strings" | "numbers" | "number";
  /** Where each name's items start (strings and numbers), names + 1 entries; empty for "number". */
  start: Int32Array;
  /** String ids ("strings"), else empty. */
  ids: Int32Array;
  /** The numbers ("numbers": items, "number": one per name), else empty. */
  nums: Float64Array;
}
const NAME_CACHE_SIZE = 8192;
// Layout of Scratch.nameInts and nameFloats.
export const NAME_INTS = 4;
export const QUERY_STAMP = 0;
export const UNIT_STAMP = 1;
export const UNIT_WORDS = 2;
export const LOST_SEEN = 3;
export const NAME_FLOATS = 8;
export const UNIT_SIM = 0;
export const UNIT_WEIGHT = 1;
export const MATCHED = 2;
export const HIT_QUERY = 3;
export const HIT_CANDIDATE = 4;

/**
 * Indexed name n prepared for scoring, exactly as the build prepared it (every field prepareTokens
 * gave, read back from the packed fields), kept in a small cache: the index holds no object per name.
 */
export function nameAt(index: ScreeningIndex, n: number): PreparedName {
  const s = index.scratch;
  const slot = n & (NAME_CACHE_SIZE - 1);
  if (s.nameTags[slot] === n + 1) return s.nameSlots[slot] as PreparedName;
  const prepared: Record<string, unknown> = {};
  for (const field of index.nameFields) {
    if (field.kind === "number") {
      prepared[field.key] = field.nums[n];
      continue;
    }
    const from = field.start[n] as number;
    const items = new Array((field.start[n + 1] as number) - from);
    if (field.kind === "strings")
      for (let i = 0; i < items.length; i++) items[i] = index.strings[field.ids[from + i] as number];
    else for (let i = 0; i < items.length; i++) items[i] = field.nums[from + i];
    prepared[field.key] = items;
  }
  s.nameTags[slot] = n + 1;
  s.nameSlots[slot] = prepared as unknown as PreparedName;
  return prepared as unknown as PreparedName;
}

/** The entries owning indexed name n, each with the spelling its list wrote. */
export function refsOf(index: ScreeningIndex, n: number): Array<{ entry: number; display: string }> {
  const out: Array<{ entry: number; display: string }> = [];
  const end = index.refStart[n + 1] as number;
  for (let r = index.refStart[n] as number; r < end; r++)
    out.push({
      entry: index.refEntry[r] as number,
      display: index.strings[index.refDisplay[r] as number] as string,
    });
  return out;
}

/** Fresh per-query working memory for an index of these sizes. */
export function makeScratch(nameCount: number, vocabCount: number): Scratch {
  return {
    query: 0,
    unit: 0,
    nameInts: new Int32Array(nameCount * NAME_INTS),
    nameFloats: new Float64Array(nameCount * NAME_FLOATS),
    vocabStamp: new Int32Array(vocabCount),
    addressCache: new Map(),
    nameTags: new Int32Array(NAME_CACHE_SIZE),
    nameSlots: new Array(NAME_CACHE_SIZE),
  };
}
