import { type Context, Hono, type Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { TAppEnv } from "../../lib/context";
import { AppError, notFound } from "../../lib/errors";
import { MAX_DOCUMENTS_PER_RECORD, MAX_FILES_PER_REQUEST, MULTIPART_OVERHEAD } from "../../lib/limits";
import { readMultipart } from "../../lib/multipart";
import { authOf, requireAuth } from "../auth/auth.middleware";
import {
  attachDocuments,
  countDocuments,
  deleteDocument,
  findDocument,
  listDocuments,
  ownerExists,
  type TDocumentOwnerConfig,
} from "./documents.service";
import { downloadName } from "./file-types";

export { MAX_DOCUMENTS_PER_RECORD, MAX_FILES_PER_REQUEST };

const ID = "{[0-9]{1,15}}";

const requestTooLarge = (c: Context<TAppEnv>) => {
  const limit = Math.round((c.var.env.uploadMaxBytes / 1024 / 1024) * 10) / 10;
  throw new AppError(
    "PAYLOAD_TOO_LARGE",
    `The upload is too large: send at most ${MAX_FILES_PER_REQUEST} files of up to ${limit} MB each.`,
  );
};

// The limit depends on the configured upload size, which is only known per request (c.var.env).
const uploadBodyLimit = (c: Context<TAppEnv>, next: Next) =>
  bodyLimit({
    maxSize: c.var.env.uploadMaxBytes * MAX_FILES_PER_REQUEST + MULTIPART_OVERHEAD,
    onError: requestTooLarge,
  })(c, next);

const TOO_MANY_FILES = `Send at most ${MAX_FILES_PER_REQUEST} files per upload.`;
const NAMELESS_FILE = "Every file needs a name: one of the files was sent without one, so none was stored.";

/** The files of a multipart body under `documents[]` or `documents`. */
function filesOf(body: Record<string, unknown>): File[] {
  return [body["documents[]"], body.documents].flat().filter((value): value is File => value instanceof File);
}

/** The value of a `key=value` pair in a Content-Disposition header, quoted or RFC 5987-encoded. */
function contentDisposition(name: string): string {
  // Latin-only clients read `filename`; quotes, backslashes and anything outside printable ASCII go.
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * The attachment API of one owner kind, mounted at its routeBase without the /api prefix:
 * POST / (multipart `id` + `documents[]`), GET /:documentId (download), DELETE /:documentId.
 */
export function createDocumentRoutes(owner: TDocumentOwnerConfig) {
  return (
    new Hono<TAppEnv>()
      .use(requireAuth())
      /**
       * POST / → 200 {documents (all of the owner's), uploaded, failed}; when every file failed 422
       * (413 when they were all too large) with the same body and a message.
       */
      .post("/", uploadBodyLimit, async (c) => {
        const { workspaceId } = authOf(c);
        // The parts are counted in the raw bytes before anything is parsed: a body of 20,000 tiny
        // files is refused in a few milliseconds instead of being parsed and stored file by file.
        const body = await readMultipart(c, {
          field: "documents",
          maxParts: MAX_FILES_PER_REQUEST + 4,
          tooManyMessage: TOO_MANY_FILES,
        });
        const rawId = Array.isArray(body.id) ? body.id[0] : body.id;
        const ownerId = typeof rawId === "string" && /^[0-9]{1,15}$/.test(rawId.trim()) ? Number(rawId) : 0;
        if (!ownerId) {
          throw new AppError("VALIDATION", "The record id is missing", {
            errors: { id: ["This field is required."] },
          });
        }
        if (!(await ownerExists(c.var.db, owner.ownerTable, workspaceId, ownerId))) throw notFound();
        const files = filesOf(body);
        if (files.length === 0) {
          throw new AppError("VALIDATION", "Choose at least one file to upload", {
            errors: { documents: ["Choose at least one file to upload"] },
          });
        }
        if (files.length > MAX_FILES_PER_REQUEST) {
          throw new AppError("VALIDATION", TOO_MANY_FILES, { errors: { documents: [TOO_MANY_FILES] } });
        }
        // Checked for the whole request before any file is stored: a bad part refuses all of them.
        if (files.some((file) => !file.name?.trim())) {
          throw new AppError("VALIDATION", NAMELESS_FILE, { errors: { documents: [NAMELESS_FILE] } });
        }
        const held = await countDocuments(c.var.db, owner.ownerColumn, ownerId);
        if (held + files.length > MAX_DOCUMENTS_PER_RECORD) {
          const message = `This record holds ${held} of at most ${MAX_DOCUMENTS_PER_RECORD} documents: delete some before adding ${files.length} more.`;
          throw new AppError("VALIDATION", message, { errors: { documents: [message] } });
        }
        const { documents: uploaded, failed } = await attachDocuments(
          c.var,
          { ownerColumn: owner.ownerColumn, ownerId, workspaceId },
          files,
        );
        const all = (await listDocuments(c.var.db, owner.ownerColumn, [ownerId])).get(ownerId) ?? [];
        const result = { documents: all, uploaded, failed };
        if (uploaded.length === 0) {
          const tooLarge = failed.every((f) => f.code === "too_large");
          throw new AppError(
            tooLarge ? "PAYLOAD_TOO_LARGE" : "VALIDATION",
            failed.length === 1 ? failed[0].message : "No file could be uploaded.",
            { body: result },
          );
        }
        return c.json(result);
      })
      /** GET /:documentId → the file as an attachment, only for the caller's workspace. */
      .get(`/:documentId${ID}`, async (c) => {
        const { workspaceId } = authOf(c);
        const row = await findDocument(c.var.db, owner, workspaceId, Number(c.req.param("documentId")));
        const blob = row ? await c.var.storage.get(row.storage_key) : null;
        if (!row || !blob) throw notFound();
        const text = row.content_type.startsWith("text/");
        c.header("Content-Type", text ? `${row.content_type}; charset=utf-8` : row.content_type);
        c.header("Content-Length", String(blob.size));
        c.header("Content-Disposition", contentDisposition(downloadName(row.original_name, row.extension)));
        c.header("X-Content-Type-Options", "nosniff");
        c.header("Cache-Control", "private, no-store");
        return c.body(blob.stream());
      })
      /** DELETE /:documentId → {result: true, messages}; the file goes with the row. */
      .delete(`/:documentId${ID}`, async (c) => {
        const { workspaceId } = authOf(c);
        const deleted = await deleteDocument(c.var, owner, workspaceId, Number(c.req.param("documentId")));
        if (!deleted) throw notFound();
        return c.json({ result: true, messages: ["Operation successful"] });
      })
  );
}
