import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { openDatabase } from "../../../db/client";
import type { TImportAnswer, TImportReport } from "../../../db/contracts/contacts";
import { contacts } from "../../../db/schema";
import { signUp } from "../../test/factories";
import { createTestContext, type TTestContext } from "../../test/setup";
import {
  importContacts,
  parseWorkerStats,
  startParseWorker,
  type TStartedParseWorker,
} from "./contact-import";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext({ UPLOAD_MAX_MB: "5" });
});
afterAll(() => ctx.database.close());

type TReport = TImportAnswer & TImportReport;

const HEADER = "Company,Partner Type,Tax ID,Contact,Phone,Email,Country,Sensitive,Sensitive Note";

const asDataUrl = (text: string | Uint8Array) =>
  `data:text/csv;base64,${Buffer.from(typeof text === "string" ? new TextEncoder().encode(text) : text).toString("base64")}`;

async function upload(who: Awaited<ReturnType<typeof signUp>>, csv: string | Uint8Array, on = ctx) {
  const res = await on.app.request("/api/contacts/upload", {
    method: "POST",
    headers: { ...who.auth, "content-type": "application/json" },
    body: JSON.stringify({ csv_upload: asDataUrl(csv) }),
  });
  return { status: res.status, body: (await res.json()) as TReport };
}

async function uploadMultipart(
  who: Awaited<ReturnType<typeof signUp>>,
  file: Blob,
  name = "contacts.csv",
  on = ctx,
) {
  const form = new FormData();
  form.append("csv_upload", file, name);
  const res = await on.app.request("/api/contacts/upload", {
    method: "POST",
    headers: who.auth,
    body: form,
  });
  return { status: res.status, body: (await res.json()) as TReport };
}

const countIn = async (workspaceId: number, on = ctx) =>
  (await on.database.db.select().from(contacts).where(eq(contacts.workspace_id, workspaceId))).length;

