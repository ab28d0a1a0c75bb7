/**
 * The allow-list of attachment types, recognised by their content. A client's file name and declared
 * type prove nothing, so the name only decides between types whose bytes look alike (legacy Office
 * files share one container format; CSV is plain text).
 *
 * HTML, SVG and other markup are plain UTF-8 text, so they are accepted as text/plain (stored with a
 * .txt extension). That is safe because downloads are always served as attachments with their
 * stored type, `X-Content-Type-Options: nosniff` and a script-blocking CSP: no browser renders them
 * in our origin. Refusing text that merely contains "<script" would also refuse honest CSV exports
 * and notes that quote markup.
 */

export type TFileType = { contentType: string; extension: string };

const PDF: TFileType = { contentType: "application/pdf", extension: "pdf" };
const PNG: TFileType = { contentType: "image/png", extension: "png" };
const JPEG: TFileType = { contentType: "image/jpeg", extension: "jpg" };
const GIF: TFileType = { contentType: "image/gif", extension: "gif" };
const WEBP: TFileType = { contentType: "image/webp", extension: "webp" };
const DOCX: TFileType = {
  contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  extension: "docx",
};
const XLSX: TFileType = {
  contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  extension: "xlsx",
};
const PPTX: TFileType = {
  contentType: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  extension: "pptx",
};
const LEGACY_OFFICE: Record<string, TFileType> = {
  doc: { contentType: "application/msword", extension: "doc" },
  xls: { contentType: "application/vnd.ms-excel", extension: "xls" },
  ppt: { contentType: "application/vnd.ms-powerpoint", extension: "ppt" },
};
const CSV: TFileType = { contentType: "text/csv", extension: "csv" };
const TEXT: TFileType = { contentType: "text/plain", extension: "txt" };

/** Names a stored extension also goes by, so "photo.jpeg" keeps its name on download. */
export const EXTENSION_ALIASES: Record<string, string[]> = { jpg: ["jpg", "jpeg"], txt: ["txt", "text"] };

const ascii = (text: string) => Array.from(text, (ch) => ch.charCodeAt(0));
const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_LOCAL = ascii("PK\x03\x04");
const ZIP_CENTRAL = ascii("PK\x01\x02");
const ZIP_END = ascii("PK\x05\x06");
// Entry names are read from local headers only this far in when the central directory is unusable.
const LOCAL_SCAN_BYTES = 64 * 1024;

/** The lower-cased last extension of a file name, or "" when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** The detected type of an upload, or null when its content is not on the allow-list. */
export function sniffFileType(bytes: Uint8Array, originalName: string): TFileType | null {
  if (bytes.length === 0) return null;
  if (startsWith(bytes, ascii("%PDF-"))) return PDF;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return JPEG;
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return GIF;
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return WEBP;
  if (startsWith(bytes, ZIP_LOCAL)) return sniffOfficeZip(bytes);
  if (startsWith(bytes, OLE)) return LEGACY_OFFICE[extensionOf(originalName)] ?? null;
  if (isPlainText(bytes)) return extensionOf(originalName) === "csv" ? CSV : TEXT;
  return null;
}

/** DOCX, XLSX or PPTX by their package parts; any other zip (jar, apk, plain archives) is refused. */
function sniffOfficeZip(bytes: Uint8Array): TFileType | null {
  const names = zipEntryNames(bytes);
  if (!names.includes("[Content_Types].xml")) return null;
  // Macro-enabled documents renamed to .docx/.xlsx/.pptx carry their VBA project as a part.
  if (names.some((name) => name.toLowerCase().endsWith("vbaproject.bin"))) return null;
  if (names.some((name) => name.startsWith("word/"))) return DOCX;
  if (names.some((name) => name.startsWith("xl/"))) return XLSX;
  if (names.some((name) => name.startsWith("ppt/"))) return PPTX;
  return null;
}

const u16 = (bytes: Uint8Array, at: number) => bytes[at] | (bytes[at + 1] << 8);
const u32 = (bytes: Uint8Array, at: number) => (u16(bytes, at) | (u16(bytes, at + 2) << 16)) >>> 0;
const decodeName = (bytes: Uint8Array, at: number, length: number) =>
  new TextDecoder().decode(bytes.subarray(at, Math.min(at + length, bytes.length)));

/**
 * The entry names of a zip: from the central directory when it is intact (it lists every entry,
 * wherever the data sits), else from the local file headers in the first 64 KB.
 */
function zipEntryNames(bytes: Uint8Array): string[] {
  return centralDirectoryNames(bytes) ?? localHeaderNames(bytes);
}

function centralDirectoryNames(bytes: Uint8Array): string[] | null {
  // The end record sits in the last 22 bytes plus a comment of at most 65535 bytes.
  const floor = Math.max(0, bytes.length - 22 - 0xffff);
  let end = -1;
  for (let i = bytes.length - 22; i >= floor; i--) {
    if (startsWith(bytes, ZIP_END, i)) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = u16(bytes, end + 10);
  let at = u32(bytes, end + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (!startsWith(bytes, ZIP_CENTRAL, at)) return null;
    const nameLength = u16(bytes, at + 28);
    names.push(decodeName(bytes, at + 46, nameLength));
    at += 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32);
  }
  return names;
}

function localHeaderNames(bytes: Uint8Array): string[] {
  // Scanning for signatures rather than hopping over sizes copes with streamed entries, whose
  // sizes only follow the data.
  const names: string[] = [];
  const limit = Math.min(bytes.length, LOCAL_SCAN_BYTES) - 30;
  for (let i = 0; i <= limit; i++) {
    if (startsWith(bytes, ZIP_LOCAL, i)) names.push(decodeName(bytes, i + 30, u16(bytes, i + 26)));
  }
  return names;
}

/** Valid UTF-8 without NUL or control characters other than tab, line feed, form feed and return. */
function isPlainText(bytes: Uint8Array): boolean {
  for (const b of bytes) {
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) || b === 0x7f) return false;
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

// Control characters (C0, DEL, C1) and the bidirectional overrides that make "fdp.exe" read "exe.pdf".
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const UNSAFE_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const MAX_NAME_LENGTH = 255;

/**
 * A client's file name reduced to display text: no folders ("../../etc/passwd" → "passwd"), no
 * control characters, at most 255 characters with the extension kept. It never names a stored file.
 */
export function sanitizeFileName(name: string | undefined): string {
  const base = (name ?? "").split(/[/\\]/).pop() ?? "";
  const cleaned = base.replace(UNSAFE_NAME_CHARS, "").trim();
  if (cleaned === "" || cleaned === "." || cleaned === "..") return "file";
  const chars = Array.from(cleaned);
  if (chars.length <= MAX_NAME_LENGTH) return cleaned;
  const extension = extensionOf(cleaned);
  const suffix = extension && extension.length <= 16 ? `.${extension}` : "";
  return chars.slice(0, MAX_NAME_LENGTH - Array.from(suffix).length).join("") + suffix;
}

/** The name a download is saved under: the display name, with the real extension added when it differs. */
export function downloadName(originalName: string, extension: string): string {
  const current = extensionOf(originalName);
  const accepted = EXTENSION_ALIASES[extension] ?? [extension];
  return accepted.includes(current) ? originalName : `${originalName}.${extension}`;
}
