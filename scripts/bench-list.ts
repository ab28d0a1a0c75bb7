// npm run bench:list: the contacts list API over 50,000 contacts in one workspace, measured with wrk
// on 127.0.0.1 against a real server with a temporary DATA_DIR: default sort, a deep page sorted the
// other way, a text filter sorted by date, and a flag filter. Prints figures; asserts nothing.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "../db/client";
import { contacts, users, workspaces } from "../db/schema";
import { ROOT, startServer } from "./lib";
import { formatLoad, load, waitUntilWarm } from "./load";
import { TRADES } from "./sample-names";

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 50_000);
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
  const duration = process.env.BENCH_SECONDS ?? "8";
  const targets: [string, string, number][] = [
    ["/api/contacts?page=1", "default sort", 2_000],
    ["/api/contacts?sort_company=desc&page=200", "deep page, desc", 2_000],
    [
      "/api/contacts?filters%5Bcompany%5D=trading&sort_last_shipment_date=desc",
      "text filter + date sort",
      800,
    ],
    ["/api/contacts?filters%5Bis_sensitive%5D=1&page=50", "flag filter, page 50", 2_000],
  ];
  console.log("Shared 2-core machine: figures are noisy, run more than once.");
  let tool = "";
  t = performance.now();
  for (const [target, label, goal] of targets) {
    // One plain request first: a wrong query would otherwise be measured as a fast 422.
    const res = await fetch(`${base}${target}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { total?: number; data?: unknown[] };
    if (!res.ok || !body.data?.length) {
      console.error(`✖ ${target}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      continue;
    }
    const result = await load(`${base}${target}`, {
      headers: { authorization: `Bearer ${token}` },
      seconds: Number(duration),
    });
    tool = result.tool;
    console.log(formatLoad(label, result, goal, `  (${body.total} matches)`));
  }
  console.log(`load from: ${tool}`);
  // TODO(shipments): a shipments run (100,000 rows) once a shipments list route is on main.
  console.log("shipments list: not measured yet (no shipments list route on this branch)");
} finally {
  await server.stop();
  if (!reused) rmSync(dataDir, { recursive: true, force: true });
}
