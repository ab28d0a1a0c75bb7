import { AppError } from "../errors";

/**
 * Optimistic concurrency for records edited by autosaving forms: a save carries the
 * updated_at it was based on, and a record that changed since is a 409 instead of a lost update.
 */

/** The next updated_at: now, but always later than `previous`, so two saves within one millisecond still differ. */
export function nextUpdatedAt(previous: string | null | undefined): string {
  const now = Date.now();
  const before = previous ? Date.parse(previous) : Number.NaN;
  return new Date(Number.isNaN(before) ? now : Math.max(now, before + 1)).toISOString();
}

/** Thrown inside a write transaction when the stored record is not the one the edit was based on. */
export class StaleRecordError extends Error {
  constructor(readonly id: number) {
    super(`record ${id} changed since it was read`);
  }
}

/** Throws StaleRecordError unless the stored updated_at is the one the client sent. */
export function assertFresh(stored: { id: number; updated_at: unknown }, sent: string): void {
  if (String(stored.updated_at) !== sent) throw new StaleRecordError(stored.id);
}

/** The 409 the API answers for a stale save: the message and the current record, so the client can reload. */
export function staleConflict(message: string, item: Record<string, unknown>): AppError {
  return new AppError("CONFLICT", message, {
    body: { status: { error: true, errorMessage: message }, item },
  });
}
