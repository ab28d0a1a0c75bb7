import { mkdirSync, rmSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import path from "node:path";
import type { Context } from "hono";
import type { TAppEnv } from "./context";
import { storageFailureOf } from "./disk-space";
import { AppError } from "./errors";
import { multipartBoundary, type TMultipartBody } from "./multipart";

/** Longest header block of one part, and longest plain (non-file) field: an id, a name. */
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_FIELD_BYTES = 64 * 1024;

type TPart = {
  name: string;
  fileName: string | null;
  type: string;
  file: FileHandle | null;
  path: string | null;
  size: number;
  field: Buffer[];
};

/** Largest single write: a big chunk is written in slices, none of which holds the loop. */
const WRITE_SLICE = 1024 * 1024;

function headerValue(headers: string, name: string): string | null {
  const line = headers.split("\r\n").find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : null;
}

/** `name="…"` (or RFC 5987 `name*=UTF-8''…`) of a Content-Disposition value. */
function dispositionParam(value: string, key: string): string | null {
  const extended = new RegExp(`(?:^|;)\\s*${key}\\*=(?:UTF-8'[^']*')?([^;]*)`, "i").exec(value);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ""));
    } catch {}
  }
  const quoted = new RegExp(`(?:^|;)\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, "i").exec(value);
  // Backslashes stay (a Windows path is cut to its last part later); only an escaped quote is undone.
  if (quoted) return quoted[1].replace(/\\"/g, '"');
  const bare = new RegExp(`(?:^|;)\\s*${key}=([^;]*)`, "i").exec(value);
  return bare ? bare[1].trim() : null;
}

/**
 * Reads a multipart/form-data body as it streams in, writing each file part to a file of its own
 * under `spoolDir` instead of holding the body in memory: a maximum-size upload (10 × 25 MB) costs
 * a chunk's worth of memory rather than the body twice over, and the event loop is free between
 * chunks. The parts are counted as they arrive (past `maxParts` a 422 at once, nothing stored);
 * a file part is written up to `maxFileBytes` + 1 bytes (its size then says it was too large);
 * a malformed body is a 422 naming the field. Files come back as lazy File objects over the spooled
 * files, with the client's name and type; the caller removes `spoolDir` when done.
 */
export async function readMultipartToDisk(
  c: Context<TAppEnv>,
  options: {
    field: string;
    maxParts: number;
    tooManyMessage: string;
    maxFileBytes: number;
    /** The whole body's cap, counted as it streams (a chunked body has no Content-Length to check). */
    maxBodyBytes?: number;
    tooLarge?: () => AppError;
    spoolDir: string;
  },
): Promise<TMultipartBody> {
  const refuse = (message: string) =>
    new AppError("VALIDATION", message, { errors: { [options.field]: [message] } });
  const malformed = () => refuse("Send the files as multipart/form-data");
  const boundary = multipartBoundary(c.req.header("content-type"));
  const stream = c.req.raw.body;
  if (!boundary || !stream) throw malformed();
  mkdirSync(options.spoolDir, { recursive: true });

  // The body starts with "--boundary" and every later delimiter is "\r\n--boundary": a leading
  // CRLF makes them all the same.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const headerEnd = Buffer.from("\r\n\r\n");
  let pending: Buffer = Buffer.from("\r\n");
  let state: "preamble" | "headers" | "body" | "done" = "preamble";
  let parts = 0;
  let current: TPart | null = null;
  const finished: TPart[] = [];

  // Asynchronous writes (the thread pool's), in slices: the runtime may hand over tens of
  // megabytes it buffered as one chunk, and a synchronous write of it held the loop for seconds.
  const write = async (data: Buffer) => {
    if (!current || data.length === 0) return;
    if (current.file !== null) {
      const part = current;
      const file = current.file;
      const kept = Math.max(0, Math.min(options.maxFileBytes + 1 - part.size, data.length));
      part.size += data.length;
      for (let at = 0; at < kept; at += WRITE_SLICE)
        await file.write(data.subarray(at, Math.min(kept, at + WRITE_SLICE)));
    } else {
      current.size += data.length;
      if (current.size > MAX_FIELD_BYTES) throw malformed();
      current.field.push(data);
    }
  };
  const finish = async () => {
    if (!current) return;
    const part = current;
    current = null;
    await part.file?.close();
    part.file = null;
    finished.push(part);
  };
  const start = async (headers: string) => {
    const disposition = headerValue(headers, "content-disposition") ?? "";
    const name = dispositionParam(disposition, "name");
    if (!/^form-data\b/i.test(disposition) || name === null) throw malformed();
    const fileName = dispositionParam(disposition, "filename");
    const type = headerValue(headers, "content-type") ?? "application/octet-stream";
    const file = fileName === null ? null : path.join(options.spoolDir, `part-${parts}`);
    current = {
      name,
      fileName,
      type,
      file: file ? await open(file, "w") : null,
      path: file,
      size: 0,
      field: [],
    };
  };

  /** Consumes what `pending` holds; returns when it needs more bytes. */
  const consume = async () => {
    for (;;) {
      if (state === "done") return;
      if (state === "headers") {
        const end = pending.indexOf(headerEnd);
        if (end === -1) {
          if (pending.length > MAX_HEADER_BYTES) throw malformed();
          return;
        }
        await start(pending.subarray(0, end).toString("utf8"));
        pending = pending.subarray(end + headerEnd.length);
        state = "body";
        continue;
      }
      const at = pending.indexOf(delimiter);
      if (at === -1) {
        // Keep what could be the start of a delimiter cut across two chunks.
        const keep = Math.min(pending.length, delimiter.length + 1);
        if (state === "body") await write(pending.subarray(0, pending.length - keep));
        pending = pending.subarray(pending.length - keep);
        return;
      }
      // The two bytes after the delimiter say whether another part follows ("\r\n") or not ("--").
      if (pending.length < at + delimiter.length + 2) {
        if (state === "body") await write(pending.subarray(0, at));
        pending = pending.subarray(at);
        return;
      }
      if (state === "body") {
        await write(pending.subarray(0, at));
        await finish();
      }
      const after = pending.subarray(at + delimiter.length, at + delimiter.length + 2).toString("latin1");
      if (after === "--") {
        state = "done";
        return;
      }
      parts += 1;
      if (parts > options.maxParts) throw refuse(options.tooManyMessage);
      pending = pending.subarray(at + delimiter.length + 2);
      state = "headers";
    }
  };

  // Read through a function: the checker does not see consume() change the state.
  const isDone = () => state === "done";
  const reader = stream.getReader();
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (options.maxBodyBytes !== undefined && received > options.maxBodyBytes) {
        throw options.tooLarge?.() ?? new AppError("PAYLOAD_TOO_LARGE", "The upload is too large.");
      }
      // A view of the chunk, not a copy; joined only to what is left of the last one (a few bytes
      // that may begin a delimiter, or an unfinished header block).
      const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      await consume();
      if (isDone()) break;
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    // A full disk is the server's problem (507 from the error handler), not a malformed body.
    throw error instanceof AppError || storageFailureOf(error) ? error : malformed();
  } finally {
    await (current as TPart | null)?.file?.close();
  }
  if (!isDone()) throw malformed();
  reader.cancel().catch(() => {});

  const body: TMultipartBody = {};
  for (const part of finished) {
    const value =
      part.path === null
        ? Buffer.concat(part.field).toString("utf8")
        : new File([Bun.file(part.path)], part.fileName ?? "", { type: part.type });
    const existing = body[part.name];
    if (existing === undefined) body[part.name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else body[part.name] = [existing, value];
  }
  return body;
}

/** Removes a request's spooled files (they are copied into storage by then, or refused). */
export function removeSpool(spoolDir: string): void {
  rmSync(spoolDir, { recursive: true, force: true });
}
