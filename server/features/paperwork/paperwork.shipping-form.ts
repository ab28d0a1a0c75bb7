// A generated certificate of origin becomes a shipping form of type 'certificate of origin': the
// form the chamber of commerce stamps, kept with the workspace's other shipping forms.
import { and, desc, eq } from "drizzle-orm";
import { documents, msdocuments, shipments } from "../../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import { newStorageKey } from "../../lib/storage";
import type { TPaperworkDeps } from "./paperwork.load";

export type TShippingFormFromCertificate = {
  id: number;
  name: string;
  description: string;
  document_type: "certificate of origin";
  document: { id: number; original_name: string; size: number };
};

/**
 * Files a copy of the shipment's current certificate of origin as a new shipping form. The copy is
 * the form's own file: regenerating or deleting the shipment's certificate leaves the form as filed.
 * 404 for another workspace's (or a missing) shipment; 409 when no certificate was generated yet.
 */
export async function certificateToShippingForm(
  deps: Pick<TPaperworkDeps, "db" | "storage">,
  input: { workspaceId: number; shipmentId: number },
): Promise<TShippingFormFromCertificate> {
  const { db, storage } = deps;
  const [shipment] = await db
    .select({
      id: shipments.id,
      name: shipments.name,
      reference: shipments.shipper_reference_number,
      number: shipments.invoice_number,
    })
    .from(shipments)
    .where(and(eq(shipments.workspace_id, input.workspaceId), eq(shipments.id, input.shipmentId)));
  if (!shipment) throw notFound("Shipment not found");
  const [certificate] = await db
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.workspace_id, input.workspaceId),
        eq(documents.shipment_id, shipment.id),
        eq(documents.document_type, "certificate_of_origin"),
      ),
    )
    .orderBy(desc(documents.id))
    .limit(1);
  const blob = certificate ? await storage.get(certificate.storage_key) : null;
  if (!certificate || !blob) {
    throw new AppError(
      "CONFLICT",
      "This shipment has no certificate of origin yet: generate it under 'What documents do you want to create?' first.",
    );
  }
  const number = shipment.reference || shipment.number;
  const name = `Certificate of origin${number ? ` ${number}` : ""}`;
  const description = `Generated from shipment ${shipment.name ? `"${shipment.name}"` : `#${shipment.id}`}.`;
  const key = newStorageKey("documents");
  await storage.put(key, new Uint8Array(await blob.arrayBuffer()));
  try {
    return await db.transaction(async (tx) => {
      const [form] = await tx
        .insert(msdocuments)
        .values({
          workspace_id: input.workspaceId,
          name,
          description,
          document_type: "certificate of origin",
        })
        .returning({ id: msdocuments.id });
      const [file] = await tx
        .insert(documents)
        .values({
          workspace_id: input.workspaceId,
          msdocument_id: form.id,
          original_name: certificate.original_name,
          extension: certificate.extension,
          content_type: certificate.content_type,
          size: certificate.size,
          storage_key: key,
        })
        .returning({ id: documents.id });
      return {
        id: form.id,
        name,
        description,
        document_type: "certificate of origin" as const,
        document: { id: file.id, original_name: certificate.original_name, size: certificate.size },
      };
    });
  } catch (error) {
    // No row points at the copy: take it back.
    await storage.delete(key).catch(() => {});
    throw error;
  }
}
