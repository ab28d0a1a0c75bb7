import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users, workspaces } from "./auth";
import { products } from "./catalogue";
import { createdAt, dimension, money, updatedAt, weight } from "./columns";
import { contacts } from "./contacts";
import {
  carriers,
  countries,
  currencies,
  incoterms,
  modes_of_transport,
  packages,
  payment_terms,
  shipping_statuses,
} from "./reference";

/**
 * One product's pieces in the packages of a package line: in every package of the line, or, with
 * `package`, only in that one (1…the line's quantity), for packages of one type holding different goods.
 */
export type TPackageContent = { product_id: number; quantity: number; package?: number };

/** International shipments; a shipment with status 1 (template) is a template. Money ×100. */
export const shipments = sqliteTable(
  "shipments",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    workspace_id: integer()
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text().notNull().default(""),
    exporter_of_record_id: integer().references(() => contacts.id, { onDelete: "set null" }),
    importer_of_record_id: integer().references(() => contacts.id, { onDelete: "set null" }),
    ultimate_consignee_id: integer().references(() => contacts.id, { onDelete: "set null" }),
    /** Whom the carrier notifies on arrival (often the customs broker); printed on the documents. */
    notify_party_id: integer().references(() => contacts.id, { onDelete: "set null" }),
    freight: money("freight").notNull().default(sql`0`),
    insurance: money("insurance").notNull().default(sql`0`),
    /** A discount taken off the invoice total (≥ 0, checked by the API's contract). */
    discount: money("discount").notNull().default(sql`0`),
    /** Other charges added to the invoice total (packing, handling, …), with the label printed. */
    other_charges: money("other_charges").notNull().default(sql`0`),
    other_charges_label: text().notNull().default(""),
    total_value: money("total_value").notNull().default(sql`0`),
    total_invoice_value: money("total_invoice_value").notNull().default(sql`0`),
    ship_date: text(),
    consignee_reference_number: text().notNull().default(""),
    shipper_reference_number: text().notNull().default(""),
    incoterm_id: integer().references(() => incoterms.id, { onDelete: "restrict" }),
    carrier_id: integer().references(() => carriers.id, { onDelete: "restrict" }),
    bol_hawb_tracking: text().notNull().default(""),
    payment_terms_id: integer().references(() => payment_terms.id, { onDelete: "restrict" }),
    currency_id: integer().references(() => currencies.id, { onDelete: "restrict" }),
    mode_of_transport_id: integer().references(() => modes_of_transport.id, { onDelete: "restrict" }),
    port_of_export: text().notNull().default(""),
    port_of_import: text().notNull().default(""),
    instructions_notes: text().notNull().default(""),
    user_name: text().notNull().default(""),
    user_title: text().notNull().default(""),
    user_id: integer().references(() => users.id, { onDelete: "set null" }),
    /**
     * The member who saved the shipment last (user_id is who created it). Added by ALTER TABLE, so
     * in the database the reference has no ON DELETE action (SQLite cannot add one to a column):
     * users are never deleted, removal only sets users.removed_at.
     */
    updated_by_user_id: integer().references(() => users.id, { onDelete: "set null" }),
    shipping_status_id: integer()
      .notNull()
      .default(2)
      .references(() => shipping_statuses.id, { onDelete: "restrict" }),
    tracking_number_1: text().notNull().default(""),
    tracking_number_2: text().notNull().default(""),
    total_pieces: integer().notNull().default(0),
    preview_statement_text: text().notNull().default(""),
    /** JSON array of the document types the user asked to generate. */
    generate_documents: text({ mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    // Paperwork: what the generated commercial invoice, proforma and packing list print.
    /** AES/EEI filing citation: an ITN (X + 14 digits) or a NOEEI § 30.36–30.40 legend; "" when not set. */
    aes_citation: text().notNull().default(""),
    /** Proforma 'Valid until' (YYYY-MM-DD); null means ship date + 30 days. */
    proforma_valid_until: text(),
    /** Sequence number given to the invoice when the shipper reference is empty (kept for regenerations). */
    invoice_number: text().notNull().default(""),
    /** The proforma's own series number, given at its first generation. */
    proforma_number: text().notNull().default(""),
    // Export control and EEI (15 CFR part 30).
    /** US dollars per one unit of the shipment's currency, exact decimal text ("" when not set; USD is 1). */
    usd_exchange_rate: text().notNull().default(""),
    /** The day that rate was taken (YYYY-MM-DD), or null. */
    usd_exchange_rate_date: text(),
    /** EEI ultimate consignee type (§ 30.6(a)(3)(ii)): D direct consumer, G government, R reseller, O other; "" unknown. */
    ultimate_consignee_type: text().notNull().default(""),
    /** EEI related-party indicator (§ 30.6(a)(10)): "Y", "N" or "" when not answered. */
    related_party: text().notNull().default(""),
    /** EEI routed export transaction indicator (§ 30.6(a)(22)): "Y", "N" or "". */
    routed_transaction: text().notNull().default(""),
    /** EEI hazardous materials indicator (§ 30.6(a)(20)): "Y", "N" or "". */
    hazardous_materials: text().notNull().default(""),
    // What authorities and carriers ask for on the invoice.
    /** The invoice date the user sets (YYYY-MM-DD); null: the day the documents are generated. */
    invoice_date: text(),
    /** Why the goods travel: sale, sample, repair and return, gift, … ("" not stated). */
    reason_for_export: text().notNull().default(""),
    /** The Incoterm's named place; "" falls back to the port the term names (export or import). */
    incoterm_place: text().notNull().default(""),
    /** Marks and numbers as the user wrote them; "" prints the generated marks. */
    marks_and_numbers: text().notNull().default(""),
    created_at: createdAt(),
    updated_at: updatedAt(),
    /**
     * The day the dashboard counts a shipment under: its ship date, else the (UTC) day it was
     * created. Kept by triggers (migration home_dashboard_triggers): an index over a virtual
     * generated column is not covering in SQLite, and the aggregates must not read 100k rows.
     */
    effective_date: text(),
    /**
     * The dashboard's destination: the ultimate consignee's country, else the importer's. Kept by
     * triggers (migration home_dashboard_triggers), so the dashboard aggregates without joins.
     */
    destination_country_id: integer(),
    /**
     * The recent list's sort keys, kept by triggers (migration home_sort_keys): the importer of
     * record's company (the addressee) and the destination country's name, so sorting 100,000
     * shipments by them walks an index instead of joining and sorting every row.
     */
    addressee: text(),
    destination_name: text(),
  },
  (t) => [
    // Covers every dashboard aggregate: workspace, period range, then status and destination.
    index("shipments_ws_home_idx").on(
      t.workspace_id,
      t.effective_date,
      t.shipping_status_id,
      t.destination_country_id,
    ),
    // Destinations over all time: grouped in index order, without sorting 100,000 entries.
    index("shipments_ws_destination_idx").on(t.workspace_id, t.destination_country_id, t.shipping_status_id),
    // The recent list's sorts (case-insensitive, like every text sort), id breaking ties in index
    // order; the period and template checks (and the tracking filter) read the index, not the row.
    index("shipments_ws_addressee_idx").on(
      t.workspace_id,
      sql`${t.addressee} collate nocase`,
      t.id,
      t.effective_date,
      t.shipping_status_id,
    ),
    index("shipments_ws_destination_name_idx").on(
      t.workspace_id,
      sql`${t.destination_name} collate nocase`,
      t.id,
      t.effective_date,
      t.shipping_status_id,
    ),
    index("shipments_ws_tracking_nocase_idx").on(
      t.workspace_id,
      sql`${t.tracking_number_1} collate nocase`,
      t.id,
      t.tracking_number_2,
      t.effective_date,
      t.shipping_status_id,
    ),
    index("shipments_ws_updated_idx").on(t.workspace_id, t.updated_at),
    index("shipments_ws_ship_date_idx").on(t.workspace_id, t.ship_date),
    index("shipments_ws_status_idx").on(t.workspace_id, t.shipping_status_id),
    index("shipments_ws_shipper_ref_idx").on(t.workspace_id, t.shipper_reference_number),
    index("shipments_ws_carrier_idx").on(t.workspace_id, t.carrier_id),
    index("shipments_ws_tracking1_idx").on(t.workspace_id, t.tracking_number_1),
    index("shipments_ws_tracking2_idx").on(t.workspace_id, t.tracking_number_2),
    // Who created it: My Shipments' user filter and sort (the id after the user keeps the sort's
    // tie-break in the index).
    index("shipments_ws_user_idx").on(t.workspace_id, t.user_id),
    // The dashboard of one member: their shipments of a period, with the status and destination
    // every aggregate reads, from the index alone.
    index("shipments_ws_user_home_idx").on(
      t.workspace_id,
      t.user_id,
      t.effective_date,
      t.shipping_status_id,
      t.destination_country_id,
    ),
    index("shipments_ws_updated_by_idx").on(t.workspace_id, t.updated_by_user_id),
    // List sorts and filters (My Shipments): every sortable list column is served by a (workspace, column) index.
    index("shipments_ws_name_idx").on(t.workspace_id, t.name),
    index("shipments_ws_consignee_ref_idx").on(t.workspace_id, t.consignee_reference_number),
    index("shipments_ws_importer_idx").on(t.workspace_id, t.importer_of_record_id),
    index("shipments_ws_exporter_idx").on(t.workspace_id, t.exporter_of_record_id),
    index("shipments_ws_total_value_idx").on(t.workspace_id, t.total_value),
    index("shipments_ws_status_updated_idx").on(t.workspace_id, t.shipping_status_id, t.updated_at),
    index("shipments_ws_status_ship_date_idx").on(t.workspace_id, t.shipping_status_id, t.ship_date),
    index("shipments_exporter_idx").on(t.exporter_of_record_id),
    index("shipments_importer_idx").on(t.importer_of_record_id),
    index("shipments_consignee_idx").on(t.ultimate_consignee_id),
    index("shipments_notify_party_idx").on(t.notify_party_id),
    index("shipments_incoterm_idx").on(t.incoterm_id),
    index("shipments_carrier_idx").on(t.carrier_id),
    index("shipments_payment_terms_idx").on(t.payment_terms_id),
    index("shipments_currency_idx").on(t.currency_id),
    index("shipments_mode_idx").on(t.mode_of_transport_id),
    index("shipments_status_idx").on(t.shipping_status_id),
    index("shipments_user_idx").on(t.user_id),
    check(
      "shipments_money_check",
      sql`${t.freight} >= 0 and ${t.insurance} >= 0 and ${t.total_value} >= 0 and ${t.total_invoice_value} >= 0`,
    ),
  ],
);

/** Item rows: each product at most once per shipment. extended_value is money (×100). */
export const shipment_items = sqliteTable(
  "shipment_items",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    shipment_id: integer()
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    product_id: integer()
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    quantity: integer().notNull().default(1),
    extended_value: money("extended_value").notNull().default(sql`0`),
    /** Schedule B number, 10 digits ("" when not set: the product's HTS is used). */
    schedule_b: text().notNull().default(""),
    /** Licence exception symbol chosen for the line (LVS, GBS, TMP, ENC, …); "" when none. */
    license_exception: text().notNull().default(""),
    license_exception_note: text().notNull().default(""),
    /**
     * The licence the user chose to ship this line under; it draws the licence down while the line
     * exists. Checked against the workspace by the service (no FK: adding one would rebuild the table).
     */
    license_id: integer(),
    /** A documented override of a licence requirement: the written justification ("" when none). */
    override_justification: text().notNull().default(""),
    /** Unit of measure of the quantity (PCS, KG, M, …; the contract's list). */
    unit_of_measure: text().notNull().default("PCS"),
    /** The Census unit of quantity of the line's Schedule B number for the EEI (NO, KG, DOZ, …; X: none). */
    schedule_b_unit: text().notNull().default("NO"),
    /** The quantity in `schedule_b_unit`, an exact decimal; "": the line's piece count (unit NO) or not given. */
    schedule_b_quantity: text().notNull().default(""),
    /** The actual unit price of this sale; null: the product's catalogue price. */
    unit_price: money("unit_price"),
    /** Where this line's goods originate; null: the product's country of origin. */
    origin_country_id: integer().references(() => countries.id, { onDelete: "restrict" }),
  },
  (t) => [
    uniqueIndex("shipment_items_product_unique").on(t.shipment_id, t.product_id),
    index("shipment_items_product_idx").on(t.product_id),
    // A licence's draw-down sums the lines shipped under it.
    index("shipment_items_license_idx").on(t.license_id),
    check("shipment_items_quantity_check", sql`${t.quantity} >= 1`),
  ],
);

