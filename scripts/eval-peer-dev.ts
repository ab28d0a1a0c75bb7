// The peer-dev section of eval:screening: names written by other projects (OpenSanctions' name
// benchmark, watchman, yente, OFAC's own search) plus well-known real companies, screened the way
// the contact flow screens them (name only, default threshold). Prints recall on listed variants,
// specificity on clean names and the alert rate on famous companies, per family, with every miss
// and false alarm and what it matched.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  DEFAULT_THRESHOLD,
  type ScreeningIndex,
  screen,
} from "../server/features/screening/engine/screening-index";
import type { ListEntry } from "../server/features/screening/engine/types";

export interface PeerCase {
  kind: "listed" | "clean";
  family: string;
  name: string;
  /** "<sourceList>:<sourceId>" → the list's name for the entry. */
  listed_entry?: Record<string, string>;
}

/** peer-dev.jsonl from $PEER_DEV_FILE, else next to the bundled lists' shared copy. */
export function peerDevFile(dir: string): string | undefined {
  const candidates = [
    process.env.PEER_DEV_FILE,
    join(dir, "peer-dev.jsonl"),
    "/work/shared/data/screening/peer-dev.jsonl",
  ];
  return candidates.find((p): p is string => p !== undefined && existsSync(p));
}

/** The cases of peer-dev.jsonl, one a line. */
export function readPeerCases(file: string): PeerCase[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as PeerCase);
}

const isFamous = (family: string): boolean => family.startsWith("supplement:real-company");

/** Screens every case, prints the section and returns per-case CPU times in ms (for the p99) and names. */
export function evalPeerDev(
  index: ScreeningIndex,
  file: string,
  threshold = DEFAULT_THRESHOLD,
): { cpu: number[]; names: string[] } {
  const cases = readPeerCases(file);
  const key = (e: ListEntry): string => `${e.sourceList}:${e.sourceId}`;
  const families = new Map<string, { kind: string; total: number; ok: number }>();
  const lines: string[] = [];
  const cpu: number[] = [];
  let listed = 0;
  let caught = 0;
  let clean = 0;
  let passed = 0;
  let famous = 0;
  let famousAlerts = 0;
  for (const c of cases) {
    const before = process.cpuUsage();
    const result = screen(index, { name: c.name }, { threshold, top: 10 });
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
    const stat = families.get(c.family) ?? { kind: c.kind, total: 0, ok: 0 };
    stat.total++;
    const top = result.matches[0];
    const shown = top
      ? `${top.matchedName} ${top.score} (${top.entry.sourceList} ${top.entry.entityType})`
      : "nothing";
    if (c.kind === "listed") {
      listed++;
      const wanted = new Set(Object.keys(c.listed_entry ?? {}));
      const hit = result.matches.find((m) => m.score >= threshold && wanted.has(key(m.entry)));
      if (hit) {
        caught++;
        stat.ok++;
      } else {
        const target = Object.values(c.listed_entry ?? {}).join(" / ");
        lines.push(`  MISS  [${c.family}] ${c.name}  → want ${target}; best: ${shown}`);
      }
    } else {
      clean++;
      if (isFamous(c.family)) famous++;
      if (result.status === "passed") {
        passed++;
        stat.ok++;
      } else {
        if (isFamous(c.family)) famousAlerts++;
        lines.push(`  ALARM [${c.family}] ${c.name}  ~ ${shown}`);
      }
    }
    families.set(c.family, stat);
  }
  const pct = (a: number, b: number): string => (b === 0 ? "-" : `${((100 * a) / b).toFixed(1)} %`);
  console.log(`\npeer-dev (${file}), threshold ${threshold}, name only as the contact flow screens it:`);
  console.log(
    `  listed variants caught ${pct(caught, listed)} (${caught}/${listed})  clean names passed ${pct(passed, clean)} (${passed}/${clean})  famous companies alerting ${pct(famousAlerts, famous)} (${famousAlerts}/${famous})`,
  );
  console.log("  by family:");
  for (const [family, s] of [...families].sort(
    (a, b) => a[1].kind.localeCompare(b[1].kind) || a[0].localeCompare(b[0]),
  )) {
    const what = s.kind === "listed" ? "recall" : isFamous(family) ? "passed (alerts)" : "specificity";
    console.log(
      `    ${family.padEnd(42)} ${what.padEnd(16)} ${pct(s.ok, s.total).padStart(8)}  (${s.ok}/${s.total})`,
    );
  }
  const sorted = [...cpu].sort((a, b) => a - b);
  const p = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  console.log(
    `  CPU per query: median ${p(0.5).toFixed(3)} ms, p99 ${p(0.99).toFixed(3)} ms, max ${p(1).toFixed(3)} ms`,
  );
  console.log(`  misses and false alarms (${lines.length}):`);
  for (const l of lines) console.log(l);
  return { cpu, names: cases.map((c) => c.name) };
}
