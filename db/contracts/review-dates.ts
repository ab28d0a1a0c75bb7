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
