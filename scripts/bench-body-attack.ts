// npm run bench:body-attack: eight concurrent 120 MB POSTs to /api/login (no login needed) against a
// real server on 127.0.0.1, with and without Content-Length, while the server's RSS is sampled.
// Target: RSS stays near idle (it went from 287 MB to 1.6 GB before the body limits)
// and every answer is a JSON 413. Figures are noisy on a shared machine.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureClientBuild, startServer } from "./lib";

const SIZE = 120 * 1024 * 1024;
const CONCURRENT = 8;

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/);
  return line ? Math.round(Number(line[1]) / 1024) : Number.NaN;
};

await ensureClientBuild();
const dataDir = mkdtempSync(path.join(tmpdir(), "tradewinds-body-attack-"));
const server = await startServer({ DATA_DIR: dataDir });
try {
  await Bun.sleep(2000);
  const idle = rssMb(server.pid);
  const payload = new Uint8Array(SIZE).fill(0x61);
  for (const variant of ["with Content-Length", "chunked (no Content-Length)"] as const) {
    let peak = rssMb(server.pid);
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid));
    }, 25);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        const body =
          variant === "with Content-Length"
            ? payload
            : new ReadableStream({
                start(controller) {
                  for (let at = 0; at < SIZE; at += 1024 * 1024)
                    controller.enqueue(payload.subarray(at, at + 1024 * 1024));
                  controller.close();
                },
              });
        try {
          const res = await fetch(`${server.url}/api/login`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
            // @ts-expect-error streamed request bodies need duplex in fetch
            duplex: "half",
          });
          return `${res.status} ${(await res.text()).slice(0, 60)}`;
        } catch (error) {
          return `connection closed (${String(error).slice(0, 40)})`;
        }
      }),
    );
    clearInterval(sampler);
    const ms = Math.round(performance.now() - started);
    console.log(`${CONCURRENT} × 120 MB POST /api/login, ${variant}: ${ms} ms`);
    console.log(`  answers: ${[...new Set(answers)].join(" | ")}`);
    console.log(
      `  server RSS: idle ${idle} MB, peak ${peak} MB, after ${rssMb(server.pid)} MB (target: near idle, was 1.6 GB)`,
    );
  }
  const health = await fetch(`${server.url}/api/health`);
  console.log(`/api/health afterwards: ${health.status}`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
