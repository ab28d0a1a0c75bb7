import { z } from "zod";
import { REPORT_GROUPABLE, REPORT_SUMMABLE } from "./report-summary";

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

/** One JSON record: floats travel as exact decimal strings ("1234.50"), dates as YYYY-MM-DD. */
export type TReportRecord = Record<TReportColumn, string | number | boolean | null>;

/** The Arrow IPC stream media type (also `?format=arrow`). */
export const ARROW_STREAM_TYPE = "application/vnd.apache.arrow.stream";

/**
 * JSON answers stop at this many lines: a million JSON records would be ~500 MB of text and far
 * slower for the browser than Arrow. Above it the API answers 413 and names the Arrow format.
 */
export const REPORT_JSON_MAX_LINES = 50_000;

/**
 * A summary (`?group_by=`) stops at this many combinations, in JSON and Arrow alike: it is read and
 * encoded whole in memory, and grouping by a shipment and a product gives about one per line.
 * Above it the API answers 413 and says to group by fewer columns or to ask for the lines.
 */
export const REPORT_SUMMARY_MAX_RECORDS = 50_000;

// The summary's columns live in a module without zod: the /reports route (in the app's first bundle) needs them.
export { REPORT_GROUPABLE, REPORT_SUMMABLE } from "./report-summary";

/** A comma-separated list of column keys, each one of `allowed`; `what` names the parameter in the 422. */
function columnList<T extends string>(allowed: readonly T[], what: string, example: string) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const keys = [
        ...new Set(
          value
            .split(",")
            .map((k) => k.trim())
            .filter(Boolean),
        ),
      ];
      const unknown = keys.filter((k) => !(allowed as readonly string[]).includes(k));
      if (keys.length === 0 || unknown.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `${keys.length === 0 ? `${what} is empty` : `${what} cannot use ${unknown.join(", ")}`}: give one or more of ${allowed.join(", ")}, comma-separated (e.g. ${what}=${example})`,
        });
        return z.NEVER;
      }
      return keys as T[];
    });
}

export const ZReportDataQuery = z
  .object({
    format: z.enum(["json", "arrow"], { error: "format must be json or arrow" }).optional(),
    /**
     * `labels` names the Arrow columns by their labels ("Extended value"), which is what the pivot shows;
     * the default is the keys (`extended_value`). JSON records are always keyed by name.
     */
    names: z.enum(["keys", "labels"], { error: "names must be keys or labels" }).optional(),
    /**
     * Only these columns, by key, comma-separated (`?columns=destination_country,status,extended_value`):
     * still one record per line, so every aggregate of those columns is the same as over all of them.
     * The screen loads the columns its first view needs this way, then the rest.
     */
    columns: z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return undefined;
        const keys = value
          .split(",")
          .map((k) => k.trim())
          .filter(Boolean);
        const known = new Set<string>(REPORT_ATTRIBUTES.map((a) => a.name));
        const unknown = keys.filter((k) => !known.has(k));
        if (keys.length === 0 || unknown.length > 0) {
          ctx.addIssue({
            code: "custom",
            message: `${keys.length === 0 ? "columns is empty" : `Unknown report column ${unknown.join(", ")}`}: give column keys from /api/reports-attributes, comma-separated (e.g. columns=status,extended_value)`,
          });
          return z.NEVER;
        }
        return keys as TReportColumn[];
      }),
    /**
     * A summary instead of lines (`?group_by=destination_country,status&sum=extended_value`): one
     * record per distinct combination of the `group_by` columns, with `sum` columns added up by SQL
     * over that combination's lines (exact: integer cents). A pivot over these columns that sums the
     * `sum` columns shows exactly what it shows over the lines; any other aggregate (count, avg…) does
     * not, so the screen uses it only for its first view and swaps in the lines.
     */
    group_by: columnList(REPORT_GROUPABLE, "group_by", "destination_country,status"),
    sum: columnList(REPORT_SUMMABLE, "sum", "extended_value"),
  })
  .superRefine((query, ctx) => {
    if (query.sum && !query.group_by) {
      ctx.addIssue({
        code: "custom",
        path: ["sum"],
        message:
          "sum needs group_by: name the columns to group by too (e.g. group_by=status&sum=extended_value)",
      });
    }
    if (query.group_by && query.columns) {
      ctx.addIssue({
        code: "custom",
        path: ["columns"],
        message:
          "columns cannot be combined with group_by: a summary has exactly its group_by and sum columns",
      });
    }
  });

/** Screening outcomes as report values. */
export const SCREENING_VALUES = ["passed", "failed", "not screened"] as const;
