// Reading a contacts CSV into validated rows: the columns people name, the header's mapping, each
// row checked with the form's contract. No database here: the CLI's parse worker
// (contact-parse.worker.ts) runs it on a thread of its own, and a worker of the compiled binary
// cannot load the database driver.

import {
  IMPORT_COLUMN_LABELS as COLUMN_LABELS,
  IMPORT_COLUMNS,
  REQUIRED_IMPORT_COLUMNS as REQUIRED_COLUMNS,
} from "../../../db/contracts/contact-import-columns";
import { type TContactValues, ZContactInput } from "../../../db/contracts/contacts";
import { CsvParser, detectDelimiter } from "../../lib/csv";
import { toFieldErrors } from "../../lib/validate";

export { IMPORT_COLUMNS };

/** The importer's column for a contract field (the two looked-up ones differ). */
const IMPORT_FIELD_OF: Record<string, string> = { partner_type_id: "partner_type", country_id: "country" };

/**
 * A rejected row's reason in the file's own words: the column as its header names it ('Partner type:
 * unknown partner type "Alien"'), not the contract's field id (`partner_type_id: …`).
 */
export function columnMessage(headers: ReadonlyMap<string, string>, field: string, message: string): string {
  const column = IMPORT_FIELD_OF[field] ?? field;
  const name = headers.get(column) ?? COLUMN_LABELS[column] ?? field;
  return `${name}: ${message}`;
}

/** The file cannot be imported at all (as opposed to single rows being rejected). */
export class ImportFileError extends Error {}

const normalizeHeader = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s_\-./]+/g, " ")
    .trim();

const HEADER_LOOKUP = new Map<string, string>();
for (const [field, names] of Object.entries(IMPORT_COLUMNS)) {
  for (const name of names) HEADER_LOOKUP.set(normalizeHeader(name), field);
}

const TRUE_WORDS = new Set(["1", "true", "yes", "y", "x"]);
const FALSE_WORDS = new Set(["", "0", "false", "no", "n"]);

/**
 * Reads CSV text chunks into validated rows: the header maps the columns, each row is validated with
 * the form's contract, and a row that fails is rejected with its reasons in the file's own words.
 */
export class RowReader {
  private columns: (string | undefined)[] | null = null;
  /** Each field's header as the file writes it, for the rejected rows' reasons. */
  private readonly headers = new Map<string, string>();
  /** Made once the first line is in: its separator decides the parser's. */
  private parser: CsvParser | null = null;
  /** The start of the file while its first line is incomplete. */
  private head = "";

  constructor(
    private readonly lookups: TLookups,
    private readonly on: {
      onRow: () => void;
      onValid: (values: TContactValues) => void;
      onReject: (line: number, errors: string[]) => void;
    },
  ) {}

  push(chunk: string): void {
    if (chunk.includes("\u0000"))
      throw new ImportFileError("The file is not a CSV text file (it holds binary data).");
    let text = chunk;
    if (!this.parser) {
      this.head += chunk;
      const lineEnd = this.head.search(/[\r\n]/);
      if (lineEnd < 0 && this.head.length < 65_536) return;
      this.parser = this.startParser(this.head.slice(0, lineEnd < 0 ? undefined : lineEnd));
      text = this.head;
      this.head = "";
    }
    try {
      this.parser.push(text);
    } catch (error) {
      if (error instanceof ImportFileError) throw error;
      throw new ImportFileError(String((error as Error).message));
    }
  }

  /** Comma, semicolon or tab, as the header line uses them. */
  private startParser(firstLine: string): CsvParser {
    return new CsvParser((cells, line) => this.record(cells, line), detectDelimiter(firstLine));
  }

  end(): void {
    if (!this.parser) {
      this.parser = this.startParser(this.head);
      const text = this.head;
      this.head = "";
      this.push(text);
    }
    try {
      this.parser.end();
    } catch (error) {
      if (error instanceof ImportFileError) throw error;
      throw new ImportFileError(`The file is not valid CSV: ${(error as Error).message}`);
    }
    if (!this.columns) throw new ImportFileError("The file is empty.");
  }

  private record(cells: string[], line: number): void {
    // A row of empty cells (";;;;" as spreadsheets save a blank line) is no row at all.
    if (cells.every((cell) => cell.trim() === "")) return;
    const { columns, headers } = this;
    if (!columns) {
      this.columns = mapHeader(cells);
      this.columns.forEach((field, i) => {
        if (field && !headers.has(field)) headers.set(field, cells[i].trim());
      });
      return;
    }
    this.on.onRow();
    const raw: Record<string, string> = {};
    for (let i = 0; i < columns.length; i++) {
      const field = columns[i];
      if (field && cells[i] !== undefined) raw[field] = cells[i];
    }
    const { input, errors } = toInput(raw, this.lookups);
    const parsed = ZContactInput.safeParse(input);
    if (!parsed.success || errors.length) {
      const fieldErrors = parsed.success ? {} : toFieldErrors(parsed.error);
      // A cell already explained (an unknown partner type) is not also 'required': one message each.
      const explained = new Set(errors.map(([f]) => f));
      this.on.onReject(line, [
        ...errors.map(([f, m]) => columnMessage(headers, f, m)),
        ...Object.entries(fieldErrors)
          .filter(([f]) => !explained.has(IMPORT_FIELD_OF[f] ?? f))
          .map(([f, m]) => columnMessage(headers, f, m.join(" "))),
      ]);
      return;
    }
    this.on.onValid(parsed.data);
  }
}

