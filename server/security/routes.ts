/**
 * The API's route list, read from the Hono app itself, so the security suite covers every endpoint
 * that exists, including those merged after it was written (shipments, paperwork).
 */
import type { TApp } from "../app";

export type TRoute = { method: string; path: string };

/** Account calls anyone may make without a session; not workspace data. */
export const PUBLIC_ROUTES = new Set([
  "GET /api/health",
  "GET /api/dictionary",
  "POST /api/register",
  "POST /api/login",
  "POST /api/logout",
  "GET /api/logout",
  "POST /api/forgot/password",
  "POST /api/reset/password/user/:userId",
  "GET /api/verify/email/user",
  "GET /api/invitations/:id",
  "POST /api/invitations/:id/accept",
]);

/** `:id{[1-9][0-9]{0,15}}` → `:id`: the route as people write it. */
export const plainPath = (path: string) => path.replace(/(:[A-Za-z_]+)\{[^/]*\}(?=\/|$)/g, "$1");

/** Every concrete /api route (method + path), without the middleware entries, deduplicated. */
export function apiRoutes(app: TApp): TRoute[] {
  const seen = new Set<string>();
  const routes: TRoute[] = [];
  for (const route of app.routes) {
    if (route.method === "ALL" || !route.path.startsWith("/api/") || route.path.endsWith("*")) continue;
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    routes.push({ method: route.method, path: route.path });
  }
  return routes;
}

/** The route's parameters, e.g. ["id"] for /api/contacts/:id{…}/edit. */
export const paramsOf = (path: string) => [...plainPath(path).matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);

/** The path with each parameter replaced by the given value. */
export const fillPath = (path: string, value: (name: string) => string) =>
  plainPath(path).replace(/:([A-Za-z_]+)/g, (_, name: string) => value(name));
