import type { Context } from "hono";
import {
  holdsRight,
  parseRoles,
  ROLE_LABELS,
  type TRole,
  type TWriteRight,
} from "../../../db/contracts/members";
import type { TAppEnv } from "../../lib/context";
import { forbidden } from "../../lib/errors";

export type { TWriteRight };
export { holdsRight };

/**
 * The role every writing API call needs, as method + path pattern, first match wins. The account's
 * own calls are open to every member; admin governs the workspace; compliance releases what
 * screening and export control hold; the shipper's work is everything else. A GET that changes state
 * (the screening override) is listed too. The role test walks the app's routes and fails for a
 * writing route missing here.
 */
export const WRITE_RIGHTS: [method: string, path: RegExp, right: TWriteRight][] = [
  ["POST", /^\/api\/logout$/, "member"],
  ["*", /^\/api\/user(?:\/|$)/, "member"],
  ["*", /^\/api\/workspace\/(?:members|settings)(?:\/|$)/, "admin"],
  ["*", /^\/api\/exporter-profile(?:\/|$)/, "admin"],
  ["POST", /^\/api\/export-control\/editions$/, "admin"],
  ["PUT", /^\/api\/paperwork\/settings$/, "admin"],
  ["*", /^\/api\/screenings\/override$/, "compliance"],
  ["*", /^\/api\/screenings\/review-dates?(?:\/|$)/, "compliance"],
  ["*", /^\/api\/(?:contacts|products|licenses|wikis|shipping-documents|partner-types)(?:\/|$)/, "shipper"],
  ["*", /^\/api\/(?:shipments|paperwork|export-control)(?:\/|$)/, "shipper"],
];

const WRITING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The right a call needs: writes by the table (shipper when unlisted); reads need none. */
export function writeRightOf(method: string, path: string): TWriteRight | null {
  if (!WRITING.has(method) && !isStateChangingGet(method, path)) return null;
  const found = WRITE_RIGHTS.find(([m, pattern]) => (m === "*" || m === method) && pattern.test(path));
  return found?.[2] ?? "shipper";
}

/** GETs that change state: the spec's screening override call. */
const isStateChangingGet = (method: string, path: string) =>
  method === "GET" && /^\/api\/screenings\/override$/.test(path);

/** The 403 naming the role that is missing. */
export const roleRefused = (right: TRole) =>
  forbidden(`This needs the ${ROLE_LABELS[right]} role. Ask an admin of your workspace to grant it.`);

/** Refuses the call (403 naming the role) unless the signed-in member holds the right. */
export function requireRole(c: Context<TAppEnv>, right: TRole): void {
  const roles = parseRoles(c.var.auth?.user.roles);
  if (!holdsRight(roles, right)) throw roleRefused(right);
}

/** The central check requireAuth makes for every call once the caller is known. */
export function checkWriteRight(c: Context<TAppEnv>): void {
  const right = writeRightOf(c.req.method, c.req.path);
  if (right && right !== "member") requireRole(c, right);
}
