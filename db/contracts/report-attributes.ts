// The report's columns, without zod: the reports screen needs them before it runs (its early start
// of Perspective and the first view's data), and importing db/contracts/reports.ts there pulled
// zod (~25 KB gzip) in ahead of it.
/** Column types the reports screen understands (Perspective's own type names). */
export type TReportType = "string" | "integer" | "float" | "date" | "boolean";

/** One column of the report data: its key, what to call it, its type and how it aggregates by default. */
export type TReportAttribute = {
  name: string;
  label: string;
  type: TReportType;
  /** A Perspective aggregate name: sum, avg, count, distinct count, last. */
  aggregate: string;
  description?: string;
};

/**
 * The flat columns of `GET /api/reports-data`, one record per shipment line (item), in order.
 * Shipment-level values (total invoice value, gross weight) repeat on every line of their shipment,
 * so they default to `avg`, not `sum`, which would count them once per line.
 */
export const REPORT_ATTRIBUTES = [
  { name: "shipment_id", label: "Shipment ID", type: "integer", aggregate: "distinct count" },
  { name: "shipment_name", label: "Shipment", type: "string", aggregate: "count" },
  { name: "shipper_reference", label: "Shipper reference", type: "string", aggregate: "count" },
  { name: "status", label: "Status", type: "string", aggregate: "count" },
  { name: "ship_date", label: "Ship date", type: "date", aggregate: "last" },
  {
    name: "ship_month",
    label: "Ship month",
    type: "string",
    aggregate: "count",
    description: "YYYY-MM of the ship date, so months sort in order",
  },
  { name: "ship_year", label: "Ship year", type: "integer", aggregate: "distinct count" },
  { name: "carrier", label: "Carrier", type: "string", aggregate: "count" },
  {
    name: "created_by",
    label: "Created by",
    type: "string",
    aggregate: "count",
    description: "The member who created the shipment",
  },
  {
    name: "last_edited_by",
    label: "Last edited by",
    type: "string",
    aggregate: "count",
    description: "The member who saved the shipment last",
  },
  { name: "mode_of_transport", label: "Mode of transport", type: "string", aggregate: "count" },
  { name: "incoterm", label: "Incoterm", type: "string", aggregate: "count" },
  { name: "currency", label: "Currency", type: "string", aggregate: "count" },
  { name: "exporter", label: "Exporter", type: "string", aggregate: "count" },
  { name: "importer", label: "Importer", type: "string", aggregate: "count" },
  { name: "ultimate_consignee", label: "Ultimate consignee", type: "string", aggregate: "count" },
  {
    name: "destination_country",
    label: "Destination country",
    type: "string",
    aggregate: "count",
    description: "The ultimate consignee's country, else the importer's",
  },
  { name: "product_number", label: "Product number", type: "string", aggregate: "count" },
  { name: "product_name", label: "Product", type: "string", aggregate: "count" },
  { name: "eccn", label: "ECCN", type: "string", aggregate: "count" },
  { name: "hts", label: "HTS", type: "string", aggregate: "count" },
  { name: "country_of_origin", label: "Country of origin", type: "string", aggregate: "count" },
  { name: "quantity", label: "Quantity", type: "integer", aggregate: "sum" },
  {
    name: "extended_value",
    label: "Extended value",
    type: "float",
    aggregate: "sum",
    description: "Unit value × quantity of the line",
  },
  {
    name: "extended_value_usd",
    label: "Extended value (USD)",
    type: "float",
    aggregate: "sum",
    description:
      "The line's value in US dollars at the shipment's exchange rate; empty when a shipment in another currency has no rate",
  },
  {
    name: "total_invoice_value",
    label: "Shipment total invoice value",
    type: "float",
    aggregate: "avg",
    description: "The shipment's total, repeated on each of its lines",
  },
  {
    name: "net_weight_kg",
    label: "Net weight (kg)",
    type: "float",
    aggregate: "sum",
    description: "The product's net weight × quantity of the line",
  },
  {
    name: "gross_weight_kg",
    label: "Shipment gross weight (kg)",
    type: "float",
    aggregate: "avg",
    description: "Sum of the shipment's package gross weights, repeated on each of its lines",
  },
  { name: "has_license", label: "Licence required", type: "boolean", aggregate: "count" },
  { name: "exporter_screening", label: "Exporter screening", type: "string", aggregate: "count" },
  { name: "importer_screening", label: "Importer screening", type: "string", aggregate: "count" },
  { name: "consignee_screening", label: "Consignee screening", type: "string", aggregate: "count" },
  {
    name: "parties_screening",
    label: "Parties screening",
    type: "string",
    aggregate: "count",
    description: "failed if any party failed, passed if every named party passed, else not screened",
  },
] as const satisfies readonly TReportAttribute[];

export type TReportColumn = (typeof REPORT_ATTRIBUTES)[number]["name"];
