// How current the loaded lists are, for the screens that say what a screening was checked against:
// each list's age, a warning past STALE_AFTER_DAYS, and whether the BIS Entity List is there at all
// (the bundled Consolidated Screening List is a sample with a single Entity List row).

import type { ScreeningIndex } from "./engine";
import type { TListVersion } from "./lists.service";

/** A list older than this is flagged on the screening screens: import a newer file. */
export const STALE_AFTER_DAYS = 30;
/** The Consolidated Screening List's source code for the BIS Entity List. */
const ENTITY_LIST = "CSL:EL";

export type TListFreshness = TListVersion & { age_days: number; is_stale: boolean };

const DAY_MS = 86_400_000;

/** Days from a list's publication date (YYYY-MM-DD) to `today`. */
export function listAgeDays(versionDate: string, today: Date): number {
  const published = Date.parse(`${versionDate}T00:00:00Z`);
  if (Number.isNaN(published)) return 0;
  const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Math.max(0, Math.floor((midnight - published) / DAY_MS));
}

const entityListCounts = new WeakMap<ScreeningIndex, number>();

/** How many BIS Entity List entries the index holds (counted once per index). */
export function entityListEntries(index: ScreeningIndex): number {
  let n = entityListCounts.get(index);
  if (n === undefined) {
    n = 0;
    for (let i = 0; i < index.entries.length; i++) if (index.entries.at(i)?.sourceList === ENTITY_LIST) n++;
    entityListCounts.set(index, n);
  }
  return n;
}

export function listFreshness(lists: readonly TListVersion[], today = new Date()): TListFreshness[] {
  return lists.map((l) => {
    const age = listAgeDays(l.version_date, today);
    return { ...l, age_days: age, is_stale: age > STALE_AFTER_DAYS };
  });
}