/** Package lines: each package type at most once per shipment. Weights kg (×1000), dimensions inches (×100); defaults are 1 kg and 1 in, scaled. */
export const shipment_packages = sqliteTable(
  "shipment_packages",
  {
    id: integer().primaryKey({ autoIncrement: true }),
    shipment_id: integer()
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    package_id: integer()
      .notNull()
      .references(() => packages.id, { onDelete: "restrict" }),
    quantity: integer().notNull().default(1),
    net_weight: weight("net_weight").notNull().default(sql`1000`),
    gross_weight: weight("gross_weight").notNull().default(sql`1000`),
    length: dimension("length").notNull().default(sql`100`),
    width: dimension("width").notNull().default(sql`100`),
    height: dimension("height").notNull().default(sql`100`),
    /**
     * What each package of this line holds, as the user assigned it: product and pieces per package
     * ([] when not assigned). A line of 3 cartons each holding 10 routers is
     * [{product_id, quantity: 10}]; the packing list prints it under every numbered package.
     */
    contents: text({ mode: "json" }).$type<TPackageContent[]>().notNull().default(sql`'[]'`),
  },
  (t) => [
    uniqueIndex("shipment_packages_package_unique").on(t.shipment_id, t.package_id),
    index("shipment_packages_package_idx").on(t.package_id),
    // Covers the report's per-shipment gross weight sum: at 1M lines the look-ups of the package rows
    // themselves were ~0.6 s of the Arrow stream's SQL.
    index("shipment_packages_gross_idx").on(t.shipment_id, t.gross_weight),
    check("shipment_packages_quantity_check", sql`${t.quantity} >= 1`),
    // 0.01 kg = 10 in the ×1000 scale; 0.01 in = 1 in the ×100 scale.
    check("shipment_packages_weight_check", sql`${t.net_weight} >= 10 and ${t.gross_weight} >= 10`),
    check(
      "shipment_packages_dimension_check",
      sql`${t.length} >= 1 and ${t.width} >= 1 and ${t.height} >= 1`,
    ),
  ],
);

