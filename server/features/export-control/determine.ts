// The export-control determination of one shipment line (15 CFR 738.4): ECCN → reasons for control
// and chart columns → the destination's row of the Commerce Country Chart → NLR, licence required
// (naming each column), review (a requirement the chart does not express, quoted from the data), or
// embargo (Country Groups E:1/E:2 and the chart rows that point to part 746). Everything it knows
// comes from the loaded EAR tables; nothing here names a country or an ECCN.
import type { TDetermination } from "../../../db/contracts/export-control";
import type { TEarTables } from "./ear-tables";

export type TDetermineInput = {
  /** The product's ECCN as written: "3A001.b.2", "EAR99", "" (unknown). */
  eccn: string;
  /** ISO alpha-2 of the ultimate destination, or null when unknown. */
  destinationIso2: string | null;
  /** The line's net value in US cents, or null when it cannot be converted. */
  lineValueUsdCents: bigint | null;
  /**
   * The net value in US cents of all the shipment's lines of the same ECCN entry to this destination,
   * this line included (null when one of them cannot be converted). LVS is judged on it (§ 740.3(a):
   * the limit is per shipment and ECCN, not per line). Left out: the line is alone in its shipment.
   */
  shipmentEccnValueUsdCents?: bigint | null;
};

const ECCN = /^(\d[A-E]\d{3})(?:\.(.+))?$/;

/** Splits "3A001.b.2" into the entry "3A001" and the paragraph "b.2". */
export function splitEccn(raw: string): { entry: string; paragraph: string } | null {
  const m = ECCN.exec(raw.trim().toUpperCase());
  if (!m) return null;
  return { entry: m[1], paragraph: (m[2] ?? "").toLowerCase().replace(/\s+/g, "") };
}

/**
 * Paragraph references in a scope text: "3A001.b.2", ".e, .x, and .y", "z.2.a". Lower case, without
 * the entry ("b.2"). Abbreviations such as "e.g." are not paragraphs.
 */
