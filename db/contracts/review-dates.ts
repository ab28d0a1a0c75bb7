// Review dates of screening overrides, without zod: the screenings list shows them, and list
// screens do not load zod (re-exported by ./screening).

/** Today as YYYY-MM-DD in UTC, the day review dates are compared with. */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);

/**
 * A whitelisting (an override to passed with a review date) is due for review from that day on:
 * the contact still passes, but shows 'review due' until someone decides again.
 */
export const isReviewDue = (reviewDate: string | null | undefined, today = todayUtc()) =>
  Boolean(reviewDate) && (reviewDate as string) <= today;

/**
 * A contact's screening state as the address book shows and filters it: 'pending' (changed or never
 * screened: never shown as passed), 'failed', 'review_due' (a whitelisting past its review date: still
 * passed, due for a person's look) or 'passed'.
 */
export const CONTACT_SCREENING_STATES = ["failed", "review_due", "pending", "passed"] as const;
export type TContactScreeningState = (typeof CONTACT_SCREENING_STATES)[number];

export const CONTACT_SCREENING_LABELS: Record<TContactScreeningState, string> = {
  failed: "Failed",
  review_due: "Review due",
  pending: "Pending",
  passed: "Passed",
};

/** The state from the contact's pending mark and its newest result (null: never screened). */
export function contactScreeningState(
  isPending: boolean,
  latest: { status: string; review_date: string | null } | null,
  today = todayUtc(),
): TContactScreeningState {
  if (isPending || !latest) return "pending";
  if (latest.status === "failed") return "failed";
  return isReviewDue(latest.review_date, today) ? "review_due" : "passed";
}
