// One connection's Perspective virtual-server handler: Perspective's SQL model turns each view config
// into DuckDB SQL, run on this connection's own DuckDB connection, behind a gate. The connection
// sees one table, named REPORT_TABLE, which is its workspace's lines; its views get names of its
// own; a config may name only the table's columns, the aggregates and filters below, and no
// expressions (an expression is SQL, and SQL could read another workspace's table).

import type { DuckDBConnection } from "@duckdb/node-api";
import type { ColumnType, ViewConfig, ViewWindow, VirtualDataSlice } from "@perspective-dev/client/node";
import { REPORT_PIVOT_AGGREGATES, REPORT_PIVOT_TABLE } from "../../../../db/contracts/report-pivot";

/** The name the viewer opens: the connection's workspace's lines. */
export const REPORT_TABLE = REPORT_PIVOT_TABLE;

/**
 * DuckDB functions behind the viewer's aggregate names that are not DuckDB's own (the SQL model
 * writes `name("column")`); created once per database by the engine.
 */
export const PIVOT_MACROS: Record<string, string> = {
  "distinct count": "CREATE OR REPLACE MACRO distinct_count(x) AS count(DISTINCT x)",
};
const MACRO_NAMES: Record<string, string> = { "distinct count": "distinct_count" };

const NUMBER_FILTERS = ["==", "!=", ">=", "<=", ">", "<", "is null", "is not null"];
const TEXT_FILTERS = [...NUMBER_FILTERS, "begins with", "contains", "ends with", "in", "not in"];

type TColumnType = "integer" | "float" | "string" | "boolean" | "date" | "datetime";
type TPerspective = typeof import("@perspective-dev/client/dist/wasm/perspective-js.js");

/** Perspective's SQL model: each handler call's SQL (the same model its DuckDB handler uses). */
type TSqlModel = {
  tableSchema(table: string): string;
  tableSize(table: string): string;
  tableMakeView(table: string, view: string, config: unknown): string;
  viewDelete(view: string): string;
  viewColumnSize(view: string): string;
  viewGetMinMax(view: string, column: string, config: unknown): string;
  viewGetData(view: string, config: unknown, viewport: unknown, schema: unknown): string;
};

/** The viewer's type of a DuckDB column type (as Perspective's DuckDB handler maps them). */
export function viewerType(duckType: string): TColumnType {
  const type = duckType.toLowerCase();
  if (type.startsWith("bool")) return "boolean";
  if (["tinyint", "smallint", "integer", "utinyint", "usmallint"].includes(type)) return "integer";
  if (
    ["bigint", "hugeint", "uhugeint", "uinteger", "ubigint", "float", "real", "double"].includes(type) ||
    type.startsWith("decimal")
  )
    return "float";
  if (type === "date") return "date";
  if (type.startsWith("time")) return "datetime";
  return "string";
}

/** A value as the viewer's data slice takes it: numbers for 64/128-bit integers, dates as epoch milliseconds. */
function sliceValue(value: unknown, type: TColumnType): unknown {
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Date) return value.getTime();
  if (type === "string" && value !== null && typeof value !== "string") return String(value);
  return value;
}

/** The view config's keys a connection may send (Perspective 5.5's ViewConfigUpdate); anything else is refused. */
const CONFIG_KEYS = new Set([
  "group_by",
  "split_by",
  "columns",
  "filter",
  "sort",
  "expressions",
  "windows",
  "aggregates",
  "group_by_depth",
  "filter_op",
  "group_rollup_mode",
  "split_rollup_mode",
]);

/** The config's keys that name one of a few choices, and those choices. */
const CONFIG_CHOICES: Record<string, string[]> = {
  filter_op: ["and", "or"],
  group_rollup_mode: ["rollup", "flat", "total"],
  split_rollup_mode: ["flat"],
};

/**
 * Whether SQL text is one statement: no `;` outside quotes, strings and comments, but at the end.
 * (DuckDB's own statement count is no help: it expands a PIVOT into several.)
 */
