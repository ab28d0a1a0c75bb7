// npm run bench:list: the contacts list API over 50,000 contacts in one workspace, measured with wrk
// on 127.0.0.1 against a real server with a temporary DATA_DIR: default sort, a deep page sorted the
// other way, a text filter sorted by date, and a flag filter; then My Shipments over the 100,000
// shipments of a demo workspace: default sort and two filtered, sorted pages. Prints each
// figure next to its target with the server's CPU per request; asserts nothing.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import { openDatabase } from "../db/client";
import { contacts, users, workspaces } from "../db/schema";
import { DEMO_EMAIL, DEMO_PASSWORD } from "../server/features/shipments/seed-demo";
import { ROOT, startServer } from "./lib";
import { formatLoad, load, waitUntilWarm } from "./load";
import { TRADES } from "./sample-names";

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 50_000);
const SHIPMENTS = Number(process.env.BENCH_SHIPMENTS ?? 100_000);
const EMAIL = "lister@example.com";
const PASSWORD = "bench password";
const MAIN = path.join(ROOT, "server", "main.ts");

/** A small deterministic PRNG (mulberry32), so every run lists the same contacts. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] };
}

const PREFIXES = [
  "Atlas",
  "Northern",
  "Pacific",
  "Meridian",
  "Harbor",
  "Summit",
  "Golden Gate",
  "Eastwind",
  "Crescent",
  "Evergreen",
  "Ironbridge",
  "Oakmont",
  "Redstone",
  "Sunrise",
  "Delta",
  "Pioneer",
  "Horizon",
];
const FORMS = ["GmbH", "Ltd", "Inc.", "S.A.", "B.V.", "Co., Ltd.", "AB", "S.r.l.", "LLC", "Pte. Ltd."];

// BENCH_DATA_DIR: a DATA_DIR kept after the run; seeded when it has no database yet, else reused as is.
const reused = process.env.BENCH_DATA_DIR || undefined;
const dataDir = reused ?? mkdtempSync(path.join(tmpdir(), "tradewinds-bench-list-"));
const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" };
let t = performance.now();
if (!existsSync(path.join(dataDir, "app.db"))) await seedContacts();
await seedShipments();

/** The demo workspace with SHIPMENTS shipments (npm run seed-demo), unless the folder has it already. */
async function seedShipments() {
  const database = await openDatabase(`file:${path.join(dataDir, "app.db")}`);
  const [demo] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_EMAIL));
  database.close();
  if (demo) return;
  const started = performance.now();
  const seeding = Bun.spawnSync(
    [process.execPath, MAIN, "seed-demo", "--shipments", String(SHIPMENTS), "--seed", "1"],
    { env, stderr: "inherit" },
  );
  if (seeding.exitCode !== 0) {
    console.error(`seed-demo failed:\n${seeding.stdout.toString()}`);
    process.exit(1);
  }
  console.log(
    `Seeded ${SHIPMENTS.toLocaleString("en-US")} demo shipments in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * Waits until the server has screened the seeded contacts (it sweeps pending ones after start, in
 * batches). Measured during the sweep, a list pays for the screening beside it, and every batch is
 * a write that retires the kept totals: that is a start-up cost, not a list's.
 */
async function waitForScreeningSweep(timeoutMs = 600_000) {
  const database = await openDatabase(`file:${path.join(dataDir, "app.db")}`);
  const started = performance.now();
  try {
    for (;;) {
      const [{ pending }] = await database.db
        .select({ pending: count() })
        .from(contacts)
        .where(eq(contacts.screening_pending, true));
      if (pending === 0) break;
      if (performance.now() - started > timeoutMs) {
        console.log(`Screening sweep still has ${pending} contacts to go: measuring anyway.`);
        break;
      }
      await Bun.sleep(1_000);
    }
  } finally {
    database.close();
  }
  const waited = (performance.now() - started) / 1000;
  if (waited > 1)
    console.log(`Waited ${waited.toFixed(0)} s for the server's screening sweep of new contacts.`);
}

