import { describe, expect, test } from "bun:test";
import { CsvParser } from "../../../server/lib/csv";
import { reportCsvCell, safeReportCsv, safeReportCsvFromColumns } from "./report-csv";

function parse(text: string): string[][] {
  const rows: string[][] = [];
  const parser = new CsvParser((cells) => rows.push(cells));
  parser.push(text);
  parser.end();
  return rows;
}

describe("the report's CSV export", () => {
  test("a product named as a formula is written as text: apostrophe first, quoted", () => {
    const csv = safeReportCsv(
      'Product,Extended value\n"=HYPERLINK(""http://evil.example"",""Click"")",12.5\n+1-2,3\n-cmd,-4.25\n@SUM(A1),0\n',
    );
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""Click"")",12.5`);
    expect(parse(csv)).toEqual([
      ["Product", "Extended value"],
      [`'=HYPERLINK("http://evil.example","Click")`, "12.5"],
      ["'+1-2", "3"],
      ["'-cmd", "-4.25"],
      ["'@SUM(A1)", "0"],
    ]);
  });

  test("tab and carriage return starts are neutralised; numbers, including negative ones, stay numbers", () => {
    expect(reportCsvCell("\tcalc")).toBe(`"'\tcalc"`);
    expect(reportCsvCell("\rcalc")).toBe(`"'\rcalc"`);
    expect(reportCsvCell("-12.50")).toBe("-12.50");
    expect(reportCsvCell("1e-3")).toBe("1e-3");
    expect(reportCsvCell("")).toBe("");
    expect(reportCsvCell("Oscilloscope")).toBe('"Oscilloscope"');
    expect(reportCsvCell("2026-03")).toBe('"2026-03"');
  });

  test("quoted cells with commas and line breaks keep their text", () => {
    expect(parse(safeReportCsv('a,b\n"x, ""y""\nz",1\n'))).toEqual([
      ["a", "b"],
      ['x, "y"\nz', "1"],
    ]);
  });

  test("a view's columns (the server pivot) become the same safe CSV, groupings first, the total named", () => {
    const csv = safeReportCsvFromColumns(
      {
        __ROW_PATH__: [[], ['=HYPERLINK("http://evil.example")'], ["Fuse"]],
        "DELIVERED|Quantity": [14, 1, 13],
        "IN TRANSIT|Quantity": [null, null, 5],
      },
      ["Product"],
    );
    expect(parse(csv)).toEqual([
      ["Product", "DELIVERED|Quantity", "IN TRANSIT|Quantity"],
      ["Total", "14", ""],
      ['\'=HYPERLINK("http://evil.example")', "1", ""],
      ["Fuse", "13", "5"],
    ]);
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
    expect(parse(safeReportCsvFromColumns({ Quantity: [3, 4] }, []))).toEqual([["Quantity"], ["3"], ["4"]]);
  });
});
