// The evidence half of a screening: country and address bonuses on a name's hits, the verdict and
// the ranked matches, and the score floors both halves share.

import { toCountryCode } from "./countries";
import { HAS_DIGIT } from "./hash-keys";
import type { ScreeningIndex } from "./index-model";
import { addressWords } from "./normalize";
import type { ListEntry, ScreenMatch, ScreenOptions, ScreenQuery, ScreenResult } from "./types";

/** Default score at or above which a screening fails. */
export const DEFAULT_THRESHOLD = 0.85;
/** Added when the query country is one of the entry's countries: supporting evidence only. */
export const COUNTRY_BONUS = 0.03;
/** Added when the query address shares distinctive words with one of the entry's addresses. */
export const ADDRESS_BONUS = 0.02;
// Country and address only lift a name that already resembles the entry.
const BONUS_MIN_NAME_SCORE = 0.5;

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

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}

/** The lowest score scoreName prunes at, whatever the reporting floor: the default floor. */
export function verdictFloor(options: ScreenOptions): number {
  return Math.max(0, (options.threshold ?? DEFAULT_THRESHOLD) - 0.1);
}

/** The lowest score `screen` reports for these options (near misses shown for review). */
export function minScoreOf(options: ScreenOptions): number {
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
