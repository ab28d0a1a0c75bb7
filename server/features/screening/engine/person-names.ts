// A listed person named the way people are named in correspondence: a title and the surname
// ("Präsident Putin", "Президент Путин"), initials and the surname ("V. V. Putin", "Ali A.
// Velayati"), or a shortened given name ("Nic Maduro"). Lists write individuals "SURNAME, Given
// Names"; such a query matches when its surname is the listed one and every other word is a
// title, or abbreviates a distinct given name of that person, in order.

import type { EntryStore } from "./index-model";
import { tokenKey, wordsOf } from "./normalize";
import type { ListEntry } from "./types";

/** Score of a person matched by surname plus given-name initials or a title. */
export const PERSON_FORM_SCORE = 0.9;
/** A surname more than this many listed people share does not identify one on a title alone. */
const DISTINCTIVE_SURNAME_ENTRIES = 2;
/** Shortest surname matched this way. */
const MIN_SURNAME = 4;

/** Titles and offices written before a surname, in the languages names reach the lists from. */
const TITLES: ReadonlySet<string> = new Set([
  "mr",
  "mrs",
  "ms",
  "dr",
  "prof",
  "sir",
  "president",
  "presidente",
  "prezident",
  "prasident",
  "praesident",
  "presedintele",
  "presedinte",
  "prezydent",
  "predsednik",
  "prezidentas",
  "premier",
  "minister",
  "ministre",
  "chairman",
  "general",
  "gen",
  "colonel",
  "col",
  "major",
  "marshal",
  "admiral",
  "commander",
  "king",
  "emir",
  "amir",
  "prince",
  "sheikh",
  "shaikh",
  "shaykh",
  "sheik",
  "ayatollah",
  "mullah",
  "imam",
  "senator",
  "deputy",
  "governor",
  "director",
  "herr",
  "frau",
  "monsieur",
  "madame",
  "senor",
  "senora",
  "gospodin",
  "tovarishch",
  "hon",
  "honourable",
  "excellency",
  "his",
  "her",
]);

interface ListedPerson {
  entry: number;
  display: string;
  /** Given names, folded, in the list's order. */
  given: string[];
}

const surnameStore = new WeakMap<EntryStore, Map<string, ListedPerson[]>>();

/** Listed individuals by the comparison key of their surname (the part before the comma). */
function surnames(entries: EntryStore): Map<string, ListedPerson[]> {
  let map = surnameStore.get(entries);
  if (map !== undefined) return map;
  map = new Map();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries.at(i) as ListEntry;
    if (entry.entityType !== "individual") continue;
    const seen = new Set<string>();
    for (const written of [entry.name, ...entry.aliases]) {
      const comma = written.indexOf(",");
      if (comma <= 0) continue;
      const surnameWords = wordsOf(written.slice(0, comma), true);
      const given = wordsOf(written.slice(comma + 1), true);
      if (surnameWords.length === 0 || given.length === 0) continue;
      // A compound surname is found by each of its words ("MADURO MOROS" by "Maduro").
      for (const word of surnameWords) {
        if (word.length < MIN_SURNAME) continue;
        const key = tokenKey(word);
        const once = `${key}\u0000${i}`;
        if (seen.has(once)) continue;
        seen.add(once);
        const people = map.get(key) ?? [];
        people.push({ entry: i, display: written, given });
        map.set(key, people);
      }
    }
  }
  surnameStore.set(entries, map);
  return map;
}

/** Whether the query's given-name parts abbreviate distinct given names of the person, in order. */
function givenMatch(parts: readonly string[], given: readonly string[]): boolean {
  let g = 0;
  for (const part of parts) {
    let found = false;
    while (g < given.length) {
      const name = given[g++] as string;
      const initial = part.length === 1 && name[0] === part;
      const prefix = part.length >= 3 && (name.startsWith(part) || tokenKey(name).startsWith(tokenKey(part)));
      if (initial || prefix || tokenKey(name) === tokenKey(part)) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

export interface PersonHit {
  entry: number;
  display: string;
  nameScore: number;
}

/** Listed people the name refers to by title, initials or a shortened given name and surname. */
export function personFormHits(entries: EntryStore, queryName: string): PersonHit[] {
  const words = wordsOf(queryName, true);
  if (words.length < 2 || words.length > 4) return [];
  const titled = words.filter((w) => TITLES.has(w));
  const rest = words.filter((w) => !TITLES.has(w));
  if (rest.length === 0) return [];
  // Without a title, a hit needs a shortened given name (four letters at most) beside the surname.
  if (titled.length === 0 && rest.every((w) => w.length > 4)) return [];
  const map = surnames(entries);
  const hits: PersonHit[] = [];
  // The surname is written first or last.
  for (const at of new Set([0, rest.length - 1])) {
    const surname = rest[at] as string;
    if (surname.length < MIN_SURNAME) continue;
    const people = map.get(tokenKey(surname));
    if (people === undefined) continue;
    const parts = rest.filter((_, i) => i !== at);
    const distinct = new Set(people.map((p) => p.entry)).size;
    for (const person of people) {
      if (parts.length === 0) {
        // A title and a surname: only a surname few listed people bear.
        if (titled.length === 0 || distinct > DISTINCTIVE_SURNAME_ENTRIES) continue;
      } else {
        // Given-name parts must be shortened ones (initials, "Nic"): full given names are the
        // ordinary matcher's business. A lone initial needs a distinctive surname.
        if (!parts.some((p) => p.length <= 4)) continue;
        if (
          parts.every((p) => p.length === 1) &&
          parts.length === 1 &&
          distinct > DISTINCTIVE_SURNAME_ENTRIES
        )
          continue;
        if (!givenMatch(parts, person.given)) continue;
      }
      hits.push({ entry: person.entry, display: person.display, nameScore: PERSON_FORM_SCORE });
    }
  }
  return hits;
}
