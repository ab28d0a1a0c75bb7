import { expect, test } from "bun:test";
import { jsPDF } from "jspdf";
import { FontRuns } from "./font-runs";
import { loadCjkFont, loadLatinFonts } from "./fonts";

async function runsDoc() {
  const latin = await loadLatinFonts();
  const cjk = await loadCjkFont();
  const doc = new jsPDF({ unit: "pt" });
  doc.addFileToVFS(latin.regular.file, latin.regular.data);
  doc.addFont(latin.regular.file, "Latin", "normal", undefined, "Identity-H");
  doc.addFileToVFS(cjk.file, cjk.data);
  doc.addFont(cjk.file, "Cjk", "normal", undefined, "Identity-H");
  return new FontRuns(doc, { primary: "Latin", fallback: "Cjk" }, "normal");
}

test("each character goes to the first font that has it; spaces stay in their run", async () => {
  const runs = await runsDoc();
  expect(runs.runs("Ελληνικά 北京 Москва Łódź")).toEqual([
    { text: "Ελληνικά ", font: "Latin" },
    { text: "北京 ", font: "Cjk" },
    { text: "Москва Łódź", font: "Latin" },
  ]);
  expect(runs.coverage("Müller Łódź")).toEqual({ kind: "primary" });
  expect(runs.coverage("北京进出口有限公司 Москва")).toEqual({ kind: "fallback" });
  expect(runs.coverage("Ελληνικά 北京")).toEqual({ kind: "mixed" });
});

test("wrapping keeps every character and no line is wider than the width", async () => {
  const runs = await runsDoc();
  const text = "Ελληνικά 北京 Москва 北京进出口有限公司北京进出口有限公司 Łódź-Wrocław-Gdańsk-Kraków";
  const lines = runs.wrap([text, "second"], 60, 8);
  expect(lines.length).toBeGreaterThan(4);
  expect(lines.at(-1)).toBe("second");
  for (const line of lines.slice(0, -1)) expect(runs.width(line, 8)).toBeLessThanOrEqual(60);
  expect(lines.slice(0, -1).join("").replace(/\s+/g, "")).toBe(text.replace(/\s+/g, ""));
  // Widths are each font's own: a CJK character is a full em, ά is Noto Sans's (not the CJK notdef).
  expect(runs.width("北", 10)).toBeCloseTo(10, 5);
  expect(runs.width("ά", 10)).toBeLessThan(7);
});
