import { toCountryCode } from "./countries";
import {
  ABBREVIATIONS,
  ANYWHERE_LEGAL_FORMS,
  EDGE_LEGAL_FORMS,
  GENERIC_WORDS,
  INDUSTRY_WORDS,
  LEADING_LEGAL_FORMS,
  MULTI_WORD_LEGAL_FORMS,
  PARTICLES,
  STOP_WORDS,
} from "./lexicon";
import { listNameKeys } from "./list-name-memo";
import { guardedScore } from "./match-guards";
import { addressWords, normalizeName, phoneticKey, tokenKey, wordsOf } from "./normalize";
import { personFormHits } from "./person-names";
import { mayHaveReadings, queryReadings } from "./query-readings";
import {
  CONTAINED_NAME_DISCOUNT,
  editBudget,
  joinedOutOfReach,
  joinedSimilarity,
  mayBeShortForm,
  type PreparedName,
  pairSimilarity,
  prepareTokens,
  type SimilarityMemo,
  scorePrepared,
  shortFormSimilarity,
  tokenSimilarity,
  wordSimilarity,
} from "./score";
import type { ListEntry, NameToken, ScreenMatch, ScreenOptions, ScreenQuery, ScreenResult } from "./types";

/** Default score at or above which a screening fails. */
export const DEFAULT_THRESHOLD = 0.85;
/** Added when the query country is one of the entry's countries: supporting evidence only. */
export const COUNTRY_BONUS = 0.03;
/** Added when the query address shares distinctive words with one of the entry's addresses. */
export const ADDRESS_BONUS = 0.02;
// Country and address only lift a name that already resembles the entry.
const BONUS_MIN_NAME_SCORE = 0.5;
// Joined-word blocking keys are only built for short pairs: people join "Shen Yang", not long words.
const MAX_PAIR_KEY_LENGTH = 16;
const ID_BITS = 2 ** 21;
const OPTIMISM = 0.1;

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

/** Sorted (hash, id) pairs packed in doubles: a compact multimap from a 32-bit key hash to ids. */
interface HashMultimap {
  packed: Float64Array;
  /**
   * Where the pairs of each top-16-bit hash prefix start (65,537 entries): a lookup searches one
   * bucket of a few dozen pairs instead of the whole array, whose top levels miss the cache.
   */
  directory: Int32Array;
}

const DIRECTORY_SHIFT = 16;

/** In-memory screening index built from list entries; immutable once built. */
/** The entries of an index by position: an array, or read from a packed index on demand. */
export interface EntryStore {
  readonly length: number;
  at(index: number): ListEntry | undefined;
}

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

/**
 * Score of a name written as the initials of a listed name, or of a listed acronym written out:
 * above the default threshold, so a person looks at it, and below any name match of the words.
 */
export const ACRONYM_SCORE = 0.9;
/** Score of initials typed with one letter doubled (a key pressed twice): still for a person to look at. */
export const DOUBLED_ACRONYM_SCORE = 0.86;
const MIN_ACRONYM_LENGTH = 3;
/** A query's own initials are looked up from four letters: three-letter ones collide too often. */
const MIN_QUERY_ACRONYM_LENGTH = 4;
const ACRONYM_STOP = new Set(["of", "the", "and", "for", "de", "del", "la", "el", "y", "e", "et", "und"]);

/** Words of the Spanish and Portuguese legal forms as written word by word ("S. de R.L. de C.V."). */
const FORM_FRAGMENTS = new Set([
  "s",
  "c",
  "v",
  "r",
  "l",
  "a",
  "cv",
  "rl",
  "sc",
  "spr",
  "ca",
  "srl",
  "sapi",
  "sab",
  "de",
  "en",
  "llc",
  "inc",
  "plc",
  "llp",
  "jsc",
  "ojsc",
  "cjsc",
  "pjsc",
  "ooo",
  "zao",
  "oao",
  "pao",
  "gmbh",
  "ltda",
  "bhd",
  "pte",
  "pvt",
  "fze",
  "fzco",
  "fzc",
]);

/** Whether a word (as wordsOf writes it) ends a name as part of its legal form. */
function isTrailingFormWord(word: string): boolean {
  return EDGE_LEGAL_FORMS.has(word) || FORM_FRAGMENTS.has(word);
}

/** The words of the legal forms written in several words ("anonim sirketi"), longest first. */
const MULTI_WORD_FORMS = MULTI_WORD_LEGAL_FORMS.map(([form]) => form.split(" ")).sort(
  (a, b) => b.length - a.length,
);

/** How many words at the end of `words` are a legal form of several words (0: none). */
function trailingMultiWordForm(words: readonly string[]): number {
  for (const form of MULTI_WORD_FORMS) {
    if (form.length > words.length) continue;
    const at = words.length - form.length;
    if (form.every((w, i) => words[at + i] === w)) return form.length;
  }
  return 0;
}

/** A letter standing alone ("B K SALES", "S.A."): only such names have letters to set apart. */
const SINGLE_LETTER = /(^|[^\p{L}\p{N}'’])\p{L}($|[^\p{L}\p{N}'’])/u;

/**
 * Words as wordsOf writes them, except that a run of single letters followed by a word of the name
 * stays letters ("b k sales" -> b, k, sales); a run before a legal form or at the end is joined as
 * usual ("I.C.I.C. LTD." is "icic ltd", not four initials of which "C" could pass for a form).
 */
