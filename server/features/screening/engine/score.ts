import { ABBREVIATIONS, GENERIC_WORDS, INDUSTRY_WORDS } from "./lexicon";
import { normalizeName, tokenKey } from "./normalize";
import {
  boundedLevenshtein,
  jaroWinkler,
  letterSet,
  typingDistance,
  typingDistanceAtLeast,
} from "./similarity";
import type { NameToken } from "./types";

/** A name reduced to what the scorer needs, computed once per list name and once per query. */
export interface PreparedName {
  /** Normalised words (transliterated, abbreviations expanded). */
  texts: string[];
  /** Comparison keys of `texts` (spelling variants folded). */
  keys: string[];
  /** Words as written before abbreviation expansion ("tech" where `texts` has "technology"). */
  sources: string[];
  weights: number[];
  /** Sum of `weights`. */
  total: number;
  /** Key of words i and i + 1 written as one, for names joined on one side and split on the other. */
  pairKeys: string[];
  /** Words i and i + 1 as written, joined: folding can pull a typo away ("vladj mir" folds "dj" to "j"). */
  pairTexts: string[];
  /** What a comparison with word j reads of it (text, and source when it differs): memo keys. */
  memoKeys: string[];
}

/**
 * Prepares normalised tokens for scoring. `uniform` gives every word the same weight (numbers
 * excepted): vessel and aircraft names are arbitrary words, so "Liberty Travel Co." must not match
 * the tanker "LIBERTY" just because "travel" is a trade word.
 */
export function prepareTokens(tokens: readonly NameToken[], uniform = false): PreparedName {
  const texts = tokens.map((t) => t.text);
  const keys = tokens.map((t) => t.key);
  const sources = tokens.map((t) => t.source ?? t.text);
  const weights = tokens.map((t) => (uniform && t.kind !== "number" ? 1 : t.weight));
  const pairKeys: string[] = [];
  const pairTexts: string[] = [];
  // Keyed from the joined text, not the joined keys: folding rules see the word as one ("areel lano"
  // folds like "areellano", whose doubled letters collapse across the old boundary).
  // Abbreviations join as written: "Techn Omar" is "Technomar", not "Technologyomar".
  for (let i = 0; i + 1 < tokens.length; i++) {
    const joined = `${sources[i]}${sources[i + 1]}`;
    pairTexts.push(joined);
    pairKeys.push(tokenKey(joined));
  }
  let total = 0;
  for (const w of weights) total += w;
  // A word's key follows from its text; its source is read too when it differs.
  const memoKeys = texts.map((t, i) => (sources[i] === t ? t : `${t}\u0000${sources[i]}`));
  return { texts, keys, sources, weights, total, pairKeys, pairTexts, memoKeys };
}

/**
 * Edits tolerated inside one word of the given length: one edit in three or four letters, two up
 * to eight, then one more per four letters. Anything beyond the budget is simply a different word.
 */
export function editBudget(length: number): number {
  // MAX_EDIT_BUDGET below is the largest this returns.
  if (length <= 2) return 0;
  if (length <= 4) return 1;
  if (length <= 8) return 2;
  if (length <= 12) return 3;
  return 4;
}

/** The most edits editBudget allows any word: tokenSimilarity is 0 for lengths further apart. */
const MAX_EDIT_BUDGET = 4;
/** Letters a joined pair and a word need between them before joinedSimilarity compares them. */
const MIN_JOINED_LENGTH = 6;
/** Edits joinedSimilarity allows when the longer of the two has this many letters. */
function joinedBudget(longest: number): number {
  return longest >= 10 ? 2 : 1;
}

/** The typing edits joinedSimilarity allows between a joined pair and a word of these lengths. */
export function joinedBudgetFor(joinedLength: number, wordLength: number): number {
  const longest = Math.max(joinedLength, wordLength);
  return longest < MIN_JOINED_LENGTH ? 0 : joinedBudget(longest);
}

/**
 * Whether joinedSimilarity is 0 for a joined pair and a word of these lengths, whatever their letters:
 * further apart than its budget, or both too short for it and of different lengths (only the same
 * word compares there).
 */
function joinedTooFar(joinedLength: number, wordLength: number): boolean {
  const longest = Math.max(joinedLength, wordLength);
  if (longest < MIN_JOINED_LENGTH) return joinedLength !== wordLength;
  return Math.abs(joinedLength - wordLength) > joinedBudget(longest);
}