export function paragraphRefs(text: string, entry: string): string[] {
  const refs = new Set<string>();
  const withEntry = new RegExp(`${entry}((?:\\.(?:[a-z]|\\d+))+)`, "gi");
  for (const m of text.matchAll(withEntry)) refs.add(m[1].slice(1).toLowerCase());
  const rest = text.replace(withEntry, " ");
  for (const m of rest.matchAll(/(?:^|[\s,(])\.?([a-z](?:\.(?:\d+|[a-z]))*)(?=[\s,;:)]|\.(?:\s|$)|$)/g)) {
    const ref = m[1];
    const dotted = m[0].trim().replace(/^[,(]/, "").startsWith(".");
    if (/^(e\.g|i\.e)$/.test(ref)) continue;
    // A bare letter is a paragraph only when written ".x"; "z.2.a"-style references carry their own dots.
    if (ref.includes(".") || dotted) refs.add(ref);
  }
  return [...refs];
}

/** Does a line of paragraph `paragraph` fall under `ref`? yes, no, or maybe (the line is broader). */
function inParagraph(paragraph: string, ref: string): "yes" | "no" | "maybe" {
  if (paragraph === ref || paragraph.startsWith(`${ref}.`)) return "yes";
  if (!paragraph || ref.startsWith(`${paragraph}.`)) return "maybe";
  return "no";
}

/**
 * Whether a requirement row whose control reads `control` ("NS applies to entire entry", "RS applies
 * to 3A001.z.1.a …", "… entire entry except 0A501.y") applies to the line's paragraph.
 */
export function scopeApplies(control: string, entry: string, paragraph: string): "yes" | "no" | "maybe" {
  const text = control.replace(/^[A-Z]{2}\s+applies\s+(to\s+)?/i, "");
  const [included, excluded = ""] = text.split(/\bexcept\b/i, 2);
  const isEntire = /entire entry/i.test(included);
  let inScope: "yes" | "no" | "maybe";
  if (isEntire) inScope = "yes";
  else {
    const refs = paragraphRefs(included, entry);
    if (!refs.length) inScope = "maybe";
    else {
      const results = refs.map((r) => inParagraph(paragraph, r));
      inScope = results.includes("yes") ? "yes" : results.includes("maybe") ? "maybe" : "no";
    }
  }
  if (inScope === "no" || !excluded) return inScope;
  const excludedRefs = paragraphRefs(excluded, entry);
  if (!excludedRefs.length) return "maybe";
  // "… in 3A001.b.2, except those 3A001.b.2 items for civil telecommunications": the exception is an
  // end-use condition on the same paragraphs, not a paragraph left out, so it cannot be decided here.
  if (!isEntire && excludedRefs.some((r) => paragraphRefs(included, entry).includes(r))) {
    return inScope === "yes" ? "maybe" : inScope;
  }
  const results = excludedRefs.map((r) => inParagraph(paragraph, r));
  if (results.includes("yes")) return "no";
  if (results.includes("maybe")) return "maybe";
  return inScope;
}

type TRequirementRow = { reason: string; control: string; cell: string; column: string | null };

/** The License Requirements rows of an entry: control text, cell text, and the chart column it names. */
export function requirementRows(raw: string): TRequirementRow[] {
  if (!raw.trim()) return [];
  return raw.split(" || ").map((part) => {
    let [control, cell = ""] = part.split(" => ", 2);
    // A few rows lost their separator in the source ("CB applies to entire entry CB Column 2.").
    const glued = cell ? null : /^(.*?)\s+([A-Z]{2}\s+Column\s+\d\.?)$/.exec(control.trim());
    if (glued) [control, cell] = [glued[1], glued[2]];
    const reason = (/^([A-Z]{2})\b/.exec(control.trim())?.[1] ?? "").toUpperCase();
    const col = /^([A-Z]{2})\s+Column\s+(\d)\.?$/i.exec(cell.trim());
    // "Column 1." alone (one entry in this edition) belongs to the row's own reason.
    const bare = /^Column\s+(\d)\.?$/i.exec(cell.trim());
    const column = col ? `${col[1].toUpperCase()}${col[2]}` : bare && reason ? `${reason}${bare[1]}` : null;
    return { reason, control: control.trim(), cell: cell.trim(), column };
  });
}

/** Whether a requirement that is not a chart column reaches this destination, judged from its own words. */
function textReachesDestination(
  text: string,
  destination: { country: string; groups: Set<string>; footnoteTexts: string[] },
  tables: TEarTables,
): boolean {
  if (/\b(any|all) destinations?\b/i.test(text)) return true;
  // UN rows (§ 746.1(b)) reach the destinations whose chart row carries the UN sanctions footnote.
  if (/746\.1/.test(text) && !/\bto\b.*\b(China|Russia)\b/.test(text)) {
    return destination.footnoteTexts.some((f) => /746\.1\(b\)/.test(f));
  }
  const groupRefs = [...text.matchAll(/Country Groups?\s+((?:[A-E]:\d(?:,?\s*(?:and|or)?\s*)?)+)/g)].flatMap(
    (m) => m[1].match(/[A-E]:\d/g) ?? [],
  );
  if (groupRefs.some((g) => destination.groups.has(g))) return true;
  const names = [...tables.chart.values()].map((r) => r.country.replace(/,.*$/, ""));
  const namesCountry = names.some((n) => n.length > 3 && text.includes(n));
  if (text.includes(destination.country.replace(/,.*$/, ""))) return true;
  // A text that names countries or groups but not this one does not reach it; one that names none
  // (a pointer such as "Refer to § 742.15") reaches every destination.
  return !(namesCountry || groupRefs.length);
}

const money = (cents: bigint) => {
  const whole = cents / 100n;
  return `$${whole.toLocaleString("en-US")}${cents % 100n ? `.${String(cents % 100n).padStart(2, "0")}` : ""}`;
};

/** Destinations the EAR reads as another row of the chart. */
const DESTINATION_ALIASES: Record<string, string> = { HK: "CN" };

const pointerRow = (notes: string) => /^No column marks/i.test(notes);
const quoted = (notes: string) => /"([^"]+)"/.exec(notes)?.[1] ?? notes;

/** An ECCN as the CCL writes it: the entry in capitals, its paragraphs in small letters ("3A001.b.2"). */
export function normalizeEccn(value: string): string {
  const v = value.trim();
  if (v.toUpperCase() === "EAR99") return "EAR99";
  const parts = splitEccn(v);
  return parts ? [parts.entry, parts.paragraph].filter(Boolean).join(".") : v.toUpperCase();
}