/**
 * A counter per workspace that SQL triggers raise on every change the dashboard can see (a
 * shipment written or deleted, a contact changed). The home endpoints cache their answers under
 * it, so a repeated look at an unchanged workspace does not aggregate 100,000 shipments again.
 */
export const home_versions = sqliteTable("home_versions", {
  workspace_id: integer()
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  version: integer().notNull().default(0),
});

/**
 * The dashboard's counts, kept by SQL triggers in the same transaction as every shipment write
 * (migration home_counts_triggers), so its aggregates read a few hundred rows instead of 100,000
 * index entries. One row per workspace, bucket, status and destination counts the non-template
 * shipments whose effective_date falls in the bucket: level 0 is all time (bucket ''), 1 a year
 * ('YYYY'), 2 a month ('YYYY-MM'), 3 a day ('YYYY-MM-DD'); any day range is a sum of whole
 * years, months and days. destination_country_id 0 stands for "no destination".
 */
export const home_counts = sqliteTable(
  "home_counts",
  {
    workspace_id: integer()
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    level: integer().notNull(),
    bucket: text().notNull(),
    status_id: integer().notNull(),
    destination_country_id: integer().notNull(),
    n: integer().notNull(),
  },
  (t) => [
    primaryKey({
      columns: [t.workspace_id, t.level, t.bucket, t.status_id, t.destination_country_id],
    }),
  ],
);
