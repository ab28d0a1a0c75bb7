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
