/**
 * A streaming CSV parser (RFC 4180 plus what spreadsheets really write): quoted fields with
 * commas, doubled quotes and line breaks; CRLF or LF; a UTF-8 byte-order mark. Fed text chunks,
 * it hands out complete records with the line number each started on, so memory stays flat
 * however large the file.
 */
export class CsvParser {
  private field = "";
  private record: string[] = [];
  private inQuotes = false;
  /** The previous chunk ended on a quote inside a quoted field: it may be the first of a "" pair. */
  private pendingQuote = false;
  private line = 1;
  private recordLine = 1;
  private isStart = true;
  private fieldStarted = false;
  private skipLf = false;
  private wasCr = false;

  constructor(
    private readonly onRecord: (cells: string[], line: number) => void,
    /** The field separator: a comma, or what detectDelimiter found (a semicolon, a tab). */
    private readonly delimiter: "," | ";" | "\t" = ",",
  ) {}

  /** Parses the next piece of text. */
  push(chunk: string): void {
    let text = chunk;
    if (this.isStart) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.length) this.isStart = false;
    }
    const n = text.length;
    let i = 0;
    if (this.pendingQuote) {
      this.pendingQuote = false;
      if (n && text[0] === '"') {
        this.field += '"';
        i = 1;
      } else {
        this.inQuotes = false;
      }
    }
    for (; i < n; i++) {
      const ch = text[i];
      if (this.skipLf) {
        this.skipLf = false;
        if (ch === "\n") continue;
      }
      if (this.inQuotes) {
        if (ch === '"') {
          if (i + 1 === n) {
            this.pendingQuote = true;
          } else if (text[i + 1] === '"') {
            this.field += '"';
            i++;
          } else {
            this.inQuotes = false;
          }
        } else {
          // A line break inside quotes is data; CRLF counts as one line, even across chunks.
          if (ch === "\r" || (ch === "\n" && !this.wasCr)) this.line++;
          this.wasCr = ch === "\r";
          this.field += ch;
        }
        continue;
      }
      if (ch === '"' && !this.fieldStarted) {
        this.inQuotes = true;
        this.fieldStarted = true;
      } else if (ch === this.delimiter) {
        this.endField();
      } else if (ch === "\n" || ch === "\r") {
        this.endRecord();
        this.line++;
        this.recordLine = this.line;
        if (ch === "\r") this.skipLf = true;
      } else {
        this.field += ch;
        this.fieldStarted = true;
      }
    }
  }

  /** Flushes the last record (a file need not end with a line break). */
  end(): void {
    if (this.pendingQuote) {
      this.pendingQuote = false;
      this.inQuotes = false;
    }
    if (this.inQuotes) throw new Error(`line ${this.recordLine}: a quoted field is never closed`);
    if (this.fieldStarted || this.record.length) this.endRecord();
  }

  private endField() {
    this.record.push(this.field);
    this.field = "";
    this.fieldStarted = false;
  }

  private endRecord() {
    this.endField();
    const cells = this.record;
    this.record = [];
    // Blank lines are skipped, as spreadsheets do.
    if (!(cells.length === 1 && cells[0] === "")) this.onRecord(cells, this.recordLine);
  }
}

/**
 * The field separator of a CSV file, judged from its first line (the header): the one of comma,
 * semicolon and tab that occurs most outside quotes. Excel writes semicolons where the decimal mark
 * is a comma (German, Swedish, French…), and "Text (tab-delimited)" writes tabs. A tie, or none,
 * is a comma.
 */
export function detectDelimiter(firstLine: string): "," | ";" | "\t" {
  const counts = { ",": 0, ";": 0, "\t": 0 };
  let inQuotes = false;
  for (const ch of firstLine) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (ch === "," || ch === ";" || ch === "\t")) counts[ch]++;
  }
  if (counts[";"] > counts[","] && counts[";"] >= counts["\t"]) return ";";
  if (counts["\t"] > counts[","] && counts["\t"] > counts[";"]) return "\t";
  return ",";
}

/**
 * One CSV cell, quoted when needed. Cells that a spreadsheet would run as a formula
 * (= + - @, tab, carriage return) get a leading apostrophe, so an exported file cannot run code.
 */
export function csvCell(value: unknown): string {
  const text = neutraliseFormula(value === null || value === undefined ? "" : String(value));
  return /[",\r\n]/.test(text) ? quoteCsv(text) : text;
}

/** Text a spreadsheet would run as a formula (= + - @, tab, carriage return) with a leading apostrophe (OWASP). */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** A field in double quotes, its own quotes doubled. */
export function quoteCsv(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** A CSV document (CRLF line ends, as RFC 4180 and Excel expect). */
export function toCsv(header: string[], rows: unknown[][]): string {
  return `${[header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
