import type { Context, MiddlewareHandler } from "hono";
import { getConnInfo } from "hono/bun";
import { getCookie } from "hono/cookie";
import type { TAppEnv } from "../../lib/context";
import { AppError, unauthenticated } from "../../lib/errors";
import { checkWriteRight } from "../members/roles";
import { validateSessionToken } from "./session.service";

export const SESSION_COOKIE = "twsession";
const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The session token of a request: the Bearer header (API clients, the CLI) or the twsession cookie. */
export function readSessionToken(c: Context): { token: string; via: "bearer" | "cookie" } | null {
  const header = c.req.header("authorization");
  if (header?.toLowerCase().startsWith("bearer ")) return { token: header.slice(7).trim(), via: "bearer" };
  const cookie = getCookie(c, SESSION_COOKIE);
  return cookie ? { token: cookie, via: "cookie" } : null;
}

/**
 * Guards a router: without a valid session the answer is 401 'Authentication failed'. A
 * cookie-authenticated request that changes state must come from our own origin (403 otherwise),
 * which stops cross-site request forgery; Bearer requests cannot be forged by a browser.
 */
export const requireAuth =
  (options: { allowQueryToken?: string } = {}): MiddlewareHandler<TAppEnv> =>
  async (c, next) => {
    if (c.var.auth) {
      checkWriteRight(c);
      return next();
    }
    let found = readSessionToken(c);
    if (!found && options.allowQueryToken) {
      const token = c.req.query(options.allowQueryToken);
      if (token) found = { token, via: "bearer" };
    }
    if (!found) throw unauthenticated();
    const result = await validateSessionToken(c.var.db, found.token);
    if (!result) throw unauthenticated();
    if (found.via === "cookie" && STATE_CHANGING.has(c.req.method) && !isSameOrigin(c)) {
      throw new AppError("FORBIDDEN", "Cross-origin request refused");
    }
    c.set("auth", { user: result.user, session: result.session, workspaceId: result.user.workspace_id });
    // Every call that writes needs its role (server/features/members/roles.ts): 403 naming it.
    checkWriteRight(c);
    await next();
  };

/** The caller's session when there is a valid one, without requiring it (public calls that adapt). */
export async function optionalAuth(c: Context<TAppEnv>) {
  if (c.var.auth) return c.var.auth;
  const found = readSessionToken(c);
  const result = found ? await validateSessionToken(c.var.db, found.token) : null;
  return result
    ? { user: result.user, session: result.session, workspaceId: result.user.workspace_id }
    : null;
}

/** The header the app's own API client sends on every call; another site cannot add it without CORS. */
export const APP_REQUEST_HEADER = "x-tradewinds-request";

/**
 * Proof that a cookie-authenticated request comes from our own pages: the browser's Sec-Fetch-Site
 * says same-origin, or the app's own header is present (a cross-site page cannot set it: it would need
 * a CORS preflight we never grant), or, from older browsers, Origin/Referer name our origin.
 */
export function isSameSiteRequest(c: Context<TAppEnv>): boolean {
  const site = c.req.header("sec-fetch-site");
  if (site === "same-origin") return true;
  if (site) return false;
  if (c.req.header(APP_REQUEST_HEADER)) return true;
  return isSameOrigin(c);
}

/**
 * True when the request's Origin (or, lacking it, Referer) is APP_URL's origin or the origin the
 * request was sent to. A cross-site page cannot forge either: the browser sets Origin to the page's
 * site and Host to ours. Accepting our own Host lets http://127.0.0.1:8000 work when APP_URL says
 * localhost.
 */
export function isSameOrigin(c: Context<TAppEnv>): boolean {
  const allowed = new Set([new URL(c.var.env.appUrl).origin, new URL(c.req.url).origin]);
  const origin = c.req.header("origin");
  if (origin) return allowed.has(origin);
  const referer = c.req.header("referer");
  if (!referer) return false;
  try {
    return allowed.has(new URL(referer).origin);
  } catch {
    return false;
  }
}

/**
 * The caller's IP for rate limits: the socket's address, or behind TRUST_PROXY=N trusted proxies the
 * Nth X-Forwarded-For entry from the right, the address our outermost proxy saw. Entries left of it
 * come from the client and prove nothing (taking the leftmost let anyone pick a fresh IP per try).
 */
export function clientIp(c: Context<TAppEnv>): string {
  const hops = c.var.env.proxyHops ?? (c.var.env.trustProxy ? 1 : 0);
  if (hops > 0) {
    const entries = (c.req.header("x-forwarded-for") ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (entries.length >= hops) return entries[entries.length - hops];
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    // app.request() in tests has no socket.
    return "unknown";
  }
}

/** The signed-in caller inside a guarded router. */
export function authOf(c: Context<TAppEnv>) {
  const auth = c.var.auth;
  if (!auth) throw unauthenticated();
  return auth;
}
