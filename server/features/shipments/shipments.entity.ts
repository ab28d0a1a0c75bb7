import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import {
  GENERATED_DOCUMENT_TYPES,
  RETENTION_MESSAGE,
  SHIPMENT_STATUS,
  SHIPMENT_STATUSES,
  shipmentStatusOf,
  ZShipmentInput,
} from "../../../db/contracts/shipments";
import { readSelect } from "../../../db/reader";
import {
  carriers,
  contacts,
  countries,
  currencies,
  documents,
  packages,
  products,
  shipment_items,
  shipment_packages,
  shipments,
  users,
} from "../../../db/schema";
import type { TDbOrTx, TEntityDefinition, TRow } from "../../lib/entity/entity";
import { AppError } from "../../lib/errors";
import { listDocuments, storageKeysOf } from "../documents/documents.service";
import { refreshLastShipmentDates } from "./last-shipment-date";

/**
 * The export-control members of a line: read with every line, and kept from the stored line when a
 * PUT leaves them out.
 */
export const EXPORT_LINE_COLUMNS = {
  schedule_b: shipment_items.schedule_b,
  license_exception: shipment_items.license_exception,
  license_exception_note: shipment_items.license_exception_note,
  license_id: shipment_items.license_id,
  override_justification: shipment_items.override_justification,
  schedule_b_unit: shipment_items.schedule_b_unit,
  schedule_b_quantity: shipment_items.schedule_b_quantity,
};

/** `filters[status]`: a status id (1–6) or its name ("template", "in transit"); anything else is a 422. */
function statusCondition(value: string) {
  const text = value.trim().toLowerCase().replace(/_/g, " ");
  const status = /^\d+$/.test(text)
    ? SHIPMENT_STATUSES.find((s) => s.id === Number(text))
    : SHIPMENT_STATUSES.find((s) => s.name === text);
  if (!status) {
    const message = `must be a status id (1–6) or one of: ${SHIPMENT_STATUSES.map((s) => s.name).join(", ")}`;
    throw new AppError("VALIDATION", `filters[status]: ${message}`, {
      errors: { "filters[status]": [message] },
    });
  }
  return eq(shipments.shipping_status_id, status.id);
}

/** Reference rows never change at run time: read each table once per database. */
const referenceCache = new WeakMap<
  object,
  Promise<{ carriers: Map<number, string>; currencies: Map<number, { code: string; currency: string }> }>
>();
function referenceData(db: TDbOrTx) {
  let cached = referenceCache.get(db);
  if (!cached) {
    cached = Promise.all([
      db.select({ id: carriers.id, name: carriers.name }).from(carriers),
      db.select({ id: currencies.id, code: currencies.code, currency: currencies.currency }).from(currencies),
    ]).then(([carrierRows, currencyRows]) => ({
      carriers: new Map(carrierRows.map((r) => [r.id, r.name])),
      currencies: new Map(currencyRows.map((r) => [r.id, { code: r.code, currency: r.currency }])),
    }));
    cached.catch(() => referenceCache.delete(db));
    referenceCache.set(db, cached);
  }
  return cached;
}

/** The URL that serves a shipment's signer's signature image (any member of the workspace may see it). */
export const signatureUrl = (shipmentId: number, signatureKey: string | null) =>
  signatureKey
    ? `/api/shipments/${shipmentId}/signature?v=${signatureKey.split("/").pop()?.slice(0, 12)}`
    : null;

/**
 * Embeds what a list row and a shipment show: user (with signature_url), carrier, status, currency,
 * the three parties ({id, company, city, country}) and documents — a fixed number of queries per page.
 */
