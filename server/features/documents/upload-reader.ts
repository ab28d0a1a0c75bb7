import { rm } from "node:fs/promises";
import path from "node:path";
import type { Context, MiddlewareHandler, Next } from "hono";
import type { TAppEnv } from "../../lib/context";
import type { TDbOrTx } from "../../lib/entity/entity";
import { AppError } from "../../lib/errors";
import { MAX_DOCUMENTS_PER_RECORD, MAX_FILES_PER_REQUEST, MULTIPART_OVERHEAD } from "../../lib/limits";
import { readMultipart, type TMultipartBody } from "../../lib/multipart";
import { readMultipartToDisk } from "../../lib/multipart-spool";
import { countDocuments, type TOwnerColumn } from "./documents.service";

export const TOO_MANY_FILES = `Send at most ${MAX_FILES_PER_REQUEST} files per upload.`;
const NAMELESS_FILE = "Every file needs a name: one of the files was sent without one, so none was stored.";

const uploadTooLarge = (c: Context<TAppEnv>) => {
  const limit = Math.round((c.var.env.uploadMaxBytes / 1024 / 1024) * 10) / 10;
  return new AppError(
    "PAYLOAD_TOO_LARGE",
    `The upload is too large: send at most ${MAX_FILES_PER_REQUEST} files of up to ${limit} MB each.`,
  );
};

/** The body cap of every document upload: the documented files at the configured size, plus framing. */
const uploadMaxBody = (c: Context<TAppEnv>) =>
  c.var.env.uploadMaxBytes * MAX_FILES_PER_REQUEST + MULTIPART_OVERHEAD;

/**
 * Refuses an upload whose Content-Length is over the cap before reading it. A chunked body is
 * counted as it streams to disk (readMultipartToDisk): Hono's bodyLimit would hold it all in memory.
 */
export const uploadBodyLimit = async (c: Context<TAppEnv>, next: Next) => {
  const length = c.req.header("content-length");
  if (length !== undefined && !c.req.header("transfer-encoding") && Number(length) > uploadMaxBody(c)) {
    throw uploadTooLarge(c);
  }
  await next();
};

/** Each upload request's spool folder (set by uploadSpool). */
const spools = new WeakMap<object, string>();

/**
 * Gives an upload request a spool folder under DATA_DIR/uploads/.incoming for its files as they
 * stream in, and removes it once the request is answered, whatever happened.
 */
export const uploadSpool: MiddlewareHandler<TAppEnv> = async (c, next) => {
  const dir = path.join(c.var.env.dataDir, "uploads", ".incoming", crypto.randomUUID());
  spools.set(c, dir);
  try {
    await next();
  } finally {
    // Off the loop and after the answer: unlinking hundreds of megabytes takes the file system a while.
    void rm(dir, { recursive: true, force: true }).catch(() => {});
  }
};

const refuse = (message: string) => new AppError("VALIDATION", message, { errors: { documents: [message] } });

/**
 * The one reader of a document upload (every route that stores files goes through it): the parts
 * are counted in the raw bytes before anything is parsed, so thousands of tiny files are refused in
 * milliseconds; then at most MAX_FILES_PER_REQUEST named files under `documents[]`/`documents`.
 */
export async function readDocumentUpload(
  c: Context<TAppEnv>,
): Promise<{ body: TMultipartBody; files: File[] }> {
  const limits = {
    field: "documents",
    // The files plus the record id and a few stray fields.
    maxParts: MAX_FILES_PER_REQUEST + 4,
    tooManyMessage: TOO_MANY_FILES,
  };
  // Streamed to disk where the route has a spool folder: memory stays at a chunk, not the body.
  const spoolDir = spools.get(c);
  const body = spoolDir
    ? await readMultipartToDisk(c, {
        ...limits,
        maxFileBytes: c.var.env.uploadMaxBytes,
        maxBodyBytes: uploadMaxBody(c),
        tooLarge: () => uploadTooLarge(c),
        spoolDir,
      })
    : await readMultipart(c, limits);
  const files = [body["documents[]"], body.documents]
    .flat()
    .filter((value): value is File => value instanceof File);
  if (files.length === 0) throw refuse("Choose at least one file to upload");
  if (files.length > MAX_FILES_PER_REQUEST) throw refuse(TOO_MANY_FILES);
  // Checked for the whole request before any file is stored: a bad part refuses all of them.
  if (files.some((file) => !file.name?.trim())) throw refuse(NAMELESS_FILE);
  return { body, files };
}

/** Refuses an upload that would take a record past MAX_DOCUMENTS_PER_RECORD documents in all. */
export async function assertRoomForDocuments(
  db: TDbOrTx,
  ownerColumn: TOwnerColumn,
  ownerId: number,
  adding: number,
): Promise<void> {
  const held = await countDocuments(db, ownerColumn, ownerId);
  if (held + adding > MAX_DOCUMENTS_PER_RECORD) {
    throw refuse(
      `This record holds ${held} of at most ${MAX_DOCUMENTS_PER_RECORD} documents: delete some before adding ${adding} more.`,
    );
  }
}