describe("CSV import", () => {
  test("BOM, CRLF, quoted commas, quotes and newlines; header synonyms; countries by name or ISO code", async () => {
    const who = await signUp(ctx);
    const csv =
      `\uFEFF${HEADER}\r\n` +
      `"Shenyang Machine Tool Co., Ltd.",Supplier,CN-1,"Li ""Leo"" Wei",+86 24 1,li@smt.example,CN,no,\r\n` +
      `"Nordic Timber AB",customer,SE-2,"Anna\r\nSvensson",+46 8 1,anna@nordic.example,Sweden,yes,"Watch\nthis"\r\n`;
    const { status, body } = await upload(who, csv);
    expect(status).toBe(200);
    expect(body).toMatchObject({ message: "Import completed", created: 2, updated: 0, rejected: 0, rows: 2 });
    const rows = await ctx.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.workspace_id, who.user.workspace_id));
    const smt = rows.find((r) => r.tax_id === "CN-1")!;
    expect(smt.company).toBe("Shenyang Machine Tool Co., Ltd.");
    expect(smt.contact_1).toBe('Li "Leo" Wei');
    expect(smt.partner_type_id).toBe(2);
    const nordic = rows.find((r) => r.tax_id === "SE-2")!;
    expect(nordic.contact_1).toBe("Anna\r\nSvensson");
    expect(nordic.is_sensitive).toBe(true);
    expect(nordic.sensitive_note).toBe("Watch\nthis");
    expect(nordic.user_id).toBe(who.user.id);
  });

  test("Excel's semicolon CSV in Windows-1252: delimiter and encoding detected, blank rows skipped, German country names", async () => {
    const who = await signUp(ctx);
    const text = [
      "Firma;Partner Type;Tax ID;Contact;Phone;Email;Country;Street",
      "Müller Maschinenbau GmbH;Supplier;DE-1;Jürgen Groß;+49 1;j@mueller.example;Deutschland;Königstraße 5",
      ";;;;;;;",
      "",
      "Société Générale Export;Customer;FR-1;Zoé;+33 1;z@sg.example;Frankreich;",
      "Österreich Handel;Customer;AT-1;Ana;+43 1;a@oh.example;Österreich;",
    ].join("\r\n");
    // Windows-1252: one byte per character, ü = 0xfc, ß = 0xdf, é = 0xe9, Ö = 0xd6.
    const bytes = new Uint8Array([...text].map((ch) => ch.charCodeAt(0)));
    const { status, body } = await upload(who, bytes);
    expect(status).toBe(422);
    // "Firma" is not a column name: the company column is missing and the message lists what the line reads.
    expect(body.message).toBe("Import failed");
    expect(String(body.result)).toContain('it reads "Firma", "Partner Type"');
    const fixed = new Uint8Array([...text.replace("Firma;", "Company;")].map((ch) => ch.charCodeAt(0)));
    const again = await upload(who, fixed);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ message: "Import completed", created: 3, rejected: 0, rows: 3 });
    const rows = await ctx.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.workspace_id, who.user.workspace_id));
    const mueller = rows.find((r) => r.tax_id === "DE-1")!;
    expect(mueller.company).toBe("Müller Maschinenbau GmbH");
    expect(mueller.contact_1).toBe("Jürgen Groß");
    expect(mueller.street).toBe("Königstraße 5");
    const countryCodes = await ctx.database.client.execute(
      `select c.tax_id, k.code_iso_2 as code from contacts c join countries k on k.id = c.country_id where c.workspace_id = ${who.user.workspace_id} order by c.tax_id`,
    );
    expect(countryCodes.rows.map((r) => `${r.tax_id}:${r.code}`)).toEqual(["AT-1:AT", "DE-1:DE", "FR-1:FR"]);
  });

  test("a tab-separated UTF-8 file with a byte-order mark; country names in Swedish and French", async () => {
    const who = await signUp(ctx);
    const csv = `\uFEFF${HEADER.replaceAll(",", "\t")}\nTab AB\tCustomer\tSE-9\tÅsa\t+46 1\tasa@tab.example\tTyskland\tno\t\nTab SA\tCustomer\tFR-9\tÉlodie\t+33 1\te@tab.example\tAllemagne\tno\t\n`;
    const { status, body } = await upload(who, csv);
    expect(status).toBe(200);
    expect(body).toMatchObject({ created: 2, rejected: 0 });
  });

  test("one message per cell: an unknown partner type is not also 'required'", async () => {
    const who = await signUp(ctx);
    const { body } = await upload(who, `${HEADER}\nOdd Co,Distributor,O1,Ed,5,ed@x.example,US,0,\n`);
    expect(body.rejected_rows).toHaveLength(1);
    expect(body.rejected_rows[0].errors).toEqual(['Partner Type: unknown partner type "Distributor".']);
  });

  test("the template file the import dialog offers imports cleanly", async () => {
    const { importTemplateCsv } = await import("../../../db/contracts/contact-import-columns");
    const who = await signUp(ctx);
    const { status, body } = await upload(who, importTemplateCsv());
    expect(status).toBe(200);
    expect(body).toMatchObject({ message: "Import completed", created: 1, rejected: 0 });
  });

  test("invalid rows are reported with their line numbers and reasons; valid rows still land", async () => {
    const who = await signUp(ctx);
    const csv = [
      HEADER,
      "Good One Inc,Customer,T1,Al,1,al@good.example,US,0,",
      ",Customer,T2,Bo,2,bo@x.example,US,0,",
      "Atlantis Trading,Customer,T3,Cy,3,cy@x.example,Atlantis,0,",
      "Bad Mail Co,Customer,T4,Di,4,not-an-email,US,0,",
      "Odd Type Co,Wizard,T5,Ed,5,ed@x.example,US,0,",
      "Sensitive Co,Customer,T6,Fa,6,fa@x.example,US,yes,",
      "Good Two Ltd,Bank,T7,Gi,7,gi@x.example,gb,maybe,",
    ].join("\n");
    const { status, body } = await upload(who, csv);
    expect(status).toBe(200);
    expect(body.created).toBe(1);
    expect(body.rejected).toBe(6);
    const byLine = Object.fromEntries(body.rejected_rows.map((r) => [r.line, r.errors.join(" ")]));
    // In the file's own column names, never the contract's field ids.
    expect(byLine[3]).toContain("Company: This field is required.");
    expect(byLine[4]).toContain('Country: unknown country "Atlantis".');
    expect(byLine[5]).toContain("Email: E-mail is invalid");
    expect(byLine[6]).toContain('Partner Type: unknown partner type "Wizard".');
    expect(byLine[7]).toContain("Sensitive Note: This field is required.");
    expect(byLine[8]).toContain('Sensitive: "maybe" is not yes/no');
    expect(body.rejected_rows.flatMap((r) => r.errors).join(" ")).not.toMatch(/\b[a-z]+_(id|1|note)\b:/);
    expect(await countIn(who.user.workspace_id)).toBe(1);
  });

  test("re-importing creates no duplicates; changed fields update; duplicate rows in one file count once", async () => {
    const who = await signUp(ctx);
    const csv = `${HEADER}\nDup Co,Customer,D1,Al,1,al@dup.example,US,0,\nDup Co,Customer,D1,Al,1,al@dup.example,US,0,\n`;
    const first = await upload(who, csv);
    expect(first.body).toMatchObject({ created: 1, unchanged: 1, updated: 0 });
    const again = await upload(who, csv);
    expect(again.body).toMatchObject({ created: 0, unchanged: 2, updated: 0 });
    const changed = await upload(who, `${HEADER}\nDup Co,Customer,D1,Al,1,new@dup.example,US,0,\n`);
    expect(changed.body).toMatchObject({ created: 0, updated: 1 });
    const rows = await ctx.database.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.workspace_id, who.user.workspace_id), eq(contacts.tax_id, "D1")));
    expect(rows).toHaveLength(1);
    expect(rows[0].email_1).toBe("new@dup.example");
    // Who imported the change saved the contact last.
    expect(rows[0].updated_by_user_id).toBe(who.user.id);
    // The match ignores the company's case, but a new spelling is an update of the same contact.
    const recased = await upload(who, `${HEADER}\nDUP CO,Customer,D1,Al,1,new@dup.example,US,0,\n`);
    expect(recased.body).toMatchObject({ created: 0, updated: 1 });
    // Same company with another tax id is another contact.
    const other = await upload(who, `${HEADER}\nDup Co,Customer,D2,Al,1,al@dup.example,US,0,\n`);
    expect(other.body.created).toBe(1);
  });

  test("a row that updates a contact created earlier in the same file gets the later values", async () => {
    const who = await signUp(ctx);
    const csv = `${HEADER}\nTwice Co,Customer,W1,Al,1,first@twice.example,US,0,\nTwice Co,Customer,W1,Al,1,second@twice.example,US,0,\n`;
    const { body } = await upload(who, csv);
    expect(body).toMatchObject({ created: 1, updated: 1 });
    const [row] = await ctx.database.db
      .select()
      .from(contacts)
      .where(eq(contacts.workspace_id, who.user.workspace_id));
    expect(row.email_1).toBe("second@twice.example");
  });

  test("files that cannot be imported are refused whole with 'Import failed' and change nothing", async () => {
    const who = await signUp(ctx);
    const cases: [string | Uint8Array, string][] = [
      ["", "The file is empty."],
      ["\n\n", "The file is empty."],
      [
        "Company,Email\nAcme,a@b.example\n",
        "The file has no column for: partner type, tax id, contact 1, phone 1",
      ],
      [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0xfe]), "not"],
      // UTF-8 up to "é", then a byte UTF-8 cannot read: neither encoding throughout.
      [new Uint8Array([0x43, 0xc3, 0xa9, 0x2c, 0xff, 0xfe, 0x2c, 0x0a]), "not UTF-8 text throughout"],
      [`${HEADER}\nGood Co,Customer,G1,Al,1,al@g.example,US,0,\n"Unclosed,Customer,G2`, "never closed"],
    ];
    for (const [file, reason] of cases) {
      const { status, body } = await upload(who, file);
      expect(status, String(reason)).toBe(422);
      expect(body.message).toBe("Import failed");
      expect(body.result).toContain(reason);
    }
    // The good row before the broken one was rolled back with the rest.
    expect(await countIn(who.user.workspace_id)).toBe(0);
  });

  test("multipart upload works; a file over the limit is refused with 413 before it is read", async () => {
    const who = await signUp(ctx);
    const ok = await uploadMultipart(
      who,
      new Blob([`${HEADER}\nMulti Co,Customer,M1,Al,1,al@m.example,US,0,\n`]),
    );
    expect(ok.body.created).toBe(1);
    const big = new Blob([new Uint8Array(8 * 1024 * 1024).fill(0x61)]);
    const tooBig = await uploadMultipart(who, big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toContain("larger than 5 MB");
    const notCsv = await ctx.app.request("/api/contacts/upload", {
      method: "POST",
      headers: { ...who.auth, "content-type": "application/json" },
      body: JSON.stringify({ csv_upload: "hello" }),
    });
    expect(notCsv.status).toBe(422);
  });

  test("imports only into the caller's workspace", async () => {
    const a = await signUp(ctx);
    const b = await signUp(ctx);
    await upload(a, `${HEADER}\nMine Co,Customer,X1,Al,1,al@mine.example,US,0,\n`);
    expect(await countIn(a.user.workspace_id)).toBe(1);
    expect(await countIn(b.user.workspace_id)).toBe(0);
    // B importing the same company + tax id creates B's own contact, untouched by A's.
    const res = await upload(b, `${HEADER}\nMine Co,Customer,X1,Bo,2,bo@theirs.example,US,0,\n`);
    expect(res.body.created).toBe(1);
  });
});

