// npm run bench:reports-pivot -- --data-dir DIR [--lines 1000000] [--users 3] [--runs 3]
//
// The server pivot on its own, with no browser sharing the machine: several Perspective clients
// (the viewer's side of the protocol, under Bun) open a workspace's report at once on a server that
// has just started (its pivot worker starts and loads the lines), then again with the lines
// loaded, then re-pivot. /api/health is polled throughout; the server's RSS growth and CPU time
// (all its threads, from /proc) are reported, CPU time being the figure a noisy machine moves least.
import { readFileSync } from "node:fs";
import path from "node:path";
import * as perspective from "@perspective-dev/client/node";
import { seedReportWorkspace, startServer } from "./lib";

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const dataDirArg = arg("data-dir");
if (!dataDirArg) {
  console.error("Usage: npm run bench:reports-pivot -- --data-dir DIR [--lines N] [--users N] [--runs N]");
  process.exit(2);
}
const dataDir = path.resolve(dataDirArg);
const lines = Number(arg("lines") ?? 1_000_000);
const users = Number(arg("users") ?? 3);
const runs = Number(arg("runs") ?? 3);
const TICKS = 100;

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
/** The process's CPU seconds, user + system, over all its threads. */
const cpuSeconds = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
};
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const s = (seconds: number) => `${seconds.toFixed(2)} s`;

const BY_DESTINATION = {
  group_by: ["Destination country"],
  split_by: ["Status"],
  columns: ["Extended value (USD)"],
  aggregates: { "Extended value (USD)": "sum" },
};
const BY_CARRIER = {
  group_by: ["Carrier"],
  split_by: ["Ship year"],
  columns: ["Quantity"],
  aggregates: { Quantity: "sum" },
};

/** A Perspective client over the pivot socket, as the viewer opens it. */
async function connect(url: string, token: string) {
  const socket = new WebSocket(`${url.replace(/^http/, "ws")}/api/reports/pivot`, {
    headers: { cookie: `twsession=${token}`, origin: url },
  } as never);
  socket.binaryType = "arraybuffer";
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve());
    socket.addEventListener("error", () => reject(new Error("the pivot socket did not open")));
  });
  const client = perspective.make_client(async (bytes: Uint8Array) =>
    socket.send(bytes as Uint8Array<ArrayBuffer>),
  );
  socket.addEventListener("message", (event) => {
    void client.handle_response(new Uint8Array(event.data as ArrayBuffer));
  });
  return { client, close: () => socket.close() };
}

/** Seconds until one client has the first screen of a view: the table opened, the view made, 60 rows read. */
async function firstScreen(url: string, token: string, config: object) {
  const started = performance.now();
  const { client, close } = await connect(url, token);
  const table = await client.open_table("report_lines");
  const view = await table.view(config as never);
  await view.to_columns({ end_row: 60 } as never);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, table, close };
}

/** Polls /api/health every 50 ms until stopped: the answers' times in ms. */
function pollHealth(url: string) {
  const times: number[] = [];
  let isPolling = true;
  const done = (async () => {
    while (isPolling) {
      const started = performance.now();
      await fetch(`${url}/api/health`).then((r) => r.arrayBuffer());
      times.push(performance.now() - started);
      await Bun.sleep(50);
    }
  })();
  return {
    stop: async () => {
      isPolling = false;
      await done;
      return times;
    },
  };
}

const seedServer = await startServer({
  DATA_DIR: dataDir,
  LOG_LEVEL: "warn",
  REPORTS_SERVER_PIVOT_LINES: "0",
});
const { token, total } = await seedReportWorkspace(seedServer.url, dataDir, lines, true);
await seedServer.stop();
console.log(
  `${total.toLocaleString("en-US")} lines, ${users} clients at once, ${runs} servers started afresh (no browser on the machine)`,
);

const cold: number[] = [];
const warm: number[] = [];
const repivots: number[] = [];
const healthWorst: number[] = [];
const healthAll: number[] = [];
const growth: number[] = [];
const loadCpu: number[] = [];
for (let run = 0; run < runs; run++) {
  const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn", REPORTS_SERVER_PIVOT_LINES: "0" });
  try {
    await Bun.sleep(500);
    const rssBefore = rssMb(server.pid);
    const cpuBefore = cpuSeconds(server.pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssMb(server.pid));
    }, 20);
    const health = pollHealth(server.url);
    // On a server just started: the pivot worker starts and loads the lines once for everyone.
    const opened = await Promise.all(
      Array.from({ length: users }, () => firstScreen(server.url, token, BY_DESTINATION)),
    );
    const cpuAfterLoad = cpuSeconds(server.pid);
    cold.push(...opened.map((o) => o.seconds));
    // With the lines loaded: new connections, and a re-pivot on each.
    const again = await Promise.all(
      Array.from({ length: users }, () => firstScreen(server.url, token, BY_DESTINATION)),
    );
    warm.push(...again.map((o) => o.seconds));
    for (const o of again) {
      const started = performance.now();
      const next = await o.table.view(BY_CARRIER as never);
      await next.to_columns({ end_row: 60 } as never);
      repivots.push((performance.now() - started) / 1000);
    }
    const times = await health.stop();
    clearInterval(sampler);
    for (const o of [...opened, ...again]) o.close();
    healthWorst.push(Math.max(...times));
    healthAll.push(...times);
    growth.push(rssPeak - rssBefore);
    loadCpu.push(cpuAfterLoad - cpuBefore);
    console.log(
      `  run ${run + 1}: first screen on a fresh server ${opened.map((o) => s(o.seconds)).join(", ")}; loaded ${again.map((o) => s(o.seconds)).join(", ")}; /api/health worst ${Math.max(...times).toFixed(0)} ms of ${times.length}; RSS +${(rssPeak - rssBefore).toFixed(0)} MB; server CPU for the first screens ${(cpuAfterLoad - cpuBefore).toFixed(2)} s`,
    );
  } finally {
    await server.stop();
  }
}
console.log(
  `first screen on a fresh server (worker start + load + view): median ${s(median(cold))} (target < 4 s)${median(cold) < 4 ? " ✓" : " ✗"}`,
);
console.log(
  `first screen with the lines loaded: median ${s(median(warm))}; re-pivot median ${s(median(repivots))} (target < 0.8 s)`,
);
console.log(
  `/api/health: median ${median(healthAll).toFixed(0)} ms, worst per run ${healthWorst.map((t) => t.toFixed(0)).join(", ")} ms (target < 100 ms)${Math.max(...healthWorst) < 100 ? " ✓" : " ✗"}`,
);
console.log(
  `server RSS growth: ${growth.map((g) => g.toFixed(0)).join(", ")} MB (target < 300 MB)${Math.max(...growth) < 300 ? " ✓" : " ✗"}; server CPU until the first screens: median ${median(loadCpu).toFixed(2)} s`,
);
console.log(`load average: ${readFileSync("/proc/loadavg", "utf8").trim()}`);
process.exit(0);
