import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { TEnv } from "../env";
import type { TAppEnv } from "./context";
import { AppError } from "./errors";

/** How many files one document upload request may carry (each up to UPLOAD_MAX_MB). */
export const MAX_FILES_PER_REQUEST = 10;
/** How many documents one record (a product, a licence, a wiki entry, a form) may hold in all. */
export const MAX_DOCUMENTS_PER_RECORD = 100;
/** Room for multipart boundaries, part headers and the id field on top of the files. */
export const MULTIPART_OVERHEAD = 256 * 1024;

/** Account calls carry an e-mail address, a password and a few names: a few kilobytes at most. */
export const AUTH_BODY_LIMIT = 16 * 1024;
/** Any other JSON body: a record of the kit with its lines is far below this. */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** The account routes (no session needed, so anyone can send to them). */
const AUTH_PATHS = /^\/api\/(login|register|logout|forgot\/password|reset\/password\/)/;
/**
 * Routes that take files and set their own, larger limit (a JSON 413 or 422 of their own): document
 * uploads (custom shipment documents too), the CSV import and the two profile images.
 */
const UPLOAD_PATHS =
  /^\/api\/([a-z-]+\/documents\/?$|shipments\/custom-docs\/[0-9]+\/?$|contacts\/upload\/?$|user\/upload(Picture|Signature)\/?$)/;

const kilobytes = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/** Largest body any route accepts: a full document upload. */
export const largestUploadBytes = (env: Pick<TEnv, "uploadMaxBytes">) =>
  env.uploadMaxBytes * MAX_FILES_PER_REQUEST + MULTIPART_OVERHEAD;

/**
 * Bun's own cap on a request body, set above every route's limit so a legal upload is never cut off
 * by the runtime (its 413 has no body) and the routes' JSON 413s are what callers see.
 */
export const serverBodyCap = (env: Pick<TEnv, "uploadMaxBytes">) => largestUploadBytes(env) + 1024 * 1024;

/**
 * Caps every /api body by route before anything reads it: account calls tiny, other JSON calls
 * sized to a record, uploads left to their routes. A Content-Length over the cap is refused without
 * reading; a chunked body is counted as it streams and cut off at the cap. Always a JSON 413.
 */
export const apiBodyLimit = (): MiddlewareHandler<TAppEnv> => async (c, next) => {
  if (c.req.method === "GET" || c.req.method === "HEAD" || UPLOAD_PATHS.test(c.req.path)) return next();
  const maxSize = AUTH_PATHS.test(c.req.path) ? AUTH_BODY_LIMIT : JSON_BODY_LIMIT;
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new AppError(
        "PAYLOAD_TOO_LARGE",
        `The request body is too large (at most ${kilobytes(maxSize)}).`,
      );
    },
  })(c, next);
};

/**
 * True when a database error is SQLite's "busy" (another process holds the write lock past the busy
 * timeout). drizzle wraps the driver's error, so the code sits somewhere down the `cause` chain.
 */
export function isDatabaseBusy(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    const code = String((current as { code?: unknown }).code ?? "");
    const message = current instanceof Error ? current.message : String(current);
    if (/^SQLITE_BUSY/.test(code) || /SQLITE_BUSY|database is locked/.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
