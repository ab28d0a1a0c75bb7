import type { TDb } from "../../../db/client";
import {
  contact_screening_results,
  contacts,
  products,
  shipment_items,
  shipment_packages,
  shipments,
} from "../../../db/schema";
import { listSetId } from "../screening/list-sets";

/**
 * Writes shipments straight into the database for the reports tests and the browser spec: the
 * reports read what the shipments service stores, and building them row by row here keeps these
 * tests independent of that service's API.
 */
let counter = 0;

export async function insertReportContact(
  db: TDb,
  workspaceId: number,
  values: { company?: string; country_id?: number | null; screening?: "passed" | "failed" | null } = {},
) {
  counter += 1;
  const [row] = await db
    .insert(contacts)
    .values({
      workspace_id: workspaceId,
      company: values.company ?? `Report Partner ${counter}`,
      partner_type_id: 1,
      tax_id: `RT-${counter}`,
      contact_1: "Pat",
      phone_1: "+1 555 0100",
      email_1: `pat${counter}@example.com`,
      country_id: values.country_id === undefined ? 1 : values.country_id,
    })
    .returning({ id: contacts.id });
  if (values.screening) {
    await db.insert(contact_screening_results).values({
      workspace_id: workspaceId,
      contact_id: row.id,
      status: values.screening,
      name: values.company ?? "partner",
      matches: [],
      list_set_id: await listSetId(db, []),
    });
  }
  return row.id;
}

export async function insertReportProduct(
  db: TDb,
  workspaceId: number,
  values: { unit_value?: string; net_weight?: string; has_license?: boolean; name?: string } = {},
) {
  counter += 1;
  const [row] = await db
    .insert(products)
    .values({
      workspace_id: workspaceId,
      name: values.name ?? `Analyser ${counter}`,
      description: "Bench-top analyser",
      product_number: `RP-${counter}`,
      country_of_origin_id: 2,
      US_ECCN: "3A992.a",
      HTS: "9030.40.0000",
      unit_value: values.unit_value ?? "100.00",
      net_weight: values.net_weight ?? "1.5",
      has_license: values.has_license ?? false,
    })
    .returning({ id: products.id });
  return row.id;
}

export type TReportShipmentInput = {
  name?: string;
  status?: number;
  ship_date?: string | null;
  exporter?: number | null;
  importer?: number | null;
  consignee?: number | null;
  total_invoice_value?: string;
  /** Currency id (1 is USD, the default) and its USD exchange rate ("" when not set). */
  currency_id?: number;
  usd_exchange_rate?: string;
  /** Who created it and who saved it last (members' ids). */
  user_id?: number | null;
  updated_by_user_id?: number | null;
  items: { product_id: number; quantity: number; extended_value: string }[];
  packages?: { package_id: number; gross_weight: string; net_weight?: string }[];
};

export async function insertReportShipment(db: TDb, workspaceId: number, input: TReportShipmentInput) {
  counter += 1;
  const [row] = await db
    .insert(shipments)
    .values({
      workspace_id: workspaceId,
      name: input.name ?? `Shipment ${counter}`,
      shipper_reference_number: `REF-${counter}`,
      shipping_status_id: input.status ?? 3,
      ship_date: input.ship_date === undefined ? "2026-03-14" : input.ship_date,
      exporter_of_record_id: input.exporter ?? null,
      importer_of_record_id: input.importer ?? null,
      ultimate_consignee_id: input.consignee ?? null,
      carrier_id: 1,
      mode_of_transport_id: 1,
      incoterm_id: 1,
      currency_id: input.currency_id ?? 1,
      usd_exchange_rate: input.usd_exchange_rate ?? "",
      total_invoice_value: input.total_invoice_value ?? "0",
      user_id: input.user_id ?? null,
      updated_by_user_id: input.updated_by_user_id ?? null,
    })
    .returning({ id: shipments.id });
  if (input.items.length) {
    await db.insert(shipment_items).values(input.items.map((item) => ({ shipment_id: row.id, ...item })));
  }
  if (input.packages?.length) {
    await db.insert(shipment_packages).values(
      input.packages.map((p) => ({
        shipment_id: row.id,
        package_id: p.package_id,
        gross_weight: p.gross_weight,
        net_weight: p.net_weight ?? p.gross_weight,
      })),
    );
  }
  return row.id;
}