/** CPU milliseconds (user + system) a process has used so far, from /proc (Linux), or NaN. */
async function cpuMs(pid: number): Promise<number> {
  try {
    const stat = await Bun.file(`/proc/${pid}/stat`).text();
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

async function seedContacts() {
  const migrate = Bun.spawnSync([process.execPath, MAIN, "migrate"], { env, stderr: "inherit" });
  if (migrate.exitCode !== 0) {
    console.error("migrate failed");
    process.exit(1);
  }
  t = performance.now();
  const database = await openDatabase(`file:${path.join(dataDir, "app.db")}`);
  const [workspace] = await database.db.insert(workspaces).values({ name: "Bench" }).returning();
  const [user] = await database.db
    .insert(users)
    .values({
      workspace_id: workspace.id,
      title: "Mr.",
      name: "Bench",
      surname: "Lister",
      email: EMAIL,
      password_hash: await Bun.password.hash(PASSWORD, { algorithm: "argon2id" }),
    })
    .returning();
  const r = random(7);
  const day = 24 * 60 * 60 * 1000;
  await database.db.transaction(async (tx) => {
    for (let start = 0; start < CONTACTS; start += 500) {
      const batch = Array.from({ length: Math.min(500, CONTACTS - start) }, (_, j) => {
        const i = start + j;
        const isSensitive = r.next() < 0.05;
        return {
          workspace_id: workspace.id,
          user_id: user.id,
          company: `${r.pick(PREFIXES)} ${r.pick(TRADES)} ${r.pick(FORMS)}`,
          partner_type_id: 1 + Math.floor(r.next() * 7),
          tax_id: `TX${String(i).padStart(8, "0")}`,
          city: r.pick(["Hamburg", "Rotterdam", "Shenzhen", "Houston", "Santos", "Busan", "Dubai"]),
          country_id: 1 + Math.floor(r.next() * 240),
          contact_1: `Contact ${i}`,
          phone_1: `+1 555 ${String(i).padStart(7, "0")}`,
          email_1: `contact${i}@company${i % 997}.example`,
          is_sensitive: isSensitive,
          sensitive_note: isSensitive ? "Dual-use goods: end-user statement required." : "-",
          // Seven in ten contacts have shipped in the last three years.
          last_shipment_date:
            r.next() < 0.7
              ? new Date(Date.UTC(2023, 0, 1) + Math.floor(r.next() * 1095) * day).toISOString().slice(0, 10)
              : null,
        };
      });
      await tx.insert(contacts).values(batch);
    }
  });
  database.close();
  console.log(
    `Inserted ${CONTACTS.toLocaleString("en-US")} contacts in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
}

const server = await startServer({ DATA_DIR: dataDir });
const base = server.url;
try {
  const login = await fetch(`${base}/api/login`, {
    method: "POST",
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    headers: { "content-type": "application/json" },
  });
  const { token } = (await login.json()) as { token: string };
  if (!token) throw new Error(`login failed: ${login.status}`);
  await waitUntilWarm(base, token);
  await waitForScreeningSweep();
  const demoLogin = await fetch(`${base}/api/login`, {
    method: "POST",
    body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
    headers: { "content-type": "application/json" },
  });
  const demoToken = ((await demoLogin.json()) as { token: string }).token;
  if (!demoToken) throw new Error(`demo login failed: ${demoLogin.status}`);
  const duration = process.env.BENCH_SECONDS ?? "8";
  const targets: [string, string, number, string?][] = [
    ["/api/contacts?page=1", "default sort", 2_000],
    ["/api/contacts?sort_company=desc&page=200", "deep page, desc", 2_000],
    [
      "/api/contacts?filters%5Bcompany%5D=trading&sort_last_shipment_date=desc",
      "text filter + date sort",
      800,
    ],
    ["/api/contacts?filters%5Bis_sensitive%5D=1&page=50", "flag filter, page 50", 2_000],
    // My Shipments over 100,000 shipments (the demo workspace).
    ["/api/shipments?page=1", "shipments, default sort", 400, demoToken],
    [
      "/api/shipments?filters%5Bship_date%5D=2026-01-01..2026-03-31&sort_shipper_reference_number=asc&page=3",
      "shipments, date range + sort",
      200,
      demoToken,
    ],
    [
      "/api/shipments?filters%5Bstatus%5D=in%20transit&sort_ship_date=desc",
      "shipments, status + date sort",
      200,
      demoToken,
    ],
  ];
  console.log("Shared 2-core machine: figures are noisy, run more than once.");
  let tool = "";
  t = performance.now();
  for (const [target, label, goal, bearer = token] of targets) {
    // One plain request first: a wrong query would otherwise be measured as a fast 422.
    const res = await fetch(`${base}${target}`, { headers: { authorization: `Bearer ${bearer}` } });
    const body = (await res.json()) as { total?: number; data?: unknown[] };
    if (!res.ok || !body.data?.length) {
      console.error(`✖ ${target}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      continue;
    }
    const cpuBefore = await cpuMs(server.pid);
    const result = await load(`${base}${target}`, {
      headers: { authorization: `Bearer ${bearer}` },
      seconds: Number(duration),
    });
    // Server CPU per request barely depends on what else the machine runs; 1000 / it is what one
    // idle core could serve.
    const perRequest = ((await cpuMs(server.pid)) - cpuBefore) / (result.rps * Number(duration));
    tool = result.tool;
    console.log(
      formatLoad(
        label,
        result,
        goal,
        `  (${body.total} matches, server CPU ${perRequest.toFixed(2)} ms/req)`,
      ),
    );
  }
  // A yardstick from the same run: authentication and the HTTP stack alone, no list. What a list
  // request costs beyond it is the list's own work.
  const cpuBefore = await cpuMs(server.pid);
  const yardstick = await load(`${base}/api/user`, {
    headers: { authorization: `Bearer ${token}` },
    seconds: Number(duration),
  });
  const perRequest = ((await cpuMs(server.pid)) - cpuBefore) / (yardstick.rps * Number(duration));
  console.log(
    formatLoad(
      "yardstick: GET /api/user",
      yardstick,
      undefined,
      `  (server CPU ${perRequest.toFixed(2)} ms/req)`,
    ),
  );
  console.log(`load from: ${tool}`);
} finally {
  await server.stop();
  if (!reused) rmSync(dataDir, { recursive: true, force: true });
}
