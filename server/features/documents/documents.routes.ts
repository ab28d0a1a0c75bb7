import { Hono } from "hono";
import type { TAppEnv } from "../../lib/context";
import { AppError, notFound } from "../../lib/errors";
import { uploadLimiter } from "../../lib/heavy-work";
import { MAX_DOCUMENTS_PER_RECORD, MAX_FILES_PER_REQUEST } from "../../lib/limits";
import { authOf, requireAuth } from "../auth/auth.middleware";
import {
  attachDocuments,
  deleteDocument,
  findDocument,
  listDocuments,
  ownerExists,
  type TDocumentOwnerConfig,
} from "./documents.service";
import { downloadName } from "./file-types";
import { assertRoomForDocuments, readDocumentUpload, uploadBodyLimit, uploadSpool } from "./upload-reader";

export { MAX_DOCUMENTS_PER_RECORD, MAX_FILES_PER_REQUEST };

const ID = "{[0-9]{1,15}}";

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
      .post("/", uploadLimiter.middleware(), uploadBodyLimit, uploadSpool, async (c) => {
        const { workspaceId } = authOf(c);
        const { body, files } = await readDocumentUpload(c);
        const rawId = Array.isArray(body.id) ? body.id[0] : body.id;
        const ownerId = typeof rawId === "string" && /^[0-9]{1,15}$/.test(rawId.trim()) ? Number(rawId) : 0;
        if (!ownerId) {
          throw new AppError("VALIDATION", "The record id is missing", {
            errors: { id: ["This field is required."] },
          });
        }
        if (!(await ownerExists(c.var.db, owner.ownerTable, workspaceId, ownerId))) throw notFound();
        await assertRoomForDocuments(c.var.db, owner.ownerColumn, ownerId, files.length);
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