/** What the parse worker read from one chunk (the last one also holds what end() flushed). */
export type TParsedChunk = {
  rows: number;
  valid: TContactValues[];
  rejected: [line: number, errors: string[]][];
  isLast: boolean;
};

export type TParseRequest =
  | { type: "init"; lookups: TLookups }
  | { type: "chunk"; text: string }
  | { type: "end" };
export type TParseReply =
  | { type: "ready" }
  | ({ type: "parsed" } & TParsedChunk)
  | { type: "error"; message: string; isFileError: boolean };

/** Maps the header row to contract fields; a file missing a required column is refused whole. */
function mapHeader(cells: string[]): (string | undefined)[] {
  const columns = cells.map((cell) => HEADER_LOOKUP.get(normalizeHeader(cell)));
  const missing = REQUIRED_COLUMNS.filter((field) => !columns.includes(field));
  if (missing.length) {
    const names = missing.map((f) => IMPORT_COLUMNS[f][0]).join(", ");
    const found = cells.map((c) => `"${c.trim()}"`).join(", ");
    throw new ImportFileError(
      `The file has no column for: ${names}. The first line must name the columns; it reads ${found}. The import dialog lists the names it accepts and offers a template file.`,
    );
  }
  return columns;
}

export type TLookups = {
  countries: Map<string, number>;
  countryById: Map<number, { name: string; code: string }>;
  partnerTypes: Map<string, number>;
  partnerTypeIds: Set<number>;
};

/** Turns a row's text cells into the contract's input: names to ids, yes/no to flags. */
function toInput(
  raw: Record<string, string>,
  lookups: TLookups,
): { input: Record<string, unknown>; errors: [field: string, message: string][] } {
  const errors: [string, string][] = [];
  // Copied without the two looked-up cells rather than spread then deleted: deleting turns the
  // object into a slow dictionary for the contract's checks, which run on every row.
  const input: Record<string, unknown> = {};
  for (const key in raw) if (key !== "partner_type" && key !== "country") input[key] = raw[key];

  const type = (raw.partner_type ?? "").trim();
  if (type) {
    const byName = lookups.partnerTypes.get(type.toLowerCase());
    const byId = /^\d+$/.test(type) && lookups.partnerTypeIds.has(Number(type)) ? Number(type) : undefined;
    input.partner_type_id = byName ?? byId;
    if (input.partner_type_id === undefined) errors.push(["partner_type", `unknown partner type "${type}".`]);
  }
  const country = (raw.country ?? "").trim();
  if (country) {
    input.country_id =
      lookups.countries.get(country.toLowerCase()) ?? lookups.countries.get(foldCountryName(country));
    if (input.country_id === undefined) errors.push(["country", `unknown country "${country}".`]);
  }
  for (const field of ["is_sensitive", "is_restricted"] as const) {
    if (raw[field] === undefined) continue;
    const word = raw[field].trim().toLowerCase();
    if (TRUE_WORDS.has(word)) input[field] = true;
    else if (FALSE_WORDS.has(word)) input[field] = false;
    else errors.push([field, `"${raw[field]}" is not yes/no, true/false or 1/0.`]);
  }
  return { input, errors };
}

/** A country name compared without case, accents or punctuation: "Österreich" = "osterreich". */
export function foldCountryName(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Bytes already in memory as the stream the importer reads, in slices of a megabyte. */
export async function* byteSlices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 1024 * 1024) yield bytes.subarray(at, at + 1024 * 1024);
}

/**
 * Decodes a CSV file's bytes as text chunks: UTF-8 (with or without a byte-order mark), or
 * Windows-1252 when the bytes are not UTF-8 (Excel's "CSV" on Windows in Western Europe and the
 * Americas). A file that switches from valid UTF-8 to bytes UTF-8 cannot read is refused.
 */
export async function* decodeUtf8(stream: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  let decoder = new TextDecoder("utf-8", { fatal: true });
  let isLegacy = false;
  // Until a byte over 0x7f decodes as UTF-8, everything read is ASCII: the same in Windows-1252,
  // so switching then loses nothing.
  let sawUtf8 = false;
  const mixed = () =>
    new ImportFileError("The file is not UTF-8 text throughout (it mixes encodings); save it as CSV UTF-8.");
  for await (const bytes of stream) {
    if (isLegacy) {
      yield decoder.decode(bytes, { stream: true });
      continue;
    }
    let text: string;
    try {
      text = decoder.decode(bytes, { stream: true });
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      if (sawUtf8 || hasUtf8Sequence(bytes)) throw mixed();
      isLegacy = true;
      decoder = new TextDecoder("windows-1252");
      text = decoder.decode(bytes, { stream: true });
    }
    if (!isLegacy && !sawUtf8) sawUtf8 = hasHighByte(bytes);
    yield text;
  }
  try {
    yield decoder.decode();
  } catch (error) {
    if (error instanceof TypeError) throw mixed();
    throw error;
  }
}

/**
 * Whether the bytes hold a well-formed UTF-8 sequence of two or three bytes: Windows-1252 text
 * almost never does (it would read as "Ã©"), so a file that has one and then bad bytes mixes encodings.
 */
function hasUtf8Sequence(bytes: Uint8Array): boolean {
  const isTail = (b: number | undefined) => b !== undefined && b >= 0x80 && b <= 0xbf;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b >= 0xc2 && b <= 0xdf && isTail(bytes[i + 1])) return true;
    if (b >= 0xe0 && b <= 0xef && isTail(bytes[i + 1]) && isTail(bytes[i + 2])) return true;
  }
  return false;
}

function hasHighByte(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) return true;
  return false;
}
