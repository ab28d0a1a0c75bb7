// Builds the paperwork model of a shipment from the database, checks what each document needs
// (required fields, the screening gate, licence coverage), and generates, stores and audits the PDFs.
import { createHash } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { PAPERWORK_LABELS, type TPaperSize, type TPaperworkType } from "../../../db/contracts/paperwork";
import {
  documents,
  paperwork_audit_log,
  paperwork_sequences,
  shipments,
  workspaces,
} from "../../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import { newStorageKey } from "../../lib/storage";
import {
  assertPaperworkAllowed,
  automaticLegend,
  shipmentExportControl,
} from "../export-control/export-control.service";
import { buildModel } from "./paperwork.build-model";
import { loadShipment, type TPaperworkDeps } from "./paperwork.load";
import { lineLicences, missingFields, partyGates } from "./paperwork.readiness";
import { renderInPool } from "./render-pool";
import { findUnrenderable } from "./text-coverage";

// Loading and readiness live in their own modules; re-exported for the routes and other callers.
export { PARTY_LABELS, type TPaperworkDeps } from "./paperwork.load";
export {
  paperworkReadiness,
  type TLineLicence,
  type TPaperworkReadiness,
  type TPartyGate,
} from "./paperwork.readiness";

/** Next number of a workspace's series for this year (INV-2026-0042 / PF-2026-0007). */
async function nextNumber(db: TDb, workspaceId: number, series: "invoice" | "proforma"): Promise<string> {
  const year = new Date().getUTCFullYear();
  const [row] = await db
    .insert(paperwork_sequences)
    .values({ workspace_id: workspaceId, series, year, last_number: 1 })
    .onConflictDoUpdate({
      target: [paperwork_sequences.workspace_id, paperwork_sequences.series, paperwork_sequences.year],
      set: { last_number: sql`${paperwork_sequences.last_number} + 1` },
    })
    .returning();
  return `${series === "invoice" ? "INV" : "PF"}-${year}-${String(row.last_number).padStart(4, "0")}`;
}

const FILE_BASES: Record<TPaperworkType, string> = {
  commercial_invoice: "commercial-invoice",
  proforma_invoice: "proforma-invoice",
  packing_list: "packing-list",
  certificate_of_origin: "certificate-of-origin",
};

/** A file name part without anything a file system or header would choke on. */
function fileSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "document";
}

export type TGenerated = {
  documents: {
    id: number;
    document_type: TPaperworkType;
    original_name: string;
    sha256: string;
    size: number;
    /** The shipment's earlier documents of this type that this one replaced. */
    replaced_document_ids?: number[];
  }[];
  warnings: string[];
};

/**
 * Generates each requested type from the shipment's current data: 422 listing every missing field
 * (nothing generated), 409 naming each party not cleared by screening (nothing generated); licence
 * gaps are warnings, recorded in the audit log with the hashes of the files.
 */
