// How each report column is read from a line and encoded: the one definition the JSON records, the
// Arrow schema and the summary's grouping all follow.
import { REPORT_ATTRIBUTES, type TReportColumn } from "../../../db/contracts/reports";
import type { TextDictionary } from "./report-dictionary";
import type { TLine } from "./report-lines";
import type { TReportLookups } from "./report-lookups";

/** How one column is read from a line and encoded; `dict` columns give an index into their dictionary. */
export type TColumnSpec =
  | { kind: "dict"; dict: (l: TReportLookups) => TextDictionary; index: (line: TLine) => number | null }
  | { kind: "int"; value: (line: TLine) => number | null }
  | { kind: "scaled"; scale: number; value: (line: TLine) => number | null }
  | { kind: "text"; value: (line: TLine) => string | null }
  | { kind: "date"; value: (line: TLine) => string | null }
  | { kind: "bool"; value: (line: TLine) => boolean | null };

export const SPECS: Record<TReportColumn, TColumnSpec> = {
  shipment_id: { kind: "int", value: (x) => x.shipment.id },
  shipment_name: { kind: "text", value: (x) => x.shipment.name },
  shipper_reference: { kind: "text", value: (x) => x.shipment.ref },
  status: { kind: "dict", dict: (l) => l.status, index: (x) => x.shipment.status },
  ship_date: { kind: "date", value: (x) => x.shipment.date },
  ship_month: { kind: "dict", dict: (l) => l.month, index: (x) => x.shipment.month },
  ship_year: { kind: "int", value: (x) => x.shipment.year },
  carrier: { kind: "dict", dict: (l) => l.carrier, index: (x) => x.shipment.carrier },
  created_by: { kind: "dict", dict: (l) => l.createdBy, index: (x) => x.shipment.createdBy },
  last_edited_by: { kind: "dict", dict: (l) => l.editedBy, index: (x) => x.shipment.editedBy },
  mode_of_transport: { kind: "dict", dict: (l) => l.mode, index: (x) => x.shipment.mode },
  incoterm: { kind: "dict", dict: (l) => l.incoterm, index: (x) => x.shipment.incoterm },
  currency: { kind: "dict", dict: (l) => l.currency, index: (x) => x.shipment.currency },
  exporter: { kind: "dict", dict: (l) => l.exporter, index: (x) => x.shipment.exporter },
  importer: { kind: "dict", dict: (l) => l.importer, index: (x) => x.shipment.importer },
  ultimate_consignee: { kind: "dict", dict: (l) => l.consignee, index: (x) => x.shipment.consignee },
  destination_country: { kind: "dict", dict: (l) => l.country, index: (x) => x.shipment.destination },
  product_number: { kind: "dict", dict: (l) => l.productNumber, index: (x) => x.product?.number ?? null },
  product_name: { kind: "dict", dict: (l) => l.productName, index: (x) => x.product?.name ?? null },
  eccn: { kind: "dict", dict: (l) => l.eccn, index: (x) => x.product?.eccn ?? null },
  hts: { kind: "dict", dict: (l) => l.hts, index: (x) => x.product?.hts ?? null },
  country_of_origin: { kind: "dict", dict: (l) => l.origin, index: (x) => x.product?.origin ?? null },
  quantity: { kind: "int", value: (x) => x.quantity },
  extended_value: { kind: "scaled", scale: 2, value: (x) => x.extendedCents },
  extended_value_usd: { kind: "scaled", scale: 2, value: (x) => x.usdCents },
  total_invoice_value: { kind: "scaled", scale: 2, value: (x) => x.shipment.invoiceCents },
  net_weight_kg: {
    kind: "scaled",
    scale: 3,
    value: (x) => (x.product ? x.product.grams * x.quantity : null),
  },
  gross_weight_kg: { kind: "scaled", scale: 3, value: (x) => x.shipment.grossGrams },
  has_license: { kind: "bool", value: (x) => x.product?.hasLicense ?? null },
  exporter_screening: {
    kind: "dict",
    dict: (l) => l.exporterScreening,
    index: (x) => x.shipment.exporterScreening,
  },
  importer_screening: {
    kind: "dict",
    dict: (l) => l.importerScreening,
    index: (x) => x.shipment.importerScreening,
  },
  consignee_screening: {
    kind: "dict",
    dict: (l) => l.consigneeScreening,
    index: (x) => x.shipment.consigneeScreening,
  },
  parties_screening: {
    kind: "dict",
    dict: (l) => l.partiesScreening,
    index: (x) => x.shipment.partiesScreening,
  },
};

/** Every report column, in the attributes' order. */
export const COLUMNS: readonly TReportColumn[] = REPORT_ATTRIBUTES.map((a) => a.name);
