// Query words blocking may have missed (more slips than the deletion keys reach): their best
// similarity to a name's words, compared only for names the pruning bound would otherwise drop.

import { OPTIMISM } from "./blocking";
import { type NameField, nameAt, type ScreeningIndex } from "./index-model";
import {
  abbreviationSimilarity,
  editBudget,
  joinedBudgetFor,
  joinedOutOfReach,
  mayBeShortForm,
  type PreparedName,
  pairSimilarity,
  shortFormSimilarity,
  wordSimilarity,
} from "./score";
import { letterSet, typingDistanceAtLeast } from "./similarity";

export interface LostWord {
  weight: number;
  /** How many times the query has the word. */
  count: number;
  key: string;
  text: string;
  /** letterSet of `key` and `text`, for the cheap test before a comparison (see mayBeClose). */
  keySet: number;
  textSet: number;
  /** mayBeShortForm of `text`: whether it may stand for a longer list word. */
  mayShorten: boolean;
  /**
   * Similarities to list words by vocabulary id (NaN: not compared yet), kept across queries for the
   * last LOST_SLOTS lost words; undefined past those, which use `sims` and `pairSims` instead.
   */
  slot: LostSlot | undefined;
  /** Similarity to list words already compared, by list word (lost words without a slot). */
  sims: Map<string, number>;
  /** Similarity to list word pairs joined, by the pair's key (lost words without a slot). */
  pairSims: Map<string, number>;
}

/**
 * The words of each indexed name as vocabulary ids in flat arrays, for the lost-word check that
 * reads thousands of names per query: typed arrays instead of each name's arrays of strings.
 * Derived from the index (names and vocabulary) on first use and kept beside it.
 */
export interface NameWordIds {
  /** Where each name's words start in `text`/`key` (names + 1 entries). */
  start: Int32Array;
  text: Int32Array;
  key: Int32Array;
  textLength: Uint16Array;
  keyLength: Uint16Array;
  /** Where each name's joined pairs start in `pair` (names + 1 entries). */
  pairStart: Int32Array;
  /** Vocabulary id of the pair's key, -1 when the pair is not in the vocabulary (long, or with a digit). */
  pair: Int32Array;
  /** Lengths of the pair's key and spelling: most pairs are out of a lost word's reach by these alone. */
  pairKeyLength: Int32Array;
  pairTextLength: Int32Array;
  /**
   * The same words as ids into index.strings (the packed fields' own ids): what nameAt would read
   * back for them, so a comparison the memos don't hold yet needs no name rebuilt.
   */
  textString: Int32Array;
  keyString: Int32Array;
  pairKeyString: Int32Array;
  pairTextString: Int32Array;
  /** letterSet of each word's text and key, and of each pair's key and spelling. */
  textSet: Int32Array;
  keySet: Int32Array;
  pairKeySet: Int32Array;
  pairTextSet: Int32Array;
  /** 1 where the word's text may be a short form (mayBeShortForm) of a longer word. */
  shortShape: Uint8Array;
}

const nameWordIdStore = new WeakMap<ScreeningIndex, NameWordIds>();

