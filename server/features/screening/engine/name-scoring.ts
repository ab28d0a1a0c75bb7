// The name half of a screening: every list name that could reach the reporting floor, found
// through blocking, pruned by an upper bound of its score and scored exactly.

import { addAcronymHits } from "./acronyms";
import { blockingUnits, mayEscapeBlocking, unitCandidates, wordMemos } from "./blocking";
import {
  HIT_CANDIDATE,
  HIT_QUERY,
  LOST_SEEN,
  MATCHED,
  NAME_FLOATS,
  NAME_INTS,
  nameAt,
  QUERY_STAMP,
  refsOf,
  type ScreeningIndex,
  UNIT_SIM,
  UNIT_STAMP,
  UNIT_WEIGHT,
  UNIT_WORDS,
} from "./index-model";
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
import { type LostWord, lostSlotFor, lostWordSimilarity, NO_MEMO, nameWordIds } from "./lost-words";
import { guardedScore } from "./match-guards";
import { normalizeName, tokenKey, wordsOf } from "./normalize";
import { personFormHits } from "./person-names";
import { queryReadings } from "./query-readings";
import {
  CONTAINED_NAME_DISCOUNT,
  mayBeShortForm,
  type PreparedName,
  prepareTokens,
  type SimilarityMemo,
  scorePrepared,
} from "./score";
import {
  ADDRESS_BONUS,
  COUNTRY_BONUS,
  DEFAULT_THRESHOLD,
  minScoreOf,
  type NameHit,
  verdictFloor,
} from "./screen-evidence";
import { letterSet, popCount } from "./similarity";
import type { ListEntry, ScreenOptions } from "./types";

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
    const { vocab: vocabCandidates, sims: vocabSims, exactHit, closeHit } = unitCandidates(index, unit);
    // A word not on the lists as written may have more typos than its deletion keys reach, unless
    // blocking found a list word it is plainly a slip of (FOUND_SIMILARITY). (Words of two or three
    // letters have no deletion keys; the bound's assumed discount keeps their names in reach.)
    // A word shaped like a short form may stand for a longer word whatever else it spells exactly
    // ("Sccs", a slip of "svcs", for "services", though "sks" is a list word).
    const lostBit =
      !unit.isPair &&
      lostUnits.length < 31 &&
      ((!exactHit && !closeHit && mayEscapeBlocking(unit)) ||
        mayBeShortForm(unit.lookups[1] ?? (unit.lookups[0] as string)))
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
        keySet: letterSet(key),
        textSet: letterSet(text),
        mayShorten: mayBeShortForm(text),
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
