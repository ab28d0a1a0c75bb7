import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { TUploadProgress } from "../../../db/contracts/contacts";
import type { TAppEnv } from "../../lib/context";
import { createEntityRoutes, readJson } from "../../lib/entity/entity.routes";
import { AppError } from "../../lib/errors";
import { yieldToLoop } from "../../lib/event-loop";
import { readMultipart } from "../../lib/multipart";
import { authOf } from "../auth/auth.middleware";
import { decodeUtf8, ImportFileError, importContacts } from "./contact-import";
import { importInChild } from "./contact-import-child";
import { importOffThread } from "./contact-import-off-thread";
import { contactsEntity } from "./contacts.entity";

/** How much CSV is parsed between two yields (about 150 rows: a millisecond or two). */
const IMPORT_SLICE_BYTES = 16 * 1024;

const DATA_URL = /^data:([^;,]*)(;[^,]*)?,/;

/** The file in slices with a yield between them, so parsing a big import never holds the loop long. */
async function* inSlices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += IMPORT_SLICE_BYTES) {
    yield bytes.subarray(at, at + IMPORT_SLICE_BYTES);
    await yieldToLoop();
  }
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** 413 naming the limit; `result` is the spec's sign of failure for the import client. */
function fileTooLarge(maxBytes: number): AppError {
  const message = `Import failed: the file is larger than ${megabytes(maxBytes)}.`;
  return new AppError("PAYLOAD_TOO_LARGE", message, { body: { result: message } });
}

/**
 * The uploaded CSV as a byte stream: multipart (field csv_upload or file) or the spec's JSON data
 * URL. The request limit leaves room for base64 and multipart framing, so the file itself is
 * checked against UPLOAD_MAX_MB here.
 */
async function uploadedCsv(c: Context<TAppEnv>): Promise<Uint8Array> {
  const maxBytes = c.var.env.uploadMaxBytes;
  const type = c.req.header("content-type") ?? "";
  if (type.startsWith("multipart/form-data")) {
    const body = await readMultipart(c, {
      field: "csv_upload",
      maxParts: 4,
      tooManyMessage: "Send one CSV file at a time.",
    }).catch((error) => {
      // The import's own failure shape (data.result), like every other unreadable upload.
      if (error instanceof AppError && error.code === "VALIDATION") throw new ImportFileError(error.message);
      throw error;
    });
    const file = [body.csv_upload ?? body.file].flat()[0];
    if (!(file instanceof File)) throw new ImportFileError('Choose one CSV file (form field "csv_upload").');
    if (file.size > maxBytes) throw fileTooLarge(maxBytes);
    if (file.size === 0) throw new ImportFileError("The file is empty.");
    return new Uint8Array(await file.arrayBuffer());
  }
  const json = (await readJson(c)) as { csv_upload?: unknown };
  const url = typeof json?.csv_upload === "string" ? json.csv_upload : "";
  const match = DATA_URL.exec(url);
  if (!match) throw new ImportFileError('Send the file as {"csv_upload": "data:text/csv;base64,…"}.');
  const payload = url.slice(match[0].length);
  const bytes = match[2]?.includes("base64")
    ? Uint8Array.from(Buffer.from(payload, "base64"))
    : new TextEncoder().encode(percentDecoded(payload));
  if (bytes.length > maxBytes) throw fileTooLarge(maxBytes);
  if (!bytes.length) throw new ImportFileError("The file is empty.");
  return bytes;
}

function percentDecoded(payload: string): string {
  try {
    return decodeURIComponent(payload);
  } catch {
    throw new ImportFileError("The data URL is not valid percent-encoded text.");
  }
}

type THooks = {
  /** After a contact is created or changed (the app screens it). */
  afterSave?: NonNullable<Parameters<typeof createEntityRoutes>[1]>["afterSave"];
  /** After a CSV import landed (the app screens the new and changed contacts). */
  afterImport?: (c: Context<TAppEnv>) => void;
  /** How to start this program again, for a big upload's import in a child process. */
  self?: string[];
};

/** Contacts: the generic entity API plus POST /contacts/upload (CSV import) and its progress. */
export const createContactRoutes = (hooks: THooks = {}) => {
  // How far each user's upload has got, while its child imports it (by workspace and user).
  const importing = new Map<string, TUploadProgress>();
  const uploaderOf = (c: Context<TAppEnv>) => {
    const { workspaceId, user } = authOf(c);
    return `${workspaceId}:${user.id}`;
  };
  return createEntityRoutes(contactsEntity, { afterSave: hooks.afterSave })
    .get("/upload/progress", (c) =>
      c.json(importing.get(uploaderOf(c)) ?? ({ rows: null, percent: null } satisfies TUploadProgress)),
    )
    .post(
      "/upload",
      // base64 in a JSON body is 4/3 of the file; multipart adds a little framing.
      (c, next) =>
        bodyLimit({
          maxSize: Math.ceil((c.var.env.uploadMaxBytes * 4) / 3) + 64 * 1024,
          onError: () => {
            throw fileTooLarge(c.var.env.uploadMaxBytes);
          },
        })(c, next),
      async (c) => {
        const { workspaceId, user } = authOf(c);
        // The answer comes once the import has committed, every new contact screened: for the largest
        // files that can take longer than the server's idle timeout, so this request waits as long as
        // its import does (c.env is Bun's server when served; absent in tests).
        (c.env as { timeout?: (request: Request, seconds: number) => void } | undefined)?.timeout?.(
          c.req.raw,
          0,
        );
        try {
          const bytes = await uploadedCsv(c);
          const target = { workspaceId, userId: user.id };
          // A big file imports in a child process, screening included (contact-import-child.ts), or
          // where none can start on a worker thread: its transaction and commit off the event loop.
          const { env } = c.var;
          const uploader = uploaderOf(c);
          const report =
            (await importInChild(c.var.db, hooks.self, env, target, bytes, (progress) =>
              importing.set(uploader, progress),
            ).finally(() => importing.delete(uploader))) ??
            (await importOffThread(
              c.var.db,
              { url: env.databaseUrl, authToken: env.databaseAuthToken },
              target,
              bytes,
            )) ??
            (await importContacts(c.var.db, target, decodeUtf8(inSlices(bytes))));
          if (report.created || report.updated) hooks.afterImport?.(c);
          return c.json({ message: "Import completed", ...report });
        } catch (error) {
          if (!(error instanceof ImportFileError)) throw error;
          // The spec's client reads data.result as the sign of failure.
          throw new AppError("VALIDATION", "Import failed", {
            body: { result: error.message },
            errors: { csv_upload: [error.message] },
          });
        }
      },
    );
};