export function nameWordIds(index: ScreeningIndex): NameWordIds {
  const known = nameWordIdStore.get(index);
  if (known !== undefined) return known;
  // An index of no entries packs no fields: no name has words.
  if (index.nameTotal.length === 0) {
    const none: NameWordIds = {
      start: new Int32Array(1),
      text: new Int32Array(0),
      key: new Int32Array(0),
      textLength: new Uint16Array(0),
      keyLength: new Uint16Array(0),
      pairStart: new Int32Array(1),
      pair: new Int32Array(0),
      pairKeyLength: new Int32Array(0),
      pairTextLength: new Int32Array(0),
      textString: new Int32Array(0),
      keyString: new Int32Array(0),
      pairKeyString: new Int32Array(0),
      pairTextString: new Int32Array(0),
      textSet: new Int32Array(0),
      keySet: new Int32Array(0),
      pairKeySet: new Int32Array(0),
      pairTextSet: new Int32Array(0),
      shortShape: new Uint8Array(0),
    };
    nameWordIdStore.set(index, none);
    return none;
  }
  // Read straight from the packed fields (see packNames): no name is rebuilt for this.
  const { vocabulary, strings } = index;
  const field = (key: string): NameField => {
    const found = index.nameFields.find((f) => f.key === key);
    if (found === undefined) throw new Error(`screening index: no packed field ${key}`);
    return found;
  };
  const texts = field("texts");
  const keys = field("keys");
  const pairKeys = field("pairKeys");
  const pairTexts = field("pairTexts");
  const nameCount = index.nameTotal.length;
  const words = texts.ids.length;
  const pairs = pairKeys.ids.length;
  const ids: NameWordIds = {
    start: Int32Array.from(texts.start),
    text: new Int32Array(words),
    key: new Int32Array(words),
    textLength: new Uint16Array(words),
    keyLength: new Uint16Array(words),
    pairStart: Int32Array.from(pairKeys.start),
    pair: new Int32Array(pairs),
    pairKeyLength: new Int32Array(pairs),
    pairTextLength: new Int32Array(pairs),
    textString: Int32Array.from(texts.ids),
    keyString: Int32Array.from(keys.ids),
    pairKeyString: Int32Array.from(pairKeys.ids),
    pairTextString: Int32Array.from(pairTexts.ids),
    textSet: new Int32Array(words),
    keySet: new Int32Array(words),
    pairKeySet: new Int32Array(pairs),
    pairTextSet: new Int32Array(pairs),
    shortShape: new Uint8Array(words),
  };
  if (nameCount > 0 && (keys.ids.length !== words || texts.start.length !== nameCount + 1))
    throw new Error("screening index: a name's texts and keys differ in number");
  for (let n = 0; n <= nameCount; n++) {
    if (keys.start[n] !== texts.start[n] || pairTexts.start[n] !== pairKeys.start[n])
      throw new Error("screening index: a name's words or pairs differ in number between fields");
  }
  for (let w = 0; w < words; w++) {
    const text = strings[texts.ids[w] as number] as string;
    const key = strings[keys.ids[w] as number] as string;
    // Every text and key of a name is a vocabulary key (see buildIndex's postings).
    ids.text[w] = vocabulary.get(text) ?? -1;
    ids.key[w] = vocabulary.get(key) ?? -1;
    ids.textLength[w] = Math.min(text.length, 0xffff);
    ids.keyLength[w] = Math.min(key.length, 0xffff);
    ids.textSet[w] = letterSet(text);
    ids.keySet[w] = letterSet(key);
    ids.shortShape[w] = mayBeShortForm(text) ? 1 : 0;
  }
  for (let p = 0; p < pairs; p++) {
    const pairKey = strings[pairKeys.ids[p] as number] as string;
    ids.pair[p] = vocabulary.get(pairKey) ?? -1;
    const pairText = strings[pairTexts.ids[p] as number] as string;
    ids.pairKeyLength[p] = pairKey.length;
    ids.pairTextLength[p] = pairText.length;
    ids.pairKeySet[p] = letterSet(pairKey);
    ids.pairTextSet[p] = letterSet(pairText);
  }
  nameWordIdStore.set(index, ids);
  return ids;
}

/**
 * Similarity arrays of one lost word, by vocabulary id: a memo of pure functions of the two words'
 * spellings, like wordMemos, kept while the word is among the last LOST_SLOTS lost words (a batch
 * repeats them: "Lindqvist Logistics AB", "Lindqvist Timber"), cleared entry by entry when reused.
 */
