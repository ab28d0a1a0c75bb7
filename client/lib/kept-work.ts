/**
 * A copy of unsaved form values in the browser's storage, so work survives a reload, a closed tab or
 * a lost connection until the server has it. One entry per record; values are JSON.
 */

const PREFIX = "tradewinds.unsaved-work.";

export type TKeptWork<T> = {
  /** The form's values (and whatever the form needs to show them again). */
  snapshot: T;
  /** When the copy was taken (ISO). */
  keptAt: string;
  /** The record's updated_at the edit was based on. */
  baseUpdatedAt: string | null;
};

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    // Storage blocked (privacy settings): there is no copy to keep, the autosave still works.
    return null;
  }
}

/** Keeps (replaces) the copy for a record. A full or blocked storage keeps nothing and says nothing. */
export function keepWork<T>(key: string, snapshot: T, baseUpdatedAt: string | null, now = new Date()): void {
  const entry: TKeptWork<T> = { snapshot, keptAt: now.toISOString(), baseUpdatedAt };
  try {
    storage()?.setItem(PREFIX + key, JSON.stringify(entry));
  } catch {
    // Quota exceeded: the autosave keeps trying; only the local copy is missing.
  }
}

/** The kept copy for a record, or null (none, or unreadable). */
export function readKeptWork<T>(key: string): TKeptWork<T> | null {
  const text = storage()?.getItem(PREFIX + key);
  if (!text) return null;
  try {
    const entry = JSON.parse(text) as TKeptWork<T>;
    return entry && typeof entry === "object" && "snapshot" in entry ? entry : null;
  } catch {
    return null;
  }
}

/** Drops the copy: the server has everything, or the user chose to discard it. */
export function forgetWork(key: string): void {
  storage()?.removeItem(PREFIX + key);
}
