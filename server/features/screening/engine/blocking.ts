// Blocking: which list words each word of a query reaches through the index's exact, deletion,
// phonetic and prefix keys, with an optimistic similarity, memoised per index across queries.

import { forEachDeletionHash, HAS_DIGIT, lookupHash, lookupMultimap } from "./hash-keys";
import type { ScreeningIndex } from "./index-model";
import { phoneticKey } from "./normalize";
import { editBudget, joinedSimilarity, type PreparedName, tokenSimilarity } from "./score";

export const OPTIMISM = 0.1;

export interface BlockingUnit {
  /** Strings looked up: a word's key and plain spelling, or a joined pair's key and spelling. */
  lookups: string[];
  weight: number;
  /** How many times the query contains it. */
  count: number;
  isPair: boolean;
}

export function blockingUnits(q: PreparedName): BlockingUnit[] {
  const byKey = new Map<string, BlockingUnit>();
  const add = (key: string, lookups: string[], weight: number, isPair: boolean): void => {
    const id = `${isPair ? "pair" : "word"}:${key}`;
    const existing = byKey.get(id);
    if (existing !== undefined) {
      existing.count++;
      for (const l of lookups) if (!existing.lookups.includes(l)) existing.lookups.push(l);
      return;
    }
    byKey.set(id, { lookups: [...new Set(lookups)], weight, count: 1, isPair });
  };
  for (let i = 0; i < q.keys.length; i++) {
    const key = q.keys[i] as string;
    add(key, [key, q.texts[i] as string], q.weights[i] as number, false);
  }
  for (let i = 0; i < q.pairKeys.length; i++) {
    const key = q.pairKeys[i] as string;
    add(key, [key, q.pairTexts[i] as string], (q.weights[i] as number) + (q.weights[i + 1] as number), true);
  }
  return [...byKey.values()];
}

/**
 * Word similarities remembered across queries: at most WORD_MEMO_LIMIT entries in the current
 * generation and as many in the previous one. (Heap after 8,000 list-name queries: +37 MB with the
 * lost-word slots, against +12 MB with one generation of 60,000 and per-query slots.)
 */
const WORD_MEMO_LIMIT = 150_000;

export interface WordMemos {
  /** The memo of one query word (by its spellings), from list word to similarity. */
  memoFor(queryWord: string): Map<string, number>;
  /** Counts what the last query added, and starts a new generation once over the limit. */
  settle(): void;
}

const wordMemoStore = new WeakMap<ScreeningIndex, WordMemos>();

/**
 * Similarities of a query word to list words, kept across queries: they are pure functions of the
 * two words' spellings (the memo keys carry every spelling the comparison reads), so sharing them
 * changes no score, only the time a batch of names with common words takes. Kept in two
 * generations: when the current one is full it becomes the previous one, and a query word's memo
 * used again moves back into the current one, so the words most queries share ("al", "trading",
 * "muhammad") are not thrown away with the rest.
 */
export function wordMemos(index: ScreeningIndex): WordMemos {
  const known = wordMemoStore.get(index);
  if (known !== undefined) return known;
  let maps = new Map<string, Map<string, number>>();
  let previous = new Map<string, Map<string, number>>();
  let settled = 0;
  const used: Array<[Map<string, number>, number]> = [];
  const memos: WordMemos = {
    memoFor(queryWord) {
      let map = maps.get(queryWord);
      if (map === undefined) {
        map = previous.get(queryWord);
        if (map !== undefined) {
          previous.delete(queryWord);
          settled += map.size;
        } else map = new Map();
        maps.set(queryWord, map);
      }
      used.push([map, map.size]);
      return map;
    },
    settle() {
      for (const [map, before] of used) settled += map.size - before;
      used.length = 0;
      if (settled + maps.size > WORD_MEMO_LIMIT) {
        previous = maps;
        maps = new Map();
        settled = 0;
      }
    },
  };
  wordMemoStore.set(index, memos);
  return memos;
}

/** The list words a blocking unit reaches, with their (optimistic) similarity; see unitCandidates. */
export interface UnitCandidates {
  vocab: Int32Array;
  sims: Float64Array;
  exactHit: boolean;
  /** Whether some list word it reaches is at least FOUND_SIMILARITY alike (see mayEscapeBlocking). */
  closeHit: boolean;
}

/**
 * A word this alike to a list word blocking reached is taken as that word with a slip or two: it is
 * not also sought, as a word blocking may have missed, among the words of every name touched.
 */
export const FOUND_SIMILARITY = 0.85;

/**
 * Blocking units remembered per index, so a word many queries share is looked up once: up to
 * UNIT_MEMO_LIMIT in the current generation and as many in the previous one (see wordMemos).
 */
const UNIT_MEMO_LIMIT = 2_000;
const unitMemos = new WeakMap<
  ScreeningIndex,
  { current: Map<string, UnitCandidates>; previous: Map<string, UnitCandidates> }
>();

/**
 * The vocabulary entries a blocking unit reaches through exact, deletion and phonetic keys, each
 * with the unit's best similarity to it. A pure function of the unit's lookups and the (immutable)
 * index, so it is memoised per index: the words of a batch ("trading", "company", "al") recur.
 */
