// npm run bench:hardening: the hardening review's attacks on the newer routes against a real server
// on 127.0.0.1 (a demo workspace seeded first), each while /api/health is polled every 20 ms and the
// server's RSS sampled every 25 ms (the uploads last: the memory they take is not all given back). Prints per attack the worst health latency, the peak RSS, the
// answers' statuses and the largest answer. BENCH_ROOT runs another checkout's server (a "before"
// figure: an unpacked earlier commit with this checkout's node_modules and dist linked in).
// Figures are noisy on a shared 2-core machine: compare runs side by side, not against constants.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureClientBuild, freePort, pollHealth, ROOT, waitForHealth } from "./lib";

/** BENCH_ONLY=<regex>: only the attacks whose name matches. */
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, "i") : null;
const root = process.env.BENCH_ROOT ? path.resolve(process.env.BENCH_ROOT) : ROOT;
const EMAIL = "bench.hardening@example.com";
const PASSWORD = "bench hardening password";

const rssMb = (pid: number) => {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/);
    return line ? Math.round(Number(line[1]) / 1024) : 0;
  } catch {
    return 0;
  }
};

await ensureClientBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-bench-hardening-"));
const env = { ...process.env, NODE_ENV: "production", LOG_LEVEL: "silent", DATA_DIR: dataDir };
const seed = Bun.spawnSync(
  [
    process.execPath,
    path.join(root, "server", "main.ts"),
    "seed-demo",
    "--shipments",
    "3000",
    "--email",
    EMAIL,
    "--password",
    PASSWORD,
  ],
  { cwd: root, env, stdout: "ignore", stderr: "inherit" },
);
if (seed.exitCode !== 0) throw new Error("seed-demo failed");
const port = freePort();
const url = `http://127.0.0.1:${port}`;
const proc = Bun.spawn([process.execPath, path.join(root, "server", "main.ts"), "serve"], {
  cwd: root,
  env: { ...env, APP_URL: url, PORT: String(port), AUTH_RATE_LIMIT: "10000" },
  stdio: ["ignore", "ignore", "inherit"],
});

type TResult = {
  attack: string;
  worstHealthMs: number;
  peakRssMb: number;
  statuses: string;
  largestAnswer: number;
  ms: number;
};
const results: TResult[] = [];