describe("large uploads", () => {
  test("over 1,000 rejected rows: the count is exact and the report says the details stop at 1,000", async () => {
    const who = await signUp(ctx);
    const rows = Array.from({ length: 1200 }, (_, i) => `Bad Co ${i},Customer,R${i},Al,1,not-an-email,US,0,`);
    const { status, body } = await upload(
      who,
      `${HEADER}\nFine Co,Customer,F1,Al,1,al@f.example,US,0,\n${rows.join("\n")}\n`,
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ created: 1, rejected: 1200, rejected_rows_truncated: true });
    expect(body.rejected_rows).toHaveLength(1000);
    expect(body.rejected_rows[0].line).toBe(3);
    const few = await upload(who, `${HEADER}\nBad,Customer,R,Al,1,nope,US,0,\n`);
    expect(few.body).toMatchObject({ rejected: 1, rejected_rows_truncated: false });
    expect(few.body.rejected_rows).toHaveLength(1);
  });

  test("a 3,000-row file sent as one data URL imports (no 'too many SQL variables')", async () => {
    const who = await signUp(ctx);
    const rows = Array.from(
      { length: 3000 },
      (_, i) => `Bulk Co ${i},Customer,B${i},Al,1,al${i}@bulk.example,US,0,`,
    );
    const { status, body } = await upload(who, `${HEADER}\n${rows.join("\n")}\n`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ created: 3000, rejected: 0 });
    expect(await countIn(who.user.workspace_id)).toBe(3000);
  });
});

