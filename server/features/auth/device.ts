import { encodeHexLowerCase } from "@oslojs/encoding";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { TAppEnv } from "../../lib/context";
import { sign, verifySignature } from "../../lib/signing";

/**
 * OWASP's "device cookie" against lockout: a browser that once logged in to an account keeps a
 * signed cookie naming that account, and its logins are counted on their own, never against the
 * account-wide limit that strangers can fill. See docs/decisions/005-login-throttling.md.
 */
export const DEVICE_COOKIE = "twdevice";
const DEVICE_SECONDS = 365 * 24 * 60 * 60;

/** The device id when the request carries a genuine device cookie issued for this e-mail address. */
export function knownDeviceOf(c: Context<TAppEnv>, email: string): string | null {
  const value = getCookie(c, DEVICE_COOKIE) ?? "";
  for (const entry of value.split("~").slice(0, 8)) {
    const [id, signature] = entry.split(".");
    if (
      id &&
      signature &&
      /^[0-9a-f]{32}$/.test(id) &&
      verifySignature(c.var.secret, ["device", id, email], signature)
    ) {
      return id;
    }
  }
  return null;
}

/** After a successful login: remembers this browser for this account (up to 8 accounts per browser). */
export function rememberDevice(c: Context<TAppEnv>, email: string): void {
  if (knownDeviceOf(c, email)) return;
  const id = encodeHexLowerCase(crypto.getRandomValues(new Uint8Array(16)));
  const entry = `${id}.${sign(c.var.secret, ["device", id, email])}`;
  const others = (getCookie(c, DEVICE_COOKIE) ?? "").split("~").filter(Boolean).slice(0, 7);
  setCookie(c, DEVICE_COOKIE, [entry, ...others].join("~"), {
    httpOnly: true,
    sameSite: "Lax",
    path: "/api",
    secure: c.var.env.appUrl.startsWith("https://"),
    maxAge: DEVICE_SECONDS,
  });
}
