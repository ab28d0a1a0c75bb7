import { and, eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { ZShipmentTemplateInput } from "../../../db/contracts/shipments";
import { documents, shipments, users } from "../../../db/schema";
import type { TAppEnv } from "../../lib/context";
import { createEntityRoutes, readJson } from "../../lib/entity/entity.routes";
import { deleteRecord } from "../../lib/entity/entity.service";
import { AppError, notFound } from "../../lib/errors";
import { uploadLimiter } from "../../lib/heavy-work";
import { validate } from "../../lib/validate";
import { authOf, requireAuth } from "../auth/auth.middleware";
import { loadDictionaries } from "../dictionary/dictionary.service";
import {
  attachDocuments,
  DOCUMENT_OWNERS,
  deleteOwnerFiles,
  findDocument,
  ownerExists,
} from "../documents/documents.service";
import { downloadName } from "../documents/file-types";
import {
  assertRoomForDocuments,
  readDocumentUpload,
  uploadBodyLimit,
  uploadSpool,
} from "../documents/upload-reader";
import { shipmentsEntity } from "./shipments.entity";
import {
  blankShipment,
  createDraft,
  getShipment,
  removeLine,
  saveAsTemplate,
  type TGenerateDocuments,
  unitValues,
  updateShipment,
} from "./shipments.service";

const ID = "{[1-9][0-9]{0,15}}";
const OWNER = DOCUMENT_OWNERS.shipment_id;
const ok = { error: false } as const;

const idParam = (c: Context<TAppEnv>, name: string) => Number(c.req.param(name));

/** `attachment; filename=…` with an ASCII fallback and the RFC 5987 UTF-8 name. */
function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * The shipments API (endpoints and shapes in db/contracts/shipments.ts). Reads and deletes
 * come from the shared kit; writes (nested lines, lost-update check) from shipments.service.ts.
 * `generateDocuments` is the paperwork generator's hook: called after a PUT is saved, with the
 * document types asked for that have no document yet. Without it only the selection is stored.
 */
export type TShipmentRouteOptions = {
  /** The paperwork generator (server/features/paperwork): stores a document per type, e.g. with attachDocuments-like storage through c.var. */
  generateDocuments?: (
    c: Context<TAppEnv>,
    ...args: Parameters<TGenerateDocuments>
  ) => ReturnType<TGenerateDocuments>;
};

export function createShipmentRoutes(options: TShipmentRouteOptions = {}) {
  const { generateDocuments } = options;
  const formDictionaries = (c: Context<TAppEnv>) =>
    loadDictionaries(c.var.db, shipmentsEntity.editDictionaries, authOf(c).workspaceId);
  const kitReads = createEntityRoutes(shipmentsEntity, { isReadOnly: true });
  return (
    new Hono<TAppEnv>()
      .use(requireAuth())
      /** POST / (no body) → 201 {id, item, status}: a new draft. */
      .post("/", async (c) => {
        const item = await createDraft(c.var.db, authOf(c));
        return c.json({ id: item.id, item, status: ok }, 201);
      })
      /** GET /create → the blank form, its dictionaries and the products' unit values; writes nothing. */
      .get("/create", async (c) => {
        const auth = authOf(c);
        const [dictionaries, unit_values] = await Promise.all([
          formDictionaries(c),
          unitValues(c.var.db, auth.workspaceId),
        ]);
        return c.json({ item: blankShipment(auth), dictionaries, unit_values });
      })
      /** GET /{id}/edit → {item, dictionaries, unit_values}. */
      .get(`/:id${ID}/edit`, async (c) => {
        const auth = authOf(c);
        const [item, dictionaries, unit_values] = await Promise.all([
          getShipment(c.var.db, auth.workspaceId, idParam(c, "id")),
          formDictionaries(c),
          unitValues(c.var.db, auth.workspaceId),
        ]);
        return c.json({ item, dictionaries, unit_values });
      })
      /** PUT /{id} → {item, status}; 409 on a stale updated_at, 422 naming fields and lines. */
      .put(`/:id${ID}`, async (c) => {
        const item = await updateShipment(
          c.var.db,
          authOf(c).workspaceId,
          idParam(c, "id"),
          await readJson(c),
          generateDocuments && ((shipment, types) => generateDocuments(c, shipment, types)),
          { userId: authOf(c).user.id, email: authOf(c).user.email },
        );
        return c.json({ item, status: ok });
      })
      /** DELETE /{id}[?force=1]: 422 with metadata.force_flag for a kept export record (15 CFR 762). */
      .delete(`/:id${ID}`, async (c) => {
        const force = ["1", "true"].includes(c.req.query("force") ?? "");
        const { storageKeys } = await deleteRecord(
          c.var.db,
          shipmentsEntity,
          authOf(c).workspaceId,
          idParam(c, "id"),
          force,
        );
        await deleteOwnerFiles(c.var, storageKeys);
        return c.json({ result: true, messages: ["Operation successful"] });
      })
      /** POST /{id}/template {name} → 201 {id, item, status}: the shipment copied as a template. */
      .post(`/:id${ID}/template`, validate("json", ZShipmentTemplateInput), async (c) => {
        const item = await saveAsTemplate(c.var.db, authOf(c), idParam(c, "id"), c.req.valid("json").name);
        return c.json({ id: item.id, item, status: ok }, 201);
      })
      /** GET /{id}/signature → the signing user's signature image, for the form, print page and paperwork. */
      .get(`/:id${ID}/signature`, async (c) => {
        const [row] = await c.var.db
          .select({ key: users.signature_key })
          .from(shipments)
          .innerJoin(users, eq(users.id, shipments.user_id))
          .where(and(eq(shipments.id, idParam(c, "id")), eq(shipments.workspace_id, authOf(c).workspaceId)));
        const blob = row?.key ? await c.var.storage.get(row.key) : null;
        if (!blob) throw notFound();
        const bytes = new Uint8Array(await blob.arrayBuffer());
        const isPng = bytes[0] === 0x89 && bytes[1] === 0x50;
        c.header("Content-Type", isPng ? "image/png" : "image/jpeg");
        c.header("Cache-Control", "private, max-age=86400");
        return c.body(bytes);
      })
      /** DELETE /items/{shipmentId}/{itemId} → {item, status} with recomputed totals. */
      .delete(`/items/:shipmentId${ID}/:lineId${ID}`, async (c) => {
        const item = await removeLine(
          c.var.db,
          authOf(c).workspaceId,
          idParam(c, "shipmentId"),
          "items",
          idParam(c, "lineId"),
        );
        return c.json({ item, status: ok });
      })
      /** DELETE /packages/{shipmentId}/{packageId} → {item, status} with recomputed total pieces. */
      .delete(`/packages/:shipmentId${ID}/:lineId${ID}`, async (c) => {
        const item = await removeLine(
          c.var.db,
          authOf(c).workspaceId,
          idParam(c, "shipmentId"),
          "packages",
          idParam(c, "lineId"),
        );
        return c.json({ item, status: ok });
      })
      /** GET /documents/{documentId} → the stored file, for the caller's workspace only. */
      .get(`/documents/:documentId${ID}`, async (c) => {
        const row = await findDocument(c.var.db, OWNER, authOf(c).workspaceId, idParam(c, "documentId"));
        const blob = row ? await c.var.storage.get(row.storage_key) : null;
        if (!row || !blob) throw notFound("This document does not exist");
        const isText = row.content_type.startsWith("text/");
        c.header("Content-Type", isText ? `${row.content_type}; charset=utf-8` : row.content_type);
        c.header("Content-Length", String(blob.size));
        c.header("Content-Disposition", contentDisposition(downloadName(row.original_name, row.extension)));
        c.header("X-Content-Type-Options", "nosniff");
        c.header("Cache-Control", "private, no-store");
        return c.body(blob.stream());
      })
      /** DELETE /documents/{shipmentId}/{documentId} → {item, status}; the stored file goes too. */
      .delete(`/documents/:shipmentId${ID}/:documentId${ID}`, async (c) => {
        const { workspaceId } = authOf(c);
        const shipmentId = idParam(c, "shipmentId");
        const row = await findDocument(c.var.db, OWNER, workspaceId, idParam(c, "documentId"));
        if (!row || row.shipment_id !== shipmentId) throw notFound("This document does not exist");
        await c.var.db
          .delete(documents)
          .where(and(eq(documents.id, row.id), eq(documents.workspace_id, workspaceId)));
        await deleteOwnerFiles(c.var, [row.storage_key]);
        // Deleting generated paperwork removes its type from the selection (spec section 2), so the next
        // save does not silently generate it again.
        if (row.document_type && row.document_type !== "custom") {
          const [shipment] = await c.var.db
            .select({ generate_documents: shipments.generate_documents })
            .from(shipments)
            .where(and(eq(shipments.id, shipmentId), eq(shipments.workspace_id, workspaceId)));
          const [same] = await c.var.db
            .select({ id: documents.id })
            .from(documents)
            .where(and(eq(documents.shipment_id, shipmentId), eq(documents.document_type, row.document_type)))
            .limit(1);
          if (shipment && !same) {
            await c.var.db
              .update(shipments)
              .set({ generate_documents: shipment.generate_documents.filter((t) => t !== row.document_type) })
              .where(eq(shipments.id, shipmentId));
          }
        }
        return c.json({ item: await getShipment(c.var.db, workspaceId, shipmentId), status: ok });
      })
      /** POST /custom-docs/{shipmentId} multipart documents[] → {item, documents, failed, status}. */
      .post(
        `/custom-docs/:shipmentId${ID}`,
        uploadLimiter.middleware(),
        uploadBodyLimit,
        uploadSpool,
        async (c) => {
          const { workspaceId } = authOf(c);
          const shipmentId = idParam(c, "shipmentId");
          if (!(await ownerExists(c.var.db, OWNER.ownerTable, workspaceId, shipmentId))) {
            throw notFound("This shipment does not exist or is not yours");
          }
          const { files } = await readDocumentUpload(c);
          await assertRoomForDocuments(c.var.db, "shipment_id", shipmentId, files.length);
          const { documents: uploaded, failed } = await attachDocuments(
            c.var,
            { ownerColumn: "shipment_id", ownerId: shipmentId, workspaceId, documentType: "custom" },
            files,
          );
          const item = await getShipment(c.var.db, workspaceId, shipmentId);
          const result = { item, documents: uploaded, failed };
          if (!uploaded.length) {
            const tooLarge = failed.every((f) => f.code === "too_large");
            throw new AppError(
              tooLarge ? "PAYLOAD_TOO_LARGE" : "VALIDATION",
              failed.length === 1 ? failed[0].message : "No file could be uploaded.",
              {
                body: {
                  ...result,
                  status: { error: true, errorMessage: failed.map((f) => f.message).join(" ") },
                },
              },
            );
          }
          return c.json({ ...result, status: ok });
        },
      )
      // GET / (list), GET /{id}, GET /edit from the shared kit.
      .route("/", kitReads)
  );
}
