// npm run bench:paperwork: (1) a 100-line commercial invoice drawn in-process, 50 runs with the fonts
// already loaded (p50/p95 wall and CPU time, PDF size), Latin parties and then Arabic, Chinese and
// Latin ones; (2) against a real server on 127.0.0.1 with a temporary DATA_DIR, /api/health's latency
// alone and while 10 generations of that mixed-script invoice run at once (the server draws in its
// worker behind the paperwork limiter), with the server's CPU time over the run. Each part prints the
// load average when it ran. Prints figures next to their targets; asserts nothing. The machine may be
// shared: read wall times beside the CPU times and the load average.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { renderPaperwork } from "../server/features/paperwork/paperwork.render";
import { paperModel, paperParty } from "../server/features/paperwork/test-model";
import { ensureClientBuild, ROOT, startServer } from "./lib";

const RUNS = 50;
const LINES = 100;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (v: number) => `${v.toFixed(1)} ms`;
const line = (label: string, value: string, target: string) =>
  console.log(`${label.padEnd(60)} ${value.padStart(12)}   target ${target}`);
const load = () =>
  `load average ${loadavg()
    .map((v) => v.toFixed(2))
    .join(" ")} on ${navigator.hardwareConcurrency} cores`;
/** CPU seconds (user + system, every thread) a process has used so far, from /proc; NaN elsewhere. */
const processCpuMs = (pid: number) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime are fields 14 and 15 (1-based) of the whole line, in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
};

// 1. In-process rendering.
const model = paperModel({}, LINES);
for (let i = 0; i < 3; i++) await renderPaperwork("commercial_invoice", model); // fonts loaded + JIT warm
const wall: number[] = [];
const cpu: number[] = [];
let size = 0;
for (let i = 0; i < RUNS; i++) {
  const usage = process.cpuUsage();
  const started = performance.now();
  const bytes = await renderPaperwork("commercial_invoice", model);
  wall.push(performance.now() - started);
  const used = process.cpuUsage(usage);
  cpu.push((used.user + used.system) / 1000);
  size = bytes.length;
}
console.log(
  `Paperwork: ${LINES}-line commercial invoice, ${RUNS} runs, fonts loaded (in-process); ${load()}`,
);
line("  render p50 (wall)", ms(percentile(wall, 50)), "");
line("  render p95 (wall)", ms(percentile(wall, 95)), "< 150 ms");
line("  render p50 (CPU, all threads incl. GC)", ms(percentile(cpu, 50)), "");
line("  render p95 (CPU, all threads incl. GC)", ms(percentile(cpu, 95)), "(wall on an idle machine)");
line("  PDF size", `${(size / 1024).toFixed(0)} KB`, "< 300 KB");

// 1b. The same invoice with Arabic, Chinese and Latin parties and Arabic/Devanagari item text: shaped
// (HarfBuzz), reordered (bidi) and drawn as outlines, plus the invisible text layer.
const mixed = paperModel(
  {
    exporter: paperParty({ company: "Acme Export Inc.", city: "Long Beach" }),
    importer: paperParty({
      company: "شركة الخليج للتجارة ذ.م.م",
      street: "شارع الملك فهد 12",
      city: "الرياض",
      country: "Saudi Arabia",
    }),
    consignee: paperParty({ company: "北京进出口有限公司", city: "北京", country: "China" }),
  },
  LINES,
);
mixed.lines = mixed.lines.map((l, i) =>
  i % 10 === 0 ? { ...l, description: i % 20 === 0 ? "مضخة مياه صناعية" : "औद्योगिक जल पंप" } : l,
);
for (let i = 0; i < 3; i++) await renderPaperwork("commercial_invoice", mixed);
const mixedWall: number[] = [];
const mixedCpu: number[] = [];
let mixedSize = 0;
for (let i = 0; i < RUNS; i++) {
  const usage = process.cpuUsage();
  const started = performance.now();
  const bytes = await renderPaperwork("commercial_invoice", mixed);
  mixedWall.push(performance.now() - started);
  const used = process.cpuUsage(usage);
  mixedCpu.push((used.user + used.system) / 1000);
  mixedSize = bytes.length;
}
console.log(
  `Paperwork: the same invoice, Arabic + Chinese + Latin parties, 10 Arabic/Devanagari lines; ${load()}`,
);
line("  render p50 (wall)", ms(percentile(mixedWall, 50)), "");
line("  render p95 (wall)", ms(percentile(mixedWall, 95)), "< 250 ms");
line("  render p50 (CPU, all threads incl. GC)", ms(percentile(mixedCpu, 50)), "");
line("  render p95 (CPU, all threads incl. GC)", ms(percentile(mixedCpu, 95)), "(wall on an idle machine)");
line("  PDF size", `${(mixedSize / 1024).toFixed(0)} KB`, "");