function lettersApart(raw: readonly string[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  for (const word of raw) {
    if (word.length === 1 && word >= "a" && word <= "z") {
      run.push(word);
      continue;
    }
    if (run.length > 0) {
      if (isTrailingFormWord(word) || LEADING_LEGAL_FORMS.has(word)) out.push(run.join(""));
      else out.push(...run);
      run = [];
    }
    out.push(word);
  }
  if (run.length > 0) out.push(run.join(""));
  return out;
}

/** How many words at the start of `words` are a legal form of several words (0: none). */
function leadingMultiWordForm(words: readonly string[]): number {
  for (const form of MULTI_WORD_FORMS) {
    if (form.length <= words.length && form.every((w, i) => words[i] === w)) return form.length;
  }
  return 0;
}

/**
 * Initials a name of three or more words is abbreviated to: of every word, and without particles
 * ("al", "de") when that still leaves three, since both are written.
 */
export function initialsOf(
  tokens: readonly { text: string; kind: string }[],
  words: readonly string[] = [],
): string[] {
  const out = new Set<string>();
  // As written: every word but "of/the/and/de" and the legal forms at either end ("Score Commercial
  // Company Ltd" is "SCC": the company inside the name counts).
  const written = words.filter((w) => !ACRONYM_STOP.has(w) && !/[0-9]/.test(w));
  // State groups keep the legal form's initial ("CPMIEC" … "Corporation").
  if (written.length >= MIN_ACRONYM_LENGTH) out.add(written.map((w) => w[0]).join(""));
  // Trailing legal forms go a word at a time ("S.C. de R.L. de C.V.", "S. en C.A.", "LLC"), and each
  // stage is written: people drop all of the form, or keep its first letter ("UAJS").
  // A legal form of several words that are not forms on their own ("Anonim Sirketi", "Limited
  // Sirketi") goes as a whole: "BASLAM PETROL SANAYI VE TICARET ANONIM SIRKETI" is "BPSVT".
  for (;;) {
    const form = trailingMultiWordForm(written);
    if (form > 0) written.splice(written.length - form, form);
    else if (written.length > 0 && isTrailingFormWord(written[written.length - 1] as string)) written.pop();
    else break;
    if (written.length >= MIN_ACRONYM_LENGTH) out.add(written.map((w) => w[0]).join(""));
  }
  // Leading forms likewise, one word ("AO") or several ("JOINT STOCK COMPANY 81 ARMORED FIGHTING
  // VEHICLE REPAIR PLANT" is "AFVRP").
  for (;;) {
    const form = leadingMultiWordForm(written);
    if (form > 0) written.splice(0, form);
    else if (written.length > 0 && LEADING_LEGAL_FORMS.has(written[0] as string)) written.shift();
    else break;
  }
  if (written.length >= MIN_ACRONYM_LENGTH) out.add(written.map((w) => w[0]).join(""));
  if (tokens.length < MIN_ACRONYM_LENGTH) return [...out];
  const all = tokens.map((t) => t.text[0]).join("");
  if (/^[a-z]+$/.test(all)) out.add(all);
  const core = tokens.filter((t) => t.kind !== "particle");
  const bare = core.map((t) => t.text[0]).join("");
  if (core.length >= MIN_ACRONYM_LENGTH && /^[a-z]+$/.test(bare)) out.add(bare);
  return [...out];
}

interface Scratch {
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
const NAME_INTS = 4;
const QUERY_STAMP = 0;
const UNIT_STAMP = 1;
const UNIT_WORDS = 2;
const LOST_SEEN = 3;
const NAME_FLOATS = 8;
const UNIT_SIM = 0;
const UNIT_WEIGHT = 1;
const MATCHED = 2;
const HIT_QUERY = 3;
const HIT_CANDIDATE = 4;

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

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Append-only buffer of packed (hash, id) pairs; avoids a multi-million-element JS array at build time. */
class PairBuffer {
  private data = new Float64Array(1 << 16);
  private size = 0;

  add(hash: number, id: number): void {
    if (this.size === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.size++] = hash * ID_BITS + id;
  }

  toMultimap(): HashMultimap {
    const sorted = this.data.slice(0, this.size);
    sorted.sort();
    // Variants of one key can coincide ("abab" minus an "a" and a "b", either pair): keep one.
    let size = 0;
    for (let i = 0; i < sorted.length; i++) {
      if (size === 0 || sorted[i] !== sorted[size - 1]) sorted[size++] = sorted[i] as number;
    }
    const packed = sorted.slice(0, size);
    const directory = new Int32Array((1 << (32 - DIRECTORY_SHIFT)) + 1);
    for (let i = 0; i < packed.length; i++) {
      const hash = Math.floor((packed[i] as number) / ID_BITS);
      directory[(hash >>> DIRECTORY_SHIFT) + 1]++;
    }
    for (let b = 1; b < directory.length; b++) directory[b] += directory[b - 1] as number;
    return { packed, directory };
  }
}

function lookupMultimap(map: HashMultimap, key: string, visit: (id: number) => void): void {
  lookupHash(map, fnv1a(key), visit);
}

function lookupHash(map: HashMultimap, h: number, visit: (id: number) => void): void {
  const lo = h * ID_BITS;
  const { packed, directory } = map;
  const bucket = h >>> DIRECTORY_SHIFT;
  let a = directory[bucket] as number;
  let b = directory[bucket + 1] as number;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if ((packed[mid] as number) < lo) a = mid + 1;
    else b = mid;
  }
  const hi = lo + ID_BITS;
  for (let i = a; i < packed.length; i++) {
    const v = packed[i] as number;
    if (v >= hi) break;
    visit(v - lo);
  }
}

// Words this long get a two-edit budget, so their blocking keys include two deletions.
// (Measured on the eval set: from 6 letters this doubles the index for 0.05% more recall.)
const TWO_DELETION_MIN_LENGTH = 8;

/** fnv1a of `key` without the characters at `skipA` and `skipB` (-1: none). */
function fnv1aSkipping(key: string, skipA: number, skipB: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    if (i === skipA || i === skipB) continue;
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Hashes of the key and of every string one deletion away, and for long keys two deletions away
 * (symmetric deletion: two words within the edit budget share at least one variant). Hashed in
 * place rather than built as strings; a string reached twice is hashed twice, which is harmless.
 */
function forEachDeletionHash(key: string, twoEdits: boolean, visit: (hash: number) => void): void {
  const n = key.length;
  visit(fnv1aSkipping(key, -1, -1));
  for (let i = 0; i < n; i++) {
    // Deleting either letter of a doubled pair gives the same string.
    if (i > 0 && key.charCodeAt(i) === key.charCodeAt(i - 1)) continue;
    visit(fnv1aSkipping(key, i, -1));
  }
  if (!twoEdits || n < TWO_DELETION_MIN_LENGTH) return;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) visit(fnv1aSkipping(key, i, j));
  }
}

