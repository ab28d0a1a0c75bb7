import type { TDb } from "../../../db/client";
import { SEARCH_LIMIT, type TSearchHit } from "../../../db/contracts/search";
import type { TEntityDefinition } from "../../lib/entity/entity";
import { listRecords } from "../../lib/entity/entity.service";
import type { TFilter } from "../../lib/entity/list-query";
import { contactsEntity } from "../contacts/contacts.entity";
import { licensesEntity } from "../licenses/licenses.entity";
import { productsEntity } from "../products/products.entity";
import { shipmentsEntity } from "../shipments/shipments.entity";

type TRow = Record<string, unknown> & { id: number };

/**
 * Rows of one list whose column contains the text: the list's own filter, so the same indexes
 * (trigram, case variants) serve it as when someone filters that column in the table.
 */
async function find(
  db: TDb,
  def: TEntityDefinition,
  workspaceId: number,
  filters: TFilter[],
): Promise<TRow[]> {
  const page = await listRecords(db, def, workspaceId, {
    page: 1,
    perPage: SEARCH_LIMIT,
    sort: def.defaultSort,
    filters,
  });
  return page.data as TRow[];
}

const text = (prop: string, value: string): TFilter => ({ prop, kind: "text", value });

/** Rows of several searches, each id once, in the order found, at most SEARCH_LIMIT. */
function firstDistinct(lists: TRow[][]): TRow[] {
  const seen = new Map<number, TRow>();
  for (const list of lists) for (const row of list) if (!seen.has(row.id)) seen.set(row.id, row);
  return [...seen.values()].slice(0, SEARCH_LIMIT);
}

const str = (value: unknown) => (value === null || value === undefined ? "" : String(value));
const joined = (...parts: unknown[]) => parts.map(str).filter(Boolean).join(" · ");

/**
 * The global search: the workspace's contacts (company, tax id), products (number, name), licences
 * (name, reference) and shipments (shipper reference, name, tracking numbers, and those whose importer
 * is a matching contact). Every read is scoped to the caller's workspace.
 */
export async function searchWorkspace(db: TDb, workspaceId: number, q: string): Promise<TSearchHit[]> {
  const [
    byCompany,
    byTaxId,
    byNumber,
    byName,
    byLicence,
    byLicenceRef,
    byRef,
    byShipmentName,
    byTracking1,
    byTracking2,
  ] = await Promise.all([
    find(db, contactsEntity, workspaceId, [text("company", q)]),
    find(db, contactsEntity, workspaceId, [text("tax_id", q)]),
    find(db, productsEntity, workspaceId, [text("product_number", q)]),
    find(db, productsEntity, workspaceId, [text("name", q)]),
    find(db, licensesEntity, workspaceId, [text("licence_name", q)]),
    find(db, licensesEntity, workspaceId, [text("reference_number_1", q)]),
    find(db, shipmentsEntity, workspaceId, [text("shipper_reference_number", q)]),
    find(db, shipmentsEntity, workspaceId, [text("name", q)]),
    find(db, shipmentsEntity, workspaceId, [text("tracking_number_1", q)]),
    find(db, shipmentsEntity, workspaceId, [text("tracking_number_2", q)]),
  ]);
  const contactRows = firstDistinct([byCompany, byTaxId]);
  // Shipments to a matching counterpart: the importer filter is an indexed id.
  const byCounterpart = await Promise.all(
    byCompany
      .slice(0, 3)
      .map((c) =>
        find(db, shipmentsEntity, workspaceId, [
          { prop: "importer_of_record_id", kind: "number", value: c.id },
        ]),
      ),
  );
  const hits: TSearchHit[] = [];
  for (const c of contactRows)
    hits.push({
      kind: "contact",
      id: c.id,
      title: str(c.company),
      detail: joined(c.tax_id, c.city),
      path: `/contacts/edit-contact/${c.id}`,
    });
  for (const p of firstDistinct([byNumber, byName]))
    hits.push({
      kind: "product",
      id: p.id,
      title: joined(p.product_number, p.name),
      detail: joined(p.US_ECCN && `ECCN ${str(p.US_ECCN)}`, p.description),
      path: `/products/edit-product/${p.id}`,
    });
  for (const l of firstDistinct([byLicence, byLicenceRef]))
    hits.push({
      kind: "license",
      id: l.id,
      title: str(l.licence_name),
      detail: joined(
        l.reference_number_1,
        l.status,
        l.expiration_date && `expires ${str(l.expiration_date)}`,
      ),
      path: `/licenses/edit-license/${l.id}`,
    });
  for (const s of firstDistinct([byRef, byTracking1, byTracking2, byShipmentName, ...byCounterpart])) {
    const importer = s.importer_of_record as { company?: string } | null | undefined;
    hits.push({
      kind: "shipment",
      id: s.id,
      title: str(s.shipper_reference_number) || str(s.name) || `Shipment ${s.id}`,
      detail: joined(importer?.company && `to ${importer.company}`, s.tracking_number_1, s.ship_date),
      path: `/shipments/edit-shipment/${s.id}`,
    });
  }
  return hits;
}
