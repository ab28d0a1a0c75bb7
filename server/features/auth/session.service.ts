import { encodeBase32LowerCaseNoPadding } from "@oslojs/encoding";
import { and, eq, lt, ne } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { sessions, users } from "../../../db/schema";

const DAY = 24 * 60 * 60;
/** Remember-me: 43200 minutes (30 days), the spec's cookie lifetime. */
export const REMEMBER_ME_SECONDS = 43200 * 60;
/** Without remember-me the cookie dies with the browser; the server forgets an idle session after a day. */
export const SESSION_SECONDS = DAY;

export type TSessionUser = typeof users.$inferSelect;
export type TSession = typeof sessions.$inferSelect;

/** 160 random bits, base32: the token only the client holds. */
export function generateSessionToken(): string {
  return encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
}

/** The session id is the SHA-256 of the token, so a leaked database cannot be replayed as a login. */
export function sessionIdFromToken(token: string): string {
  // Bun's native hasher: every authenticated request pays this, and the JS one costs ~10× more.
  return new Bun.CryptoHasher("sha256").update(token).digest("hex");
}

const now = () => Math.floor(Date.now() / 1000);

/** Starts a session for the user and returns the token to hand to the client. */
export async function createSession(db: TDb, userId: number, rememberMe: boolean) {
  const token = generateSessionToken();
  const session = {
    id: sessionIdFromToken(token),
    user_id: userId,
    expires_at: now() + (rememberMe ? REMEMBER_ME_SECONDS : SESSION_SECONDS),
    remember_me: rememberMe,
  };
  await db.insert(sessions).values(session);
  await db.update(users).set({ last_sign_in_at: new Date().toISOString() }).where(eq(users.id, userId));
  return { token, session };
}

/**
 * Looks the token up; an expired session is deleted, and one used in the last half of its life is
 * extended (sliding expiry), so active users stay logged in and idle ones do not.
 */
export async function validateSessionToken(
  db: TDb,
  token: string,
): Promise<{ session: TSession; user: TSessionUser } | null> {
  if (!/^[a-z2-7]{32}$/.test(token)) return null;
  const id = sessionIdFromToken(token);
  const cache = sessionCacheOf(db);
  const cached = cache.get(id);
  if (cached && cached.until > Date.now() && now() < cached.session.expires_at) {
    return { session: cached.session, user: cached.user };
  }
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .where(eq(sessions.id, id))
    .limit(1);
  if (!row) {
    cache.delete(id);
    return null;
  }
  const { session, user } = row;
  // A removed member's session ends even when it was created while the removal ran (a sign-in
  // whose password check straddled it).
  if (user.removed_at) {
    cache.delete(id);
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  const lifetime = session.remember_me ? REMEMBER_ME_SECONDS : SESSION_SECONDS;
  if (now() >= session.expires_at) {
    cache.delete(id);
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  if (now() >= session.expires_at - lifetime / 2) {
    session.expires_at = now() + lifetime;
    await db.update(sessions).set({ expires_at: session.expires_at }).where(eq(sessions.id, id));
  }
  cache.delete(id);
  cache.set(id, { session, user, until: Date.now() + SESSION_CACHE_MS });
  if (cache.size > SESSION_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return { session, user };
}

/**
 * How long a checked session is trusted without asking the database again. Logout, password
 * changes and profile edits made in this process drop the entries at once (forgetSession,
 * forgetUser); another process sharing the database is noticed within this time.
 */
export const SESSION_CACHE_MS = 500;
const SESSION_CACHE_SIZE = 10_000;
type TCachedSession = { session: TSession; user: TSessionUser; until: number };
/** Per database (tests open several in one process), keyed by session id (the token's SHA-256). */
const SESSION_CACHES = new WeakMap<TDb, Map<string, TCachedSession>>();

function sessionCacheOf(db: TDb): Map<string, TCachedSession> {
  let cache = SESSION_CACHES.get(db);
  if (!cache) {
    cache = new Map();
    SESSION_CACHES.set(db, cache);
  }
  return cache;
}

/** Drops every cached session of a user: call it after changing the user's row. */
export function forgetUser(db: TDb, userId: number): void {
  const cache = sessionCacheOf(db);
  for (const [id, entry] of cache) if (entry.user.id === userId) cache.delete(id);
}

/** Ends one session. */
export async function invalidateSession(db: TDb, sessionId: string): Promise<void> {
  sessionCacheOf(db).delete(sessionId);
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of the user, or every one but `exceptSessionId`. */
export async function invalidateUserSessions(
  db: TDb,
  userId: number,
  exceptSessionId?: string,
): Promise<void> {
  forgetUser(db, userId);
  await db
    .delete(sessions)
    .where(
      exceptSessionId
        ? and(eq(sessions.user_id, userId), ne(sessions.id, exceptSessionId))
        : eq(sessions.user_id, userId),
    );
}

/** Removes expired sessions; called at start and hourly. */
export async function purgeExpiredSessions(db: TDb): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expires_at, now()));
}
