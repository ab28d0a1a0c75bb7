// Loads a shipment with everything its paperwork reads: parties, lines, packages, the exporter
// profile, countries and the paper size.
import { and, asc, eq, inArray } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import type { TPaperSize } from "../../../db/contracts/paperwork";
import {
  contacts,
  countries,
  packages,
  products,
  shipment_items,
  shipment_packages,
  shipments,
  workspaces,
} from "../../../db/schema";
import { notFound } from "../../lib/errors";
import type { TLogger } from "../../lib/logger";
import type { TStorage } from "../../lib/storage";
import { exporterProfileRow, type TExporterProfileRow } from "../exporter-profile/exporter-profile.service";

export type TPaperworkDeps = { db: TDb; storage: TStorage; logger: TLogger };

export type TContactRow = typeof contacts.$inferSelect;

export type TShipmentRow = typeof shipments.$inferSelect;

export const PARTY_LABELS = {
  exporter_of_record_id: "Exporter of record",
  importer_of_record_id: "Importer of record",
  ultimate_consignee_id: "Ultimate consignee",
} as const;

export type TPartyField = keyof typeof PARTY_LABELS;

export type TLoaded = {
  shipment: TShipmentRow;
  parties: Partial<Record<TPartyField, TContactRow & { country_name: string }>>;
  items: {
    id: number;
    quantity: number;
    extended_value: string;
    unit_of_measure: string;
    /** The unit price of this sale: the line's own, else the catalogue price. */
    unit_price: string;
    product: typeof products.$inferSelect;
    origin: string;
  }[];
  packageLines: (typeof shipment_packages.$inferSelect & { package_name: string })[];
  notifyParty: (TContactRow & { country_name: string }) | null;
  /** The workspace's own legal entity: the exporter when the shipment names none. */
  profile: (TExporterProfileRow & { country_name: string }) | null;
  countryOf: Map<number, { name: string; code: string }>;
  paperSize: TPaperSize;
};

export async function loadShipment(db: TDb, workspaceId: number, shipmentId: number): Promise<TLoaded> {
  const [shipment] = await db
    .select()
    .from(shipments)
    .where(and(eq(shipments.id, shipmentId), eq(shipments.workspace_id, workspaceId)));
  if (!shipment) throw notFound("Shipment not found");
  const [workspace] = await db
    .select({ paper_size: workspaces.paper_size })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  const countryRows = await db.select().from(countries);
  const countryOf = new Map(countryRows.map((c) => [c.id, { name: c.name, code: c.code_iso_2 }]));
  const partyIds = (Object.keys(PARTY_LABELS) as TPartyField[])
    .map((field) => shipment[field])
    .filter((id): id is number => typeof id === "number");
  const partyRows = partyIds.length
    ? await db
        .select()
        .from(contacts)
        .where(and(eq(contacts.workspace_id, workspaceId), inArray(contacts.id, partyIds)))
    : [];
  const parties: TLoaded["parties"] = {};
  for (const field of Object.keys(PARTY_LABELS) as TPartyField[]) {
    const row = partyRows.find((r) => r.id === shipment[field]);
    if (row) parties[field] = { ...row, country_name: countryOf.get(row.country_id ?? 0)?.name ?? "" };
  }
  const [notify] = shipment.notify_party_id
    ? await db
        .select()
        .from(contacts)
        .where(and(eq(contacts.workspace_id, workspaceId), eq(contacts.id, shipment.notify_party_id)))
    : [];
  const profile = await exporterProfileRow(db, workspaceId);
  const itemRows = await db
    .select({ item: shipment_items, product: products })
    .from(shipment_items)
    .innerJoin(products, eq(products.id, shipment_items.product_id))
    .where(eq(shipment_items.shipment_id, shipment.id))
    .orderBy(asc(shipment_items.id));
  const packageRows = await db
    .select({ line: shipment_packages, name: packages.name })
    .from(shipment_packages)
    .innerJoin(packages, eq(packages.id, shipment_packages.package_id))
    .where(eq(shipment_packages.shipment_id, shipment.id))
    .orderBy(asc(shipment_packages.id));
  return {
    shipment,
    parties,
    items: itemRows.map(({ item, product }) => ({
      id: item.id,
      quantity: item.quantity,
      extended_value: item.extended_value,
      unit_of_measure: item.unit_of_measure,
      unit_price: item.unit_price ?? product.unit_value,
      product,
      // The line's own country of origin, else the product's.
      origin: countryOf.get(item.origin_country_id ?? product.country_of_origin_id ?? 0)?.name ?? "",
    })),
    packageLines: packageRows.map(({ line, name }) => ({ ...line, package_name: name })),
    notifyParty: notify
      ? { ...notify, country_name: countryOf.get(notify.country_id ?? 0)?.name ?? "" }
      : null,
    profile: profile?.company.trim()
      ? { ...profile, country_name: countryOf.get(profile.country_id ?? 0)?.name ?? "" }
      : null,
    countryOf,
    paperSize: workspace?.paper_size === "a4" ? "a4" : "letter",
  };
}
