import { createHash } from "node:crypto";

/** Raw file contents as the importer receives them. */
export type ListBytes = Uint8Array;

// CP1252 bytes 0x80-0x9F; the rest of the range maps to the same Unicode code point (Latin-1).
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d,
  0x017d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a,
  0x0153, 0x9d, 0x017e, 0x0178,
];

/** Decodes Windows-1252 bytes. */
export function decodeCp1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const chunk = 8192;
  for (let start = 0; start < bytes.length; start += chunk) {
    const end = Math.min(bytes.length, start + chunk);
    const codes = new Array<number>(end - start);
    for (let i = start; i < end; i++) {
      const b = bytes[i] as number;
      codes[i - start] = b >= 0x80 && b <= 0x9f ? (CP1252_HIGH[b - 0x80] as number) : b;
    }
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join("");
}

/** sha256 hex of one or more byte arrays, in order. */
export function sha256Hex(...parts: ReadonlyArray<Uint8Array | undefined>): string {
  const hash = createHash("sha256");
  for (const part of parts) if (part !== undefined) hash.update(part);
  return hash.digest("hex");
}

/**
 * Decodes a list file: UTF-8 when the bytes are valid UTF-8, otherwise CP1252 (OFAC's legacy
 * files). Strips a BOM and the DOS end-of-file byte 0x1A that OFAC appends, and refuses binary
 * content so a wrong upload is rejected before anything is replaced.
 */
export function decodeListText(bytes: ListBytes, label: string): string {
  let end = bytes.length;
  // OFAC files end with CRLF 0x1A; anything after the 0x1A is not part of the data.
  const eof = bytes.indexOf(0x1a);
  if (eof >= 0) {
    for (let i = eof + 1; i < bytes.length; i++) {
      const b = bytes[i] as number;
      if (b !== 0x0d && b !== 0x0a && b !== 0x1a) {
        throw new Error(`${label}: line ${lineAt(bytes, eof)}: unexpected control byte 0x1A inside the file`);
      }
    }
    end = eof;
  }
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  const body = bytes.subarray(start, end);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    text = decodeCp1252(body);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const bad = firstControlCharacter(text);
  if (bad >= 0) {
    const line = text.slice(0, bad).split("\n").length;
    throw new Error(
      `${label}: line ${line}: binary content (control character 0x${text.charCodeAt(bad).toString(16)})`,
    );
  }
  return text;
}

// Tab, CR and LF are the only control characters a text list contains; anything else is binary.
function firstControlCharacter(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return i;
  }
  return -1;
}

function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** One parsed record and the line it starts on (1-based), for error messages. */
export interface DelimitedRow {
  fields: string[];
  line: number;
}

/**
 * RFC 4180 parser (quoted fields, doubled quotes, CRLF or LF, newlines inside quotes) for comma-
 * or tab-separated text. Blank lines are skipped. Throws on an unterminated quote or stray quote.
 */
export function parseDelimited(text: string, delimiter: "," | "\t", label: string): DelimitedRow[] {
  const rows: DelimitedRow[] = [];
  const delim = delimiter.charCodeAt(0);
  const n = text.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const startLine = line;
    const fields: string[] = [];
    let field = "";
    let rowDone = false;
    while (!rowDone) {
      if (i < n && text.charCodeAt(i) === 0x22) {
        // Quoted field.
        i++;
        let closed = false;
        for (;;) {
          const quote = text.indexOf('"', i);
          if (quote < 0) break;
          for (let nl = text.indexOf("\n", i); nl >= 0 && nl < quote; nl = text.indexOf("\n", nl + 1)) line++;
          field += text.slice(i, quote);
          if (text.charCodeAt(quote + 1) === 0x22) {
            field += '"';
            i = quote + 2;
            continue;
          }
          i = quote + 1;
          closed = true;
          break;
        }
        if (!closed) throw new Error(`${label}: line ${startLine}: unterminated quoted field`);
        // OFAC writes `-0- ` unquoted but can leave spaces after a closing quote; allow only spaces.
        while (i < n && text.charCodeAt(i) === 0x20) i++;
        const next = i < n ? text.charCodeAt(i) : -1;
        if (next !== -1 && next !== delim && next !== 0x0a && next !== 0x0d) {
          throw new Error(`${label}: line ${line}: unexpected character after closing quote`);
        }
      } else {
        const fieldStart = i;
        while (i < n) {
          const ch = text.charCodeAt(i);
          if (ch === delim || ch === 0x0a || ch === 0x0d) break;
          i++;
        }
        field = text.slice(fieldStart, i);
        if (field.includes('"') && delimiter === ",") {
          throw new Error(`${label}: line ${line}: stray quote inside an unquoted field`);
        }
      }
      fields.push(field);
      field = "";
      if (i >= n) {
        rowDone = true;
      } else {
        const ch = text.charCodeAt(i);
        if (ch === delim) {
          i++;
        } else {
          if (ch === 0x0d) i++;
          if (text.charCodeAt(i) === 0x0a) i++;
          line++;
          rowDone = true;
        }
      }
    }
    if (fields.length === 1 && fields[0] === "") continue;
    rows.push({ fields, line: startLine });
  }
  return rows;
}

/** Fields of the first line, so a header can be checked before the body is parsed. */
export function headerFields(text: string, delimiter: "," | "\t", label: string): string[] {
  const end = text.search(/\r?\n/);
  try {
    const first = parseDelimited(end < 0 ? text : text.slice(0, end), delimiter, label)[0];
    return first?.fields.map((h) => h.trim().toLowerCase()) ?? [];
  } catch {
    // Unparseable as this format: the caller reports the header as missing.
    return [];
  }
}

/** Splits a multi-value cell ("a; b; c") into trimmed, non-empty values. */
export function splitMulti(value: string, separator: RegExp = /;\s*/): string[] {
  return value
    .split(separator)
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

/** Converts "MM/DD/YYYY" or "YYYY-MM-DD" to ISO "YYYY-MM-DD"; undefined for anything else. */
export function toIsoDate(value: string): string | undefined {
  const v = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
  if (iso !== null) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
  if (us !== null) return `${us[3]}-${us[1]?.padStart(2, "0")}-${us[2]?.padStart(2, "0")}`;
  return undefined;
}

/** Removes duplicate strings, keeping first occurrences. */
export function unique(values: Iterable<string>): string[] {
  return [...new Set(values)];
}
