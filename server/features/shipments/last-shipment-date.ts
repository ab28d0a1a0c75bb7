import { and, eq, inArray, sql } from "drizzle-orm";
import { contacts } from "../../../db/schema";
import type { TDbOrTx } from "../../lib/entity/entity";

/**
 * Sets each contact's last_shipment_date to the latest ship_date of the non-template shipments it is
 * a party to (null when none). Called in the transaction of every shipment save and delete, with the
 * parties before and after, so the address book's column never drifts.
 */
export async function refreshLastShipmentDates(
  tx: TDbOrTx,
  workspaceId: number,
  contactIds: (number | null | undefined)[],
): Promise<void> {
  const ids = [...new Set(contactIds.filter((id): id is number => typeof id === "number"))];
  if (!ids.length) return;
  // The outer contact is named explicitly: drizzle writes update columns unqualified, and a bare "id"
  // inside the subquery would mean the shipment's.
  await tx
    .update(contacts)
    .set({
      last_shipment_date: sql`(select max(s.ship_date) from shipments s where s.workspace_id = ${workspaceId} and s.shipping_status_id <> 1 and (s.exporter_of_record_id = "contacts"."id" or s.importer_of_record_id = "contacts"."id" or s.ultimate_consignee_id = "contacts"."id"))`,
    })
    .where(and(eq(contacts.workspace_id, workspaceId), inArray(contacts.id, ids)));
}
