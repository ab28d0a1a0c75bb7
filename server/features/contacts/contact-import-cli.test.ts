import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { openDatabase, type TDatabase } from "../../../db/client";
import { contacts, users, workspaces } from "../../../db/schema";

const ROOT = path.resolve(import.meta.dir, "../../..");
const MAIN = path.join(ROOT, "server", "main.ts");
const EXAMPLE = path.join(ROOT, "db", "examples", "contacts-example.csv");

let dir: string;
let database: TDatabase;
const workspaceOf: Record<string, number> = {};

async function cli(args: string[], env: Record<string, string> = {}) {
  const child = Bun.spawn([process.execPath, MAIN, ...args], {
    env: { ...process.env, DATA_DIR: path.join(dir, "data"), LOG_LEVEL: "warn", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { stdout, stderr, code };
}

const countIn = async (email: string) =>
  (
    await database.db
      .select({ n: count() })
      .from(contacts)
      .where(eq(contacts.workspace_id, workspaceOf[email]))
  )[0].n;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "tradewinds-import-cli-"));
  const migrated = await cli(["migrate"]);
  if (migrated.code !== 0) throw new Error(migrated.stderr);
  database = await openDatabase(`file:${path.join(dir, "data", "app.db")}`);
  for (const email of ["ada@example.com", "dry@example.com", "bulk@example.com"]) {
    const [workspace] = await database.db.insert(workspaces).values({ name: email }).returning();
    await database.db.insert(users).values({
      workspace_id: workspace.id,
      title: "Ms.",
      name: "Ada",
      surname: "Importer",
      email,
      password_hash: "not used: these users never log in",
    });
    workspaceOf[email] = workspace.id;
  }
});

afterAll(() => {
  database?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("tradewinds import-contacts", () => {
  test("imports the example file into the user's workspace (e-mail in any case) and prints the summary", async () => {
    const first = await cli(["import-contacts", "--email", "ADA@Example.com", EXAMPLE]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("Import completed: 10 rows");
    expect(first.stdout).toMatch(/10 {2}created/);
    expect(first.stdout).toMatch(/0 {2}rejected/);
    expect(await countIn("ada@example.com")).toBe(10);

    const again = await cli(["import-contacts", "--email", "ada@example.com", EXAMPLE]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/10 {2}unchanged/);
    expect(await countIn("ada@example.com")).toBe(10);
  }, 30_000); // The first import of this data folder builds and stores the screening index.

  test("--dry-run reports what would happen and writes nothing", async () => {
    const { code, stdout } = await cli([
      "import-contacts",
      "--dry-run",
      "--email",
      "dry@example.com",
      EXAMPLE,
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain("Dry run completed: nothing was written.");
    expect(stdout).toMatch(/10 {2}would be created/);
    expect(await countIn("dry@example.com")).toBe(0);
  });

  test("an unknown user, a missing file, a binary or an empty file exit 1 with the reason", async () => {
    const binary = path.join(dir, "photo.csv");
    writeFileSync(binary, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    const empty = path.join(dir, "empty.csv");
    writeFileSync(empty, "");
    // One after another: each run migrates and seeds the database before it imports.
    const unknown = await cli(["import-contacts", "--email", "nobody@example.com", EXAMPLE]);
    const missing = await cli(["import-contacts", "--email", "ada@example.com", path.join(dir, "nope.csv")]);
    const notText = await cli(["import-contacts", "--email", "ada@example.com", binary]);
    const nothing = await cli(["import-contacts", "--email", "ada@example.com", empty]);
    const usage = await cli(["import-contacts", EXAMPLE]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"nobody@example.com"');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Import failed:");
    expect(missing.stderr).toContain("no such file");
    expect(notText.code).toBe(1);
    expect(notText.stderr).toContain("Import failed:");
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain("Import failed: The file is empty.");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--email");
  });

  test("a larger file shows plain progress lines when not on a terminal; rejected rows are listed", async () => {
    const lines = ["Company,Partner Type,Tax ID,Contact,Phone,Email,Country"];
    for (let i = 0; i < 5000; i++) {
      // Every 200th row has a broken e-mail address: 25 rejections, more than the 20 listed.
      const email = i % 200 === 7 ? "not an e-mail" : `buyer${i}@example.com`;
      lines.push(
        `"Bulk Buyer ${i}, Ltd",Customer,BB-${i},Buyer ${i},+1 555 ${i},${email},${i % 2 ? "DE" : "Germany"}`,
      );
    }
    const file = path.join(dir, "bulk.csv");
    writeFileSync(file, lines.join("\n"));
    const { code, stdout } = await cli(["import-contacts", "--email", "bulk@example.com", file], {
      TRADEWINDS_PROGRESS_MS: "1",
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^… [\d,]+ rows \(\d+%\), [\d,]+ rows\/s$/m);
    expect(stdout).not.toContain("\r");
    expect(stdout).toMatch(/4,975 {2}created/);
    expect(stdout).toMatch(/25 {2}rejected/);
    expect(stdout).toContain("line 9: Email: E-mail is invalid");
    expect(stdout).toContain("… and 5 more.");
    expect(await countIn("bulk@example.com")).toBe(4975);
    // The imported contacts are screened too, as saving them in the app would: while importing,
    // each written with its outcome, one result and one audit row each, nothing left pending.
    expect(stdout).toContain("Screened 4975 new contacts while importing.");
    expect(stdout).not.toContain("new or changed contacts");
    const ws = workspaceOf["bulk@example.com"];
    const one = async (query: string) =>
      Number((await database.client.execute({ sql: query, args: [ws] })).rows[0]?.n);
    expect(await one("select count(*) as n from contact_screening_results where workspace_id = ?")).toBe(
      4975,
    );
    expect(
      await one(
        "select count(distinct contact_id) as n from contact_screening_results where workspace_id = ?",
      ),
    ).toBe(4975);
    expect(
      await one("select count(*) as n from screening_audit_log where workspace_id = ? and kind = 'screen'"),
    ).toBe(4975);
    expect(await one("select count(*) as n from rpscreenings where workspace_id = ?")).toBe(4975);
    expect(
      await one(
        "select count(*) as n from contacts where workspace_id = ? and (screening_pending = 1 or screening_outcome is null)",
      ),
    ).toBe(0);
  }, 60_000);

  test("--help describes the command without touching the database", async () => {
    const { code, stdout } = await cli(["import-contacts", "--help"], { DATA_DIR: path.join(dir, "never") });
    expect(code).toBe(0);
    expect(stdout).toContain("--dry-run");
  });
});
