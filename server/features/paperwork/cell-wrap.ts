// How cells of the paperwork break their text. jsPDF breaks only at spaces and cuts any longer word
// wherever the width runs out, so '999,999,990.00' came out as '999,999,990.0' over '0' and an
// e-mail address was cut mid-letter. Here a figure never breaks inside itself (it may only move its
// bracketed conversion, '(27.22 lb)', to a line of its own, and shrinks when even that is too wide),
// and a long word breaks after '@', '.', '-', '_' or '/' before it breaks anywhere else.
import type { jsPDF } from "jspdf";
import type { CellHookData } from "jspdf-autotable";

const textOf = (text: string | string[]) => (Array.isArray(text) ? text.join(" ") : text);

/** Makes a figure cell keep each figure whole: `didParseCell` of a number column. */
export function keepFigureWhole(doc: jsPDF, data: CellHookData) {
  const { cell } = data;
  if (typeof cell.styles.overflow === "function") return;
  cell.styles.overflow = (text: string | string[], space: number) => {
    const whole = textOf(text).trim();
    if (doc.getTextWidth(whole) <= space) return [whole];
    // "0.750 kg (1.65 lb)" may put its conversion on a second line; nothing else breaks.
    const parts = whole.split(/ (?=\()/);
    const widest = Math.max(...parts.map((p) => doc.getTextWidth(p)));
    if (widest > space) {
      // Too wide even so: the figure is set smaller rather than cut.
      cell.styles.fontSize = Math.floor(cell.styles.fontSize * (space / widest) * 100) / 100;
    }
    return parts;
  };
}

/** Splits a word too long for a line after its natural break characters, then anywhere. */
function breakWord(doc: jsPDF, word: string, space: number): string[] {
  const pieces = word.match(/[^@._\-/]*[@._\-/]+|[^@._\-/]+$/g) ?? [word];
  const lines: string[] = [];
  let line = "";
  for (const piece of pieces) {
    if (doc.getTextWidth(line + piece) <= space) {
      line += piece;
      continue;
    }
    if (line) lines.push(line);
    line = "";
    if (doc.getTextWidth(piece) <= space) {
      line = piece;
      continue;
    }
    for (const char of piece) {
      if (line && doc.getTextWidth(line + char) > space) {
        lines.push(line);
        line = "";
      }
      line += char;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Wraps a text cell at spaces, and long words (e-mail addresses, URLs) at sensible points. */
export function wrapAtSensiblePoints(doc: jsPDF, data: CellHookData) {
  const { cell } = data;
  if (typeof cell.styles.overflow === "function") return;
  cell.styles.overflow = (text: string | string[], space: number) => {
    const out: string[] = [];
    const room = space + 1 / doc.internal.scaleFactor;
    for (const paragraph of Array.isArray(text) ? text : text.split("\n")) {
      let line = "";
      for (const word of paragraph.split(" ")) {
        const candidate = line ? `${line} ${word}` : word;
        if (doc.getTextWidth(candidate) <= room) {
          line = candidate;
          continue;
        }
        if (line) out.push(line);
        line = "";
        if (doc.getTextWidth(word) <= room) {
          line = word;
          continue;
        }
        const broken = breakWord(doc, word, room);
        line = broken.pop() ?? "";
        out.push(...broken);
      }
      out.push(line);
    }
    return out;
  };
}