const HAS_DIGIT = /[0-9]/;

/** Names to index for one entry: name, aliases, and for "Name (ACRONYM)" both halves. */
function nameVariants(entry: ListEntry): string[] {
  const out: string[] = [];
  for (const name of [entry.name, ...entry.aliases]) {
    out.push(name);
    if (!name.includes("(")) continue;
    const stripped = name.replace(/\([^)]*\)?/g, " ").trim();
    if (stripped !== "") out.push(stripped);
    for (const m of name.matchAll(/\(([^)]*)\)/g)) {
      const inner = (m[1] ?? "").trim();
      if (/^[A-Z0-9][A-Z0-9&.-]{2,}$/.test(inner)) out.push(inner);
    }
  }
  return out;
}

/** Builds the in-memory index (token postings plus typo, phonetic and joined-word blocking keys). */
export function buildIndex(entries: readonly ListEntry[]): ScreeningIndex {
  const started = performance.now();
  const names: PreparedName[] = [];
  const nameRefs: Array<Array<{ entry: number; display: string }>> = [];
  const nameIdByText = new Map<string, number>();
  const entryCountries: Array<Set<string>> = [];
  const uniformFlags: number[] = [];
  // Tokens of each name's first display form, so the acronyms below need not normalise it again.
  const firstTokens: NameToken[][] = [];
  // Every way the lists write each name, for its initials.
  const displaysOf: string[][] = [];

  // Entries share a handful of country sets: one Set per distinct set, not one per entry.
  const countrySets = new Map<string, Set<string>>();
  // Likewise the weight patterns of the names ([1, 1], [1, 0.3, 1], ...).
  const weightPatterns = new Map<string, number[]>();
  entries.forEach((entry, entryIdx) => {
    const codes = new Set<string>();
    for (const c of entry.countries) {
      const code = toCountryCode(c);
      if (code !== undefined) codes.add(code);
    }
    const countryKey = [...codes].sort().join(" ");
    let countries = countrySets.get(countryKey);
    if (countries === undefined) {
      countries = codes;
      countrySets.set(countryKey, codes);
    }
    entryCountries.push(countries);
    const seen = new Set<number>();
    const uniform = entry.entityType === "vessel" || entry.entityType === "aircraft";
    for (const display of nameVariants(entry)) {
      const { tokens } = normalizeName(display);
      if (tokens.length === 0) continue;
      const text = `${uniform ? "craft" : "party"}:${tokens.map((t) => t.text).join(" ")}`;
      let id = nameIdByText.get(text);
      if (id === undefined) {
        id = names.length;
        nameIdByText.set(text, id);
        firstTokens.push(tokens);
        displaysOf.push([]);
        const prepared = prepareTokens(tokens, uniform);
        const pattern = prepared.weights.join(" ");
        const shared = weightPatterns.get(pattern);
        if (shared === undefined) weightPatterns.set(pattern, prepared.weights);
        else prepared.weights = shared;
        names.push(prepared);
        nameRefs.push([]);
        uniformFlags.push(uniform ? 1 : 0);
      }
      displaysOf[id]?.push(display);
      if (seen.has(id)) continue;
      seen.add(id);
      nameRefs[id]?.push({ entry: entryIdx, display });
    }
  });

  const acronyms = new Map<string, Array<{ name: number; display: string }>>();
  names.forEach((_, n) => {
    if (uniformFlags[n] === 1) return;
    // People abbreviate organisations, not persons.
    const refs = nameRefs[n] ?? [];
    if (refs.every((ref) => entries[ref.entry]?.entityType === "individual")) return;
    // Every way the list writes the name counts: "AKTSIONERNOE OBSHCHESTVO ZAVOD FIOLENT" and
    // "AO ZAVOD FIOLENT" share their words once the legal form is set aside, not their initials.
    for (const display of new Set(displaysOf[n])) {
      // Letters written apart are initials already ("B K SALES CORPORATION" is "BKS", "J M A
      // SHIPPING" is "JMAS"), though wordsOf reads them as one word ("bk").
      const words = wordsOf(display);
      const apart = SINGLE_LETTER.test(display) ? lettersApart(wordsOf(display, true)) : words;
      const spellings = apart.length === words.length ? [words] : [words, apart];
      for (const written of spellings) {
        for (const acronym of initialsOf(firstTokens[n] ?? [], written)) {
          const ids = acronyms.get(acronym);
          if (ids === undefined) acronyms.set(acronym, [{ name: n, display }]);
          else if (!ids.some((id) => id.name === n)) ids.push({ name: n, display });
        }
      }
    }
  });

  // Postings: comparison key -> names containing it (and joined adjacent pairs as extra keys).
  const vocabulary = new Map<string, number>();
  const vocabKeys: string[] = [];
  const postName: number[] = [];
  const postVocab: number[] = [];
  const postWeight: number[] = [];
  const postWord: number[] = [];
  // Joined-pair keys only tolerate the edits joinedSimilarity allows, so they skip two-edit keys.
  const wordKey: boolean[] = [];
  const vocabId = (key: string, isWord = true): number => {
    let id = vocabulary.get(key);
    if (id === undefined) {
      id = vocabKeys.length;
      vocabulary.set(key, id);
      vocabKeys.push(key);
      wordKey.push(isWord);
    } else if (isWord) {
      wordKey[id] = true;
    }
    return id;
  };
  names.forEach((name, n) => {
    for (let i = 0; i < name.keys.length; i++) {
      postVocab.push(vocabId(name.keys[i] as string));
      postName.push(n);
      postWeight.push(name.weights[i] as number);
      postWord.push(Math.min(i, 31));
      // The plain spelling is a blocking key too: a typo can be closer to it than to the folded key.
      const text = name.texts[i] as string;
      if (text !== name.keys[i]) {
        postVocab.push(vocabId(text));
        postName.push(n);
        postWeight.push(name.weights[i] as number);
        postWord.push(Math.min(i, 31));
      }
    }
    for (let i = 0; i < name.pairKeys.length; i++) {
      const pair = name.pairKeys[i] as string;
      if (pair.length > MAX_PAIR_KEY_LENGTH || HAS_DIGIT.test(pair)) continue;
      const w = (name.weights[i] as number) + (name.weights[i + 1] as number);
      postVocab.push(vocabId(pair, false));
      postName.push(n);
      postWeight.push(w);
      postWord.push(Math.min(i, 31));
    }
  });
  if (vocabKeys.length >= ID_BITS) throw new Error("screening index: vocabulary too large");
  const postingStart = new Int32Array(vocabKeys.length + 1);
  for (const v of postVocab) postingStart[v + 1]++;
  for (let v = 0; v < vocabKeys.length; v++) postingStart[v + 1] += postingStart[v];
  const fill = postingStart.slice(0, vocabKeys.length);
  const postingName = new Int32Array(postVocab.length);
  const postingWeight = new Float32Array(postVocab.length);
  const postingWord = new Uint8Array(postVocab.length);
  for (let p = 0; p < postVocab.length; p++) {
    const v = postVocab[p] as number;
    const at = fill[v]++;
    postingName[at] = postName[p] as number;
    postingWeight[at] = postWeight[p] as number;
    postingWord[at] = postWord[p] as number;
  }

  const deletionPairs = new PairBuffer();
  const phoneticPairs = new PairBuffer();
  vocabKeys.forEach((key, v) => {
    if (key.length < 4 || HAS_DIGIT.test(key)) return;
    forEachDeletionHash(key, wordKey[v] === true, (hash) => deletionPairs.add(hash, v));
    if (key.length >= 5) phoneticPairs.add(fnv1a(phoneticKey(key)), v);
  });

  const nameCount = names.length;
  const deletions = deletionPairs.toMultimap();
  const phonetic = phoneticPairs.toMultimap();
  return {
    entries,
    ...packNames(names, nameRefs),
    uniformNames: Uint8Array.from(uniformFlags),
    vocabulary,
    vocabKeys,
    postingStart,
    postingName,
    postingWeight,
    postingWord,
    deletions,
    phonetic,
    entryCountries,
    acronyms,
    scratch: makeScratch(nameCount, vocabKeys.length),
    stats: {
      entries: entries.length,
      names: nameCount,
      vocabulary: vocabKeys.length,
      postings: postingName.length,
      blockingKeys: deletions.packed.length + phonetic.packed.length,
      buildMs: performance.now() - started,
    },
  };
}

