import type { Context } from "hono";
import type { TAppEnv } from "./context";
import { AppError } from "./errors";

export type TMultipartBody = Record<string, string | File | (string | File)[]>;

/** The boundary of a multipart/form-data Content-Type, or null when it is not one. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : null;
}

/**
 * How many parts a multipart body holds, counted as delimiter lines in the raw bytes, stopping once
 * past `stopAfter`. Native indexOf per part: microseconds even for thousands of parts.
 */
export function countMultipartParts(bytes: Uint8Array, boundary: string, stopAfter: number): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const delimiter = Buffer.from(`--${boundary}`);
  let delimiters = 0;
  let at = buffer.indexOf(delimiter, 0);
  while (at !== -1 && delimiters <= stopAfter + 1) {
    delimiters += 1;
    at = buffer.indexOf(delimiter, at + delimiter.length);
  }
  // n parts are framed by n + 1 delimiters (the last one closes the body).
  return Math.max(0, delimiters - 1);
}

/**
 * Reads a multipart/form-data body safely: the parts are counted before anything is parsed (a body
 * of thousands of tiny files is refused at once with a 422), and a malformed body is a 422 naming
 * the field, never a 500. Returns the fields like Hono's parseBody({ all: true }).
 */
export async function readMultipart(
  c: Context<TAppEnv>,
  options: { field: string; maxParts: number; tooManyMessage: string },
): Promise<TMultipartBody> {
  const malformed = () =>
    new AppError("VALIDATION", "Send the files as multipart/form-data", {
      errors: { [options.field]: ["Send the files as multipart/form-data"] },
    });
  const contentType = c.req.header("content-type");
  const boundary = multipartBoundary(contentType);
  if (!boundary) throw malformed();
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (countMultipartParts(bytes, boundary, options.maxParts) > options.maxParts) {
    throw new AppError("VALIDATION", options.tooManyMessage, {
      errors: { [options.field]: [options.tooManyMessage] },
    });
  }
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": contentType ?? "" } }).formData();
  } catch {
    throw malformed();
  }
  const body: TMultipartBody = {};
  for (const [key, value] of form.entries()) {
    const existing = body[key];
    if (existing === undefined) body[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else body[key] = [existing, value];
  }
  return body;
}