async function embedRelated(db: TDbOrTx, items: Record<string, unknown>[]) {
  const partyIds = new Set<number>();
  const userIds = new Set<number>();
  for (const item of items) {
    for (const key of [
      "exporter_of_record_id",
      "importer_of_record_id",
      "ultimate_consignee_id",
      "notify_party_id",
    ]) {
      if (typeof item[key] === "number") partyIds.add(item[key] as number);
    }
    if (typeof item.user_id === "number") userIds.add(item.user_id);
    if (typeof item.updated_by_user_id === "number") userIds.add(item.updated_by_user_id);
  }
  const [reference, parties, people, docs] = await Promise.all([
    referenceData(db),
    partyIds.size
      ? readSelect(
          db,
          db
            .select({
              id: contacts.id,
              company: contacts.company,
              city: contacts.city,
              country: countries.name,
            })
            .from(contacts)
            .leftJoin(countries, eq(countries.id, contacts.country_id))
            .where(inArray(contacts.id, [...partyIds])),
        )
      : [],
    userIds.size
      ? readSelect(
          db,
          db
            .select({
              id: users.id,
              title: users.title,
              name: users.name,
              surname: users.surname,
              email: users.email,
              signature_key: users.signature_key,
            })
            .from(users)
            .where(inArray(users.id, [...userIds])),
        )
      : [],
    listDocuments(
      db,
      "shipment_id",
      items.map((item) => Number(item.id)),
    ),
  ]);
  const partyById = new Map(parties.map((p) => [p.id, p]));
  const userById = new Map(people.map((u) => [u.id, u]));
  for (const item of items) {
    const party = (key: string) => partyById.get(item[key] as number) ?? null;
    const user = userById.get(item.user_id as number);
    const status = shipmentStatusOf(item.shipping_status_id as number);
    const currency = reference.currencies.get(item.currency_id as number);
    item.user = user
      ? {
          id: user.id,
          title: user.title,
          name: user.name,
          surname: user.surname,
          email: user.email,
          signature_url: signatureUrl(item.id as number, user.signature_key),
        }
      : null;
    const editor = userById.get(item.updated_by_user_id as number);
    // Who saved it last (user is who created it): the list's User column and filter name both.
    item.updated_by = editor
      ? { id: editor.id, name: editor.name, surname: editor.surname, email: editor.email }
      : null;
    item.carrier =
      typeof item.carrier_id === "number"
        ? { id: item.carrier_id, name: reference.carriers.get(item.carrier_id) ?? "" }
        : null;
    item.status = { ...status };
    item.currency = currency ? { id: item.currency_id, ...currency } : null;
    item.exporter_of_record = party("exporter_of_record_id");
    item.importer_of_record = party("importer_of_record_id");
    item.ultimate_consignee = party("ultimate_consignee_id");
    item.notify_party = party("notify_party_id");
    item.documents = (docs.get(item.id as number) ?? []).map((d) => ({
      id: d.id,
      document_type: d.document_type,
      path: d.path,
      original_name: d.original_name,
      extension: d.extension,
      url: d.url,
      created_at: d.created_at,
    }));
  }
}

/** The item and package lines of one shipment, with what the form and the print page show of each. */
export async function embedLines(db: TDbOrTx, item: Record<string, unknown>) {
  const id = item.id as number;
  const [itemRows, packageRows] = await Promise.all([
    db
      .select({
        id: shipment_items.id,
        product_id: shipment_items.product_id,
        quantity: shipment_items.quantity,
        extended_value: shipment_items.extended_value,
        unit_value: products.unit_value,
        unit_of_measure: shipment_items.unit_of_measure,
        unit_price: shipment_items.unit_price,
        origin_country_id: shipment_items.origin_country_id,
        name: products.name,
        product_number: products.product_number,
        description: products.description,
        US_ECCN: products.US_ECCN,
        HTS: products.HTS,
        country_of_origin_id: products.country_of_origin_id,
        net_weight: products.net_weight,
        ...EXPORT_LINE_COLUMNS,
      })
      .from(shipment_items)
      .innerJoin(products, eq(products.id, shipment_items.product_id))
      .where(eq(shipment_items.shipment_id, id))
      .orderBy(asc(shipment_items.id)),
    db
      .select({
        id: shipment_packages.id,
        package_id: shipment_packages.package_id,
        package_name: packages.name,
        quantity: shipment_packages.quantity,
        net_weight: shipment_packages.net_weight,
        gross_weight: shipment_packages.gross_weight,
        length: shipment_packages.length,
        width: shipment_packages.width,
        height: shipment_packages.height,
        contents: shipment_packages.contents,
      })
      .from(shipment_packages)
      .innerJoin(packages, eq(packages.id, shipment_packages.package_id))
      .where(eq(shipment_packages.shipment_id, id))
      .orderBy(asc(shipment_packages.id)),
  ]);
  item.items = itemRows.map((r) => ({
    id: r.id,
    product_id: r.product_id,
    quantity: r.quantity,
    extended_value: r.extended_value,
    unit_value: r.unit_value,
    schedule_b: r.schedule_b,
    license_exception: r.license_exception,
    license_exception_note: r.license_exception_note,
    license_id: r.license_id,
    override_justification: r.override_justification,
    schedule_b_unit: r.schedule_b_unit,
    schedule_b_quantity: r.schedule_b_quantity,
    unit_of_measure: r.unit_of_measure,
    unit_price: r.unit_price,
    origin_country_id: r.origin_country_id,
    product: {
      id: r.product_id,
      name: r.name,
      product_number: r.product_number,
      description: r.description,
      US_ECCN: r.US_ECCN,
      HTS: r.HTS,
      country_of_origin_id: r.country_of_origin_id,
      net_weight: r.net_weight,
    },
  }));
  item.packages = packageRows;
}

