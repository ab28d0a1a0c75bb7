// List names normalised once, for the checks that read a hit's list name again after scoring (the
// guards, a split reading's words): hits of common words number in the thousands per query, and
// normalising each anew took half of such a query's time.

import { normalizeName } from "./normalize";
import type { NormalizedName } from "./types";

/** List names kept; past this the memo starts again (the lists hold ~40,000 names). */
const LIMIT = 50_000;
let names = new Map<string, NormalizedName>();
let keySets = new Map<string, ReadonlySet<string>>();

/** normalizeName of a list name, remembered. Callers must not change what it returns. */
export function normalizedListName(name: string): NormalizedName {
  let known = names.get(name);
  if (known === undefined) {
    known = normalizeName(name);
    if (names.size >= LIMIT) names = new Map();
    names.set(name, known);
  }
  return known;
}

/** The comparison keys of a list name's words, remembered. */
export function listNameKeys(name: string): ReadonlySet<string> {
  let known = keySets.get(name);
  if (known === undefined) {
    known = new Set(normalizedListName(name).tokens.map((t) => t.key));
    if (keySets.size >= LIMIT) keySets = new Map();
    keySets.set(name, known);
  }
  return known;
}
