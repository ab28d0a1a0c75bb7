import type { TReportColumn } from "./report-attributes";

/**
 * Columns a summary (`?group_by=`) can group by: every column that names something (a status, a
 * month, a party, a product…), each computed from the same ids as the per-line records.
 */
export const REPORT_GROUPABLE = [
  "shipment_id",
  "shipment_name",
  "shipper_reference",
  "status",
  "ship_date",
  "ship_month",
  "ship_year",
  "carrier",
  "created_by",
  "last_edited_by",
  "mode_of_transport",
  "incoterm",
  "currency",
  "exporter",
  "importer",
  "ultimate_consignee",
  "destination_country",
  "product_number",
  "product_name",
  "eccn",
  "hts",
  "country_of_origin",
  "has_license",
  "exporter_screening",
  "importer_screening",
  "consignee_screening",
  "parties_screening",
] as const satisfies readonly TReportColumn[];

/** Columns a summary can sum (`?sum=`): per-line numbers SQL adds up exactly (integer cents and units). */
export const REPORT_SUMMABLE = [
  "quantity",
  "extended_value",
  "total_invoice_value",
] as const satisfies readonly TReportColumn[];
