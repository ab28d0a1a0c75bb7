import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { ZExportControlLineFields, ZExportControlShipmentFields } from "../../../db/contracts/export-control";
import { ZAesCitation } from "../../../db/contracts/paperwork";
import { shipment_items, shipments } from "../../../db/schema";
import type { TAppEnv } from "../../lib/context";
import { AppError, notFound } from "../../lib/errors";
import { validate } from "../../lib/validate";
import { authOf, requireAuth } from "../auth/auth.middleware";
import { requireRole } from "../members/roles";
import { currentEditionRow, storeEdition } from "./ear-tables";
import { eeiDataSheet, eeiDataSheetCsv, eeiDataSheetPdf, sliPdf } from "./eei-data-sheet";
import {
  auditOverrides,
  exportControlAudit,
  licenseUsage,
  lineExportErrors,
  shipmentExportControl,
} from "./export-control.service";

const ID = "{[1-9][0-9]{0,15}}";

const ZEditionInput = z.object({
  edition_date: z
    .string({ error: "Enter the edition's date as YYYY-MM-DD." })
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter the edition's date as YYYY-MM-DD."),
  source: z.string().trim().max(500).optional(),
  files: z.object(
    {
      country_chart: z.string({ error: "Attach country-chart.csv as text." }).min(1).max(5_000_000),
      country_groups: z.string({ error: "Attach country-groups.csv as text." }).min(1).max(5_000_000),
      ccl_eccns: z.string({ error: "Attach ccl-eccns.csv as text." }).min(1).max(20_000_000),
      chart_footnotes: z
        .string({ error: "Attach country-chart-footnotes.csv as text." })
        .min(1)
        .max(1_000_000),
    },
    { error: "Send files: {country_chart, country_groups, ccl_eccns, chart_footnotes}." },
  ),
});

const ZLineInput = z.object(ZExportControlLineFields);
const ZEeiInput = z.object({ ...ZExportControlShipmentFields, aes_citation: ZAesCitation.optional() });

/** A line of one of the caller's shipments, or 404. */
async function ownedLine(c: { var: TAppEnv["Variables"] }, shipmentId: number, itemId: number) {
  const { workspaceId } = authOf(c as never);
  const [row] = await c.var.db
    .select({ item: shipment_items })
    .from(shipment_items)
    .innerJoin(shipments, eq(shipments.id, shipment_items.shipment_id))
    .where(
      and(
        eq(shipment_items.id, itemId),
        eq(shipments.id, shipmentId),
        eq(shipments.workspace_id, workspaceId),
      ),
    );
  if (!row) throw notFound("This item line does not exist");
  return row.item;
}

/**
 * Export control API under /api/export-control (session required, workspace-scoped; foreign ids 404):
 * see db/contracts/export-control.ts for the list.
 */