describe("the file's own size (UPLOAD_MAX_MB=1)", () => {
  let small: TTestContext;
  beforeAll(async () => {
    small = await createTestContext({ UPLOAD_MAX_MB: "1" });
  });
  afterAll(() => small.database.close());

  /** A valid CSV of at least `bytes` bytes: every row would import if the size were not checked. */
  const csvOf = (bytes: number) => {
    const rows = [HEADER];
    let size = HEADER.length;
    for (let i = 0; size < bytes; i++) {
      const row = `Big Co ${i},Customer,BIG-${i},Al,1,al${i}@big.example,US,0,`;
      rows.push(row);
      size += row.length + 1;
    }
    return `${rows.join("\n")}\n`;
  };
  const countOf = (workspaceId: number) => countIn(workspaceId, small);

  test("a data URL that decodes to more than the limit is refused with 413; nothing is imported", async () => {
    const who = await signUp(small);
    // Its base64 fits the request allowance (4/3 of the limit plus framing); the file does not.
    const { status, body } = await upload(who, csvOf(1.02 * 1024 * 1024), small);
    expect(status).toBe(413);
    expect(body.message).toBe("Import failed: the file is larger than 1 MB.");
    expect(body.result).toBe(body.message);
    expect(await countOf(who.user.workspace_id)).toBe(0);
  });

  test("a multipart file slightly over the limit (1.2 MB of 1 MB) is refused with 413; nothing is imported", async () => {
    const who = await signUp(small);
    const { status, body } = await uploadMultipart(
      who,
      new Blob([csvOf(1.2 * 1024 * 1024)]),
      "contacts.csv",
      small,
    );
    expect(status).toBe(413);
    expect(body.message).toBe("Import failed: the file is larger than 1 MB.");
    expect(await countOf(who.user.workspace_id)).toBe(0);
  });

  test("a file just under the limit still imports", async () => {
    const who = await signUp(small);
    const { status, body } = await uploadMultipart(
      who,
      new Blob([csvOf(0.9 * 1024 * 1024)]),
      "contacts.csv",
      small,
    );
    expect(status).toBe(200);
    expect(body.rejected).toBe(0);
    expect(await countOf(who.user.workspace_id)).toBe(body.created);
  });
});

