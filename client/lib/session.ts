import { useSyncExternalStore } from "react";
import type { TPublicUser } from "../../db/contracts/auth";
import { ApiError, type TApi } from "./api";
import { forgetOfflinePages } from "./offline";

/**
 * Who is signed in, as the router knows it. The server makes one per request; the browser keeps
 * one for the page's life, so navigating does not ask /api/user again until login, logout or a 401
 * changes it. `undefined` means not asked yet.
 */
export type TSessionStore = { user: TPublicUser | null | undefined };

export function createSessionStore(user?: TPublicUser | null): TSessionStore {
  return { user };
}

/** The signed-in user (null when logged out), asking the API once per store. */
export async function loadUser(api: TApi, store: TSessionStore): Promise<TPublicUser | null> {
  if (store.user !== undefined) return store.user;
  try {
    store.user = (await api.get<{ user: TPublicUser }>("/user")).user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) store.user = null;
    else throw error;
  }
  return store.user;
}

/** Control characters, whitespace and backslashes: URL parsers drop or rewrite them. */
const isUnsafeInPath = (ch: string) => {
  const code = ch.charCodeAt(0);
  return code < 0x20 || code === 0x7f || ch === "\\" || /\s/.test(ch);
};

/**
 * Only same-site paths are allowed as a post-login destination, so `next` cannot send a user
 * elsewhere. URL parsers drop tabs and line breaks, so `/\t/evil.test` would become `//evil.test`:
 * control characters, whitespace and backslashes are refused, and the path must resolve to our origin.
 */
export function safeNext(next: unknown): string | undefined {
  if (typeof next !== "string" || next.length > 2048) return undefined;
  if (!next.startsWith("/") || next.startsWith("//") || [...next].some(isUnsafeInPath)) return undefined;
  try {
    const base = "http://app.invalid";
    const url = new URL(next, base);
    return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : undefined;
  } catch {
    return undefined;
  }
}

// A 401 from any API call while the user thought they were signed in: the client logs out and asks to log in.
let isExpired = false;
const listeners = new Set<() => void>();

/** Marks the session as ended by the server (spec: a 401 logs the user out). */
export function notifySessionExpired(): void {
  isExpired = true;
  // The server ended the session: the pages kept for offline use go with it.
  void forgetOfflinePages();
  for (const listener of listeners) listener();
}

export function clearSessionExpired(): void {
  isExpired = false;
  for (const listener of listeners) listener();
}

/** True after a 401, until the user logs in again. */
export function useSessionExpired(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => isExpired,
    () => false,
  );
}
