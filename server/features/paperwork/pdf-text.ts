// Reads a PDF back as text with pdfjs-dist (pure JS), for the tests: one string per page, items
// joined in drawing order, plus each line of text as pdf.js groups it.
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

export type TPdfText = { pages: string[]; text: string; pageCount: number; sizes: [number, number][] };

/** Extracts every page's text; items on one baseline are joined with a space. */
export async function readPdfText(bytes: Uint8Array): Promise<TPdfText> {
  const pdf = await getDocument({ data: bytes.slice(), useSystemFonts: false, isEvalSupported: false })
    .promise;
  const pages: string[] = [];
  const sizes: [number, number][] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const [, , width, height] = page.view;
    sizes.push([Math.round(width * 100) / 100, Math.round(height * 100) / 100]);
    const content = await page.getTextContent();
    const lines: string[] = [];
    let current = "";
    let lastY: number | null = null;
    for (const item of content.items) {
      if (!("str" in item)) continue;
      const y = Math.round(item.transform[5]);
      if (lastY !== null && y !== lastY && current) {
        lines.push(current);
        current = "";
      }
      current = current ? `${current} ${item.str}` : item.str;
      lastY = y;
      if (item.hasEOL && current) {
        lines.push(current);
        current = "";
        lastY = null;
      }
    }
    if (current) lines.push(current);
    pages.push(lines.join("\n"));
  }
  await pdf.destroy();
  return { pages, text: pages.join("\n"), pageCount: pdf.numPages, sizes };
}
