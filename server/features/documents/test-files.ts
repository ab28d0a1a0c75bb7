/** Small but structurally real files for the documents tests. */

const encode = (text: string) => new TextEncoder().encode(text);

/** Concatenates byte arrays. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const le = (value: number, bytes: 2 | 4) => {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[i] = (value >>> (8 * i)) & 0xff;
  return out;
};

/**
 * A stored (uncompressed) zip with real local headers, central directory and end record; without
 * the central directory when `centralDirectory` is false (a truncated archive).
 */
export function zip(entries: Record<string, string>, centralDirectory = true): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const nameBytes = encode(name);
    const data = encode(content);
    const crc = Bun.hash.crc32(data);
    const common = concat(
      le(20, 2),
      le(0, 2),
      le(0, 2),
      le(0, 2),
      le(0x21, 2),
      le(crc, 4),
      le(data.length, 4),
      le(data.length, 4),
      le(nameBytes.length, 2),
      le(0, 2),
    );
    const local = concat(encode("PK\x03\x04"), common, nameBytes, data);
    centrals.push(
      concat(
        encode("PK\x01\x02"),
        le(20, 2),
        common,
        le(0, 2),
        le(0, 2),
        le(0, 2),
        le(0, 4),
        le(offset, 4),
        nameBytes,
      ),
    );
    locals.push(local);
    offset += local.length;
  }
  if (!centralDirectory) return concat(...locals);
  const directory = concat(...centrals);
  const end = concat(
    encode("PK\x05\x06"),
    le(0, 2),
    le(0, 2),
    le(centrals.length, 2),
    le(centrals.length, 2),
    le(directory.length, 4),
    le(offset, 4),
    le(0, 2),
  );
  return concat(...locals, directory, end);
}

const CONTENT_TYPES =
  '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';

/** A minimal Word package: [Content_Types].xml, _rels and word/document.xml. */
export const DOCX = zip({
  "[Content_Types].xml": CONTENT_TYPES,
  "_rels/.rels": "<Relationships/>",
  "word/document.xml": "<w:document/>",
});
export const XLSX = zip({ "[Content_Types].xml": CONTENT_TYPES, "xl/workbook.xml": "<workbook/>" });
export const PPTX = zip({ "[Content_Types].xml": CONTENT_TYPES, "ppt/presentation.xml": "<p/>" });

export const PDF = encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
export const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1,
]);
export const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]);
export const GIF = encode("GIF89a\x01\x00\x01\x00");
export const WEBP = concat(encode("RIFF"), le(20, 4), encode("WEBPVP8 "), new Uint8Array(8));
export const OLE = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
export const CSV = encode("name,qty\nBolts,10\nNuts,20\n");
/** A Windows executable's first bytes. */
export const EXE = concat(encode("MZ\x90\x00\x03\x00\x00\x00"), new Uint8Array(56));
export const ELF = concat(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), new Uint8Array(9));
