import { describe, expect, test } from "bun:test";
import { rejectedCsv, truncationNote } from "./import-report";

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ line: i + 2, errors: ['company: "x"'] }));

describe("the import report's rejected rows", () => {
  test("all rows listed: no note, the CSV holds exactly the rows", () => {
    const report = { rejected: 2, rejected_rows: rows(2), rejected_rows_truncated: false };
    expect(truncationNote(report)).toBeNull();
    expect(rejectedCsv(report).split("\r\n")).toEqual([
      "line,reasons",
      '2,"company: ""x"""',
      '3,"company: ""x"""',
    ]);
  });

  test("truncated details: the dialog note and the CSV's first row say how many there are in all", () => {
    const report = { rejected: 4321, rejected_rows: rows(1000), rejected_rows_truncated: true };
    expect(truncationNote(report)).toBe("Showing the first 1,000 of 4,321 rejected rows.");
    const lines = rejectedCsv(report).split("\r\n");
    expect(lines).toHaveLength(1002);
    expect(lines[1]).toBe(
      ',"Showing the first 1,000 of 4,321 rejected rows. Fix these and import the file again to see the rest."',
    );
    expect(lines[2]).toStartWith("2,");
  });
});