export function unitCandidates(index: ScreeningIndex, unit: BlockingUnit): UnitCandidates {
  let memo = unitMemos.get(index);
  if (memo === undefined) {
    memo = { current: new Map(), previous: new Map() };
    unitMemos.set(index, memo);
  }
  const memoKey = `${unit.isPair ? "p" : "w"}\u0000${unit.lookups.join("\u0000")}`;
  const known = memo.current.get(memoKey) ?? memo.previous.get(memoKey);
  if (known !== undefined) {
    if (memo.current.get(memoKey) === undefined) rememberUnit(memo, memoKey, known);
    return known;
  }
  const s = index.scratch;
  s.unit++;
  const stamp = s.unit;
  const candidates: number[] = [];
  const addVocab = (v: number): void => {
    if (s.vocabStamp[v] === stamp) return;
    s.vocabStamp[v] = stamp;
    candidates.push(v);
  };
  for (const key of unit.lookups) {
    const exact = index.vocabulary.get(key);
    if (exact !== undefined) addVocab(exact);
    if (key.length >= 4 && !HAS_DIGIT.test(key)) {
      forEachDeletionHash(key, !unit.isPair, (hash) => lookupHash(index.deletions, hash, addVocab));
      if (key.length >= 5) lookupMultimap(index.phonetic, phoneticKey(key), addVocab);
    }
  }
  const vocab: number[] = [];
  const sims: number[] = [];
  let exactHit = false;
  let closeHit = false;
  const compare = (from: number): void => {
    for (let c = from; c < candidates.length; c++) {
      const v = candidates[c] as number;
      const vocabKey = index.vocabKeys[v] as string;
      let best = 0;
      for (const key of unit.lookups) {
        const sim = unit.isPair ? joinedSimilarity(key, vocabKey) : tokenSimilarity(key, vocabKey);
        if (sim > best) best = sim;
      }
      if (best === 1) exactHit = true;
      if (best >= FOUND_SIMILARITY) closeHit = true;
      if (best <= 0) continue;
      vocab.push(v);
      // Exact scoring may rate a pair higher (plain spellings, abbreviations, calibration): stay optimistic.
      sims.push(best === 1 ? best : Math.min(1, best + OPTIMISM));
    }
  };
  compare(0);
  // Nothing within reach of the deletion and phonetic keys: the word may carry more slips than they reach.
  if (vocab.length === 0 && !unit.isPair) {
    const from = candidates.length;
    addSamePrefix(index, unit, addVocab);
    compare(from);
  }
  const result = { vocab: Int32Array.from(vocab), sims: Float64Array.from(sims), exactHit, closeHit };
  rememberUnit(memo, memoKey, result);
  return result;
}

function rememberUnit(
  memo: { current: Map<string, UnitCandidates>; previous: Map<string, UnitCandidates> },
  key: string,
  candidates: UnitCandidates,
): void {
  if (memo.current.size >= UNIT_MEMO_LIMIT) {
    memo.previous = memo.current;
    memo.current = new Map();
  }
  memo.current.set(key, candidates);
}

/** Letters a word's prefix bucket is keyed by (see addSamePrefix). */
const PREFIX_LETTERS = 3;
const prefixStore = new WeakMap<ScreeningIndex, Map<string, Int32Array>>();

/** Vocabulary ids of five letters or more by their first PREFIX_LETTERS letters, built on first use. */
function prefixBuckets(index: ScreeningIndex): Map<string, Int32Array> {
  const known = prefixStore.get(index);
  if (known !== undefined) return known;
  const lists = new Map<string, number[]>();
  index.vocabKeys.forEach((key, v) => {
    if (key.length < 5 || HAS_DIGIT.test(key)) return;
    const prefix = key.slice(0, PREFIX_LETTERS);
    const list = lists.get(prefix);
    if (list === undefined) lists.set(prefix, [v]);
    else list.push(v);
  });
  const buckets = new Map<string, Int32Array>();
  for (const [prefix, ids] of lists) buckets.set(prefix, Int32Array.from(ids));
  prefixStore.set(index, buckets);
  return buckets;
}

/**
 * A word of five letters or more that is not on the lists as written may carry more slips than its
 * deletion keys reach ("Armmqkit" for "Armalit": two neighbouring keys and a doubled one), and a
 * name it alone could match is then touched by no other word. List words that start with the same
 * three letters (typists rarely miss first letters) and are within the edit budget of its length
 * are compared too.
 */
function addSamePrefix(index: ScreeningIndex, unit: BlockingUnit, add: (v: number) => void): void {
  for (const key of unit.lookups) if (index.vocabulary.has(key)) return;
  for (const key of unit.lookups) {
    if (key.length < 5 || HAS_DIGIT.test(key)) continue;
    const bucket = prefixBuckets(index).get(key.slice(0, PREFIX_LETTERS));
    if (bucket === undefined) continue;
    for (let b = 0; b < bucket.length; b++) {
      const v = bucket[b] as number;
      const length = (index.vocabKeys[v] as string).length;
      if (Math.abs(length - key.length) <= editBudget(Math.max(length, key.length))) add(v);
    }
  }
}

/**
 * Whether a query word could pair with a list word its deletion keys do not reach: from five letters
 * the budget exceeds what the index holds (two edits in five to seven letters, where one deletion is
 * indexed; three from nine) and slips count half an edit, so a word may carry more of them.
 */
export function mayEscapeBlocking(unit: BlockingUnit): boolean {
  for (const key of unit.lookups) if (key.length >= 5) return true;
  return false;
}