try {
  await waitForHealth(url, 180_000, true);
  const login = await fetch(`${url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  const list = (await (await fetch(`${url}/api/shipments?per_page=40`, { headers: auth })).json()) as {
    data: { id: number; updated_at: string }[];
  };
  const shipments = list.data;
  const shipment = async (i: number) =>
    (
      (await (await fetch(`${url}/api/shipments/${shipments[i].id}`, { headers: auth })).json()) as {
        item: { id: number; updated_at: string };
      }
    ).item;

  /** Runs the attack's requests while health is polled and RSS sampled. */
  async function attack(name: string, requests: () => Promise<Response>[]) {
    if (only && !only.test(name)) return;
    await Bun.sleep(500);
    let peak = rssMb(proc.pid);
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(proc.pid));
    }, 25);
    const health = pollHealth(url);
    const started = performance.now();
    const answers = await Promise.all(
      requests().map(async (pending) => {
        try {
          const res = await pending;
          return { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
        } catch {
          return { status: 0, bytes: 0 };
        }
      }),
    );
    const ms = performance.now() - started;
    const worst = health.takeWorst();
    await health.stop();
    clearInterval(sampler);
    const counts = new Map<number, number>();
    for (const a of answers) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
    const result = {
      attack: name,
      worstHealthMs: Math.round(worst),
      peakRssMb: peak,
      statuses: [...counts].map(([s, n]) => `${s}×${n}`).join(" "),
      largestAnswer: Math.max(...answers.map((a) => a.bytes)),
      ms: Math.round(ms),
    };
    results.push(result);
    console.log(JSON.stringify(result));
  }

  const encoder = new TextEncoder();
  const multipart = (files: number, bytes: Uint8Array) => {
    const boundary = "benchBoundary";
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < files; i++) {
      chunks.push(
        encoder.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="documents[]"; filename="f${i}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        bytes,
        encoder.encode("\r\n"),
      );
    }
    chunks.push(encoder.encode(`--${boundary}--\r\n`));
    return { body: new Uint8Array(Buffer.concat(chunks)), type: `multipart/form-data; boundary=${boundary}` };
  };

  const tiny = multipart(3200, encoder.encode(`%PDF-1.4\n${"x".repeat(112)}`));
  await attack("custom-docs: 3,200 files of 121 bytes", () => [
    fetch(`${url}/api/shipments/custom-docs/${shipments[0].id}`, {
      method: "POST",
      headers: { ...auth, "content-type": tiny.type },
      body: tiny.body,
    }),
  ]);

  const target = await shipment(1);
  await attack("PUT shipment: generate_documents of 240,000 strings", () => [
    fetch(`${url}/api/shipments/${target.id}`, {
      method: "PUT",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ updated_at: target.updated_at, generate_documents: Array(240_000).fill("x") }),
    }),
  ]);
  await attack("paperwork generate: 240,000 types", () => [
    fetch(`${url}/api/paperwork/shipments/${target.id}/generate`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ types: Array(240_000).fill("x") }),
    }),
  ]);
  await attack("PUT shipment: 60,000 items", () => [
    fetch(`${url}/api/shipments/${target.id}`, {
      method: "PUT",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ updated_at: target.updated_at, items: Array(60_000).fill({}) }),
    }),
  ]);

  await attack("3 concurrent Arrow exports", () =>
    Array.from({ length: 3 }, () => fetch(`${url}/api/reports-data?format=arrow`, { headers: auth })),
  );
  await attack("30 concurrent paperwork generations", () =>
    Array.from({ length: 30 }, (_, i) =>
      fetch(`${url}/api/paperwork/shipments/${shipments[i % shipments.length].id}/generate`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ types: ["commercial_invoice", "packing_list"] }),
      }),
    ),
  );

  await attack("home: 5,000 requests with a junk parameter (10 at a time)", () => {
    let next = 0;
    const worker = async () => {
      let last = new Response();
      while (next < 5000) {
        const i = next++;
        last = await fetch(`${url}/api/home/most-recent-shipments?filter=all&junk${i}=${"x".repeat(1000)}`, {
          headers: auth,
        });
        await last.arrayBuffer();
      }
      return new Response(null, { status: last.status });
    };
    return Array.from({ length: 10 }, worker);
  });
  const maxFile = new Uint8Array(25 * 1024 * 1024 - 1024);
  maxFile.set(encoder.encode("%PDF-1.4\n"));
  // Product documents: the same upload path before and after the custom-docs route joined it.
  const products = (
    (await (await fetch(`${url}/api/products?per_page=10`, { headers: auth })).json()) as {
      data: { id: number }[];
    }
  ).data;
  // Sent by curl, one process per upload: a fetch of 250 MB from this process would hold this
  // process's own loop, and with it the health poll, whatever the server does.
  const bodyFile = path.join(dataDir, "upload-file.pdf");
  await Bun.write(bodyFile, maxFile);
  await attack("4 concurrent maximum-size uploads (10 × 25 MB each)", () =>
    Array.from({ length: 4 }, async (_, i) => {
      const curl = Bun.spawn(
        [
          "curl",
          "-s",
          "-o",
          "/dev/null",
          "-w",
          "%{http_code}",
          "-H",
          `authorization: ${auth.authorization}`,
          "-F",
          `id=${products[i].id}`,
          ...Array.from({ length: 10 }, (_, f) => [
            "-F",
            `documents[]=@${bodyFile};filename=f${f}.pdf;type=application/pdf`,
          ]).flat(),
          `${url}/api/products/documents`,
        ],
        { stdout: "pipe", stderr: "ignore" },
      );
      const status = Number((await new Response(curl.stdout).text()).trim()) || 599;
      return new Response(null, { status });
    }),
  );
} finally {
  proc.kill("SIGTERM");
  await proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`\nserver: ${root}`);
console.table(results);