export function isOneStatement(sql: string): boolean {
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      // A quoted string or name; a doubled quote is one quote inside it.
      i++;
      while (i < sql.length && !(sql[i] === c && sql[i + 1] !== c)) i += sql[i] === c ? 2 : 1;
      if (i >= sql.length) return false;
      i++;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      if (end < 0) return false;
      i = end + 2;
    } else if (c === ";") {
      return sql.slice(i + 1).trim() === "";
    } else i++;
  }
  return true;
}

/** A view config the gate refused: its message goes back to the viewer as the request's error. */
export class PivotConfigError extends Error {}

export class PivotHandler {
  #table: string;
  #prefix: string;
  #views = new Map<string, string>();
  #next = 0;
  #schema: Record<string, TColumnType> | undefined;
  #conn: DuckDBConnection;
  #model: TSqlModel;
  /** This connection's views that are SQL views (flat ones), not tables. */
  #sqlViews = new Set<string>();

  constructor(conn: DuckDBConnection, perspective: TPerspective, table: string, viewPrefix: string) {
    this.#model = new perspective.GenericSQLVirtualServerModel({
      column_separator: "|",
      like_escape_clause: "\\",
      regex_fn: "regexp_matches",
    }) as unknown as TSqlModel;
    this.#conn = conn;
    this.#table = table;
    this.#prefix = viewPrefix;
  }

  /**
   * Runs one statement of the SQL model's, and only one: text that would make several (a name
   * closing its quotes to start another) is refused, not run.
   */
  async #run(sql: string) {
    if (!isOneStatement(sql)) throw new PivotConfigError("This report request is not one statement");
    return this.#conn.runAndReadAll(sql);
  }

  /** Runs one statement; answers its rows as objects of JS values. */
  async #rows(sql: string): Promise<Record<string, unknown>[]> {
    return (await this.#run(sql)).getRowObjectsJS() as Record<string, unknown>[];
  }

  /** The first value of the statement's first row, as a number. */
  async #number(sql: string): Promise<number> {
    const [row] = await this.#rows(sql);
    return Number(Object.values(row ?? {})[0] ?? 0);
  }

  /** The DuckDB name behind a name the viewer used: the table or one of this connection's views. */
  #real(id: string): string {
    if (id === REPORT_TABLE) return this.#table;
    const view = this.#views.get(id);
    if (!view) throw new PivotConfigError(`There is no table or view named ${id} here`);
    return view;
  }

  #realView(id: string): string {
    const view = this.#views.get(id);
    if (!view) throw new PivotConfigError(`There is no view named ${id} here`);
    return view;
  }

  getFeatures() {
    const numeric = { aggregates: [...REPORT_PIVOT_AGGREGATES.number], filters: NUMBER_FILTERS };
    const other = { aggregates: [...REPORT_PIVOT_AGGREGATES.other], filters: NUMBER_FILTERS };
    return {
      group_by: true,
      split_by: true,
      sort: true,
      expressions: false,
      group_rollup_mode: ["rollup", "flat", "total"] as ("rollup" | "flat" | "total")[],
      split_rollup_mode: ["flat"] as "flat"[],
      filter_ops: {
        integer: numeric.filters,
        float: numeric.filters,
        string: TEXT_FILTERS,
        boolean: ["==", "!=", "is null", "is not null"],
        date: other.filters,
        datetime: other.filters,
      },
      aggregates: {
        integer: numeric.aggregates,
        float: numeric.aggregates,
        string: other.aggregates,
        boolean: [...REPORT_PIVOT_AGGREGATES.boolean],
        date: other.aggregates,
        datetime: other.aggregates,
      },
    };
  }

  getHostedTables() {
    return [REPORT_TABLE];
  }

  /** A table's or view's columns and their viewer types; `internal` keeps the model's own (`__…__`) too. */
  async #schemaOf(table: string, internal = false): Promise<Record<string, TColumnType>> {
    const schema: Record<string, TColumnType> = {};
    for (const row of await this.#rows(this.#model.tableSchema(table))) {
      const name = String(row.column_name);
      if (internal || !name.startsWith("__")) schema[name] = viewerType(String(row.column_type));
    }
    return schema;
  }

  async #tableSchema(): Promise<Record<string, TColumnType>> {
    this.#schema ??= await this.#schemaOf(this.#table);
    return this.#schema;
  }

  async tableSchema(id: string) {
    if (id === REPORT_TABLE) return this.#tableSchema();
    return this.#schemaOf(this.#real(id));
  }

  tableSize(id: string) {
    return this.#number(this.#model.tableSize(this.#real(id)));
  }

  async tableMakeView(id: string, viewId: string, config: Record<string, unknown>) {
    if (id !== REPORT_TABLE) throw new PivotConfigError(`There is no table named ${id} here`);
    await this.#check(config);
    const name = `${this.#prefix}${++this.#next}`;
    const aggregates = Object.fromEntries(
      Object.entries((config.aggregates ?? {}) as Record<string, string>).map(([column, aggregate]) => [
        column,
        MACRO_NAMES[aggregate] ?? aggregate,
      ]),
    );
    const list = (value: unknown) => (Array.isArray(value) ? value : []);
    const sql = this.#model.tableMakeView(this.#table, name, { ...config, aggregates });
    if (list(config.group_by).length === 0 && list(config.split_by).length === 0) {
      // A flat view (lines, not groups) stays a SQL view: as a table it would copy every line of
      // the workspace per viewer; the grid asks for a window of rows at a time anyway.
      if (!sql.startsWith("CREATE TABLE "))
        throw new Error("Perspective's SQL model changed: no CREATE TABLE");
      await this.#run(`CREATE VIEW ${sql.slice("CREATE TABLE ".length)}`);
      this.#sqlViews.add(name);
    } else await this.#run(sql);
    this.#views.set(viewId, name);
    // The view's column names are written into later SQL between double quotes; a split by values
    // that hold one (a name typed with a quote) would break out of them.
    const columns = Object.keys(await this.#schemaOf(name, true));
    if (columns.some((column) => column.includes('"'))) {
      await this.viewDelete(viewId);
      throw new PivotConfigError(
        'A value in the columns split by contains a double quote ("), which the server pivot cannot show as a column: split by another column.',
      );
    }
  }

  tableValidateExpression(): never {
    throw new PivotConfigError("Expressions are not available on this report");
  }

  async viewDelete(viewId: string) {
    const name = this.#realView(viewId);
    this.#views.delete(viewId);
    if (this.#sqlViews.delete(name)) await this.#run(`DROP VIEW IF EXISTS "${name}"`);
    else await this.#run(this.#model.viewDelete(name));
  }

  /** The view's rows in the viewport, cell by cell into the viewer's slice (grouping levels by __GROUPING_ID__). */
  async viewGetData(
    viewId: string,
    config: ViewConfig,
    schema: Record<string, ColumnType>,
    viewport: ViewWindow,
    slice: VirtualDataSlice,
  ) {
    const sql = this.#model.viewGetData(this.#realView(viewId), config, viewport, schema);
    const reader = await this.#run(sql);
    const names = reader.columnNames();
    const types = reader.columnTypes().map((type) => viewerType(type.toString()));
    const columns = reader.getColumnsJS();
    const groupingAt = names.indexOf("__GROUPING_ID__");
    const grouping = groupingAt < 0 ? undefined : columns[groupingAt];
    for (let c = 0; c < names.length; c++) {
      const values = columns[c];
      for (let r = 0; r < values.length; r++) {
        const level = grouping === undefined ? undefined : Number(grouping[r]);
        slice.setCol(types[c], names[c], r, sliceValue(values[r], types[c]), level);
      }
    }
  }

  async viewGetMinMax(viewId: string, column: string, config: ViewConfig) {
    // The model writes the column's name into SQL as it is: only a column of the view may be named.
    const name = this.#realView(viewId);
    if (!(column in (await this.#schemaOf(name, true))) || column.includes('"')) {
      throw new PivotConfigError(`${JSON.stringify(column)} is not a column of this view`);
    }
    const [row] = await this.#rows(this.#model.viewGetMinMax(name, column, config));
    const [min, max] = Object.values(row ?? {});
    const plain = (value: unknown) => (value === undefined ? null : sliceValue(value, "float"));
    return { min: plain(min), max: plain(max) } as never;
  }

  async viewColumnSize(viewId: string, config: ViewConfig) {
    const columns = await this.#number(this.#model.viewColumnSize(this.#realView(viewId)));
    const levels = config.group_by?.length ?? 0;
    if (levels === 0) return columns;
    return columns - (config.group_rollup_mode === "flat" ? levels : levels + 1);
  }

  /** Drops every view this connection made (it closed). */
  async dropViews(): Promise<void> {
    for (const viewId of [...this.#views.keys()]) await this.viewDelete(viewId).catch(() => undefined);
  }

  /** Refuses a config that names anything but the table's columns and the offered aggregates and filters. */
  async #check(config: Record<string, unknown>): Promise<void> {
    const schema = await this.#tableSchema();
    const column = (name: unknown, what: string) => {
      if (typeof name !== "string" || !(name in schema)) {
        throw new PivotConfigError(`${what}: ${JSON.stringify(name)} is not a column of this report`);
      }
      return name;
    };
    const list = (value: unknown, what: string): unknown[] => {
      if (value === undefined || value === null) return [];
      if (!Array.isArray(value)) throw new PivotConfigError(`${what} must be a list`);
      return value;
    };
    for (const key of Object.keys(config)) {
      if (!CONFIG_KEYS.has(key))
        throw new PivotConfigError(`A view's ${key} is not available on this report`);
    }
    const expressions = config.expressions;
    if (expressions && Object.keys(expressions as object).length > 0) {
      throw new PivotConfigError("Expressions are not available on this report");
    }
    const windows = config.windows;
    if (windows && Object.keys(windows as object).length > 0) {
      throw new PivotConfigError("Window aggregates are not available on this report");
    }
    if (config.group_by_depth != null && !Number.isInteger(config.group_by_depth)) {
      throw new PivotConfigError("Group by depth must be a whole number");
    }
    for (const [key, allowed] of Object.entries(CONFIG_CHOICES)) {
      const value = config[key];
      if (value != null && !allowed.includes(value as string)) {
        throw new PivotConfigError(`${key} ${JSON.stringify(value)} is not available on this report`);
      }
    }
    for (const name of list(config.columns, "Columns")) if (name !== null) column(name, "Column");
    for (const name of list(config.group_by, "Group by")) column(name, "Group by");
    for (const name of list(config.split_by, "Split by")) column(name, "Split by");
    for (const entry of list(config.sort, "Sort")) {
      if (!Array.isArray(entry)) throw new PivotConfigError("Each sort must be [column, direction]");
      column(entry[0], "Sort");
    }
    const features = this.getFeatures();
    for (const entry of list(config.filter, "Filter")) {
      if (!Array.isArray(entry)) throw new PivotConfigError("Each filter must be [column, operator, value]");
      const type = schema[column(entry[0], "Filter")];
      if (!(features.filter_ops[type] as string[]).includes(entry[1])) {
        throw new PivotConfigError(`Filter: "${entry[1]}" is not available on ${entry[0]}`);
      }
      const values = Array.isArray(entry[2]) ? entry[2] : [entry[2]];
      for (const value of values) {
        if (
          value !== null &&
          value !== undefined &&
          !["string", "number", "boolean"].includes(typeof value)
        ) {
          throw new PivotConfigError(
            `Filter: the value for ${entry[0]} must be text, a number or true/false`,
          );
        }
      }
    }
    const aggregates = (config.aggregates ?? {}) as Record<string, unknown>;
    for (const [name, aggregate] of Object.entries(aggregates)) {
      const type = schema[column(name, "Aggregate")];
      if (typeof aggregate !== "string" || !(features.aggregates[type] as string[]).includes(aggregate)) {
        throw new PivotConfigError(`Aggregate: ${JSON.stringify(aggregate)} is not available on ${name}`);
      }
    }
  }
}
