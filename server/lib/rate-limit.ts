import { lt, or, sql } from "drizzle-orm";
import type { TDb } from "../../db/client";
import { rate_limits } from "../../db/schema";
import { storageFailureOf } from "./disk-space";
import { AppError } from "./errors";

export const RATE_WINDOW_SECONDS = 15 * 60;

/**
 * Counts one attempt against each key in a fixed 15-minute window and refuses (429 with
 * Retry-After) once any key is over `limit`. The counters live in the database, in one atomic
 * upsert per key, so limits hold across restarts and across several server processes.
 */
export async function consumeRateLimit(db: TDb, keys: string[], limit: number): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const windowStart = now - (now % RATE_WINDOW_SECONDS);
  let retryAfter = 0;
  for (const key of keys) {
    let row: { count: number } | undefined;
    try {
      [row] = await db
        .insert(rate_limits)
        .values({ key, window_start: windowStart, count: 1 })
        .onConflictDoUpdate({
          target: rate_limits.key,
          set: {
            count: sql`case when ${rate_limits.window_start} = ${windowStart} then ${rate_limits.count} + 1 else 1 end`,
            window_start: windowStart,
          },
        })
        .returning({ count: rate_limits.count });
    } catch (error) {
      // A full or read-only disk must not stop sign-ins: the attempt goes uncounted (the password
      // hash still makes each guess slow), and writes elsewhere answer 507 meanwhile.
      if (storageFailureOf(error)) continue;
      throw error;
    }
    if (row && row.count > limit) retryAfter = Math.max(retryAfter, windowStart + RATE_WINDOW_SECONDS - now);
  }
  if (retryAfter > 0) {
    const minutes = Math.ceil(retryAfter / 60);
    throw new AppError(
      "RATE_LIMITED",
      `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
      { headers: { "Retry-After": String(retryAfter) } },
    );
  }
}

/** Drops counters of windows that have ended. */
export async function purgeRateLimits(db: TDb): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  await db.delete(rate_limits).where(lt(rate_limits.window_start, now - RATE_WINDOW_SECONDS));
}

/**
 * Forgets the login failures counted against an account, from everywhere (after its owner proved
 * control of the address with a reset link). Per-IP counters stay: they limit the guesser, not the
 * account.
 */
export async function clearLoginFailures(db: TDb, email: string): Promise<void> {
  const escaped = email.replace(/[\\%_]/g, (ch) => `\\${ch}`);
  await db
    .delete(rate_limits)
    .where(
      or(
        sql`${rate_limits.key} = ${`login:account:${email}`}`,
        sql`${rate_limits.key} like ${`login:ip-account:%:${escaped}`} escape '\\'`,
      ),
    );
}