/**
 * Whether a joined pair and a word are out of joinedSimilarity's reach by their lengths alone, as
 * keys and as written: pairSimilarity is then 0 without comparing them (or reading their letters).
 */
export function joinedOutOfReach(
  pairKeyLength: number,
  pairTextLength: number,
  keyLength: number,
  textLength: number,
): boolean {
  return joinedTooFar(pairKeyLength, keyLength) && joinedTooFar(pairTextLength, textLength);
}

/** Whether a word has a digit: a char loop, cheaper than a regular expression on these short words. */
function hasDigit(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}
/** Whether two words of one length are the same letters in another order. */
function sameLetters(a: string, b: string): boolean {
  return a.length === b.length && [...a].sort().join("") === [...b].sort().join("");
}

/** Whether the shorter word is the longer one without its first letter ("leg"/"oleg"). */
function droppedInitial(a: string, b: string): boolean {
  // One way only: the screened word `a` lacks the list word's first letter ("Leg" for "Oleg"). A
  // screened word with a letter more in front is mostly another word: "Omega" / "Mega", "Lever" /
  // "Ever" (review of the session-5 merge: "Omega Group" failed on MEGA GROUP S.R.L.).
  return b.length === a.length + 1 && b.endsWith(a);
}
// A short word with a different first letter is more often another word than a typo ("ryan"/"iran").
const SHORT_INITIAL_PENALTY = 0.8;
/**
 * Calibration of partial word matches: a word with a typo or two is still mostly evidence of the
 * same word, so its similarity counts as sim^0.8 (0.67 -> 0.73, 0.9 -> 0.92). Chosen on the
 * evaluation set (scripts/eval-screening.ts): +1% recall for +0.2% false positives over linear.
 */
export const SIMILARITY_EXPONENT = 0.8;
// From this length the edit budget is counted in typingDistance, where slips cost half an edit.
const TYPING_BUDGET_MIN_LENGTH = 5;
// A word pair counts towards "contained name" evidence only when it is close to exact.
const STRONG_SIMILARITY = 0.9;

/**
 * Similarity of two comparison keys in [0, 1]: 1 - edits/length when the edit distance is within
 * the budget, otherwise 0; Jaro-Winkler may raise it where its assumptions hold (same first letter,
 * which typists rarely miss, and words long enough that its prefix bonus is not a lottery: it
 * rates "keli"/"keji" 0.87 and "iran"/"miran" 0.93). Slips of the finger (a neighbouring key, two
 * letters swapped) count half an edit (typingDistance). Numbers must match exactly.
 */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  const longest = Math.max(la, lb);
  const budget = editBudget(longest);
  if (budget === 0 || Math.abs(la - lb) > budget) return 0;
  if (hasDigit(a) || hasDigit(b)) return 0;
  // Words whose letters alone put them beyond the budget need no alignment (most words compared).
  if (typingDistanceAtLeast(letterSet(a), letterSet(b)) > budget) return 0;
  // Slips of the finger count half an edit (typingDistance), and never more than a real edit.
  const t = typingDistance(a, b, budget);
  if (t > budget) return 0;
  const d = boundedLevenshtein(a, b, budget);
  if (d > budget) {
    // So a word of five letters or more may carry one or two slips beyond its budget, as long as it
    // starts right: "esljboza" is three slips from "espinoza".
    if (longest < TYPING_BUDGET_MIN_LENGTH || a.charCodeAt(0) !== b.charCodeAt(0)) return 0;
    return 1 - t / longest;
  }
  const lev = 1 - d / longest;
  if (a.charCodeAt(0) !== b.charCodeAt(0)) {
    // A first letter left out, the rest as written, is a dropped letter like any other ("Leg" for
    // "Oleg", "Erra" for "Terra"), not another word that happens to share letters ("Ryan"/"Iran").
    if (longest > 5 || droppedInitial(a, b)) return lev;
    return lev * SHORT_INITIAL_PENALTY;
  }
  // Two edits in a short word earn Jaro-Winkler's optimism only as swaps or substitutions in six
  // letters ("fharad"/"farhad"): not as a truncation ("roac"/"roshak"), not in five ("marsh"/"marks"),
  // and not as two plain wrong letters, with no slip of the finger among them ("kompas"/"kompel"),
  // unless they are the same letters moved ("mrvael"/"marvel").
  if (longest < 5 || (d > 1 && longest < 7 && (la !== lb || longest < 6 || (t >= d && !sameLetters(a, b))))) {
    // Without it, slips still count half, up to one edit's worth: "lynh"/"lynn" and "yieuf"/"yusuf"
    // (two slips) are typos, "singh"/"song" (a slip and a dropped letter) as likely another name.
    return t <= 1 ? 1 - t / longest : lev;
  }
  const jw = jaroWinkler(a, b);
  return Math.max(jw, lev);
}

