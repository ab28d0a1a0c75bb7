import { and, eq, isNotNull } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { PAPERWORK_TYPES, ZPaperSize } from "../../../db/contracts/paperwork";
import { documents } from "../../../db/schema";
import type { TAppEnv } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { paperworkLimiter } from "../../lib/heavy-work";
import { validate } from "../../lib/validate";
import { authOf, requireAuth } from "../auth/auth.middleware";
import {
  generatePaperwork,
  paperSizeOf,
  paperworkAudit,
  paperworkReadiness,
  setPaperSize,
} from "./paperwork.service";
import { certificateToShippingForm } from "./paperwork.shipping-form";

const ID = "{[0-9]{1,15}}";

const ZGenerateInput = z.object({
  types: z
    .array(z.enum(PAPERWORK_TYPES, { error: `Choose from ${PAPERWORK_TYPES.join(", ")}.` }), {
      error: "Must be a list of document types.",
    })
    .min(1, "Choose at least one document."),
});

const ZSettingsInput = z.object({ paper_size: ZPaperSize });

/** A PDF name safe in a quoted header value, with the UTF-8 form alongside. */
function disposition(kind: "inline" | "attachment", name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Paperwork API under /api/paperwork (session required, workspace-scoped; foreign ids are 404):
 * - GET  /settings → {paper_size}; PUT /settings {paper_size: "letter"|"a4"} → {paper_size}
 * - GET  /shipments/:id → readiness (missing fields, screening gate, licence per line, AES advice, DCS)
 * - POST /shipments/:id/generate {types} → 201 {documents, warnings}; 422 missing fields; 409 gate
 * - GET  /shipments/:id/audit → the append-only generation log of the shipment
 * - POST /shipments/:id/certificate-of-origin/shipping-form → 201 {item}: the generated certificate of
 *   origin filed as a shipping form of type 'certificate of origin' (409 when none was generated)
 * - GET  /documents/:documentId/preview (inline) and /download (attachment): a shipment document's file
 */
export const paperworkRoutes = new Hono<TAppEnv>()
  .use(requireAuth())
  /** GET /settings → the workspace's paper size. */
  .get("/settings", async (c) => c.json({ paper_size: await paperSizeOf(c.var.db, authOf(c).workspaceId) }))
  /** PUT /settings → changes the workspace's paper size. */
  .put("/settings", validate("json", ZSettingsInput), async (c) => {
    const size = await setPaperSize(c.var.db, authOf(c).workspaceId, c.req.valid("json").paper_size);
    return c.json({ paper_size: size, status: { error: false } });
  })
  /** GET /shipments/:id → what Generate Paperwork needs and would warn about. */
  .get(`/shipments/:id${ID}`, async (c) => {
    const readiness = await paperworkReadiness(c.var.db, authOf(c).workspaceId, Number(c.req.param("id")));
    return c.json(readiness);
  })
  /** POST /shipments/:id/generate → generates, stores and audits the chosen documents. */
  .post(
    `/shipments/:id${ID}/generate`,
    paperworkLimiter.middleware(),
    validate("json", ZGenerateInput),
    async (c) => {
      const auth = authOf(c);
      const result = await generatePaperwork(c.var, {
        workspaceId: auth.workspaceId,
        userId: auth.user.id,
        userEmail: auth.user.email,
        shipmentId: Number(c.req.param("id")),
        types: c.req.valid("json").types,
      });
      return c.json({ ...result, status: { error: false } }, 201);
    },
  )
  /** POST /shipments/:id/certificate-of-origin/shipping-form → 201 a shipping form filed from the certificate. */
  .post(`/shipments/:id${ID}/certificate-of-origin/shipping-form`, async (c) => {
    const form = await certificateToShippingForm(c.var, {
      workspaceId: authOf(c).workspaceId,
      shipmentId: Number(c.req.param("id")),
    });
    return c.json({ item: form, status: { error: false } }, 201);
  })
  /** GET /shipments/:id/audit → every generation of this shipment, newest first. */
  .get(`/shipments/:id${ID}/audit`, async (c) => {
    const { workspaceId } = authOf(c);
    const rows = await paperworkAudit(c.var.db, workspaceId, Number(c.req.param("id")));
    return c.json({ data: rows });
  })
  /** GET /documents/:documentId/(preview|download) → the stored PDF, inline or as an attachment. */
  .get(`/documents/:documentId${ID}/:mode{preview|download}`, async (c) => {
    const { workspaceId } = authOf(c);
    const [row] = await c.var.db
      .select()
      .from(documents)
      .where(
        and(
          eq(documents.id, Number(c.req.param("documentId"))),
          eq(documents.workspace_id, workspaceId),
          isNotNull(documents.shipment_id),
        ),
      );
    const blob = row ? await c.var.storage.get(row.storage_key) : null;
    if (!row || !blob) throw notFound();
    const inline = c.req.param("mode") === "preview";
    c.header("Content-Type", row.content_type);
    c.header("Content-Length", String(blob.size));
    c.header("Content-Disposition", disposition(inline ? "inline" : "attachment", row.original_name));
    c.header("Cache-Control", "private, no-store");
    if (inline) {
      // The browser's PDF viewer runs no page script; allow it to show (and our pages to frame) the file.
      c.header(
        "Content-Security-Policy",
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'",
      );
      c.header("X-Frame-Options", "SAMEORIGIN");
    }
    return c.body(blob.stream());
  });
