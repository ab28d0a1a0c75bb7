// Prints what the export-control determination costs: parsing an edition, one line, and storing an edition.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "../db/client";
import { migrateDatabase } from "../db/migrate";
import { determineLine } from "../server/features/export-control/determine";
import {
  buildTables,
  parseEarFiles,
  SHIPPED_FILES,
  seedShippedEdition,
} from "../server/features/export-control/ear-tables";

let t = performance.now();
const cpu0 = process.cpuUsage();
const tables = buildTables({ editionId: 1, editionDate: "x", isShipped: true }, parseEarFiles(SHIPPED_FILES));
console.log(
  "parse+build tables ms",
  (performance.now() - t).toFixed(1),
  "cpu ms",
  (process.cpuUsage(cpu0).user / 1000).toFixed(1),
);
const cases: [string, string][] = [
  ["3A001.b.2", "CN"],
  ["5A992.c", "DE"],
  ["EAR99", "IR"],
  ["1A001.a", "BR"],
  ["4A003", "CN"],
  ["0A501.a", "GB"],
];
const N = 60000;
const c1 = process.cpuUsage();
t = performance.now();
for (let i = 0; i < N; i++) {
  const [e, d] = cases[i % cases.length];
  determineLine(tables, { eccn: e, destinationIso2: d, lineValueUsdCents: 100000n });
}
const cpu = process.cpuUsage(c1).user / 1000;
console.log(
  `determinations: ${N} in ${(performance.now() - t).toFixed(0)} ms wall, ${cpu.toFixed(0)} ms cpu → ${((cpu * 1000) / N).toFixed(1)} µs cpu each`,
);
const dir = mkdtempSync(path.join(tmpdir(), "b31-"));
const db = await openDatabase(`file:${path.join(dir, "a.db")}`);
await migrateDatabase(db.db, path.resolve(import.meta.dir, "../db/migrations"));
const c2 = process.cpuUsage();
t = performance.now();
await seedShippedEdition(db.db);
console.log(
  "seed shipped edition ms wall",
  (performance.now() - t).toFixed(0),
  "cpu",
  (process.cpuUsage(c2).user / 1000).toFixed(0),
);
db.close();
