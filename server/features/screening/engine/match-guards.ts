// Guards against the false alarms a fuzzy score gives on short and famous names: a one-word company
// ("Boeing", "Apple", "Shell") one letter away from a one-word vessel or company on the lists
// (BERING, APLEX, SHELF TRADING), three letters that happen to be a listed name's initials. Such a
// hit is still reported as a near miss for review, but it cannot fail the screening on its own.

import { normalizedListName } from "./list-name-memo";
import { TOKEN_WEIGHTS } from "./normalize";
import { tokenSimilarity } from "./score";
import { boundedLevenshtein } from "./similarity";
import type { EntityType, NameToken, NormalizedName } from "./types";

/** The most a guarded hit scores: below any threshold a screening uses in practice. */
export const GUARDED_SCORE_GAP = 0.01;

const VOWELS = "aeiouy";

/** Keys next to each other on a QWERTY keyboard: the letters a slip of the finger swaps. */
export const KEYBOARD_NEIGHBOURS: Record<string, string> = {
  a: "qwsz",
  b: "vghn",
  c: "xdfv",
  d: "serfcx",
  e: "wsdr",
  f: "drtgvc",
  g: "ftyhbv",
  h: "gyujnb",
  i: "ujko",
  j: "huikmn",
  k: "jiolm",
  l: "kop",
  m: "njk",
  n: "bhjm",
  o: "iklp",
  p: "ol",
  q: "wa",
  r: "edft",
  s: "awedxz",
  t: "rfgy",
  u: "yhji",
  v: "cfgb",
  w: "qase",
  x: "zsdc",
  y: "tghu",
  z: "asx",
};

/**
 * Whether `typed` is `listed` with one slip of typing: a letter left out, a letter pressed twice,
 * two neighbours swapped, or a key next to the right one. Other one-letter differences
 * ("Boeing"/"BERING", "Shell"/"SHELF") make another word rather than a mistyped one.
 */
export function isTypingSlip(typed: string, listed: string): boolean {
  if (typed === listed) return true;
  const lt = typed.length;
  const ll = listed.length;
  let i = 0;
  while (i < Math.min(lt, ll) && typed[i] === listed[i]) i++;
  if (lt === ll - 1) return typed.slice(i) === listed.slice(i + 1);
  if (lt === ll + 1) {
    // An extra letter counts only when it doubles its neighbour.
    const extra = typed[i];
    return typed.slice(i + 1) === listed.slice(i) && (extra === typed[i - 1] || extra === typed[i + 1]);
  }
  if (lt !== ll) return false;
  if (typed.slice(i + 1) === listed.slice(i + 1)) {
    // A neighbouring key in a short word more often makes another word ("Tesco"/"TEACO"); in a
    // five-letter word it counts only when it keeps the word's run of vowels and consonants.
    const a = typed[i] as string;
    const b = listed[i] as string;
    const sameShape = VOWELS.includes(a) === VOWELS.includes(b);
    return (
      (lt >= MIN_SUBSTITUTION_WORD || (lt === MIN_SUBSTITUTION_WORD - 1 && sameShape)) &&
      (KEYBOARD_NEIGHBOURS[b] ?? "").includes(a)
    );
  }
  return (
    typed[i] === listed[i + 1] && typed[i + 1] === listed[i] && typed.slice(i + 2) === listed.slice(i + 2)
  );
}

/** Words of eight letters or more may carry one edit per four letters, anywhere. */
const LONG_WORD = 8;
/** Shortest word that may differ from the listed one by a slip of typing. */
const MIN_SLIP_WORD = 4;
/** Shortest word that may differ from the listed one by a neighbouring key. */
const MIN_SUBSTITUTION_WORD = 6;

/** Whether a query word is a listed word mistyped: one slip of typing, or a few in a long word. */
function isMistyped(
  word: { text: string; key: string },
  listed: { text: string; key: string },
  sloppy: boolean,
): boolean {
  if (word.text.length < MIN_SLIP_WORD) return false;
  // Slips are of letters as typed, so on the spelling, not on the folded comparison key.
  if (isTypingSlip(word.text, listed.text)) return true;
  // A query with other words misspelt was typed carelessly: its name word may carry two slips.
  const budget = sloppy
    ? Math.max(2, Math.floor(word.text.length / 3))
    : word.text.length >= LONG_WORD
      ? Math.max(1, Math.floor(word.text.length / 4))
      : 0;
  if (budget === 0) return false;
  return (
    boundedLevenshtein(word.text, listed.text, budget) <= budget ||
    boundedLevenshtein(word.key, listed.key, budget) <= budget
  );
}

function joinedWords(words: ReadonlyArray<{ text: string; key: string }>): { text: string; key: string } {
  return { text: words.map((w) => w.text).join(""), key: words.map((w) => w.key).join("") };
}

/** Whether a query word appears in the list name as it is (by text or comparison key), or as two of its words joined. */
function appearsIn(
  word: NameToken,
  names: ReadonlyArray<{ text: string; key: string }>,
  slips = false,
  sloppy = false,
): boolean {
  for (let i = 0; i < names.length; i++) {
    const t = names[i] as { text: string; key: string };
    // Short words by their spelling only: folded keys of three or four letters coincide too easily
    // ("aqsa" and "axa" share one).
    const byKey = word.text.length >= 5;
    if (t.text === word.text || (byKey && t.key === word.key)) return true;
    if (slips && isMistyped(word, t, sloppy)) return true;
    const next = names[i + 1];
    if (next !== undefined) {
      const joined = { text: t.text + next.text, key: t.key + next.key };
      if (joined.text === word.text || (byKey && joined.key === word.key)) return true;
      if (slips && word.text.length >= LONG_WORD && isMistyped(word, joined, sloppy)) return true;
    }
  }
  return false;
}

