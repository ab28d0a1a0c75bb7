import { describe, expect, test } from "bun:test";
import type { TDeterminationOutcome } from "../../../db/contracts/export-control";
import { determineLine, paragraphRefs, scopeApplies } from "./determine";
import { buildTables, parseEarFiles, SHIPPED_FILES } from "./ear-tables";

// The shipped edition, read from the same CSV files the database is loaded from.
const tables = buildTables(
  { editionId: 1, editionDate: "2026-07-23", isShipped: true },
  parseEarFiles(SHIPPED_FILES),
);

type TCase = {
  eccn: string;
  to: string | null;
  /** Line value in US dollars (whole), or null when it cannot be converted. */
  usd?: number | null;
  outcome: TDeterminationOutcome;
  /** Exactly these chart columns named (license_required), when given. */
  reasons?: string[];
  /** Exactly these exceptions offered, when given. */
  offered?: string[];
  /** A review note must contain this text. */
  review?: string;
  why: string;
};

const CASES: TCase[] = [
  // NLR to Country Group A:1 members and other rows without an X for the item's columns.
  { eccn: "2B001.a", to: "DE", outcome: "nlr", why: "NS2 blank for A:1 (Germany); NP1 blank for A:4" },
  { eccn: "2B001.a", to: "JP", outcome: "nlr", why: "as Germany" },
  { eccn: "1A001.a", to: "CA", outcome: "nlr", why: "Canada carries only CB1 and FC1" },
  { eccn: "1A001.a", to: "GB", outcome: "nlr", why: "United Kingdom: CB1 only" },
  { eccn: "1A001.a", to: "AU", outcome: "nlr", why: "Australia: CB1 only" },
  { eccn: "6B002", to: "FR", outcome: "nlr", why: "NS2 blank for France (A:1)" },
  // NS2 to China and other licence-required rows.
  { eccn: "3A001.b.2", to: "CN", outcome: "license_required", reasons: ["NS2"], why: "NS2 marked for China" },
  { eccn: "2B001.a", to: "CN", outcome: "license_required", reasons: ["NS2"], why: "NS2 for China" },
  {
    eccn: "6B002",
    to: "CN",
    outcome: "license_required",
    reasons: ["NS2"],
    offered: [],
    why: "China not in B",
  },
  { eccn: "1C350", to: "CN", outcome: "license_required", reasons: ["CB2"], why: "CB2 marked for China" },
  { eccn: "0A979", to: "CN", outcome: "license_required", reasons: ["CC1"], why: "CC1 marked for China" },
  {
    eccn: "2B001.a",
    to: "RU",
    outcome: "license_required",
    reasons: ["NS2"],
    why: "Russia as China for NS2",
  },
  {
    eccn: "3A001.a.1.a",
    to: "IL",
    outcome: "license_required",
    reasons: ["NS2", "MT1"],
    why: "MT applies to a.1.a",
  },
  { eccn: "4A003.b", to: "CN", outcome: "license_required", reasons: ["NS1"], why: "NS1 applies to .b" },
  {
    eccn: "0A501.a",
    to: "DE",
    outcome: "license_required",
    reasons: ["NS1", "RS1"],
    why: "firearms NS1/RS1",
  },
  {
    eccn: "5A002.a",
    to: "DE",
    outcome: "license_required",
    reasons: ["NS1"],
    review: "742.15",
    why: "NS1 + EI pointer",
  },
  {
    eccn: "1A001.a",
    to: "VE",
    outcome: "license_required",
    reasons: ["NS2"],
    why: "Venezuela: D groups, NS2",
  },
  // AT-only items: no X in any AT column of this edition.
  { eccn: "5A992.c", to: "DE", outcome: "nlr", why: "mass-market encryption, AT only" },
  { eccn: "5A992.c", to: "JP", outcome: "nlr", why: "AT only" },
  { eccn: "5A992.c", to: "CN", outcome: "nlr", why: "AT only; China has no AT mark" },
  { eccn: "3A992.a", to: "DE", outcome: "nlr", why: "AT only; the RS row names Pakistan only" },
  { eccn: "3A992.a", to: "JP", outcome: "nlr", why: "AT only" },
  { eccn: "3A992.a", to: "CN", outcome: "nlr", why: "AT only" },
  { eccn: "3A992.a", to: "PK", outcome: "review", review: "Pakistan", why: "RS row names Pakistan" },
  // EAR99, and every item, to E:1/E:2 and the part 746 rows.
  { eccn: "EAR99", to: "DE", outcome: "nlr", why: "EAR99 is NLR outside embargoes" },
  { eccn: "EAR99", to: "CN", outcome: "nlr", why: "EAR99 to China" },
  { eccn: "EAR99", to: "IR", outcome: "embargo", review: "part 746", why: "Iran: E:1" },
  { eccn: "EAR99", to: "KP", outcome: "embargo", why: "North Korea: E:1" },
  { eccn: "EAR99", to: "SY", outcome: "embargo", why: "Syria: E:1" },
  { eccn: "EAR99", to: "CU", outcome: "embargo", why: "Cuba: E:2" },
  { eccn: "3A001.b.2", to: "IR", outcome: "embargo", why: "any ECCN to E:1" },
  { eccn: "5A992.c", to: "CU", outcome: "embargo", why: "AT-only item to E:2" },
  // LVS within and over its value; destination in Country Group B.
  {
    eccn: "1A001.a",
    to: "BR",
    usd: 4000,
    outcome: "license_required",
    offered: ["LVS"],
    why: "$4,000 ≤ $5,000",
  },
  {
    eccn: "1A001.a",
    to: "BR",
    usd: 5000,
    outcome: "license_required",
    offered: ["LVS"],
    why: "exactly the limit",
  },
  { eccn: "1A001.a", to: "BR", usd: 5001, outcome: "license_required", offered: [], why: "over $5,000" },
  { eccn: "1C005", to: "IN", usd: 1000, outcome: "nlr", why: "India: NS2 blank (A:1)" },
  { eccn: "1C005", to: "BO", usd: 1000, outcome: "license_required", offered: ["LVS"], why: "$1,500 LVS" },
  { eccn: "1C005", to: "BO", usd: 2000, outcome: "license_required", offered: [], why: "over $1,500" },
  {
    eccn: "1A001.a",
    to: "BR",
    usd: null,
    outcome: "license_required",
    offered: [],
    why: "value unknown: no LVS",
  },
  // GBS eligible and not.
  { eccn: "6B002", to: "BR", usd: 100, outcome: "license_required", offered: ["LVS", "GBS"], why: "GBS yes" },
  {
    eccn: "9B006",
    to: "BR",
    usd: 100_000,
    outcome: "license_required",
    offered: ["GBS"],
    why: "GBS yes, over LVS",
  },
  { eccn: "2B001.a", to: "BR", usd: 100, outcome: "license_required", offered: [], why: "GBS N/A, LVS N/A" },
  // Rows with a footnote.
  {
    eccn: "6A003.b.4.b",
    to: "IN",
    outcome: "license_required",
    review: "6A003.b.4.b",
    why: "footnote 7 names it",
  },
  { eccn: "0A501.a", to: "GB", outcome: "review", review: "0A501", why: "footnote 10 (UK firearms)" },
  { eccn: "3A229", to: "RU", outcome: "license_required", review: "746.5", why: "footnote 6 names 3A229" },
  { eccn: "5A992.c", to: "RU", outcome: "review", review: "746.8", why: "footnote 6: any ECCN on the CCL" },
  { eccn: "EAR99", to: "RU", outcome: "review", review: "746.8", why: "§ 746.8 reaches EAR99" },
  { eccn: "2B001.a", to: "LI", outcome: "nlr", why: "footnote 5: Liechtenstein reads as Switzerland" },
  {
    eccn: "2B001.a",
    to: "HK",
    outcome: "license_required",
    reasons: ["NS2"],
    why: "Hong Kong reads as China",
  },
  // Requirements the chart does not express, and ECCNs without data.
  {
    eccn: "1C012",
    to: "DE",
    outcome: "review",
    review: "not captured",
    why: "one of the six ECCNs without data",
  },
  { eccn: "8D001", to: "DE", outcome: "review", why: "missing from both sources" },
  {
    eccn: "0A983",
    to: "DE",
    outcome: "review",
    review: "no License Requirements table",
    why: "prose requirement",
  },
  {
    eccn: "3A090.a",
    to: "DE",
    outcome: "review",
    review: "any destination worldwide",
    why: ".a: RS worldwide",
  },
  { eccn: "9A515.a", to: "CN", outcome: "license_required", review: "9x515", why: "9x515 always reviewed" },
  { eccn: "9A610.a", to: "DE", outcome: "license_required", review: "600 series", why: "600 series flagged" },
  { eccn: "3A001.b.2", to: "DE", outcome: "review", reasons: ["NS1", "RS1"], why: "MMIC scope + end use" },
  { eccn: "4A003", to: "CN", outcome: "review", why: "no paragraph: columns apply to part of the entry" },
  { eccn: "9Z999", to: "DE", outcome: "review", why: "not an ECCN" },
  // Missing inputs.
  { eccn: "", to: "DE", outcome: "unknown", why: "no ECCN" },
  { eccn: "3A001.b.2", to: null, outcome: "unknown", why: "no destination" },
  { eccn: "3A001.b.2", to: "US", outcome: "unknown", why: "no chart row" },
];