/** The prepared names and their owners in the typed arrays of ScreeningIndex (see nameAt). */
function packNames(
  names: readonly PreparedName[],
  refsOfName: ReadonlyArray<ReadonlyArray<{ entry: number; display: string }>>,
) {
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const intern = (text: string): number => {
    let id = ids.get(text);
    if (id === undefined) {
      id = strings.length;
      ids.set(text, id);
      strings.push(text);
    }
    return id;
  };
  const rows = names as unknown as ReadonlyArray<Record<string, unknown>>;
  const nameFields: NameField[] = Object.keys(rows[0] ?? {}).map((key) => {
    // A list field's kind is read from its first item anywhere (a one-word name has no pairs: an
    // empty list says nothing), so the lists' order can't change how a field is stored.
    const first = rows[0]?.[key];
    const firstItem = rows.find((row) => Array.isArray(row[key]) && (row[key] as unknown[]).length > 0)?.[
      key
    ] as unknown[] | undefined;
    const kind: NameField["kind"] =
      typeof first === "number" ? "number" : typeof firstItem?.[0] === "string" ? "strings" : "numbers";
    if (kind === "number")
      return {
        key,
        kind,
        start: new Int32Array(0),
        ids: new Int32Array(0),
        nums: Float64Array.from(rows, (row) => row[key] as number),
      };
    const start = new Int32Array(rows.length + 1);
    const idList: number[] = [];
    const numList: number[] = [];
    rows.forEach((row, n) => {
      const items = row[key];
      if (!Array.isArray(items)) throw new Error(`screening index: PreparedName.${key} is not a list`);
      for (const item of items) {
        if (typeof item === "string" && kind === "strings") idList.push(intern(item));
        else if (typeof item === "number" && kind === "numbers") numList.push(item);
        else throw new Error(`screening index: PreparedName.${key} mixes kinds`);
      }
      start[n + 1] = kind === "strings" ? idList.length : numList.length;
    });
    return { key, kind, start, ids: Int32Array.from(idList), nums: Float64Array.from(numList) };
  });
  let refCount = 0;
  for (const refs of refsOfName) refCount += refs.length;
  const nameTotal = Float64Array.from(names, (name) => name.total);
  const refStart = new Int32Array(names.length + 1);
  const refEntry = new Int32Array(refCount);
  const refDisplay = new Int32Array(refCount);
  let r = 0;
  for (let n = 0; n < names.length; n++) {
    for (const ref of refsOfName[n] ?? []) {
      refEntry[r] = ref.entry;
      refDisplay[r] = intern(ref.display);
      r++;
    }
    refStart[n + 1] = r;
  }
  return { strings, nameFields, nameTotal, refStart, refEntry, refDisplay };
}

// Words in almost every address; sharing them says nothing.
const ADDRESS_STOP = new Set([
  "street",
  "str",
  "road",
  "avenue",
  "ave",
  "building",
  "bldg",
  "floor",
  "office",
  "box",
  "suite",
  "unit",
  "room",
  "district",
  "city",
  "province",
  "ulitsa",
  "prospekt",
  "dom",
]);

function addressTokens(address: string): Set<string> {
  return new Set(
    addressWords(address).filter((w) => w.length >= 3 && !HAS_DIGIT.test(w) && !ADDRESS_STOP.has(w)),
  );
}

function entryAddressTokens(index: ScreeningIndex, entryIdx: number): Set<string> {
  const cache = index.scratch.addressCache;
  let tokens = cache.get(entryIdx);
  if (tokens === undefined) {
    tokens = addressTokens((index.entries.at(entryIdx) as ListEntry).addresses.join(" "));
    cache.set(entryIdx, tokens);
  }
  return tokens;
}