/**
 * The score a name hit may keep. A query with one distinctive word matches a list name only when
 * that word is on it as written (after transliteration folding): one word carries the whole
 * identity, and one edit away is a different company. A vessel or aircraft matches a query only
 * when every distinctive word of the query is in its name.
 */
export function guardedScore(
  query: NormalizedName,
  listName: string,
  entityType: EntityType,
  score: number,
  threshold: number,
  /** Whether other words of the query are misspelt (not on the lists, not legal forms). */
  sloppy: () => boolean,
): number {
  if (score < threshold) return score;
  const guarded = threshold - GUARDED_SCORE_GAP;
  // A full score leaves no listed word out: only a lower one may be a look-alike.
  if (score < 1 && fuzzyAndShort(query, listName)) return guarded;
  let core = query.tokens.filter((t) => t.kind === "core");
  const vessel = entityType === "vessel" || entityType === "aircraft";
  // A name of trade words only ("General Electric Company"): each of them is what identifies it.
  const tradeWordsOnly = core.length === 0;
  if (tradeWordsOnly) core = query.tokens.filter((t) => t.weight >= TOKEN_WEIGHTS.industry);
  if (core.length !== 1 && !vessel) return score;
  // Only a name written out as a registered company, with its legal form ("Apple Inc.", "Shell
  // plc"), is held to its words: it is the company's exact name, so a word that differs names
  // another company. A bare word ("Stream") may be a list name mistyped.
  const formal = query.legalForms.length > 0;
  if (!formal && !tradeWordsOnly) return score;
  const listed = normalizedListName(listName).tokens;
  // A word that is a listed word with another last letter is another name (HERMES / HERMEX): endings
  // are where names differ by design, so no other word vouches for it.
  if (
    !tradeWordsOnly &&
    !vessel &&
    core.every((w) => !appearsIn(w, listed) && listed.some((t) => otherEnding(w.text, t.text)))
  )
    return guarded;
  // Another telling word of the query on the listed name as written ("Rossft Oil Company" for
  // ROSNEFT OIL COMPANY) vouches for the fuzzy one.
  if (
    !tradeWordsOnly &&
    !vessel &&
    query.tokens.some((t) => t.kind !== "core" && t.weight >= TOKEN_WEIGHTS.generic && appearsIn(t, listed))
  )
    return score;
  for (const word of core) if (!appearsIn(word, listed, !tradeWordsOnly && !vessel, sloppy())) return guarded;
  // A one-word company written out in full with its legal form ("Mars, Incorporated") is not the
  // listed company with a further word ("MARS INVESTMENT L.L.C").
  // (Unless the one word is the listed words run together: "Roolefope AG" for "ROOL EUROPE AG".)
  if (!vessel && formal && query.tokens.length === 1 && listed.length > 1) {
    const word = query.tokens[0] as NameToken;
    if (listed.length !== 2 || !appearsIn(word, [joinedWords(listed)], true, sloppy())) return guarded;
  }
  return score;
}

/**
 * Whether the query reaches the listed name only with a word it does not share as written, while
 * the listed name has a distinctive word the query lacks altogether: "Golden Freighter" is not
 * GOLDEN STAR INTERNATIONAL FREIGHT LIMITED. Either alone is common (a typo; a name given short),
 * together the query names something else.
 */
function fuzzyAndShort(query: NormalizedName, listName: string): boolean {
  const q = query.tokens;
  if (q.filter((t) => t.kind === "core").length < 2) return false;
  const listed = normalizedListName(listName).tokens;
  // Each word, and each word with its neighbour run together (names split or joined on one side).
  const units = (ts: readonly NameToken[], i: number): Array<{ text: string; key: string }> => {
    const out: Array<{ text: string; key: string }> = [ts[i] as NameToken];
    const prev = ts[i - 1];
    const next = ts[i + 1];
    if (prev !== undefined) out.push(joinedWords([prev, ts[i] as NameToken]));
    if (next !== undefined) out.push(joinedWords([ts[i] as NameToken, next]));
    return out;
  };
  const allUnits = (ts: readonly NameToken[]) => ts.flatMap((_, i) => units(ts, i));
  // Most hits share every word as written: those are told first, without building the joined units.
  let listedUnits: Array<{ text: string; key: string }> | undefined;
  let fuzzy = false;
  for (let i = 0; i < q.length && !fuzzy; i++) {
    const w = q[i] as NameToken;
    if (w.kind !== "core") continue;
    if (listed.some((t) => t.text === w.text || t.key === w.key || isTypingSlip(w.text, t.text))) continue;
    listedUnits ??= allUnits(listed);
    const shared = listedUnits;
    if (units(q, i).some((u) => shared.some((t) => t.text === u.text || t.key === u.key))) continue;
    fuzzy = true;
  }
  if (!fuzzy) return false;
  const queryUnits = allUnits(q);
  return listed.some(
    (t, i) =>
      t.kind === "core" &&
      units(listed, i).every((l) =>
        queryUnits.every((u) => tokenSimilarity(u.key, l.key) === 0 && tokenSimilarity(u.text, l.text) === 0),
      ),
  );
}

/** Whether two words of five letters or more differ in their last letter only. */
function otherEnding(a: string, b: string): boolean {
  return a.length >= 5 && a.length === b.length && a !== b && a.slice(0, -1) === b.slice(0, -1);
}