describe("determineLine over the shipped edition", () => {
  test("the table has at least 40 cases", () => expect(CASES.length).toBeGreaterThanOrEqual(40));
  for (const c of CASES) {
    test(`${c.eccn || "(none)"} → ${c.to ?? "(none)"}${c.usd !== undefined ? ` $${c.usd}` : ""}: ${c.outcome} (${c.why})`, () => {
      const usd = c.usd === undefined ? 1000 : c.usd;
      const result = determineLine(tables, {
        eccn: c.eccn,
        destinationIso2: c.to,
        lineValueUsdCents: usd === null ? null : BigInt(usd) * 100n,
      });
      expect(result.outcome).toBe(c.outcome);
      if (c.reasons) expect(result.reasons).toEqual(c.reasons);
      if (c.offered) expect(result.exceptions_offered.map((o) => o.symbol)).toEqual(c.offered as never);
      if (c.review) expect(result.review.join("\n")).toContain(c.review);
      expect(result.summary.length).toBeGreaterThan(0);
    });
  }

  test("a licence-required answer names each column and the destination", () => {
    const r = determineLine(tables, { eccn: "3A001.a.1.a", destinationIso2: "IL", lineValueUsdCents: 100n });
    expect(r.summary).toBe("NS2, MT1: licence required to Israel.");
  });

  test("LVS is judged on the shipment's lines of the same ECCN together, not per line (§ 740.3(a))", () => {
    // 1A001 has an LVS value of $5,000; Brazil is in Country Group B with NS2 marked.
    const line = { eccn: "1A001.a", destinationIso2: "BR", lineValueUsdCents: 300_000n };
    const alone = determineLine(tables, line);
    expect(alone.exceptions_offered.map((o) => o.symbol)).toEqual(["LVS"]);
    const together = determineLine(tables, { ...line, shipmentEccnValueUsdCents: 600_000n });
    expect(together.outcome).toBe("license_required");
    expect(together.exceptions_offered).toEqual([]);
    expect(together.review.join("\n")).toContain("together are $6,000 net, over the $5,000 limit");
    const within = determineLine(tables, { ...line, shipmentEccnValueUsdCents: 500_000n });
    expect(within.exceptions_offered.map((o) => o.symbol)).toEqual(["LVS"]);
    expect(within.exceptions_offered[0].text).toContain("lines together, $5,000 net");
    // A line whose shipment total cannot be converted gets no LVS.
    const unknown = determineLine(tables, { ...line, shipmentEccnValueUsdCents: null });
    expect(unknown.exceptions_offered).toEqual([]);
  });

  test("an embargo names part 746 whatever the ECCN", () => {
    for (const eccn of ["EAR99", "5A992.c", "3A001.b.2"]) {
      const r = determineLine(tables, { eccn, destinationIso2: "CU", lineValueUsdCents: 100n });
      expect(r.summary).toContain("part 746");
    }
  });

  test("a newer edition changes the answer without code changes", () => {
    const chart = SHIPPED_FILES.country_chart.replace(/^Germany,DE,([^\n]*)$/m, (line) => {
      const cells = line.split(",");
      cells[8] = "X"; // NS2
      return cells.join(",");
    });
    const edited = buildTables(
      { editionId: 2, editionDate: "2027-01-01", isShipped: false },
      parseEarFiles({ ...SHIPPED_FILES, country_chart: chart }),
    );
    const r = determineLine(edited, { eccn: "2B001.a", destinationIso2: "DE", lineValueUsdCents: 100n });
    expect(r.outcome).toBe("license_required");
    expect(r.reasons).toEqual(["NS2"]);
  });
});