export const exportControlRoutes = new Hono<TAppEnv>()
  .use(requireAuth())
  /** GET /edition → the EAR tables' edition in force for the caller's workspace. */
  .get("/edition", async (c) => {
    const row = await currentEditionRow(c.var.db, authOf(c).workspaceId);
    if (!row) throw notFound("No EAR edition is loaded");
    return c.json({
      id: row.id,
      edition_date: row.edition_date,
      source: row.source,
      is_shipped: row.workspace_id === null,
      counts: row.counts,
      loaded_at: row.loaded_at,
      loaded_by_email: row.loaded_by_email,
    });
  })
  /** POST /editions → loads a newer edition of the same four files for the workspace (admin role). */
  .post("/editions", validate("json", ZEditionInput), async (c) => {
    const auth = authOf(c);
    const input = c.req.valid("json");
    const current = await currentEditionRow(c.var.db, auth.workspaceId);
    if (current && input.edition_date < current.edition_date) {
      throw new AppError(
        "VALIDATION",
        `The edition ${input.edition_date} is older than the one in force (${current.edition_date}).`,
        { errors: { edition_date: [`Load an edition dated ${current.edition_date} or later.`] } },
      );
    }
    const id = await storeEdition(c.var.db, input.files, {
      workspaceId: auth.workspaceId,
      editionDate: input.edition_date,
      source: input.source ?? "",
      userId: auth.user.id,
      userEmail: auth.user.email,
    });
    return c.json({ id, edition_date: input.edition_date, status: { error: false } }, 201);
  })
  /** GET /shipments/:id → each line's determination, licence cover and the EEI verdict. */
  .get(`/shipments/:id${ID}`, async (c) =>
    c.json(await shipmentExportControl(c.var.db, authOf(c).workspaceId, Number(c.req.param("id")))),
  )
  /** PUT /shipments/:id/eei → the exchange rate, EEI indicators and citation (without moving updated_at). */
  .put(`/shipments/:id${ID}/eei`, validate("json", ZEeiInput), async (c) => {
    const { workspaceId } = authOf(c);
    const id = Number(c.req.param("id"));
    const values = Object.fromEntries(Object.entries(c.req.valid("json")).filter(([, v]) => v !== undefined));
    const owned = and(eq(shipments.id, id), eq(shipments.workspace_id, workspaceId));
    // A body that names no field changes nothing: the shipment must still be the caller's.
    const updated = Object.keys(values).length
      ? await c.var.db.update(shipments).set(values).where(owned).returning({ id: shipments.id })
      : await c.var.db.select({ id: shipments.id }).from(shipments).where(owned);
    if (!updated.length) throw notFound("Shipment not found");
    return c.json(await shipmentExportControl(c.var.db, workspaceId, id));
  })
  /** PUT /shipments/:id/lines/:itemId → a line's Schedule B, licence, exception or override (audited). */
  .put(`/shipments/:id${ID}/lines/:itemId${ID}`, validate("json", ZLineInput), async (c) => {
    const auth = authOf(c);
    const shipmentId = Number(c.req.param("id"));
    const line = await ownedLine(c, shipmentId, Number(c.req.param("itemId")));
    const values = c.req.valid("json");
    // Overriding a licence hold is a release: it needs the compliance role.
    if (values.override_justification !== undefined) requireRole(c, "compliance");
    const errors = await lineExportErrors(c.var.db, auth.workspaceId, [values], () => "item");
    if (Object.keys(errors).length) {
      throw new AppError("VALIDATION", Object.values(errors)[0][0], { errors });
    }
    const before = await shipmentExportControl(c.var.db, auth.workspaceId, shipmentId);
    await c.var.db.transaction(async (tx) => {
      await tx
        .update(shipment_items)
        .set(Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)))
        .where(eq(shipment_items.id, line.id));
      if (values.override_justification !== undefined) {
        await auditOverrides(tx as never, {
          workspaceId: auth.workspaceId,
          shipmentId,
          actor: { userId: auth.user.id, email: auth.user.email },
          before: new Map([[line.id, line.override_justification]]),
          after: [
            {
              id: line.id,
              product_id: line.product_id,
              override_justification: values.override_justification,
            },
          ],
          ec: before,
        });
      }
    });
    return c.json(await shipmentExportControl(c.var.db, auth.workspaceId, shipmentId));
  })
  /** GET /shipments/:id/audit → the overrides recorded on the shipment's lines, newest first. */
  .get(`/shipments/:id${ID}/audit`, async (c) =>
    c.json({ data: await exportControlAudit(c.var.db, authOf(c).workspaceId, Number(c.req.param("id"))) }),
  )
  /** GET /shipments/:id/eei-data-sheet.(json|csv|pdf) → the § 30.6 data elements and what is missing. */
  .get(`/shipments/:id${ID}/:file{eei-data-sheet\\.(?:json|csv|pdf)}`, async (c) => {
    const sheet = await eeiDataSheet(c.var.db, authOf(c).workspaceId, Number(c.req.param("id")));
    const format = c.req.param("file").split(".").pop();
    const name = `eei-data-sheet-${sheet.shipment_reference || sheet.shipment_id}`.replace(
      /[^A-Za-z0-9._-]+/g,
      "-",
    );
    c.header("Cache-Control", "private, no-store");
    if (format === "json") return c.json(sheet);
    if (format === "csv") {
      c.header("Content-Type", "text/csv; charset=utf-8");
      c.header("Content-Disposition", `attachment; filename="${name}.csv"`);
      return c.body(eeiDataSheetCsv(sheet));
    }
    const bytes = await eeiDataSheetPdf(sheet);
    c.header("Content-Type", "application/pdf");
    c.header("Content-Disposition", `inline; filename="${name}.pdf"`);
    return c.body(bytes as never);
  })
  /** GET /shipments/:id/sli.pdf → the shipper's letter of instruction for the forwarder. */
  .get(`/shipments/:id${ID}/sli.pdf`, async (c) => {
    const sheet = await eeiDataSheet(c.var.db, authOf(c).workspaceId, Number(c.req.param("id")));
    const bytes = await sliPdf(sheet);
    c.header("Content-Type", "application/pdf");
    c.header("Content-Disposition", `inline; filename="sli-${sheet.shipment_id}.pdf"`);
    c.header("Cache-Control", "private, no-store");
    return c.body(bytes as never);
  })
  /** GET /licenses/:id/usage → used, remaining and the shipments that drew on the licence. */
  .get(`/licenses/:id${ID}/usage`, async (c) =>
    c.json(await licenseUsage(c.var.db, authOf(c).workspaceId, Number(c.req.param("id")))),
  );
