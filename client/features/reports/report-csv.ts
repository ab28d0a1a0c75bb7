// The report's CSV export: Perspective writes the view's cells as they are, so a product named
// `=HYPERLINK(…)` would open in a spreadsheet as a live formula. Every text cell is rewritten the way
// OWASP's CSV-injection advice says: a leading = + - @ tab or carriage return gets an apostrophe,
// and the field is quoted. Plain numbers (a negative total is not a formula) stay numbers.
import { CsvParser, neutraliseFormula, quoteCsv } from "../../../server/lib/csv";

const PLAIN_NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/** One cell of the export: a plain number as is, empty as empty, any other text neutralised and quoted. */
export function reportCsvCell(text: string): string {
  if (text === "" || PLAIN_NUMBER.test(text)) return text;
  return quoteCsv(neutraliseFormula(text));
}

/** Perspective's CSV of a view, every cell safe to open in a spreadsheet (CRLF line ends). */
export function safeReportCsv(perspectiveCsv: string): string {
  const records: string[] = [];
  const parser = new CsvParser((cells) => records.push(cells.map(reportCsvCell).join(",")));
  parser.push(perspectiveCsv);
  parser.end();
  return records.length === 0 ? "" : `${records.join("\r\n")}\r\n`;
}

/**
 * A view's columns (Perspective's `to_columns`) as the same safe CSV: one column per row grouping,
 * named by `groupBy`, its cells from each row's path (the grand total row says "Total"), then the
 * view's own columns. The server's pivot answers `to_columns` from its cells as the browser's does;
 * its `to_csv` is DuckDB's, with internal names.
 */
export function safeReportCsvFromColumns(
  columns: Record<string, unknown[]>,
  groupBy: readonly string[],
): string {
  const { __ROW_PATH__: paths, ...values } = columns;
  const names = Object.keys(values).filter((name) => !name.startsWith("__"));
  const length = paths?.length ?? values[names[0]]?.length ?? 0;
  const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));
  const records = [[...(paths ? groupBy : []), ...names].map((name) => reportCsvCell(name)).join(",")];
  for (let row = 0; row < length; row++) {
    const path = (paths?.[row] ?? []) as unknown[];
    const group = paths
      ? groupBy.map((_, level) =>
          text(level < path.length ? path[level] : level === 0 && path.length === 0 ? "Total" : ""),
        )
      : [];
    records.push([...group, ...names.map((name) => text(values[name][row]))].map(reportCsvCell).join(","));
  }
  return `${records.join("\r\n")}\r\n`;
}