// Full word -> its abbreviations ("management" -> "mgmt", "mgt"), for abbreviations typed with a typo.
const ABBREVIATIONS_OF = new Map<string, string[]>();
for (const [short, full] of ABBREVIATIONS) {
  if (full.includes(" ") || short.length < 3) continue;
  const list = ABBREVIATIONS_OF.get(full);
  if (list === undefined) ABBREVIATIONS_OF.set(full, [short]);
  else list.push(short);
}

// Abbreviations keep their consonants: a word with a vowel after its first letter is a word ("chen",
// "intel"), not a mistyped "chem" or "intl".
const ABBREVIATION_SHAPE = /^[a-z][^aeiouy0-9]{2,6}$/;

/**
 * Similarity of a word as written to a full word through the full word's usual abbreviations:
 * "Mgtm" and "Mhmt" are "Mgmt" mistyped, so they stand for "management"; "Intll" for "international".
 * Only for words shaped like abbreviations (ABBREVIATION_SHAPE), scored as a typo of the
 * abbreviation with the same first letter.
 */
export function abbreviationSimilarity(written: string, full: string): number {
  // The map first: few words have abbreviations, and a lookup is cheaper than the shape's test.
  const shorts = ABBREVIATIONS_OF.get(full);
  if (shorts === undefined || !ABBREVIATION_SHAPE.test(written)) return 0;
  let best = 0;
  for (const short of shorts) {
    if (short.charCodeAt(0) !== written.charCodeAt(0)) continue;
    const sim = tokenSimilarity(written, short);
    if (sim > best) best = sim;
  }
  return best;
}

/** Whether `short` is `long` with some letters left out. */
function isSubsequence(short: string, long: string): boolean {
  let i = 0;
  for (let j = 0; j < long.length && i < short.length; j++) if (short[i] === long[j]) i++;
  return i === short.length;
}

function consonants(word: string): number {
  let n = 0;
  for (let i = 0; i < word.length; i++) if (!"aeiouy".includes(word[i] as string)) n++;
  return n;
}

/** Similarity of a word written as a short form of another that the lexicon does not list. */
export const SHORT_FORM_SIMILARITY = 0.8;

// Prefixes of three letters or more of the trade words, at least half the word: the words that may
// be one of them cut short ("tra", "trad" for "trade"). A trade word itself is that word ("group",
// not "groups" cut short).
const TRADE_WORD_PREFIXES = new Set<string>();
for (const word of [...GENERIC_WORDS, ...INDUSTRY_WORDS]) {
  for (let n = Math.max(3, Math.ceil(word.length / 2)); n < word.length; n++)
    TRADE_WORD_PREFIXES.add(word.slice(0, n));
}
for (const word of [...GENERIC_WORDS, ...INDUSTRY_WORDS]) TRADE_WORD_PREFIXES.delete(word);

/**
 * Similarity of a word as written to a full word it shortens, the ways people shorten words the
 * abbreviation lexicon does not list: a contraction, the full word's first and last letters with
 * letters between left out, consonants kept ("Chg" for "Cheng", as "Bldg" and "Hldg" are made;
 * only words shaped like abbreviations, ABBREVIATION_SHAPE, keeping at least half the full word's
 * consonants), or a trade word cut short to at least half its length ("Tra" for "Trade").
 */
export function shortFormSimilarity(written: string, full: string): number {
  if (written.length < 3 || written.length >= full.length) return 0;
  if (
    TRADE_WORD_PREFIXES.has(written) &&
    full.startsWith(written) &&
    (GENERIC_WORDS.has(full) || INDUSTRY_WORDS.has(full))
  )
    return SHORT_FORM_SIMILARITY;
  if (written.length + 2 > full.length || !ABBREVIATION_SHAPE.test(written)) return 0;
  if (written[0] !== full[0] || written[written.length - 1] !== full[full.length - 1]) return 0;
  if (2 * written.length < consonants(full) || !isSubsequence(written, full)) return 0;
  return SHORT_FORM_SIMILARITY;
}