describe("paragraph scopes", () => {
  test("references are read with and without the entry", () => {
    expect(paragraphRefs("NS applies to 9A515.x", "9A515")).toEqual(["x"]);
    expect(paragraphRefs("entire entry, except .e, .x, and .y", "9A515")).toEqual(["e", "x", "y"]);
    expect(paragraphRefs("RS applies to 4A003.z.1.a, z.2.a", "4A003")).toEqual(["z.1.a", "z.2.a"]);
    expect(paragraphRefs("protecting (e.g., EMP)", "9A515")).toEqual([]);
  });
  test("scopes decide yes, no, or maybe", () => {
    expect(scopeApplies("NS applies to entire entry", "2B001", "")).toBe("yes");
    expect(scopeApplies("NS applies to 4A003.b, .c, and .z.1", "4A003", "b")).toBe("yes");
    expect(scopeApplies("NS applies to 4A003.b, .c, and .z.1", "4A003", "g")).toBe("no");
    expect(scopeApplies("NS applies to 4A003.b, .c, and .z.1", "4A003", "")).toBe("maybe");
    expect(scopeApplies("NS applies to entire entry except 0A501.y", "0A501", "y")).toBe("no");
    expect(scopeApplies("NS applies to entire entry except 0A501.y", "0A501", "a")).toBe("yes");
  });
});