/**
 * Fast bulk lines for size tests and benchmarks: `shipments` shipments of `itemsPer` lines each over
 * `productIds` (at least itemsPer of them), written with one INSERT … SELECT per table.
 */
export async function insertBulkLines(
  db: TDb,
  workspaceId: number,
  options: {
    shipments: number;
    itemsPer: number;
    productIds: number[];
    contactIds: number[];
    /** Package lines per shipment (package types 1…n), 0 by default. */
    packagesPer?: number;
  },
) {
  const client = db.$client;
  const before = await client.execute("select coalesce(max(id), 0) from shipments");
  const first = Number(before.rows[0][0]) + 1;
  const contactList = options.contactIds.join(",");
  await client.execute({
    sql: `with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ?)
      insert into shipments (id, workspace_id, name, shipper_reference_number, shipping_status_id, ship_date,
        exporter_of_record_id, importer_of_record_id, ultimate_consignee_id, carrier_id, mode_of_transport_id,
        incoterm_id, currency_id, usd_exchange_rate, total_invoice_value)
      select ? + i, ?, 'Bulk ' || i, 'BR-' || i, 2 + (i % 5),
        date('2025-01-01', '+' || (i % 700) || ' days'),
        json_extract('[${contactList}]', '$[' || (i % ${options.contactIds.length}) || ']'),
        json_extract('[${contactList}]', '$[' || ((i + 1) % ${options.contactIds.length}) || ']'),
        json_extract('[${contactList}]', '$[' || ((i + 2) % ${options.contactIds.length}) || ']'),
        1 + (i % 5), 1 + (i % 3), 1 + (i % 4), 1 + (i % 2), case i % 2 when 0 then '1' else '0.2723' end,
        100000 + i
      from n`,
    args: [options.shipments, first, workspaceId],
  });
  const productList = options.productIds.join(",");
  await client.execute({
    sql: `with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ?),
      k(j) as (select 0 union all select j + 1 from k where j + 1 < ?)
      insert into shipment_items (shipment_id, product_id, quantity, extended_value)
      select ? + i, json_extract('[${productList}]', '$[' || ((i + j) % ${options.productIds.length}) || ']'),
        1 + ((i + j) % 9), 1000 * (1 + ((i + j) % 9))
      from n, k order by i, j`,
    args: [options.shipments, options.itemsPer, first],
  });
  if (options.packagesPer) {
    await client.execute({
      sql: `with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ?),
        k(j) as (select 1 union all select j + 1 from k where j + 1 <= ?)
        insert into shipment_packages (shipment_id, package_id, quantity, net_weight, gross_weight)
        select ? + i, j, 1 + (i % 3), 1000 * (1 + (i + j) % 40), 1250 * (1 + (i + j) % 40)
        from n, k order by i, j`,
      args: [options.shipments, options.packagesPer, first],
    });
  }
  return { firstShipmentId: first };
}

// Independent SQL for the pivot's aggregates over lines (from shipment_items i, shipments s,
// products p, currencies c): money is stored in cents; a line in another currency is rounded to US
// cents at its shipment's rate.
export const VALUE_SQL = "i.extended_value / 100.0";
export const USD_SQL =
  "case when c.code = 'USD' then i.extended_value / 100.0 else round(i.extended_value * s.usd_exchange_rate) / 100.0 end";

/** Column, aggregate and the SQL that computes it: the aggregates both pivots offer. */
export const LINE_AGGREGATE_CASES: [column: string, aggregate: string, sql: string][] = [
  ["quantity", "sum", "sum(i.quantity)"],
  ["extended_value_usd", "sum", `round(sum(${USD_SQL}), 2)`],
  ["quantity", "count", "count(*)"],
  ["product_name", "count", "count(*)"],
  ["quantity", "avg", "avg(i.quantity)"],
  ["extended_value", "avg", `avg(${VALUE_SQL})`],
  ["extended_value", "min", `min(${VALUE_SQL})`],
  ["extended_value", "max", `max(${VALUE_SQL})`],
];
