import { and, count, eq, inArray } from "drizzle-orm";
import { ZProductInput } from "../../../db/contracts/products";
import { countries, licenses, products, shipment_items, shipments } from "../../../db/schema";
import type { TDbOrTx, TEntityDefinition } from "../../lib/entity/entity";
import { documentsDecorator, storageKeysOf } from "../documents/documents.service";

const shipmentIdsOf = (db: TDbOrTx, workspaceId: number) =>
  db.select({ id: shipments.id }).from(shipments).where(eq(shipments.workspace_id, workspaceId));

/** The product catalogue on the shared kit. */
export const productsEntity: TEntityDefinition = {
  noun: "product",
  table: products,
  columns: {
    product_number: { column: products.product_number, sortable: true, filter: "text", isNocase: true },
    name: { column: products.name, sortable: true, filter: "text", isNocase: true },
    description: { column: products.description, sortable: true, filter: "text", isNocase: true },
    US_ECCN: { column: products.US_ECCN, sortable: true, filter: "text" },
    HTS: { column: products.HTS, sortable: true, filter: "text" },
    country_of_origin_id: {
      column: products.country_of_origin_id,
      sortable: true,
      filter: "number",
      sortByLabel: { table: countries, label: countries.name },
    },
    net_weight: { column: products.net_weight, sortable: true },
    unit_value: { column: products.unit_value, sortable: true },
    has_license: { column: products.has_license, sortable: true, filter: "boolean" },
    is_sensitive: { column: products.is_sensitive, filter: "boolean" },
    updated_at: { column: products.updated_at, sortable: true, filter: "date" },
  },
  defaultSort: { prop: "product_number", direction: "asc" },
  input: ZProductInput,
  references: {
    country_of_origin_id: { table: countries, scope: "global", message: "Choose a country from the list." },
  },
  editDictionaries: ["countries"],
  decorate: documentsDecorator("product_id"),
  storageKeys: (db, id) => storageKeysOf(db, "product_id", id),
  async dependants(db, workspaceId, id) {
    const [[licenceCount], [itemCount]] = await Promise.all([
      db
        .select({ n: count() })
        .from(licenses)
        .where(and(eq(licenses.workspace_id, workspaceId), eq(licenses.product_id, id))),
      db
        .select({ n: count() })
        .from(shipment_items)
        .where(
          and(
            eq(shipment_items.product_id, id),
            inArray(shipment_items.shipment_id, shipmentIdsOf(db, workspaceId)),
          ),
        ),
    ]);
    const reasons: string[] = [];
    if (licenceCount.n)
      reasons.push(
        licenceCount.n === 1
          ? "1 licence covers this product."
          : `${licenceCount.n} licences cover this product.`,
      );
    if (itemCount.n)
      reasons.push(
        itemCount.n === 1
          ? "1 shipment line ships this product."
          : `${itemCount.n} shipment lines ship this product.`,
      );
    return reasons;
  },
  /** Force detaches licences from the product and removes its lines from shipments (a line needs a product). */
  async forceDelete(tx, workspaceId, id) {
    await tx
      .update(licenses)
      .set({ product_id: null })
      .where(and(eq(licenses.workspace_id, workspaceId), eq(licenses.product_id, id)));
    await tx
      .delete(shipment_items)
      .where(
        and(
          eq(shipment_items.product_id, id),
          inArray(shipment_items.shipment_id, shipmentIdsOf(tx, workspaceId)),
        ),
      );
  },
};
