import { serverPivotAggregate } from "../../../db/contracts/report-pivot";
import { REPORT_GROUPABLE, REPORT_SUMMABLE } from "../../../db/contracts/report-summary";
import type { TReportAttribute } from "../../../db/contracts/reports";
import type { TViewerConfig } from "./saved-setups";

/**
 * The first-open view: value shipped in US dollars per month by status (values in the shipments' own
 * currencies cannot be added up), every column's default aggregate set.
 */
export function defaultConfig(attributes: readonly TReportAttribute[]): TViewerConfig {
  const label = (name: string) => attributes.find((a) => a.name === name)?.label ?? name;
  return {
    plugin: "Datagrid",
    // The viewer's panel title (it says "untitled" otherwise).
    title: "Shipment lines",
    group_by: [label("ship_month")],
    split_by: [label("status")],
    columns: [label("extended_value_usd")],
    aggregates: Object.fromEntries(attributes.map((a) => [a.label, a.aggregate])),
    filter: [],
    sort: [],
  };
}

/**
 * The view the page opens with. A link can name one by label —
 * `/reports?group_by=Destination country&split_by=Status&columns=Extended value` (each repeatable or
 * comma-separated; unknown labels are ignored) — so a pivot can be bookmarked or shared; without
 * one, the default view.
 */
export function initialConfig(attributes: readonly TReportAttribute[], search: string): TViewerConfig {
  const base = defaultConfig(attributes);
  const labels = new Set(attributes.map((a) => a.label));
  const params = new URLSearchParams(search);
  const pick = (key: string) => [
    ...new Set(
      params
        .getAll(key)
        .flatMap((value) => value.split(","))
        .map((value) => value.trim())
        .filter((value) => labels.has(value)),
    ),
  ];
  const group_by = pick("group_by");
  const split_by = pick("split_by");
  const columns = pick("columns");
  if (group_by.length + split_by.length + columns.length === 0) return base;
  return { ...base, group_by, split_by, columns: columns.length > 0 ? columns : base.columns };
}

/** Every column label a view uses: rows, columns, values, filters and sorts. */
export function viewLabels(config: TViewerConfig): Set<string> {
  const used = new Set<string>();
  for (const label of [...(config.group_by ?? []), ...(config.split_by ?? []), ...(config.columns ?? [])]) {
    if (label) used.add(label);
  }
  for (const key of ["filter", "sort"] as const) {
    const entries = config[key];
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) if (Array.isArray(entry) && typeof entry[0] === "string") used.add(entry[0]);
  }
  return used;
}

/**
 * The column keys to load first for a view (`?columns=` of /api/reports-data), or null when the view
 * uses expressions (they may name any column) or already needs every column.
 */
export function firstColumns(
  config: TViewerConfig,
  attributes: readonly TReportAttribute[],
): string[] | null {
  const expressions = config.expressions;
  if (expressions && Object.keys(expressions as object).length > 0) return null;
  const used = viewLabels(config);
  const keys = attributes.filter((a) => used.has(a.label)).map((a) => a.name);
  return keys.length === 0 || keys.length === attributes.length ? null : keys;
}

/** The config with its aggregates limited to the columns a table has (a partial table has a few). */
export function configFor(config: TViewerConfig, labels: ReadonlySet<string>): TViewerConfig {
  const aggregates = (config.aggregates ?? {}) as Record<string, unknown>;
  return {
    ...config,
    aggregates: Object.fromEntries(Object.entries(aggregates).filter(([label]) => labels.has(label))),
  };
}

/** The report data URL: Arrow named by label, all columns or only `keys`. */
export function reportDataUrl(keys: string[] | null): string {
  return `/api/reports-data?format=arrow&names=labels${keys ? `&columns=${keys.join(",")}` : ""}`;
}