/** The determination of one line against the loaded tables. */
export function determineLine(tables: TEarTables, input: TDetermineInput): TDetermination {
  const raw = normalizeEccn(input.eccn);
  const base: TDetermination = {
    outcome: "unknown",
    eccn: raw,
    destination: null,
    reasons: [],
    summary: "",
    next_step: "",
    review: [],
    exceptions_offered: [],
  };
  let iso2 = (input.destinationIso2 ?? "").toUpperCase();
  // Hong Kong has had no row of its own since the EAR stopped treating it apart from China (the
  // tables' SOURCE.md: "Hong Kong has no row: it is treated as China").
  if (
    iso2 &&
    !tables.chart.has(iso2) &&
    DESTINATION_ALIASES[iso2] &&
    tables.chart.has(DESTINATION_ALIASES[iso2])
  ) {
    iso2 = DESTINATION_ALIASES[iso2];
  }
  if (!iso2) {
    return {
      ...base,
      summary: "The destination is not known.",
      next_step: "Choose the ultimate consignee (or the importer of record) with a country.",
    };
  }
  let row = tables.chart.get(iso2);
  const groupRow = tables.groups.get(iso2);
  // A row that only refers elsewhere ("Refer to Switzerland for … Liechtenstein") is read as that row.
  for (const f of row?.footnotes ?? []) {
    const target = /Refer to ([A-Z][A-Za-z ]+?) for licensing requirements/.exec(
      tables.footnotes.get(f) ?? "",
    );
    const targetRow = target ? [...tables.chart.values()].find((r) => r.country === target[1]) : undefined;
    if (targetRow) {
      row = targetRow;
      iso2 = targetRow.iso2;
    }
  }
  const name = row?.country ?? groupRow?.country ?? input.destinationIso2 ?? "";
  const destination = { iso2: (input.destinationIso2 ?? "").toUpperCase(), name };
  const groups = tables.groups.get(iso2)?.groups ?? groupRow?.groups ?? new Set<string>();
  const withDestination = { ...base, destination };

  const embargoGroup = ["E:1", "E:2"].find((g) => groups.has(g));
  if (embargoGroup || (row && pointerRow(row.notes))) {
    const why = embargoGroup
      ? `${name} is in Country Group ${embargoGroup}`
      : `${name}'s chart row points to part 746`;
    return {
      ...withDestination,
      outcome: "embargo",
      summary: `Embargoed destination: ${why}. Exports of any item, EAR99 included, are governed by part 746 of the EAR.`,
      next_step:
        "Do not ship. An export needs a BIS licence under part 746 (and often OFAC authorisation); talk to your compliance officer.",
      review: row?.notes ? [`Country Chart: ${quoted(row.notes)}`] : [],
    };
  }
  if (!row) {
    return {
      ...withDestination,
      summary: `${name} has no row in the Commerce Country Chart of ${tables.editionDate}.`,
      next_step: "Check the destination: exports to the United States itself are not exports.",
    };
  }
  const footnoteTexts = row.footnotes.map((f) => tables.footnotes.get(f) ?? "").filter(Boolean);
  if (!raw) {
    return {
      ...withDestination,
      summary: "The product has no ECCN: the line cannot be classified.",
      next_step: "Enter the product's ECCN (or EAR99) in the catalogue.",
    };
  }
  if (raw === "EAR99") {
    // Part 746 sanctions that reach beyond the CCL (e.g. § 746.8) are named in the row's footnotes;
    // the regional ones (Crimea, DNR, LNR) only warn.
    const sanctions = footnoteTexts.filter((t) => /746\.\d/.test(t) && !/Crimea|746\.1\(b\)/.test(t));
    if (sanctions.length) {
      return {
        ...withDestination,
        outcome: "review",
        summary: `EAR99 to ${name}: part 746 sanctions may require a licence even for EAR99 items.`,
        next_step: "Read the quoted footnote; record a licence, or an override with your justification.",
        review: sanctions.map((t) => `review: ${t}`),
      };
    }
    const ear99Notes = footnoteTexts.filter((t) => /746\.6/.test(t));
    return {
      ...withDestination,
      outcome: "nlr",
      summary: `EAR99: no licence required to ${name} (NLR).`,
      next_step: "Ship under NLR; check the parties' screening and the end use as usual.",
      review: ear99Notes.map((t) => `review: ${t}`),
    };
  }
  const parts = splitEccn(raw);
  const entry = parts ? tables.eccns.get(parts.entry) : undefined;
  if (!parts || !entry) {
    return {
      ...withDestination,
      outcome: "review",
      summary: parts
        ? `ECCN ${parts.entry} is not in the CCL tables of ${tables.editionDate}.`
        : `'${input.eccn}' is not an ECCN (like 3A001.b.2) or EAR99.`,
      next_step: "Check the classification against the Commerce Control List (Supp. No. 1 to part 774).",
      review: [`review: see Supp. No. 1 to part 774 for ${parts?.entry ?? input.eccn}`],
    };
  }
  const { paragraph } = parts;
  const rows = requirementRows(entry.license_requirements_raw);
  const review: string[] = [];
  const full: string[] = [];
  const uncertain: { column: string; scope: string }[] = [];
  if (!rows.length) {
    review.push(`review: ${entry.notes || "no licence requirements in the data"}`);
  }
  for (const r of rows) {
    const applies = scopeApplies(r.control, parts.entry, paragraph);
    if (applies === "no") continue;
    if (r.column) {
      if (!row.columns.has(r.column)) continue;
      if (applies === "yes") full.push(r.column);
      else uncertain.push({ column: r.column, scope: r.control });
    } else if (r.cell && textReachesDestination(r.cell, { country: name, groups, footnoteTexts }, tables)) {
      review.push(`review: ${r.reason}${applies === "maybe" ? ` (${r.control})` : ""}: ${r.cell}`);
    }
  }
  if (/600 series|9x515/i.test(entry.notes)) {
    review.push(`review: ${entry.notes.split(" | ")[0]}`);
  }
  for (const text of footnoteTexts) {
    if (text.includes(parts.entry) || /any ECCN on the CCL/.test(text)) review.push(`review: ${text}`);
  }
  const reasons = [...new Set(full)];
  // Licence exceptions the data offers, when a licence would otherwise be needed (§§ 740.3, 740.4).
  const offered: TDetermination["exceptions_offered"] = [];
  if (reasons.length && groups.has("B")) {
    const limit = /^\$(\d+)$/.exec(entry.lvs_value.replace(/,/g, ""));
    const shipmentValue =
      input.shipmentEccnValueUsdCents === undefined
        ? input.lineValueUsdCents
        : input.shipmentEccnValueUsdCents;
    if (limit && shipmentValue !== null) {
      const cents = BigInt(limit[1]) * 100n;
      const alone = input.lineValueUsdCents === shipmentValue;
      if (shipmentValue <= cents) {
        offered.push({
          symbol: "LVS",
          text: alone
            ? `LVS (§ 740.3): the line's net value ${money(shipmentValue)} is within ${money(cents)} for ${parts.entry} to Country Group B.`
            : `LVS (§ 740.3): the shipment's ${parts.entry} lines together, ${money(shipmentValue)} net, are within ${money(cents)} to Country Group B.`,
        });
      } else if (!alone && input.lineValueUsdCents !== null && input.lineValueUsdCents <= cents) {
        review.push(
          `LVS not available: the shipment's ${parts.entry} lines together are ${money(shipmentValue)} net, over the ${money(cents)} limit per shipment (§ 740.3(a)).`,
        );
      }
    }
    if (entry.gbs_available === "yes") {
      offered.push({
        symbol: "GBS",
        text: `GBS (§ 740.4): ${parts.entry} allows GBS and ${name} is in Country Group B.`,
      });
    } else if (entry.gbs_available === "partial") {
      review.push(`review: GBS only in part — ${entry.gbs}`);
    }
    if (entry.lvs_value === "conditional") review.push(`review: LVS only in part — ${entry.lvs}`);
  }
  if (reasons.length) {
    for (const u of uncertain) review.push(`review: ${u.column} applies only to: ${u.scope}`);
    return {
      ...withDestination,
      outcome: "license_required",
      reasons,
      summary: `${reasons.join(", ")}: licence required to ${name}.`,
      next_step: offered.length
        ? `Choose the licence that covers this line, or licence exception ${offered.map((o) => o.symbol).join(" or ")}.`
        : "Choose the BIS licence that covers this line (or record a licence exception or a justified override).",
      review,
      exceptions_offered: offered,
    };
  }
  if (uncertain.length || review.length) {
    const cols = [...new Set(uncertain.map((u) => u.column))];
    for (const u of uncertain) review.push(`review: ${u.column} applies only to: ${u.scope}`);
    return {
      ...withDestination,
      outcome: "review",
      reasons: cols,
      summary: cols.length
        ? `Not decidable here: ${cols.join(", ")} applies to ${name} only for part of ${parts.entry}.`
        : `Not decidable here: ${parts.entry} has a requirement the Country Chart does not express.`,
      next_step:
        "Read the quoted text; record a licence, an exception, or an override with your justification if no licence is needed.",
      review,
    };
  }
  return {
    ...withDestination,
    outcome: "nlr",
    summary: `No licence required to ${name} (NLR): ${parts.entry}'s reasons for control (${entry.reason_for_control || "none"}) have no X for ${name}.`,
    next_step: "Ship under NLR.",
  };
}