export async function generatePaperwork(
  deps: TPaperworkDeps,
  input: {
    workspaceId: number;
    userId: number;
    userEmail: string;
    shipmentId: number;
    types: TPaperworkType[];
  },
): Promise<TGenerated> {
  const types = [...new Set(input.types)];
  if (types.length === 0) return { documents: [], warnings: [] };
  const { db } = deps;
  const loaded = await loadShipment(db, input.workspaceId, input.shipmentId);
  const missing = missingFields(loaded, types);
  if (Object.keys(missing).length > 0) {
    const names = Object.keys(missing).join(", ");
    throw new AppError("VALIDATION", `Fill in what the documents need before generating them: ${names}.`, {
      errors: missing,
      body: { status: { error: true, errorMessage: `Missing for the paperwork: ${names}.` } },
    });
  }
  const gates = await partyGates(db, input.workspaceId, loaded);
  const uncleared = gates.filter((g) => !g.cleared);
  if (uncleared.length > 0) {
    const names = uncleared
      .map((g) => `${g.label} ${g.company} (${g.status === "failed" ? "failed screening" : "not screened"})`)
      .join("; ");
    const message = `Paperwork cannot be generated until every party is cleared on the screening screen: ${names}.`;
    throw new AppError("CONFLICT", message, {
      body: {
        status: { error: true, errorMessage: message },
        parties: uncleared.map(({ field, label, contact_id, company, status }) => ({
          field,
          label,
          contact_id,
          company,
          status,
        })),
      },
    });
  }
  // Export control: a line that needs a licence and has none, an embargoed destination, or EEI not
  // settled refuses the paperwork (422, nothing generated); an applicable NOEEI legend is filled in.
  const standing = await shipmentExportControl(db, input.workspaceId, loaded.shipment.id);
  assertPaperworkAllowed(standing);
  // The legend is printed from memory and stored with the documents, in the same transaction.
  const legend = automaticLegend(standing, loaded.shipment.aes_citation);
  if (legend) loaded.shipment.aes_citation = legend;
  const licences = lineLicences(standing);
  const warnings = standing.lines.flatMap((l) => l.warnings.map((w) => `${l.product_number}: ${w}`));

  // Numbers: the shipper reference is the invoice number; without one the shipment gets the next
  // number of the workspace's series once, and keeps it for every regeneration.
  const s = loaded.shipment;
  if (!s.shipper_reference_number && !s.invoice_number) {
    s.invoice_number = await nextNumber(db, input.workspaceId, "invoice");
    await db.update(shipments).set({ invoice_number: s.invoice_number }).where(eq(shipments.id, s.id));
  }
  if (types.includes("proforma_invoice") && !s.proforma_number) {
    s.proforma_number = await nextNumber(db, input.workspaceId, "proforma");
    await db.update(shipments).set({ proforma_number: s.proforma_number }).where(eq(shipments.id, s.id));
  }
  const invoiceNumber = s.shipper_reference_number || s.invoice_number;
  const base = await buildModel(deps, input.workspaceId, loaded, licences);
  const unrenderable = await findUnrenderable({ ...base, number: invoiceNumber });
  if (unrenderable) {
    const { field, label, char, codepoint } = unrenderable;
    const message = `${label} holds the character "${char}" (${codepoint}), which no font of the paperwork can print. Replace it and generate again.`;
    throw new AppError("VALIDATION", message, {
      errors: { [field]: [message] },
      body: { status: { error: true, errorMessage: message } },
    });
  }

  // Render everything first, store afterwards: a failure while drawing leaves nothing behind.
  const rendered: { type: TPaperworkType; bytes: Uint8Array; name: string }[] = [];
  for (const type of types) {
    const number = type === "proforma_invoice" ? s.proforma_number : invoiceNumber;
    const bytes = await renderInPool(type, { ...base, number });
    rendered.push({ type, bytes, name: `${FILE_BASES[type]}-${fileSafe(number)}.pdf` });
  }
  const storedKeys: string[] = [];
  try {
    const out: TGenerated["documents"] = [];
    for (const doc of rendered) {
      const key = newStorageKey("documents");
      await deps.storage.put(key, doc.bytes);
      storedKeys.push(key);
      out.push({
        id: 0,
        document_type: doc.type,
        original_name: doc.name,
        sha256: createHash("sha256").update(doc.bytes).digest("hex"),
        size: doc.bytes.length,
      });
    }
    const replacedKeys: string[] = [];
    await db.transaction(async (tx) => {
      // Regenerating replaces the shipment's previous document of each type (the audit log keeps
      // the earlier generation's entry and hash) instead of piling up copies.
      const previous = await tx
        .select({ id: documents.id, type: documents.document_type, key: documents.storage_key })
        .from(documents)
        .where(
          and(
            eq(documents.workspace_id, input.workspaceId),
            eq(documents.shipment_id, s.id),
            inArray(documents.document_type, types),
          ),
        );
      if (previous.length) {
        await tx.delete(documents).where(
          inArray(
            documents.id,
            previous.map((p) => p.id),
          ),
        );
        for (const p of previous) if (p.key) replacedKeys.push(p.key);
      }
      for (const doc of out) {
        const ids = previous.filter((p) => p.type === doc.document_type).map((p) => p.id);
        if (ids.length) doc.replaced_document_ids = ids;
      }
      for (const [i, doc] of out.entries()) {
        const [row] = await tx
          .insert(documents)
          .values({
            workspace_id: input.workspaceId,
            shipment_id: s.id,
            document_type: doc.document_type,
            original_name: doc.original_name,
            extension: "pdf",
            content_type: "application/pdf",
            size: doc.size,
            storage_key: storedKeys[i],
          })
          .returning({ id: documents.id });
        doc.id = row.id;
      }
      if (legend) await tx.update(shipments).set({ aes_citation: legend }).where(eq(shipments.id, s.id));
      await tx.insert(paperwork_audit_log).values({
        workspace_id: input.workspaceId,
        shipment_id: s.id,
        user_id: input.userId,
        user_email: input.userEmail,
        documents: out.map((d) => ({
          document_type: d.document_type,
          document_id: d.id,
          original_name: d.original_name,
          sha256: d.sha256,
          size: d.size,
          ...(d.replaced_document_ids ? { replaced_document_ids: d.replaced_document_ids } : {}),
        })),
        warnings,
      });
    });
    // The replaced files go once no row points at them any more.
    for (const key of replacedKeys) await deps.storage.delete(key).catch(() => {});
    deps.logger.info("paperwork generated", {
      shipment: s.id,
      types: types.map((t) => PAPERWORK_LABELS[t]).join(", "),
      warnings: warnings.length,
    });
    return { documents: out, warnings };
  } catch (error) {
    // No row points at these files: take them back so nothing half-written stays.
    for (const key of storedKeys) await deps.storage.delete(key).catch(() => {});
    throw error;
  }
}

/** The workspace's paper size setting. */
export async function paperSizeOf(db: TDb, workspaceId: number): Promise<TPaperSize> {
  const [row] = await db
    .select({ paper_size: workspaces.paper_size })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row?.paper_size === "a4" ? "a4" : "letter";
}

/** Changes the workspace's paper size. */
export async function setPaperSize(db: TDb, workspaceId: number, size: TPaperSize): Promise<TPaperSize> {
  await db.update(workspaces).set({ paper_size: size }).where(eq(workspaces.id, workspaceId));
  return size;
}

/** The audit trail of a shipment's generations, newest first. */
export async function paperworkAudit(db: TDb, workspaceId: number, shipmentId: number) {
  // Another workspace's (or a missing) shipment is a 404, not an empty log.
  const [owned] = await db
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.workspace_id, workspaceId), eq(shipments.id, shipmentId)));
  if (!owned) throw notFound("Shipment not found");
  return db
    .select()
    .from(paperwork_audit_log)
    .where(
      and(eq(paperwork_audit_log.workspace_id, workspaceId), eq(paperwork_audit_log.shipment_id, shipmentId)),
    )
    .orderBy(desc(paperwork_audit_log.id));
}
