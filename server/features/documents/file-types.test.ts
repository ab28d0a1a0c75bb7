import { describe, expect, test } from "bun:test";
import { downloadName, sanitizeFileName, sniffFileType } from "./file-types";
import { CSV, DOCX, ELF, EXE, GIF, JPEG, OLE, PDF, PNG, PPTX, WEBP, XLSX, zip } from "./test-files";

const text = (value: string) => new TextEncoder().encode(value);
const CT = '<?xml version="1.0"?><Types/>';

describe("sniffFileType", () => {
  test("recognises every allowed type by content, whatever the name says", () => {
    const cases: [Uint8Array, string, string, string][] = [
      [PDF, "scan.bin", "application/pdf", "pdf"],
      [PNG, "photo.jpg", "image/png", "png"],
      [JPEG, "photo", "image/jpeg", "jpg"],
      [GIF, "a.gif", "image/gif", "gif"],
      [WEBP, "a.webp", "image/webp", "webp"],
      [DOCX, "letter.zip", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx"],
      [XLSX, "book.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"],
      [
        PPTX,
        "deck.pptx",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "pptx",
      ],
      [OLE, "old.DOC", "application/msword", "doc"],
      [OLE, "old.xls", "application/vnd.ms-excel", "xls"],
      [OLE, "old.ppt", "application/vnd.ms-powerpoint", "ppt"],
      [CSV, "rows.CSV", "text/csv", "csv"],
      [CSV, "rows.txt", "text/plain", "txt"],
      [text("tab\tform\fcr\r\nünïcode ✓"), "notes", "text/plain", "txt"],
    ];
    for (const [bytes, name, contentType, extension] of cases) {
      expect({ name, type: sniffFileType(bytes, name) }).toEqual({ name, type: { contentType, extension } });
    }
  });

  test("refuses executables, other zips, macro packages, binary and non-UTF-8 data, and empty files", () => {
    const refused: [Uint8Array, string][] = [
      [EXE, "invoice.pdf"],
      [ELF, "invoice.pdf"],
      [OLE, "old.msg"],
      [OLE, "no-extension"],
      [zip({ "META-INF/MANIFEST.MF": "Manifest-Version: 1.0" }), "app.docx"],
      [zip({ "word/document.xml": "<w/>" }), "no-content-types.docx"],
      [zip({ "[Content_Types].xml": CT, "other/x.xml": "<x/>" }), "odd.docx"],
      [zip({ "[Content_Types].xml": CT, "word/document.xml": "<w/>", "word/vbaProject.bin": "x" }), "m.docx"],
      [text("abc\u0000def"), "nul.txt"],
      [text("bell\u0007"), "bell.txt"],
      [new Uint8Array([0x41, 0xc3, 0x28]), "latin.txt"],
      [new Uint8Array([0x63, 0x61, 0x66, 0xe9]), "cp1252.csv"],
      [new Uint8Array(), "empty.txt"],
    ];
    for (const [bytes, name] of refused)
      expect({ name, type: sniffFileType(bytes, name) }).toEqual({ name, type: null });
  });

  test("reads entry names from local headers when the central directory is missing", () => {
    const truncated = zip({ "[Content_Types].xml": CT, "xl/workbook.xml": "<w/>" }, false);
    expect(sniffFileType(truncated, "t.xlsx")?.extension).toBe("xlsx");
    // A zip whose Office parts start past the scanned 64 KB is not trusted without a directory.
    const late = zip(
      { "[Content_Types].xml": CT, "pad.bin": "x".repeat(70_000), "word/d.xml": "<w/>" },
      false,
    );
    expect(sniffFileType(late, "late.docx")).toBeNull();
    expect(sniffFileType(late.subarray(0, 10), "cut.docx")).toBeNull();
  });

  test("markup is plain text: accepted as text/plain and stored as .txt (served as an attachment)", () => {
    expect(sniffFileType(text("<!doctype html><script>alert(1)</script>"), "x.html")).toEqual({
      contentType: "text/plain",
      extension: "txt",
    });
  });
});

describe("sanitizeFileName", () => {
  test("keeps only the last path component, without control or bidi characters", () => {
    expect(sanitizeFileName("../../etc/passwd")).toBe("passwd");
    expect(sanitizeFileName("..\\..\\Windows\\win.ini")).toBe("win.ini");
    expect(sanitizeFileName("a\u0000b\u001fc\u007f.pdf")).toBe("abc.pdf");
    expect(sanitizeFileName("invoice\u202efdp.exe")).toBe("invoicefdp.exe");
    expect(sanitizeFileName("  Ünïcödé – report.pdf ")).toBe("Ünïcödé – report.pdf");
    for (const empty of ["", "..", "dir/", "\u0001"]) expect(sanitizeFileName(empty)).toBe("file");
  });

  test("caps the name at 255 characters and keeps the extension", () => {
    const long = sanitizeFileName(`${"ä".repeat(300)}.xlsx`);
    expect(Array.from(long).length).toBe(255);
    expect(long.endsWith("ä.xlsx")).toBe(true);
  });
});

describe("downloadName", () => {
  test("adds the real extension only when the name does not already say it", () => {
    expect(downloadName("report.PDF", "pdf")).toBe("report.PDF");
    expect(downloadName("photo.jpeg", "jpg")).toBe("photo.jpeg");
    expect(downloadName("page.html", "txt")).toBe("page.html.txt");
    expect(downloadName("scan", "png")).toBe("scan.png");
  });
});
