import { and, eq, isNotNull } from "drizzle-orm";
import type { Context } from "hono";
import type { TPaperworkType } from "../../../db/contracts/paperwork";
import type { TShipment } from "../../../db/contracts/shipments";
import { documents, shipments } from "../../../db/schema";
import type { TAppEnv } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { paperworkLimiter } from "../../lib/heavy-work";
import { authOf } from "../auth/auth.middleware";
import { generatePaperwork } from "./paperwork.service";

/**
 * The shipments PUT hook: generates the newly selected document types after the save. When the
 * paperwork cannot be made (422 missing fields, 409 screening gate) the save itself stands, so the
 * answer carries the stored shipment (`item`, with its new updated_at) and `paperwork: true`, and the
 * selection falls back to the types that exist — otherwise every later autosave would try again.
 */
export async function generateOnShipmentSave(
  c: Context<TAppEnv>,
  shipment: TShipment,
  types: TPaperworkType[],
): Promise<void> {
  const auth = authOf(c);
  try {
    const result = await paperworkLimiter.run(() =>
      generatePaperwork(c.var, {
        workspaceId: auth.workspaceId,
        userId: auth.user.id,
        userEmail: auth.user.email,
        shipmentId: shipment.id,
        types,
      }),
    );
    if (result.warnings.length) c.header("X-Paperwork-Warnings", String(result.warnings.length));
  } catch (error) {
    if (!(error instanceof AppError) || (error.code !== "VALIDATION" && error.code !== "CONFLICT"))
      throw error;
    const existing = await c.var.db
      .selectDistinct({ type: documents.document_type })
      .from(documents)
      .where(and(eq(documents.shipment_id, shipment.id), isNotNull(documents.document_type)));
    const kept = shipment.generate_documents.filter((t) => existing.some((e) => e.type === t));
    await c.var.db
      .update(shipments)
      .set({ generate_documents: kept })
      .where(and(eq(shipments.id, shipment.id), eq(shipments.workspace_id, auth.workspaceId)));
    throw new AppError(error.code, error.message, {
      errors: error.errors,
      body: { ...error.body, paperwork: true, item: { ...shipment, generate_documents: kept } },
    });
  }
}