/** Whether a word may be a short form of a longer one (see shortFormSimilarity): blocking can't see those. */
export function mayBeShortForm(word: string): boolean {
  return TRADE_WORD_PREFIXES.has(word) || ABBREVIATION_SHAPE.test(word);
}

/**
 * Similarity of a word with two adjacent words written as one ("shenyang" / "shen"+"yang"): the
 * joined form must be (nearly) identical, one edit from six letters and two from ten, or any two
 * short words would pair up with some long one.
 */
export function joinedSimilarity(joined: string, word: string): number {
  if (joined === word) return 1;
  const longest = Math.max(joined.length, word.length);
  if (longest < MIN_JOINED_LENGTH) return 0;
  const budget = joinedBudget(longest);
  if (Math.abs(joined.length - word.length) > budget || hasDigit(joined) || hasDigit(word)) return 0;
  if (typingDistanceAtLeast(letterSet(joined), letterSet(word)) > budget) return 0;
  // Counted in typingDistance: "lomge vitu" is two slips from "longevity".
  const t = typingDistance(joined, word, budget);
  return t > budget ? 0 : 1 - t / longest;
}

/** Joined pair against one word: the better of comparing folded keys and spellings as written. */
export function pairSimilarity(pairKey: string, pairText: string, key: string, text: string): number {
  const byKey = joinedSimilarity(pairKey, key);
  if (byKey === 1 || (pairKey === pairText && key === text)) return byKey;
  return Math.max(byKey, joinedSimilarity(pairText, text));
}

// Reused across calls: scoring is single-threaded and hot.
let edgeSim = new Float64Array(256);
let edgeQ = new Int32Array(256);
let edgeQSpan = new Uint8Array(256);
let edgeC = new Int32Array(256);
let edgeCSpan = new Uint8Array(256);
let order = new Int32Array(256);
let usedQ = new Uint8Array(64);
let usedC = new Uint8Array(64);

function growEdges(size: number): void {
  if (size <= edgeSim.length) return;
  const n = size * 2;
  edgeSim = new Float64Array(n);
  edgeQ = new Int32Array(n);
  edgeQSpan = new Uint8Array(n);
  edgeC = new Int32Array(n);
  edgeCSpan = new Uint8Array(n);
  order = new Int32Array(n);
}

/**
 * Puts edges 0 .. count - 1 in `order`, highest similarity first and, on ties, the plain one-to-one
 * pairing before a joined one; edges that tie on both keep their order. A stable insertion sort: a
 * name has a few dozen edges, where Array.prototype.sort's calls of a comparator cost more than
 * the sort itself. (Any stable sort by these keys gives this same order.)
 */
function sortEdges(count: number): void {
  for (let k = 0; k < count; k++) {
    const sim = edgeSim[k] as number;
    const span = (edgeQSpan[k] as number) + (edgeCSpan[k] as number);
    let at = k;
    while (at > 0) {
      const before = order[at - 1] as number;
      const beforeSim = edgeSim[before] as number;
      const beforeSpan = (edgeQSpan[before] as number) + (edgeCSpan[before] as number);
      if (beforeSim > sim || (beforeSim === sim && beforeSpan <= span)) break;
      order[at] = before;
      at--;
    }
    order[at] = k;
  }
}

/** Optional memo of word similarities for one query, keyed by query word index and candidate word. */
export type SimilarityMemo = Array<Map<string, number>>;

/**
 * Similarity of two words: the better of comparing their folded keys and their plain spellings,
 * because folding that unites transliterations can also pull a typo further away ("younes" folds
 * to "yunes", its typo "yoynes" to "yoines").
 */
export function wordSimilarity(textA: string, keyA: string, textB: string, keyB: string): number {
  const byKey = tokenSimilarity(keyA, keyB);
  if (byKey === 1 || (textA === keyA && textB === keyB)) return byKey;
  const byText = tokenSimilarity(textA, textB);
  return Math.max(byText, byKey);
}

/**
 * Share of an unmatched word's weight still counted against a name when the other name is fully
 * matched by at least two distinctive words, each (nearly) exactly: "Ayman al-Zawahiri" is wholly contained in
 * "AL-ZAWAHIRI, Ayman Muhammad Rabi", which is strong evidence even though the list name is longer.
 */
export const CONTAINED_NAME_DISCOUNT = 0.3;