/** Shipments on the shared kit: list columns, embedded objects, nested lines and the 15 CFR 762 delete rule. */
export const shipmentsEntity: TEntityDefinition = {
  noun: "shipment",
  table: shipments,
  columns: {
    user_id: { column: shipments.user_id, sortable: true, filter: "number" },
    updated_by_user_id: { column: shipments.updated_by_user_id, sortable: true, filter: "number" },
    name: { column: shipments.name, sortable: true, filter: "text" },
    shipper_reference_number: { column: shipments.shipper_reference_number, sortable: true, filter: "text" },
    consignee_reference_number: {
      column: shipments.consignee_reference_number,
      sortable: true,
      filter: "text",
    },
    ship_date: { column: shipments.ship_date, sortable: true, filter: "date" },
    importer_of_record_id: { column: shipments.importer_of_record_id, sortable: true, filter: "number" },
    exporter_of_record_id: { column: shipments.exporter_of_record_id, sortable: true, filter: "number" },
    carrier_id: { column: shipments.carrier_id, sortable: true, filter: "number" },
    tracking_number_1: { column: shipments.tracking_number_1, sortable: true, filter: "text" },
    tracking_number_2: { column: shipments.tracking_number_2, sortable: true, filter: "text" },
    status: {
      column: shipments.shipping_status_id,
      sortable: true,
      filter: "custom",
      where: statusCondition,
    },
    instructions_notes: { column: shipments.instructions_notes, filter: "text" },
    total_value: { column: shipments.total_value, sortable: true },
    updated_at: { column: shipments.updated_at, sortable: true, filter: "date" },
  },
  defaultSort: { prop: "updated_at", direction: "desc" },
  // Counting a 100k-shipment workspace costs more than the rest of a list request; writes retire it.
  // Writes go through shipments.service.ts (nested lines, lost-update check); the kit serves reads and deletes.
  input: ZShipmentInput as never,
  editDictionaries: [
    "contacts",
    "products",
    "currencies",
    "countries",
    "carriers",
    "shipping_statuses",
    "incoterms",
    "payment_terms",
    "mode_of_transports",
    "packages",
    "templates",
  ],
  /** My Shipments leaves templates out unless the status filter asks for them. */
  listScope: (query) =>
    query.filters.some((f) => f.prop === "status")
      ? undefined
      : ne(shipments.shipping_status_id, SHIPMENT_STATUS.TEMPLATE),
  toItem(row: TRow) {
    const { workspace_id: _, ...item } = row;
    return item;
  },
  decorate: embedRelated,
  decorateOne: embedLines,
  storageKeys: (db, id) => storageKeysOf(db, "shipment_id", id),
  /** 15 CFR part 762: a shipment that left draft with generated paperwork is an export record. */
  async dependants(db, workspaceId, id) {
    const [row] = await db
      .select({ status: shipments.shipping_status_id })
      .from(shipments)
      .where(and(eq(shipments.id, id), eq(shipments.workspace_id, workspaceId)));
    if (!row || row.status <= SHIPMENT_STATUS.DRAFT) return [];
    const [generated] = await db
      .select({ n: sql<number>`count(*)` })
      .from(documents)
      .where(
        and(eq(documents.shipment_id, id), inArray(documents.document_type, [...GENERATED_DOCUMENT_TYPES])),
      );
    return generated.n ? [RETENTION_MESSAGE] : [];
  },
  /** Nothing to detach: a forced delete removes the shipment, its lines and its files. */
  async forceDelete() {},
  async afterDelete(tx, workspaceId, row) {
    await refreshLastShipmentDates(tx, workspaceId, [
      row.exporter_of_record_id as number | null,
      row.importer_of_record_id as number | null,
      row.ultimate_consignee_id as number | null,
    ]);
  },
};