interface LostSlot {
  word: Float64Array;
  pair: Float64Array;
  /** Ids set since the slot was taken, to clear. */
  setWords: number[];
  setPairs: number[];
  /** The lost word (key and spelling) the slot holds. */
  owner: string;
  /** The query (Scratch.query) that used it last. */
  used: number;
}

/** Lost words with typed memos (each ~1.3 MB; further words of a query use the string maps). */
const LOST_SLOTS = 8;
/** The string memos of a lost word that has a slot: never read. */
export const NO_MEMO: Map<string, number> = new Map();
const lostSlotStore = new WeakMap<ScreeningIndex, LostSlot[]>();

/** The slot holding this lost word's similarities, else the least recently used one not used by this query. */
export function lostSlotFor(index: ScreeningIndex, owner: string, query: number): LostSlot | undefined {
  let slots = lostSlotStore.get(index);
  if (slots === undefined) {
    slots = [];
    lostSlotStore.set(index, slots);
  }
  for (const slot of slots) {
    if (slot.owner === owner) {
      slot.used = query;
      return slot;
    }
  }
  if (slots.length < LOST_SLOTS) {
    const size = index.vocabKeys.length;
    const slot: LostSlot = {
      word: new Float64Array(size).fill(Number.NaN),
      pair: new Float64Array(size).fill(Number.NaN),
      setWords: [],
      setPairs: [],
      owner,
      used: query,
    };
    slots.push(slot);
    return slot;
  }
  let victim: LostSlot | undefined;
  for (const slot of slots)
    if (slot.used !== query && (victim === undefined || slot.used < victim.used)) victim = slot;
  if (victim === undefined) return undefined;
  for (const v of victim.setWords) victim.word[v] = Number.NaN;
  for (const v of victim.setPairs) victim.pair[v] = Number.NaN;
  victim.setWords.length = 0;
  victim.setPairs.length = 0;
  victim.owner = owner;
  victim.used = query;
  return victim;
}

/**
 * Similarity of a possibly-missed query word to a list word, short forms and mistyped abbreviations
 * ("Sccs" for "svcs", i.e. "services") either way included, as exact scoring compares them.
 */
function lostPairSimilarity(
  lost: LostWord,
  text: string,
  key: string,
  close = true,
  shortShape = true,
): number {
  // Not `close`: neither spelling is within an edit budget of the lost word's, so they score 0.
  const sim = close ? wordSimilarity(lost.text, lost.key, text, key) : 0;
  // Short forms and abbreviations either way need a word shaped like one (mayBeShortForm).
  if (!lost.mayShorten && !shortShape) return sim;
  return Math.max(
    sim,
    shortFormSimilarity(lost.text, text),
    shortFormSimilarity(text, lost.text),
    abbreviationSimilarity(lost.text, text),
    abbreviationSimilarity(text, lost.text),
  );
}

/**
 * Whether two spellings may be within `budget` typing edits, by their letter sets and lengths alone
 * (typingDistanceAtLeast): most list words a lost word meets are not, and this needs no comparison.
 */
function mayBeClose(setA: number, setB: number, budget: number): boolean {
  return typingDistanceAtLeast(setA, setB) <= budget;
}

