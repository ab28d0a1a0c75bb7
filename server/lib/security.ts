import { encodeBase64 } from "@oslojs/encoding";
import type { MiddlewareHandler } from "hono";
import type { TAppEnv } from "./context";

/** Content-Security-Policy for a page: scripts only from us or with this request's nonce. */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    // wasm-unsafe-eval lets the reports screen compile Perspective's WebAssembly; it allows no JS eval.
    `script-src 'self' 'nonce-${nonce}' 'wasm-unsafe-eval'`,
    // Radix positions popovers with inline style attributes, so styles need 'unsafe-inline'.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** One year: browsers keep to HTTPS for the origin that long after a visit. */
const HSTS = "max-age=31536000; includeSubDomains";

/**
 * Sets a fresh nonce and the security headers on every response. API answers carry personal data
 * or tokens, so unless a route chose its own caching (an avatar), no browser or proxy keeps them;
 * HSTS only when the app is served over HTTPS (sent over plain HTTP it would be ignored anyway).
 */
export const securityHeaders = (): MiddlewareHandler<TAppEnv> => async (c, next) => {
  c.set("nonce", encodeBase64(crypto.getRandomValues(new Uint8Array(16))));
  await next();
  if (c.req.path.startsWith("/api/") && !c.res.headers.has("Cache-Control")) {
    c.header("Cache-Control", "no-store");
  }
  if (c.var.env?.appUrl.startsWith("https://")) c.header("Strict-Transport-Security", HSTS);
  // A response that set its own policy keeps it (the inline PDF preview must be viewable and framable by us).
  if (!c.res.headers.has("Content-Security-Policy")) {
    c.header("Content-Security-Policy", contentSecurityPolicy(c.var.nonce));
    c.header("X-Frame-Options", "DENY");
  }
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "strict-origin-when-cross-origin");
  c.header("Cross-Origin-Opener-Policy", "same-origin");
};