/**
 * The server summary a view can be drawn from exactly (`?group_by=&sum=` of /api/reports-data), or
 * null. Only when every value the view shows is a sum of a summable column (a sum of per-combination
 * sums is the sum of the lines) and its rows, columns and sorts name only its own columns: no
 * filters (they may need any column), no expressions, no other aggregate (a count or an average over
 * the summary would count combinations, not lines). It needs rows (`group_by`): with only
 * `split_by`, Perspective does not aggregate and shows one row per record, so the summary's
 * combinations would not be the lines' rows.
 */
export function summaryOf(
  config: TViewerConfig,
  attributes: readonly TReportAttribute[],
): { groupBy: string[]; sums: string[] } | null {
  const expressions = config.expressions;
  if (expressions && Object.keys(expressions as object).length > 0) return null;
  if (Array.isArray(config.filter) && config.filter.length > 0) return null;
  const nameOf = (label: string) => attributes.find((a) => a.label === label)?.name;
  const dimensions = [...(config.group_by ?? []), ...(config.split_by ?? [])];
  const values = (config.columns ?? []).filter((label): label is string => Boolean(label));
  const groupBy = dimensions.map(nameOf);
  const sums = values.map(nameOf);
  const aggregates = (config.aggregates ?? {}) as Record<string, unknown>;
  if (
    (config.group_by ?? []).length === 0 ||
    !groupBy.every((name) => (REPORT_GROUPABLE as readonly (string | undefined)[]).includes(name)) ||
    !sums.every((name) => (REPORT_SUMMABLE as readonly (string | undefined)[]).includes(name)) ||
    !values.every((label) => aggregates[label] === "sum")
  ) {
    return null;
  }
  const own = new Set([...dimensions, ...values]);
  if (Array.isArray(config.sort) && !config.sort.every((s) => Array.isArray(s) && own.has(s[0]))) return null;
  return { groupBy: [...new Set(groupBy as string[])], sums: [...new Set(sums as string[])] };
}

/** The URL of the first view's data: its summary when it has one, else its columns' lines. */
export function firstDataUrl(config: TViewerConfig, attributes: readonly TReportAttribute[]): string {
  const summary = summaryOf(config, attributes);
  if (!summary) return reportDataUrl(firstColumns(config, attributes));
  const sums = summary.sums.length > 0 ? `&sum=${summary.sums.join(",")}` : "";
  return `/api/reports-data?format=arrow&names=labels&group_by=${summary.groupBy.join(",")}${sums}`;
}

/**
 * The first view's data, fetched with `fetchUrl`: its summary when it has one, else its columns'
 * lines. A summary the server refuses as too large (413: more combinations than it builds in
 * memory, e.g. by shipment and product) falls back to the same columns' lines, which stream;
 * `summary` says which one came back (over a summary the viewer stays read-only).
 */
export async function loadFirstData<T>(
  config: TViewerConfig,
  attributes: readonly TReportAttribute[],
  fetchUrl: (url: string) => Promise<T>,
): Promise<{ data: T; summary: boolean }> {
  const summary = summaryOf(config, attributes) !== null;
  try {
    return { data: await fetchUrl(firstDataUrl(config, attributes)), summary };
  } catch (error) {
    if (!summary || (error as { status?: unknown } | null)?.status !== 413) throw error;
    return { data: await fetchUrl(reportDataUrl(firstColumns(config, attributes))), summary: false };
  }
}

/**
 * A configuration as the server's pivot takes it: each aggregate it does not offer (first/last)
 * becomes one it does (serverPivotAggregate), so a saved setup or the default view still opens.
 */
export function forServerPivot(
  config: TViewerConfig,
  attributes: readonly TReportAttribute[],
): TViewerConfig {
  if (!config.aggregates) return config;
  const typeOf = new Map(attributes.map((a) => [a.label, a.type as string]));
  return {
    ...config,
    aggregates: Object.fromEntries(
      Object.entries(config.aggregates).map(([label, aggregate]) => [
        label,
        typeof aggregate === "string"
          ? serverPivotAggregate(aggregate, typeOf.get(label) ?? "string")
          : aggregate,
      ]),
    ),
  };
}
