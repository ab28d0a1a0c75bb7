import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const MAIN = path.resolve(import.meta.dir, "../../main.ts");
const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-lists-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const run = (...args: string[]) => {
  const proc = Bun.spawnSync([process.execPath, MAIN, "screening-lists", ...args], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
  });
  return { code: proc.exitCode, out: proc.stdout.toString(), err: proc.stderr.toString() };
};

describe("tradewinds screening-lists", () => {
  test("status shows the bundled lists a new database starts with", () => {
    const { code, out } = run("status");
    expect(code).toBe(0);
    expect(out).toMatch(/active\s+OFAC SDN\s+2026-08-20\s+19249 rows/);
    expect(out).toMatch(/active\s+BIS DPL\s+2022-09-02/);
    expect(out).toContain("CSL");
  });

  test("a malformed file is refused and the loaded lists stay", () => {
    const bad = path.join(dataDir, "consolidated.csv");
    writeFileSync(bad, "this,is\nnot,a list\n");
    const { code, err } = run("import", bad, "--format", "csl");
    expect(code).toBe(1);
    expect(err).toContain("Import failed, the loaded lists are unchanged");
    expect(run("status").out).not.toContain("replaced");
  });

  test("a newer DPL replaces the old one, and contacts are screened again", () => {
    const dpl = path.join(dataDir, "dpl.txt");
    writeFileSync(
      dpl,
      "Name\tStreet_Address\tCity\tState\tCountry\tPostal_Code\tEffective_Date\tExpiration_Date\tStandard_Order\tLast_Update\tAction\tFR_Citation\n" +
        '"ACME SMUGGLING LTD"\t"1 Pier Road"\t"Dover"\t""\t"GB"\t"CT1"\t"10/01/2026"\t"10/01/2036"\t"Y"\t"10/02/2026"\t"FR NOTICE ADDED"\t"91 F.R. 1"\n',
    );
    const { code, out, err } = run("import", dpl);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain("Loaded BIS DPL");
    expect(out).toMatch(/Done: 0 screened/);
    const status = run("status").out;
    expect(status).toMatch(/active\s+BIS DPL\s+2026-10-02\s+1 rows/);
    expect(status).toMatch(/replaced\s+BIS DPL\s+2022-09-02/);
  });

  test("wrong usage exits 2 with help", () => {
    expect(run().code).toBe(2);
    expect(run("import").code).toBe(2);
    expect(run("import", "x.csv", "--format", "xml").code).toBe(2);
  });
});