function popCount(bits: number): number {
  let x = bits - ((bits >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

interface BlockingUnit {
  /** Strings looked up: a word's key and plain spelling, or a joined pair's key and spelling. */
  lookups: string[];
  weight: number;
  /** How many times the query contains it. */
  count: number;
  isPair: boolean;
}

function blockingUnits(q: PreparedName): BlockingUnit[] {
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

/** Word similarities remembered across queries; bounded by WORD_MEMO_LIMIT entries in all. */
/**
 * Word similarities remembered across queries: at most WORD_MEMO_LIMIT entries in the current
 * generation and as many in the previous one. (Heap after 8,000 list-name queries: +37 MB with the
 * lost-word slots, against +12 MB with one generation of 60,000 and per-query slots.)
 */
const WORD_MEMO_LIMIT = 150_000;

interface WordMemos {
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
function wordMemos(index: ScreeningIndex): WordMemos {
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
interface UnitCandidates {
  vocab: Int32Array;
  sims: Float64Array;
  exactHit: boolean;
}

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
function unitCandidates(index: ScreeningIndex, unit: BlockingUnit): UnitCandidates {
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
  const result = { vocab: Int32Array.from(vocab), sims: Float64Array.from(sims), exactHit };
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
function mayEscapeBlocking(unit: BlockingUnit): boolean {
  for (const key of unit.lookups) if (key.length >= 5) return true;
  return false;
}

interface LostWord {
  weight: number;
  /** How many times the query has the word. */
  count: number;
  key: string;
  text: string;
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
interface NameWordIds {
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
}

const nameWordIdStore = new WeakMap<ScreeningIndex, NameWordIds>();

function nameWordIds(index: ScreeningIndex): NameWordIds {
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
  }
  for (let p = 0; p < pairs; p++) {
    const pairKey = strings[pairKeys.ids[p] as number] as string;
    ids.pair[p] = vocabulary.get(pairKey) ?? -1;
    ids.pairKeyLength[p] = pairKey.length;
    ids.pairTextLength[p] = (strings[pairTexts.ids[p] as number] as string).length;
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
const NO_MEMO: Map<string, number> = new Map();
const lostSlotStore = new WeakMap<ScreeningIndex, LostSlot[]>();

/** The slot holding this lost word's similarities, else the least recently used one not used by this query. */
function lostSlotFor(index: ScreeningIndex, owner: string, query: number): LostSlot | undefined {
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

/** Similarity of a possibly-missed query word to a list word, short forms either way included. */
function lostPairSimilarity(lost: LostWord, text: string, key: string): number {
  const sim = wordSimilarity(lost.text, lost.key, text, key);
  return Math.max(sim, shortFormSimilarity(lost.text, text), shortFormSimilarity(text, lost.text));
}

/** Best similarity of a possibly-missed query word to any word of a name, made optimistic as in blocking. */
function lostWordSimilarity(lost: LostWord, index: ScreeningIndex, n: number, ids: NameWordIds): number {
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
      sim = lostPairSimilarity(
        lost,
        strings[ids.textString[w] as number] as string,
        strings[ids.keyString[w] as number] as string,
      );
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
      sim = pairSimilarity(pairKey, pairText, lost.key, lost.text);
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

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}

/**
 * Screens one counterparty against the index. Scores are 0..1; `failed` when the best entry scores
 * at or above `threshold` (default 0.85), `multiple` when more than one distinct entry does.
 * `matches` lists entries scoring at least `minScore` (default threshold - 0.1), best first.
 */
export function screen(index: ScreeningIndex, query: ScreenQuery, options: ScreenOptions = {}): ScreenResult {
  return screenWithHits(index, scoreName(index, query.name ?? "", options), query, options);
}

/** The lowest score scoreName prunes at, whatever the reporting floor: the default floor. */
function verdictFloor(options: ScreenOptions): number {
  return Math.max(0, (options.threshold ?? DEFAULT_THRESHOLD) - 0.1);
}

/** The lowest score `screen` reports for these options (near misses shown for review). */
function minScoreOf(options: ScreenOptions): number {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  return Math.max(0, Math.min(threshold, options.minScore ?? threshold - 0.1));
}

/** A list name that resembles a screened name, before country and address evidence. */
export interface NameHit {
  entry: number;
  /** The entry's name or alias as the list writes it. */
  display: string;
  nameScore: number;
}

/**
 * The key under which a name's hits (scoreName) can be shared: scoreName reads the name only through
 * normalizeName's tokens, so names with the same tokens ("Atlas Logistics GmbH", "ATLAS LOGISTICS
 * Inc.": legal forms, case and punctuation set aside) score exactly alike. A batch that caches hits
 * by this key scores each distinct name once, however the file spells its legal forms.
 */
export function nameHitsKey(queryName: string): string {
  // Every field of every token (a field added to NameToken is part of the key without a change here).
  const key = JSON.stringify(normalizeName(queryName).tokens);
  // Names read in more than one way are scored through their readings too: those are the key.
  return mayHaveReadings(queryName) ? `${key}\u0001${queryName}` : key;
}

/**
 * scoreName through a batch's cache, keyed by nameHitsKey: each distinct name is scored once. The
 * name as written is a key too (after a NUL, which no nameHitsKey starts with), so a spelling seen
 * before is not normalised again: that took a third of an import's screening time (20,000 rows,
 * 8,470 spellings of 520 names). The cache starts again past `limit` keys, so a huge job's memory
 * stays bounded.
 */
export function scoreNameCached(
  cache: Map<string, NameHit[]>,
  index: ScreeningIndex,
  queryName: string,
  options: ScreenOptions,
  limit: number,
  /** Counts the names scored (not found in the cache). */
  stats?: { scored: number },
): NameHit[] {
  const written = `\u0000${queryName}`;
  let hits = cache.get(written);
  if (hits !== undefined) return hits;
  const key = nameHitsKey(queryName);
  hits = cache.get(key);
  if (hits === undefined) {
    hits = scoreName(index, queryName, options);
    if (stats) stats.scored++;
    if (cache.size >= limit - 1) cache.clear();
    cache.set(key, hits);
  } else if (cache.size >= limit) cache.clear();
  cache.set(written, hits);
  return hits;
}

/**
 * The name half of a screening: every list name that could reach the reporting floor once country
 * and address evidence are added, with its name score. It depends on the name alone, so a batch
 * screening many contacts of one name computes it once (see screenWithHits).
 */
export function scoreName(index: ScreeningIndex, queryName: string, options: ScreenOptions = {}): NameHit[] {
  const hits = scoreWrittenName(index, queryName, options);
  for (const hit of personFormHits(index.entries, queryName)) {
    hits.push({ ...hit, display: `${hit.display} (surname with ${PERSON_FORM_NOTE})` });
  }
  // Other readings of the name (another script's Latin forms, words run together, digits for
  // letters, a title before a surname): each is screened, and its hits say which reading matched.
  const isListWord = (w: string): boolean => index.vocabulary.has(tokenKey(w));
  const isFormWord = (w: string): boolean => LEGAL_FORM_WORDS.has(w);
  for (const reading of queryReadings(queryName, isListWord, isFormWord)) {
    const wanted = reading.exactWords ? normalizeName(reading.text).tokens.map((t) => t.key) : [];
    for (const hit of scoreWrittenName(index, reading.text, options)) {
      if (wanted.length > 0) {
        const keys = listNameKeys(hit.display);
        if (!wanted.every((k) => keys.has(k))) continue;
      }
      hits.push({ ...hit, display: `${hit.display} (${reading.label}: ${reading.text.toUpperCase()})` });
    }
    for (const hit of personFormHits(index.entries, reading.text)) {
      const note = `${reading.label}: ${reading.text.toUpperCase()}; surname with ${PERSON_FORM_NOTE}`;
      hits.push({ ...hit, display: `${hit.display} (${note})` });
    }
  }
  return hits;
}

/** Words spelt as some legal form is, in any of the forms the lexicon knows. */
const LEGAL_FORM_WORDS: ReadonlySet<string> = new Set([
  ...EDGE_LEGAL_FORMS.keys(),
  ...LEADING_LEGAL_FORMS,
  ...ANYWHERE_LEGAL_FORMS.keys(),
  ...MULTI_WORD_LEGAL_FORMS.flatMap(([form]) => form.split(" ")),
]);

/** A word neither on the lists, nor a legal form, stop word or lexicon word as written. */
function isMisspelt(index: ScreeningIndex, word: string): boolean {
  // A key pressed twice or thrice ("PRRODUCTION", "SHIPPPING") is a slip the comparison key hides.
  if (/^.(.)\1|(.)\2\2/.test(word)) return true;
  if (index.vocabulary.has(tokenKey(word)) || LEGAL_FORM_WORDS.has(word) || STOP_WORDS.has(word))
    return false;
  if (ABBREVIATIONS.has(word) || GENERIC_WORDS.has(word) || INDUSTRY_WORDS.has(word) || PARTICLES.has(word))
    return false;
  return !/[0-9]/.test(word) && word.length > 2;
}

const PERSON_FORM_NOTE = "title, initials or a shortened given name";

/** scoreName for the name as written, in the scripts normalize.ts reads (Latin, Cyrillic, Greek). */
function scoreWrittenName(index: ScreeningIndex, queryName: string, options: ScreenOptions): NameHit[] {
  // Candidates are scored down to the default reporting floor at least, whatever floor the caller
  // reports from: the pruning bound is not exact, and a verdict must not depend on how many near
  // misses are listed (screenWithHits drops the hits below the caller's floor).
  const minScore = Math.min(minScoreOf(options), verdictFloor(options));
  const hits: NameHit[] = [];
  const normalized = normalizeName(queryName);
  const { tokens } = normalized;
  if (tokens.length === 0) return hits;
  const q = prepareTokens(tokens);
  // Vessel and aircraft names are few: the query's uniform-weight preparation waits for one.
  let qUniform: PreparedName | undefined;
  const s = index.scratch;
  s.query++;
  const queryStamp = s.query;
  const words = wordMemos(index);

  // Evidence is added later, per query: assume the most it could add, so the hits serve any address.
  const maxBonus = COUNTRY_BONUS + ADDRESS_BONUS;

  // Blocking units: each distinct query word, and each adjacent pair joined (for "Shen Yang" vs
  // "Shenyang"). A word is looked up by its folded key and its plain spelling, since exact scoring
  // takes the better of the two ("ooron" is one edit from "oboron"). A word the query repeats
  // ("Mohammed Mohammed") counts as often as a name can match it, not once per repetition.
  const units = blockingUnits(q);
  // Query words that may have escaped blocking (see mayEscapeBlocking).
  const lostUnits: LostWord[] = [];
  /**
   * Whether the words blocking may have missed could lift a name to minScore: first assuming each
   * matches one of its unmatched words exactly, then, if that would do, comparing them for real.
   */
  const wordIds = nameWordIds(index);
  const lostWordsMayLift = (
    n: number,
    seen: number,
    matched: number,
    unmatchedQ: number,
    unmatchedC: number,
  ): boolean => {
    // First assuming each lost word pairs exactly, then, if that would do, comparing them for real.
    // (Plain loops: this runs for thousands of names a query, so no closures are made per name.)
    if (lostUnits.length === 0) return false;
    for (let pass = 0; pass < 2; pass++) {
      let m = matched;
      let uq = unmatchedQ;
      let uc = unmatchedC;
      for (let u = 0; u < lostUnits.length; u++) {
        const lost = lostUnits[u] as LostWord;
        if ((seen & (1 << u)) !== 0 || uc <= 0) continue;
        const sim = pass === 0 ? 1 : lostWordSimilarity(lost, index, n, wordIds);
        if (sim <= 0) continue;
        m += 2 * sim * lost.weight;
        uq = Math.max(0, uq - lost.weight);
        uc = Math.max(0, uc - 1);
      }
      const lifted = m / (m + discount * (uq + uc)) + maxBonus;
      if (!(lifted >= minScore)) return false;
    }
    return true;
  };
  const touched: number[] = [];
  const unitTouched: number[] = [];
  const ints = s.nameInts;
  const floats = s.nameFloats;
  for (const unit of units) {
    s.unit++;
    const unitStamp = s.unit;
    const { vocab: vocabCandidates, sims: vocabSims, exactHit } = unitCandidates(index, unit);
    // A word not on the lists as written may have more typos than its deletion keys reach. (Words
    // of two or three letters have none; the bound's assumed discount keeps their names in reach.)
    const lostBit =
      !unit.isPair &&
      lostUnits.length < 31 &&
      !exactHit &&
      (mayEscapeBlocking(unit) || mayBeShortForm(unit.lookups[1] ?? (unit.lookups[0] as string)))
        ? 1 << lostUnits.length
        : 0;
    if (lostBit !== 0) {
      const key = unit.lookups[0] as string;
      const text = unit.lookups[1] ?? key;
      const slot = lostSlotFor(index, `${key}\u0000${text}`, queryStamp);
      lostUnits.push({
        weight: unit.weight * unit.count,
        count: unit.count,
        key,
        text,
        slot,
        sims: slot ? NO_MEMO : words.memoFor(`lost\u0000${key}\u0000${text}`),
        pairSims: slot ? NO_MEMO : words.memoFor(`lostpair\u0000${key}\u0000${text}`),
      });
    }
    unitTouched.length = 0;
    for (let c = 0; c < vocabCandidates.length; c++) {
      const sim = vocabSims[c] as number;
      if (sim <= 0) continue;
      const v = vocabCandidates[c] as number;
      const end = index.postingStart[v + 1] as number;
      for (let p = index.postingStart[v] as number; p < end; p++) {
        const n = index.postingName[p] as number;
        const wc = index.postingWeight[p] as number;
        const ni = n * NAME_INTS;
        const nf = n * NAME_FLOATS;
        if (ints[ni + QUERY_STAMP] !== queryStamp) {
          ints[ni + QUERY_STAMP] = queryStamp;
          floats[nf + MATCHED] = 0;
          floats[nf + HIT_QUERY] = 0;
          floats[nf + HIT_CANDIDATE] = 0;
          ints[ni + LOST_SEEN] = 0;
          touched.push(n);
        }
        ints[ni + LOST_SEEN] |= lostBit;
        if (ints[ni + UNIT_STAMP] !== unitStamp) {
          ints[ni + UNIT_STAMP] = unitStamp;
          floats[nf + UNIT_SIM] = sim;
          floats[nf + UNIT_WEIGHT] = wc;
          ints[ni + UNIT_WORDS] = 1 << (index.postingWord[p] as number);
          unitTouched.push(n);
        } else {
          if (sim > (floats[nf + UNIT_SIM] as number)) floats[nf + UNIT_SIM] = sim;
          if (wc > (floats[nf + UNIT_WEIGHT] as number)) floats[nf + UNIT_WEIGHT] = wc;
          ints[ni + UNIT_WORDS] |= 1 << (index.postingWord[p] as number);
        }
      }
    }
    for (const n of unitTouched) {
      const nf = n * NAME_FLOATS;
      const times =
        unit.count === 1 ? 1 : Math.min(unit.count, popCount(ints[n * NAME_INTS + UNIT_WORDS] as number));
      const sim = floats[nf + UNIT_SIM] as number;
      const wc = (floats[nf + UNIT_WEIGHT] as number) * times;
      const wq = unit.weight * times;
      // Scoring weighs a matched pair by its heavier word on both sides.
      floats[nf + MATCHED] += Math.max(wq, wc) * sim;
      floats[nf + HIT_QUERY] += wq;
      floats[nf + HIT_CANDIDATE] += wc;
    }
  }

  // Upper bound of the exact score from what blocking saw; only candidates that could reach
  // minScore are scored exactly. Joined-pair units double-count, which only loosens the bound.
  let queryCore = 0;
  for (const w of q.weights) if (w >= 1) queryCore++;
  const discount = queryCore >= 2 ? CONTAINED_NAME_DISCOUNT : 1;
  // Word similarities do not depend on weights, so one memo serves both preparations of the query.
  // Shared across queries too (see wordMemos): a word of a batch is compared with a list word once.
  const memo: SimilarityMemo = q.keys.map((key, i) =>
    words.memoFor(`word\u0000${q.texts[i]}\u0000${key}\u0000${q.sources[i]}`),
  );
  const pairMemo: SimilarityMemo = q.pairKeys.map((key, i) =>
    words.memoFor(`pair\u0000${q.pairTexts[i]}\u0000${key}`),
  );
  const joinedMemo: SimilarityMemo = q.keys.map((key, i) =>
    words.memoFor(`joined\u0000${q.texts[i]}\u0000${key}`),
  );
  for (const n of touched) {
    const uniform = index.uniformNames[n] === 1;
    // The bound assumes the query's own weights; the few vessel names are simply scored.
    if (!uniform) {
      const nf = n * NAME_FLOATS;
      // The matched weight counts on the query's side and the name's alike.
      const mq = floats[nf + MATCHED] as number;
      const mc = mq;
      const unmatchedQ = Math.max(0, q.total - (floats[nf + HIT_QUERY] as number));
      const unmatchedC = Math.max(0, (index.nameTotal[n] as number) - (floats[nf + HIT_CANDIDATE] as number));
      // Blocking can miss a word exact scoring still pairs up, so the contained-name discount is
      // assumed possible on both sides (measured: guessing which side costs 0.3% recall).
      // The discount is assumed for every name: which word pairs exact scoring counts as strong
      // can't be told from blocking (a pair it never saw may be one), and a bound that guessed
      // skipped names exact scoring flags (review of the session-4 merge: "S M S TExCEOM FZCO").
      const bound = (mq + mc) / (mq + mc + discount * (unmatchedQ + unmatchedC)) + maxBonus;
      if (
        bound < minScore &&
        !lostWordsMayLift(n, ints[n * NAME_INTS + LOST_SEEN] as number, mq + mc, unmatchedQ, unmatchedC)
      )
        continue;
    }
    if (uniform && qUniform === undefined) qUniform = prepareTokens(tokens, true);
    const name = nameAt(index, n);
    const nameScore = scorePrepared(
      uniform ? (qUniform as PreparedName) : q,
      name,
      memo,
      pairMemo,
      joinedMemo,
    );
    if (nameScore <= 0) continue;
    for (const ref of refsOf(index, n)) hits.push({ entry: ref.entry, display: ref.display, nameScore });
  }
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  let sloppy: boolean | undefined;
  const isSloppy = (): boolean => {
    // Words of the query that are neither list words nor legal forms or stop words: misspellings.
    sloppy ??= wordsOf(queryName).some(
      (w) => !tokens.some((t) => t.kind === "core" && t.text === w) && isMisspelt(index, w),
    );
    return sloppy;
  };
  for (const hit of hits) {
    if (hit.nameScore < threshold) continue;
    const entry = index.entries.at(hit.entry) as ListEntry;
    hit.nameScore = guardedScore(
      normalized,
      hit.display,
      entry.entityType,
      hit.nameScore,
      threshold,
      isSloppy,
    );
  }
  addAcronymHits(index, tokens, hits);
  words.settle();
  return hits;
}

/**
 * The evidence half of a screening: adds the country and address bonuses to a name's hits (from
 * scoreName) and ranks the entries. screen(index, q) = screenWithHits(index, scoreName(index, q.name), q).
 */
export function screenWithHits(
  index: ScreeningIndex,
  hits: readonly NameHit[],
  query: ScreenQuery,
  options: ScreenOptions = {},
): ScreenResult {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const top = options.top ?? 5;
  const minScore = minScoreOf(options);
  if (hits.length === 0) return { status: "passed", multiple: false, bestScore: 0, matches: [] };
  const countryCode = query.country !== undefined ? toCountryCode(query.country) : undefined;
  // The address's words, once an entry with an address needs them (many entries have none).
  let queryAddress: Set<string> | undefined;
  const best = new Map<number, { score: number; matchedName: string }>();
  for (const hit of hits) {
    let score = hit.nameScore;
    if (score >= BONUS_MIN_NAME_SCORE) {
      if (countryCode !== undefined && index.entryCountries[hit.entry]?.has(countryCode))
        score += COUNTRY_BONUS;
      const entryWords = query.address === undefined ? undefined : entryAddressTokens(index, hit.entry);
      if (entryWords?.size) {
        queryAddress ??= addressTokens(query.address as string);
        let shared = 0;
        for (const w of queryAddress) if (entryWords.has(w)) shared++;
        if (shared >= 2 || (shared === 1 && queryAddress.size <= 2)) score += ADDRESS_BONUS;
      }
    }
    score = round4(Math.min(1, score));
    const current = best.get(hit.entry);
    if (current === undefined || score > current.score)
      best.set(hit.entry, { score, matchedName: hit.display });
  }

  const ranked: ScreenMatch[] = [];
  let bestScore = 0;
  let failing = 0;
  for (const [entryIdx, hit] of best) {
    if (hit.score > bestScore) bestScore = hit.score;
    if (hit.score >= threshold) failing++;
    if (hit.score >= minScore) {
      ranked.push({
        entry: index.entries.at(entryIdx) as ListEntry,
        matchedName: hit.matchedName,
        score: hit.score,
      });
    }
  }
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      a.entry.sourceList.localeCompare(b.entry.sourceList) ||
      a.entry.sourceId.localeCompare(b.entry.sourceId),
  );
  return {
    status: bestScore >= threshold ? "failed" : "passed",
    multiple: failing > 1,
    bestScore,
    matches: ranked.slice(0, top),
  };
}

/**
 * Acronyms against expansions, both ways: a one-word query that is the initials of a listed name
 * ("IRISL"), and a query of three or more words whose initials are a listed one-word name or alias
 * ("Islamic Revolutionary Guard Corps" for "IRGC"). Exact initials only: they carry no typo budget.
 */
function addAcronymHits(index: ScreeningIndex, tokens: readonly NameToken[], hits: NameHit[]): void {
  const only = tokens.length === 1 ? tokens[0] : undefined;
  if (only !== undefined && only.text.length >= MIN_ACRONYM_LENGTH && /^[a-z]+$/.test(only.text)) {
    const typed = only.text;
    const lookup = (initials: string, score: number, note: string): void => {
      for (const { name: n, display } of index.acronyms.get(initials) ?? []) {
        for (const ref of refsOf(index, n)) {
          // The spelling whose initials these are, when it is one of this entry's names.
          const entry = index.entries.at(ref.entry) as ListEntry;
          const written = display === entry.name || entry.aliases.includes(display) ? display : ref.display;
          hits.push({
            entry: ref.entry,
            display: `${written} (initials ${initials.toUpperCase()}${note})`,
            nameScore: score,
          });
        }
      }
    };
    lookup(typed, ACRONYM_SCORE, "");
    // A key pressed twice ("MMMTT" for "MMMT"), when what is left is long enough to tell acronyms
    // apart (MIN_QUERY_ACRONYM_LENGTH).
    if (typed.length > MIN_QUERY_ACRONYM_LENGTH) {
      const tried = new Set<string>();
      for (let i = 1; i < typed.length; i++) {
        if (typed[i] !== typed[i - 1]) continue;
        const initials = typed.slice(0, i) + typed.slice(i + 1);
        if (tried.has(initials)) continue;
        tried.add(initials);
        lookup(initials, DOUBLED_ACRONYM_SCORE, `, typed ${typed.toUpperCase()}`);
      }
    }
  }
  for (const acronym of initialsOf(tokens)) {
    if (acronym.length < MIN_QUERY_ACRONYM_LENGTH) continue;
    const v = index.vocabulary.get(acronym);
    if (v === undefined) continue;
    const end = index.postingStart[v + 1] as number;
    for (let p = index.postingStart[v] as number; p < end; p++) {
      const n = index.postingName[p] as number;
      const name = nameAt(index, n);
      if (name.texts.length !== 1 || name.texts[0] !== acronym) continue;
      for (const ref of refsOf(index, n)) {
        hits.push({
          entry: ref.entry,
          display: `${ref.display} (initials of the name screened)`,
          nameScore: ACRONYM_SCORE,
        });
      }
    }
  }
}