/** Best similarity of a possibly-missed query word to any word of a name, made optimistic as in blocking. */
export function lostWordSimilarity(
  lost: LostWord,
  index: ScreeningIndex,
  n: number,
  ids: NameWordIds,
): number {
  const slot = lost.slot;
  if (slot === undefined) return lostWordSimilarityOf(lost, nameAt(index, n));
  // A word not memoised yet is read from the string table, as nameAt would read it.
  const strings = index.strings;
  let best = 0;
  const textLength = lost.text.length;
  const keyLength = lost.key.length;
  const wordEnd = ids.start[n + 1] as number;
  for (let w = ids.start[n] as number; w < wordEnd; w++) {
    // No edit budget reaches across more than four letters, nor a short form the bound allows for.
    if (
      Math.abs((ids.textLength[w] as number) - textLength) > 4 &&
      Math.abs((ids.keyLength[w] as number) - keyLength) > 4
    )
      continue;
    const v = ids.text[w] as number;
    let sim = v >= 0 ? (slot.word[v] as number) : Number.NaN;
    if (Number.isNaN(sim)) {
      const text = strings[ids.textString[w] as number] as string;
      const key = strings[ids.keyString[w] as number] as string;
      // The spellings compare only when their letters leave them within an edit budget.
      const close =
        mayBeClose(lost.textSet, ids.textSet[w] as number, editBudget(Math.max(textLength, text.length))) ||
        mayBeClose(lost.keySet, ids.keySet[w] as number, editBudget(Math.max(keyLength, key.length)));
      sim = lostPairSimilarity(lost, text, key, close, ids.shortShape[w] === 1);
      if (v >= 0) {
        slot.word[v] = sim;
        slot.setWords.push(v);
      }
    }
    if (sim > best) best = sim;
  }
  const pairEnd = ids.pairStart[n + 1] as number;
  for (let p = ids.pairStart[n] as number; p < pairEnd; p++) {
    if (
      joinedOutOfReach(ids.pairKeyLength[p] as number, ids.pairTextLength[p] as number, keyLength, textLength)
    )
      continue;
    const pairKey = strings[ids.pairKeyString[p] as number] as string;
    const pairText = strings[ids.pairTextString[p] as number] as string;
    // The memo is by the pair's key: only a pair written as its key has no other spelling to compare.
    const v = ids.pairKeyString[p] === ids.pairTextString[p] ? (ids.pair[p] as number) : -1;
    let sim = v >= 0 ? (slot.pair[v] as number) : Number.NaN;
    if (Number.isNaN(sim)) {
      const close =
        mayBeClose(ids.pairKeySet[p] as number, lost.keySet, joinedBudgetFor(pairKey.length, keyLength)) ||
        mayBeClose(ids.pairTextSet[p] as number, lost.textSet, joinedBudgetFor(pairText.length, textLength));
      sim = close ? pairSimilarity(pairKey, pairText, lost.key, lost.text) : 0;
      if (v >= 0) {
        slot.pair[v] = sim;
        slot.setPairs.push(v);
      }
    }
    if (sim > best) best = sim;
  }
  return best === 0 || best === 1 ? best : Math.min(1, best + OPTIMISM);
}

/** lostWordSimilarity through the string maps only (lost words past LOST_SLOTS). */
function lostWordSimilarityOf(lost: LostWord, name: PreparedName): number {
  let best = 0;
  for (let j = 0; j < name.texts.length; j++) {
    const text = name.texts[j] as string;
    // No edit budget reaches across more than four letters, nor a short form the bound allows for.
    if (
      Math.abs(text.length - lost.text.length) > 4 &&
      Math.abs((name.keys[j] as string).length - lost.key.length) > 4
    )
      continue;
    let sim = lost.sims.get(text);
    if (sim === undefined) {
      sim = lostPairSimilarity(lost, text, name.keys[j] as string);
      lost.sims.set(text, sim);
    }
    if (sim > best) best = sim;
  }
  // The lost word may be two of the name's words run together ("Honnpgnag" for "Hong Pang").
  for (let j = 0; j < name.pairKeys.length; j++) {
    const pairKey = name.pairKeys[j] as string;
    const pairText = name.pairTexts[j] as string;
    if (joinedOutOfReach(pairKey.length, pairText.length, lost.key.length, lost.text.length)) continue;
    // By the pair's spelling (its key follows from it): the similarity compares both.
    let sim = lost.pairSims.get(pairText);
    if (sim === undefined) {
      sim = pairSimilarity(pairKey, pairText, lost.key, lost.text);
      lost.pairSims.set(pairText, sim);
    }
    if (sim > best) best = sim;
  }
  return best === 0 || best === 1 ? best : Math.min(1, best + OPTIMISM);
}
