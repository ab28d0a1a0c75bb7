import { RATE_WINDOW_SECONDS } from "../lib/rate-limit";

/**
 * Rate limits count in fixed 15-minute windows of the clock (server/lib/rate-limit.ts), so a test
 * that counts attempts up to a limit fails if a window ends in the middle of it: the count starts
 * again at 1. (A CI run at 11:45:00 UTC saw exactly that.) Called first in such a test: when the
 * current window ends within `margin` seconds, waits until the next one has begun.
 */
export async function awayFromRateWindowEdge(marginSeconds = 15): Promise<void> {
  const now = Date.now() / 1000;
  const left = RATE_WINDOW_SECONDS - (now % RATE_WINDOW_SECONDS);
  if (left < marginSeconds) await Bun.sleep(Math.ceil((left + 0.5) * 1000));
}
