// Screening a counterparty against the in-memory index of the restricted-party lists. The index is
// built in index-build.ts and shaped as index-model.ts describes; a screening is its name half
// (name-scoring.ts: blocking, pruning, exact scoring) and its evidence half (screen-evidence.ts:
// country and address, verdict, ranking).

import type { ScreeningIndex } from "./index-model";
import { scoreName } from "./name-scoring";
import { normalizeName } from "./normalize";
import { mayHaveReadings } from "./query-readings";
import { type NameHit, screenWithHits } from "./screen-evidence";
import type { ScreenOptions, ScreenQuery, ScreenResult } from "./types";

export { ACRONYM_SCORE, DOUBLED_ACRONYM_SCORE, initialsOf } from "./acronyms";
export { buildIndex } from "./index-build";
export {
  type EntryStore,
  type IndexStats,
  makeScratch,
  type NameField,
  nameAt,
  refsOf,
  type ScreeningIndex,
} from "./index-model";
export { scoreName } from "./name-scoring";
export {
  ADDRESS_BONUS,
  COUNTRY_BONUS,
  DEFAULT_THRESHOLD,
  type NameHit,
  screenWithHits,
} from "./screen-evidence";

/**
 * Screens one counterparty against the index. Scores are 0..1; `failed` when the best entry scores
 * at or above `threshold` (default 0.85), `multiple` when more than one distinct entry does.
 * `matches` lists entries scoring at least `minScore` (default threshold - 0.1), best first.
 */
export function screen(index: ScreeningIndex, query: ScreenQuery, options: ScreenOptions = {}): ScreenResult {
  return screenWithHits(index, scoreName(index, query.name ?? "", options), query, options);
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