/**
 * Scores two prepared names in [0, 1], independent of word order: words are aligned greedily by
 * similarity (a word may also align with two adjacent words written as one), then
 * score = (matched query weight + matched candidate weight) / (total weight of both), each matched
 * word's weight scaled by its similarity. Unmatched distinctive words on either side therefore cost
 * a lot and unmatched generic words little; see CONTAINED_NAME_DISCOUNT for the one exception.
 */
export function scorePrepared(
  q: PreparedName,
  c: PreparedName,
  memo?: SimilarityMemo,
  /** Per query word pair (i, i + 1) joined, its similarity by candidate word text. */
  pairMemo?: SimilarityMemo,
  /** Per query word, its similarity to candidate word pairs joined, by the pair's text. */
  joinedMemo?: SimilarityMemo,
): number {
  const m = q.keys.length;
  const n = c.keys.length;
  if (m === 0 || n === 0) return 0;
  growEdges(3 * m * n + 8);
  if (usedQ.length < m + 1) usedQ = new Uint8Array(m * 2 + 2);
  if (usedC.length < n + 1) usedC = new Uint8Array(n * 2 + 2);
  let count = 0;
  // Words with an exact partner, counted once each side (a repeated "al" must not count twice).
  let exactQ = 0;
  let exactC = 0;
  usedQ.fill(0, 0, m);
  usedC.fill(0, 0, n);
  for (let i = 0; i < m; i++) {
    const qk = q.keys[i] as string;
    const qt = q.texts[i] as string;
    const cache = memo?.[i];
    for (let j = 0; j < n; j++) {
      const ct = c.texts[j] as string;
      const ck = c.keys[j] as string;
      const qs = q.sources[i] as string;
      const cs = c.sources[j] as string;
      // Words further apart in length than any edit budget compare in a few steps (their spellings
      // score 0; only an abbreviation can pair them): cheaper than remembering the result.
      const isFar =
        Math.abs(qt.length - ct.length) > MAX_EDIT_BUDGET &&
        Math.abs(qk.length - ck.length) > MAX_EDIT_BUDGET &&
        Math.abs(qs.length - cs.length) > MAX_EDIT_BUDGET;
      const memoKey = c.memoKeys[j] as string;
      let s: number | undefined = isFar ? undefined : cache?.get(memoKey);
      if (s === undefined) {
        s = wordSimilarity(qt, qk, ct, ck);
        // An abbreviation with a typo ("Tch", "Phaarm") is only close to the abbreviation as written.
        if (s < 1 && (qs !== qt || cs !== ct)) {
          const bySource = tokenSimilarity(qs, cs);
          if (bySource > s) s = bySource;
        }
        // An abbreviation mistyped ("Mgtm") against the word spelled out ("management").
        if (s < 1) {
          const byAbbreviation = Math.max(abbreviationSimilarity(qs, ct), abbreviationSimilarity(cs, qt));
          if (byAbbreviation > s) s = byAbbreviation;
          // A word shortened the way the lexicon does not list ("Chg" for "Cheng", "Tra" for "Trade").
          if (s < SHORT_FORM_SIMILARITY) {
            const byShortForm = Math.max(shortFormSimilarity(qs, ct), shortFormSimilarity(cs, qt));
            if (byShortForm > s) s = byShortForm;
          }
        }
        if (!isFar) cache?.set(memoKey, s);
      }
      if (s <= 0) continue;
      if (s === 1) {
        if (usedQ[i] === 0) exactQ++;
        if (usedC[j] === 0) exactC++;
        usedQ[i] = 1;
        usedC[j] = 1;
      }
      edgeSim[count] = s;
      edgeQ[count] = i;
      edgeQSpan[count] = 1;
      edgeC[count] = j;
      edgeCSpan[count] = 1;
      count++;
    }
  }
  // Joined/split words only matter when some word is still without an exact partner.
  if ((exactQ < m || exactC < n) && (m > 1 || n > 1)) {
    for (let i = 0; i + 1 < m; i++) {
      const pk = q.pairKeys[i] as string;
      const pt = q.pairTexts[i] as string;
      const cache = pairMemo?.[i];
      for (let j = 0; j < n; j++) {
        // A candidate word's key follows from its text, so the text alone keys the memo.
        const ct = c.texts[j] as string;
        const ck = c.keys[j] as string;
        if (joinedOutOfReach(pk.length, pt.length, ck.length, ct.length)) continue;
        let s = cache?.get(ct);
        if (s === undefined) {
          s = pairSimilarity(pk, pt, ck, ct);
          cache?.set(ct, s);
        }
        if (s <= 0) continue;
        edgeSim[count] = s;
        edgeQ[count] = i;
        edgeQSpan[count] = 2;
        edgeC[count] = j;
        edgeCSpan[count] = 1;
        count++;
      }
    }
    for (let j = 0; j + 1 < n; j++) {
      const pk = c.pairKeys[j] as string;
      const pt = c.pairTexts[j] as string;
      // The joined pair's key follows from its text.
      for (let i = 0; i < m; i++) {
        const qk = q.keys[i] as string;
        const qt = q.texts[i] as string;
        if (joinedOutOfReach(pk.length, pt.length, qk.length, qt.length)) continue;
        const cache = joinedMemo?.[i];
        let s = cache?.get(pt);
        if (s === undefined) {
          s = pairSimilarity(pk, pt, qk, qt);
          cache?.set(pt, s);
        }
        if (s <= 0) continue;
        edgeSim[count] = s;
        edgeQ[count] = i;
        edgeQSpan[count] = 1;
        edgeC[count] = j;
        edgeCSpan[count] = 2;
        count++;
      }
    }
  }
  if (count === 0) return 0;
  sortEdges(count);
  usedQ.fill(0, 0, m);
  usedC.fill(0, 0, n);
  let matchedQ = 0;
  let matchedC = 0;
  let weightQ = 0;
  let weightC = 0;
  let usedCountQ = 0;
  let usedCountC = 0;
  let coreMatches = 0;
  let assigned = 0;
  const maxAssign = Math.min(m, n);
  for (let k = 0; k < count; k++) {
    const e = order[k] as number;
    const i = edgeQ[e];
    const j = edgeC[e];
    const qs = edgeQSpan[e];
    const cs = edgeCSpan[e];
    if (usedQ[i] === 1 || (qs === 2 && usedQ[i + 1] === 1)) continue;
    if (usedC[j] === 1 || (cs === 2 && usedC[j + 1] === 1)) continue;
    const s = edgeSim[e] === 1 ? 1 : edgeSim[e] ** SIMILARITY_EXPONENT;
    // A one-to-one pair weighs the same on both sides, as much as its more telling word: a
    // distinctive word that only resembles a trade word ("sanders"/"tankers") must not be half-counted.
    const pairWeight = qs === 1 && cs === 1 ? Math.max(q.weights[i] as number, c.weights[j] as number) : -1;
    for (let x = i; x < i + qs; x++) {
      const w = pairWeight >= 0 ? pairWeight : (q.weights[x] as number);
      usedQ[x] = 1;
      matchedQ += s * w;
      weightQ += w;
      if (w >= 1 && s >= STRONG_SIMILARITY) coreMatches++;
    }
    for (let y = j; y < j + cs; y++) {
      const w = pairWeight >= 0 ? pairWeight : (c.weights[y] as number);
      usedC[y] = 1;
      matchedC += s * w;
      weightC += w;
    }
    usedCountQ += qs;
    usedCountC += cs;
    if (++assigned >= maxAssign && qs === 1 && cs === 1) break;
  }
  let unmatchedQ = 0;
  for (let x = 0; x < m; x++) if (usedQ[x] === 0) unmatchedQ += q.weights[x] as number;
  let unmatchedC = 0;
  for (let y = 0; y < n; y++) if (usedC[y] === 0) unmatchedC += c.weights[y] as number;
  if (coreMatches >= 2) {
    if (usedCountQ === m) unmatchedC *= CONTAINED_NAME_DISCOUNT;
    else if (usedCountC === n) unmatchedQ *= CONTAINED_NAME_DISCOUNT;
  }
  const score = (matchedQ + matchedC) / (weightQ + weightC + unmatchedQ + unmatchedC);
  return Math.min(score, 1);
}

/** Scores two normalised token lists in [0, 1]. */
export function scoreTokens(query: readonly NameToken[], candidate: readonly NameToken[]): number {
  return scorePrepared(prepareTokens(query), prepareTokens(candidate));
}

/** Scores two raw names in [0, 1]; an empty name on either side scores 0. */
export function scoreNames(query: string, candidate: string): number {
  return scoreTokens(normalizeName(query).tokens, normalizeName(candidate).tokens);
}