describe("parsing on a thread of its own (the CLI's big files)", () => {
  /**
   * Imports the same chunks into fresh workspaces, parsed here, on a parse worker the import starts
   * and on one started ahead (the CLI's): each such worker ends with its import.
   */
  async function bothWays(chunks: string[]) {
    const run = async (parseOffThread: boolean | TStartedParseWorker) => {
      const who = await signUp(ctx);
      const target = { workspaceId: who.user.workspace_id, userId: who.user.id };
      try {
        const report = await importContacts(ctx.database.db, target, chunks, { parseOffThread });
        const rows = await ctx.database.db
          .select()
          .from(contacts)
          .where(eq(contacts.workspace_id, who.user.workspace_id))
          .orderBy(contacts.id);
        const values = rows.map(
          ({
            id: _,
            workspace_id: _w,
            user_id: _u,
            updated_by_user_id: _b,
            created_at: _c,
            updated_at: _t,
            ...rest
          }) => rest,
        );
        return { report, values };
      } catch (error) {
        return { error: `${(error as Error).constructor.name}: ${(error as Error).message}` };
      }
    };
    const here = await run(false);
    const started = parseWorkerStats.started;
    const there = await run(true);
    expect(parseWorkerStats.started).toBe(started + 1);
    const ahead = startParseWorker() as TStartedParseWorker;
    expect(await run(ahead)).toEqual(there);
    expect(parseWorkerStats.started).toBe(started + 2);
    expect(
      await Promise.race([ahead.ended.then(() => "ended"), Bun.sleep(5_000).then(() => "running")]),
    ).toBe("ended");
    return { here, there };
  }

  test("the same report and the same contacts as parsing here, across chunk boundaries", async () => {
    const lines = [HEADER];
    for (let i = 0; i < 900; i++) {
      const email = i % 97 === 5 ? "not an e-mail" : `p${i}@x.example`;
      const note = i % 50 === 0 ? `"Check, ""hold""\nfirst"` : "";
      lines.push(
        `"Parse ${i % 300}, Ltd",${i % 7 ? "Customer" : "Alien"},PT-${i % 300},Ann,+1 555,${email},${i % 2 ? "DE" : "Germany"},${note ? "yes" : "no"},${note}`,
      );
    }
    const text = `${lines.join("\r\n")}\r\n`;
    // Chunks cut anywhere: inside quoted fields, between CR and LF.
    const chunks: string[] = [];
    for (let at = 0; at < text.length; at += 997) chunks.push(text.slice(at, at + 997));
    const { here, there } = await bothWays(chunks);
    expect(there).toEqual(here);
    // The whole text as one chunk: its first 48 KB go to the worker as a piece of their own.
    expect(text.length).toBeGreaterThan(50 * 1024);
    expect((await bothWays([text])).there).toEqual(here);
    expect(here.report?.rejected).toBeGreaterThan(100);
    expect(here.report?.created).toBeGreaterThan(250);
    expect(here.report?.updated).toBeGreaterThan(0);
  });

  test("a file the parser refuses fails the same way", async () => {
    for (const chunks of [
      ["Company,Tax ID\nAcme,1\n"],
      [""],
      [`${HEADER}\n"Unclosed,Customer,1,Ann,+1,a@x.example,DE,no,\n`],
      [`${HEADER}\nAcme\u0000,Customer,1,Ann,+1,a@x.example,DE,no,\n`],
    ]) {
      const { here, there } = await bothWays(chunks);
      expect(here.error).toMatch(/^ImportFileError: /);
      expect(there).toEqual(here);
    }
  });
});

test("a parse worker started ahead ends with an import that fails before its rows", async () => {
  const ahead = startParseWorker() as TStartedParseWorker;
  // A database already closed: the import fails reading the workspace's lookups, its worker unused.
  const closed = await openDatabase(
    `file:${path.join(mkdtempSync(path.join(tmpdir(), "tw-closed-")), "app.db")}`,
  );
  closed.close();
  const target = { workspaceId: 1, userId: 1 };
  await expect(importContacts(closed.db, target, [HEADER], { parseOffThread: ahead })).rejects.toThrow();
  expect(await Promise.race([ahead.ended.then(() => "ended"), Bun.sleep(5_000).then(() => "running")])).toBe(
    "ended",
  );
});