// 2. Through the server: list latency while 10 generations run.
await ensureClientBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-bench-paperwork-"));
// Migrate and seed first (no time limit), so the server's start fits its health-check window on a busy machine.
const migrate = Bun.spawnSync([process.execPath, path.join(ROOT, "server", "main.ts"), "migrate"], {
  env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent" },
  stderr: "inherit",
});
if (migrate.exitCode !== 0) throw new Error("migrate failed");
const server = await startServer({ DATA_DIR: dataDir, AUTH_RATE_LIMIT: "10000" });
try {
  const base = server.url;
  const headers: Record<string, string> = { "content-type": "application/json", origin: base };
  const post = async (p: string, body: unknown, method = "POST") => {
    const res = await fetch(`${base}${p}`, { method, headers, body: JSON.stringify(body) });
    if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const email = `bench-${Date.now()}@example.com`;
  await post("/api/register", {
    title: "Mr.",
    name: "Bench",
    surname: "Paper",
    email,
    password: "bench password 1",
  });
  const login = await post("/api/login", { email, password: "bench password 1", rememberMe: true });
  headers.authorization = `Bearer ${login.token}`;
  const contact = async (company: string, country_id: number, extra: Record<string, string> = {}) =>
    (
      (await post("/api/contacts", {
        ...extra,
        company,
        partner_type_id: 1,
        tax_id: "T-1",
        contact_1: "Dana",
        phone_1: "+1 555 0100",
        email_1: "dana@example.com",
        country_id,
      })) as { item: { id: number } }
    ).item.id;
  // The mixed-script parties of part 1b: Latin exporter, Arabic importer, Chinese consignee.
  const exporter = await contact("Acme Export Inc.", 236);
  const importer = await contact("شركة الخليج للتجارة ذ.م.م", 195, {
    street: "شارع الملك فهد 12",
    city: "الرياض",
  });
  const consignee = await contact("北京进出口有限公司", 47, { city: "北京" });
  const items: { product_id: number; quantity: number }[] = [];
  for (let i = 1; i <= LINES; i++) {
    const product = (await post("/api/products", {
      name: `Widget ${i}`,
      description: `Precision widget, model ${i}`,
      product_number: `P-${i}`,
      country_of_origin_id: 236,
      US_ECCN: "EAR99",
      HTS: "8471.30.0100",
      unit_value: "10.10",
      net_weight: "0.25",
    })) as { item: { id: number } };
    items.push({ product_id: product.item.id, quantity: 3 });
  }
  const draft = (await post("/api/shipments", {})) as { item: Record<string, unknown> & { id: number } };
  const { items: _i, packages: _p, ...fields } = draft.item;
  await post(
    `/api/shipments/${draft.item.id}`,
    {
      ...fields,
      name: "Bench shipment",
      exporter_of_record_id: exporter,
      importer_of_record_id: importer,
      ultimate_consignee_id: consignee,
      // Over $2,500 to Saudi Arabia: the EEI is filed and its ITN printed.
      aes_citation: "X20261120123456",
      ship_date: "2026-11-20",
      currency_id: 1,
      incoterm_id: 5,
      items,
      packages: [
        {
          package_id: 1,
          quantity: 2,
          net_weight: "2",
          gross_weight: "2.5",
          length: "12",
          width: "10",
          height: "8",
        },
      ],
    },
    "PUT",
  );
  const healthOnce = async () => {
    const started = performance.now();
    const res = await fetch(`${base}/api/health`);
    await res.arrayBuffer();
    return performance.now() - started;
  };
  for (let i = 0; i < 20; i++) await healthOnce();
  const idleLoad = load();
  const idle: number[] = [];
  for (let i = 0; i < 100; i++) idle.push(await healthOnce());

  // Warm the server's worker (font parse) once, then 10 generations at once.
  const generate = () =>
    post(`/api/paperwork/shipments/${draft.item.id}/generate`, { types: ["commercial_invoice"] });
  await generate();
  const busy: number[] = [];
  let isGenerating = true;
  const cpuBefore = processCpuMs(server.pid);
  const started = performance.now();
  const generations = Promise.all(Array.from({ length: 10 }, generate)).finally(() => {
    isGenerating = false;
  });
  while (isGenerating) busy.push(await healthOnce());
  await generations;
  const total = performance.now() - started;
  const serverCpu = processCpuMs(server.pid) - cpuBefore;
  const busyLoad = load();
  console.log("Paperwork: /api/health while generating (real server, 127.0.0.1)");
  console.log(`  idle: ${idleLoad}`);
  line("  health p50, idle (100 requests)", ms(percentile(idle, 50)), "");
  line("  health p95, idle (100 requests)", ms(percentile(idle, 95)), "");
  console.log(`  during the generations: ${busyLoad}`);
  line(
    `  health p50 during 10 concurrent generations (${busy.length} requests)`,
    ms(percentile(busy, 50)),
    "",
  );
  line(
    `  health p95 during 10 concurrent generations (${busy.length} requests)`,
    ms(percentile(busy, 95)),
    "< 100 ms",
  );
  line("  health max during generations", ms(Math.max(...busy)), "");
  line("  10 generations (mixed scripts, 100 lines), wall time", ms(total), "");
  line("  10 generations, server CPU (all threads)", ms(serverCpu), "");
  line("  server CPU per generation", ms(serverCpu / 10), "");
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
