// Two app processes, each with its own DATA_DIR, against one libSQL-protocol server (the Hrana test
// server: a stand-in for sqld, see server/test/hrana-server.ts): everything one process writes, the
// other reads, and nothing either acknowledges is lost.

import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, ROOT, startServer } from "../scripts/lib";
import { concat, PDF } from "./features/documents/test-files";
import { buildContact, buildProduct, buildRegistration } from "./test/factories";
import { startHranaServer, type THranaServer } from "./test/hrana-server";

const isBuilt = existsSync(path.join(ROOT, "dist", "client", ".vite", "manifest.json"));
const dir = mkdtempSync(path.join(tmpdir(), "tradewinds-scale-out-"));
const dbFile = path.join(dir, "shared.db");

let server: THranaServer;
let a: { url: string; stop: () => Promise<number> };
let b: { url: string; stop: () => Promise<number> };
let auth: Record<string, string>;

const send = (base: string, method: string, route: string, body?: unknown) =>
  fetch(`${base}${route}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const itemOf = async <T = Record<string, unknown>>(res: Response, status = 200): Promise<T> => {
  if (res.status !== status) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { item: T }).item;
};
/** Reads the shared database directly, beside the server (WAL: a reader never blocks its writer). */
const queryFile = <T>(file: string, sql: string): T[] => {
  const db = new Database(file, { readonly: true });
  try {
    return db.query(sql).all() as T[];
  } finally {
    db.close();
  }
};
const query = <T>(sql: string): T[] => queryFile<T>(dbFile, sql);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.if(isBuilt)("two app processes on one libSQL server", () => {
  beforeAll(async () => {
    server = startHranaServer({ file: dbFile });
    // Both start at once on the empty database: one migrates and seeds, the other waits for it.
    // A file an earlier version stored on A's disk, before uploads lived in the database.
    mkdirSync(path.join(dir, "a", "uploads", "avatars"), { recursive: true });
    writeFileSync(path.join(dir, "a", "uploads", "avatars", "legacy1"), "earlier upload");
    const start = (name: string) =>
      startServer({ DATABASE_URL: server.url, DATA_DIR: path.join(dir, name) }, { healthTimeoutMs: 240_000 });
    [a, b] = await Promise.all([start("a"), start("b")]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    server?.stop();
  });

  test("started together on an empty database, they imported each bundled list once", () => {
    const lists = query<{ source: string; n: number }>(
      "SELECT source, count(*) AS n FROM screening_lists GROUP BY source",
    );
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.filter((list) => list.n !== 1)).toEqual([]);
    expect(query<{ n: number }>("SELECT count(*) AS n FROM app_locks")[0].n).toBe(0);
  });

  test("a file an earlier version left on one process's disk is moved into the database", async () => {
    const legacy = path.join(dir, "a", "uploads", "avatars", "legacy1");
    for (let i = 0; i < 100 && existsSync(legacy); i++) await Bun.sleep(100);
    expect(existsSync(legacy)).toBe(false);
    const [row] = query<{ size: number }>("SELECT size FROM stored_files WHERE key = 'avatars/legacy1'");
    expect(row?.size).toBe("earlier upload".length);
  });

  test("a session made on one process works on the other", async () => {
    const registration = buildRegistration();
    const registered = await fetch(`${a.url}/api/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(registration),
    });
    expect(registered.status).toBe(201);
    const login = await fetch(`${a.url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: registration.email, password: registration.password, rememberMe: true }),
    });
    expect(login.status).toBe(200);
    auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    const me = await send(b.url, "GET", "/api/contacts");
    expect(me.status).toBe(200);
  });

  test("contacts, products and shipments written on either process read back on the other", async () => {
    const contact = await itemOf<{ id: number }>(
      await send(a.url, "POST", "/api/contacts", buildContact({ company: "Written On A" })),
      201,
    );
    expect(
      (await itemOf<{ company: string }>(await send(b.url, "GET", `/api/contacts/${contact.id}`))).company,
    ).toBe("Written On A");
    await itemOf(
      await send(b.url, "PUT", `/api/contacts/${contact.id}`, buildContact({ company: "Edited On B" })),
    );
    expect(
      (await itemOf<{ company: string }>(await send(a.url, "GET", `/api/contacts/${contact.id}`))).company,
    ).toBe("Edited On B");

    const product = await itemOf<{ id: number }>(
      await send(b.url, "POST", "/api/products", buildProduct(1, { name: "Made On B" })),
      201,
    );
    expect(
      (await itemOf<{ name: string }>(await send(a.url, "GET", `/api/products/${product.id}`))).name,
    ).toBe("Made On B");
    await itemOf(
      await send(a.url, "PUT", `/api/products/${product.id}`, buildProduct(1, { name: "Edited On A" })),
    );
    expect(
      (await itemOf<{ name: string }>(await send(b.url, "GET", `/api/products/${product.id}`))).name,
    ).toBe("Edited On A");

    const draft = await itemOf<{ id: number; updated_at: string }>(
      await send(a.url, "POST", "/api/shipments"),
      201,
    );
    const saved = await itemOf<{ name: string }>(
      await send(b.url, "PUT", `/api/shipments/${draft.id}`, {
        updated_at: draft.updated_at,
        name: "Shipment edited on B",
        exporter_of_record_id: contact.id,
        items: [{ product_id: product.id, quantity: 2 }],
      }),
    );
    expect(saved.name).toBe("Shipment edited on B");
    const readOnA = await itemOf<{
      name: string;
      exporter_of_record_id: number;
      items: { product_id: number }[];
    }>(await send(a.url, "GET", `/api/shipments/${draft.id}`));
    expect(readOnA).toMatchObject({ name: "Shipment edited on B", exporter_of_record_id: contact.id });
    expect(readOnA.items.map((item) => item.product_id)).toEqual([product.id]);
  });

  test("a document uploaded through one process downloads byte for byte through the other", async () => {
    const product = await itemOf<{ id: number }>(
      await send(a.url, "POST", "/api/products", buildProduct(2, { name: "With a datasheet" })),
      201,
    );
    const filler = new Uint8Array(1_300_000);
    for (let i = 0; i < filler.length; i += 65_536) crypto.getRandomValues(filler.subarray(i, i + 65_536));
    const bytes = new Uint8Array(concat(PDF, filler, new TextEncoder().encode("\n%%EOF\n")));
    const form = new FormData();
    form.append("id", String(product.id));
    form.append("documents[]", new File([bytes], "datasheet.pdf", { type: "application/pdf" }));
    const uploaded = await fetch(`${a.url}/api/products/documents`, {
      method: "POST",
      body: form,
      headers: auth,
    });
    expect(uploaded.status).toBe(200);
    const [doc] = ((await uploaded.json()) as { uploaded: { id: number; url: string }[] }).uploaded;
    const download = await fetch(`${b.url}${doc.url}`, { headers: auth });
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
    expect((await fetch(`${b.url}${doc.url}`, { method: "DELETE", headers: auth })).status).toBe(200);
    expect((await fetch(`${a.url}${doc.url}`, { headers: auth })).status).toBe(404);
  });

  test("a mixed load on both: every acknowledged write is in the database, and only those", async () => {
    const acknowledged = new Set<number>();
    const edited = new Map<number, string>();
    let refused = 0;
    const worker = async (base: string, label: string) => {
      for (let i = 0; i < 15; i++) {
        const res = await send(
          base,
          "POST",
          "/api/contacts",
          buildContact({ company: `Load ${label} ${i}` }),
        );
        if (res.status === 503) {
          refused++;
          continue;
        }
        const { id } = await itemOf<{ id: number }>(res, 201);
        acknowledged.add(id);
        if (i % 3 === 0) {
          const company = `Load ${label} ${i} edited`;
          const edit = await send(
            base === a.url ? b.url : a.url,
            "PUT",
            `/api/contacts/${id}`,
            buildContact({ company }),
          );
          if (edit.status === 200) edited.set(id, company);
          else expect(edit.status).toBe(503);
        }
        expect((await send(base, "GET", "/api/contacts?page=1")).status).toBe(200);
      }
    };
    await Promise.all([worker(a.url, "A1"), worker(a.url, "A2"), worker(b.url, "B1"), worker(b.url, "B2")]);
    const rows = query<{ id: number; company: string }>(
      "SELECT id, company FROM contacts WHERE company LIKE 'Load %'",
    );
    expect(rows.map((row) => row.id).sort((x, y) => x - y)).toEqual([...acknowledged].sort((x, y) => x - y));
    for (const row of rows) if (edited.has(row.id)) expect(row.company).toBe(edited.get(row.id) as string);
    // A refusal is allowed (a busy database answers 503), but most writes go through.
    expect(acknowledged.size).toBeGreaterThan(refused);
  }, 120_000);
});

describe.if(isBuilt)("a libSQL server that does not enforce foreign keys", () => {
  test("refuses the start with a message that names the problem", async () => {
    const file = path.join(dir, "fk-off.db");
    const fkOff = startHranaServer({ file, foreignKeys: false });
    try {
      const child = Bun.spawn([process.execPath, path.join(ROOT, "server", "main.ts"), "serve"], {
        env: {
          ...process.env,
          DATABASE_URL: fkOff.url,
          DATA_DIR: path.join(dir, "fk-off"),
          PORT: String(freePort()),
          LOG_LEVEL: "silent",
        },
        stdout: "ignore",
        stderr: "pipe",
      });
      const code = await child.exited;
      expect(code).toBe(1);
      expect(await new Response(child.stderr).text()).toContain("does not enforce foreign keys");
      // Refused before it migrated anything.
      expect(queryFile<{ n: number }>(file, "SELECT count(*) AS n FROM sqlite_master")[0].n).toBe(0);
    } finally {
      fkOff.stop();
    }
  }, 60_000);
});
