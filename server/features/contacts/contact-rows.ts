// Reading a contacts CSV into validated rows: the columns people name, the header's mapping, each
// row checked with the form's contract. No database here: the CLI's parse worker
// (contact-parse.worker.ts) runs it on a thread of its own, and a worker of the compiled binary
// cannot load the database driver.
import { type TContactValues, ZContactInput } from "../../../db/contracts/contacts";
import { CsvParser } from "../../lib/csv";
import { toFieldErrors } from "../../lib/validate";

/** Every column the importer understands, with the header names people actually use for it. */
export const IMPORT_COLUMNS: Record<string, string[]> = {
  company: ["company", "company name", "name", "organisation", "organization", "business name"],
  partner_type: ["partner type", "partner_type", "partner type id", "partner_type_id", "type", "partner"],
  tax_id: ["tax id", "tax_id", "taxid", "vat", "vat number", "vat id", "ein", "tax number", "tin"],
  street: ["street", "address", "address 1", "address line 1", "street address"],
  city: ["city", "town"],
  state_province: ["state province", "state_province", "state", "province", "region", "state/province"],
  postal_code: ["postal code", "postal_code", "zip", "zip code", "postcode", "post code"],
  country: ["country", "country code", "country name", "country_id", "iso country", "country iso"],
  contact_1: ["contact 1", "contact_1", "contact", "contact name", "contact person"],
  phone_1: ["phone 1", "phone_1", "phone", "telephone", "tel"],
  email_1: ["email 1", "email_1", "email", "e-mail", "e mail", "mail"],
  contact_2: ["contact 2", "contact_2", "second contact"],
  phone_2: ["phone 2", "phone_2", "second phone"],
  email_2: ["email 2", "email_2", "e-mail 2", "second email"],
  is_sensitive: ["is sensitive", "is_sensitive", "sensitive"],
  sensitive_note: ["sensitive note", "sensitive_note"],
  is_restricted: ["is restricted", "is_restricted", "restricted"],
  restricted_note: ["restricted note", "restricted_note"],
};

/** How a column is named in messages when the file has no header for it (e.g. a note required by a flag). */
const COLUMN_LABELS: Record<string, string> = {
  company: "Company",
  partner_type: "Partner type",
  tax_id: "Tax ID",
  street: "Street",
  city: "City",
  state_province: "State / Province",
  postal_code: "Postal code",
  country: "Country",
  contact_1: "Contact 1",
  phone_1: "Phone 1",
  email_1: "E-mail 1",
  contact_2: "Contact 2",
  phone_2: "Phone 2",
  email_2: "E-mail 2",
  is_sensitive: "Sensitive",
  sensitive_note: "Sensitive note",
  is_restricted: "Restricted",
  restricted_note: "Restricted note",
};

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

/** Columns a file must have: the contract's required fields. */
const REQUIRED_COLUMNS = ["company", "partner_type", "tax_id", "contact_1", "phone_1", "email_1"];

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
  private readonly parser = new CsvParser((cells, line) => this.record(cells, line));

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
    try {
      this.parser.push(chunk);
    } catch (error) {
      if (error instanceof ImportFileError) throw error;
      throw new ImportFileError(String((error as Error).message));
    }
  }

  end(): void {
    try {
      this.parser.end();
    } catch (error) {
      if (error instanceof ImportFileError) throw error;
      throw new ImportFileError(`The file is not valid CSV: ${(error as Error).message}`);
    }
    if (!this.columns) throw new ImportFileError("The file is empty.");
  }

  private record(cells: string[], line: number): void {
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
      this.on.onReject(line, [
        ...errors.map(([f, m]) => columnMessage(headers, f, m)),
        ...Object.entries(fieldErrors).map(([f, m]) => columnMessage(headers, f, m.join(" "))),
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
    throw new ImportFileError(
      `The file has no column for: ${names}. The first line must name the columns (see the list in docs/importing-contacts.md).`,
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
    input.country_id = lookups.countries.get(country.toLowerCase());
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

/** Bytes already in memory as the stream the importer reads, in slices of a megabyte. */
export async function* byteSlices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 1024 * 1024) yield bytes.subarray(at, at + 1024 * 1024);
}

/** Decodes bytes as UTF-8 text chunks, refusing what is not text. */

export async function* decodeUtf8(stream: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    for await (const bytes of stream) yield decoder.decode(bytes, { stream: true });
    yield decoder.decode();
  } catch (error) {
    if (error instanceof TypeError)
      throw new ImportFileError("The file is not UTF-8 text; save it as CSV UTF-8.");
    throw error;
  }
}
