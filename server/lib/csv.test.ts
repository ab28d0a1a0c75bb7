import { describe, expect, test } from "bun:test";
import { CsvParser, csvCell, detectDelimiter, toCsv } from "./csv";

function parse(text: string, chunkSize = text.length || 1) {
  const rows: [string[], number][] = [];
  const parser = new CsvParser((cells, line) => rows.push([cells, line]));
  for (let i = 0; i < text.length; i += chunkSize) parser.push(text.slice(i, i + chunkSize));
  parser.end();
  return rows;
}

describe("CsvParser", () => {
  test.each([1, 2, 3, 7, 1000])("gives the same records whatever the chunk size (%i)", (size) => {
    const text = '\uFEFFa,b,c\r\n"x, y","he said ""hi""","multi\nline"\r\n\r\nlast,,\n';
    expect(parse(text, size)).toEqual([
      [["a", "b", "c"], 1],
      [["x, y", 'he said "hi"', "multi\nline"], 2],
      [["last", "", ""], 5],
    ]);
  });

  test("keeps CRLF inside quotes and counts lines across it", () => {
    expect(parse('"a\r\nb",c\r\nd,e')).toEqual([
      [["a\r\nb", "c"], 1],
      [["d", "e"], 3],
    ]);
  });

  test("a file without a final line break still yields its last record", () => {
    expect(parse("a,b\nc,d")).toEqual([
      [["a", "b"], 1],
      [["c", "d"], 2],
    ]);
  });

  test("an unclosed quote is an error naming the line", () => {
    expect(() => parse('a,b\n"never closed,c\n')).toThrow("line 2: a quoted field is never closed");
  });

  test("an empty text gives no records", () => {
    expect(parse("")).toEqual([]);
    expect(parse("\n\n")).toEqual([]);
  });
});

describe("csvCell / toCsv", () => {
  test("quotes what needs quoting", () => {
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell(null)).toBe("");
    expect(csvCell(12.5)).toBe("12.5");
  });

  test("escapes spreadsheet formulas", () => {
    for (const evil of ["=HYPERLINK(1)", "+1", "-2+3", "@SUM(A1)", "\tx", "\rx"]) {
      expect(csvCell(evil).replace(/^"/, "")).toStartWith("'");
    }
    expect(toCsv(["name"], [["=cmd|' /C calc'!A0"]])).toBe("name\r\n'=cmd|' /C calc'!A0\r\n");
  });
});

describe("detectDelimiter", () => {
  test("the separator the header uses most outside quotes; a comma when unsure", () => {
    expect(detectDelimiter("Company;Partner Type;Tax ID")).toBe(";");
    expect(detectDelimiter("Company\tPartner Type\tTax ID")).toBe("\t");
    expect(detectDelimiter("Company,Partner Type,Tax ID")).toBe(",");
    expect(detectDelimiter('"Name, full";Type;Tax')).toBe(";");
    expect(detectDelimiter('"a;b;c",d,e')).toBe(",");
    expect(detectDelimiter("Company")).toBe(",");
  });

  test("the parser splits on the detected separator and keeps quoted ones", () => {
    const rows: string[][] = [];
    const parser = new CsvParser((cells) => rows.push(cells), ";");
    parser.push('a;"b;c";d,e\r\n1;2;3\r\n');
    parser.end();
    expect(rows).toEqual([
      ["a", "b;c", "d,e"],
      ["1", "2", "3"],
    ]);
  });
});
