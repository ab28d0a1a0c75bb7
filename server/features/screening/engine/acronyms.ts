// Initials and acronyms: the initials a listed name is abbreviated to (indexed at build time), and
// the hits of a query that is, or expands, a listed acronym.

import { nameAt, refsOf, type ScreeningIndex } from "./index-model";
import { EDGE_LEGAL_FORMS, LEADING_LEGAL_FORMS, MULTI_WORD_LEGAL_FORMS } from "./lexicon";
import type { NameHit } from "./screen-evidence";
import type { ListEntry, NameToken } from "./types";

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
export const SINGLE_LETTER = /(^|[^\p{L}\p{N}'’])\p{L}($|[^\p{L}\p{N}'’])/u;

/**
 * Words as wordsOf writes them, except that a run of single letters followed by a word of the name
 * stays letters ("b k sales" -> b, k, sales); a run before a legal form or at the end is joined as
 * usual ("I.C.I.C. LTD." is "icic ltd", not four initials of which "C" could pass for a form).
 */
export function lettersApart(raw: readonly string[]): string[] {
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

/**
 * Acronyms against expansions, both ways: a one-word query that is the initials of a listed name
 * ("IRISL"), and a query of three or more words whose initials are a listed one-word name or alias
 * ("Islamic Revolutionary Guard Corps" for "IRGC"). Exact initials only: they carry no typo budget.
 */
export function addAcronymHits(index: ScreeningIndex, tokens: readonly NameToken[], hits: NameHit[]): void {
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
