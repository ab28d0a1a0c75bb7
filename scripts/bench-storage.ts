// npm run bench:storage: a 25 MB upload stored and downloaded through the upload storage, four
// ways: files on the local disk (what earlier versions did), and chunked blobs in the database
// embedded (file:) and over a libSQL server (the Hrana test server on 127.0.0.1, a stand-in for
// sqld), the latter two at several chunk sizes. Prints the median wall time of a store and of a
// streamed download over RUNS runs, and the CPU time this process spent (over the test server it
// includes the server's share: both run here). Figures are noisy on a shared 2-core machine:
// compare the rows of one run, not against constants.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "../db/client";
import { migrateDatabase } from "../db/migrate";
import { CHUNK_BYTES, databaseStorage, localDiskStorage, type TStorage } from "../server/lib/storage";
import { startHranaServer } from "../server/test/hrana-server";
import { ROOT } from "./lib";

const SIZE = 25 * 1024 * 1024;
const RUNS = Number(process.env.RUNS ?? 5);
const MIGRATIONS = path.join(ROOT, "db", "migrations");
const dir = mkdtempSync(path.join(tmpdir(), "tradewinds-bench-storage-"));

const bytes = new Uint8Array(SIZE);
for (let i = 0; i < SIZE; i += 65_536) crypto.getRandomValues(bytes.subarray(i, i + 65_536));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function measure(name: string, storage: TStorage) {
  const puts: number[] = [];
  const gets: number[] = [];
  const cpuBefore = cpuMs();
  for (let run = 0; run < RUNS; run++) {
    const key = `documents/bench${run}`;
    let started = performance.now();
    await storage.put(key, bytes);
    puts.push(performance.now() - started);
    started = performance.now();
    const file = await storage.get(key);
    let received = 0;
    for await (const part of file?.stream() ?? []) received += part.length;
    gets.push(performance.now() - started);
    if (received !== SIZE) throw new Error(`${name}: downloaded ${received} of ${SIZE} bytes`);
    await storage.delete(key);
  }
  const cpuPerRun = (cpuMs() - cpuBefore) / RUNS;
  console.log(
    `${name.padEnd(38)} store ${median(puts).toFixed(0).padStart(5)} ms   download ${median(gets).toFixed(0).padStart(5)} ms   CPU ${cpuPerRun.toFixed(0).padStart(5)} ms per store+download`,
  );
}

console.log(`25 MB file, median of ${RUNS} runs (default chunk: ${CHUNK_BYTES / 1024} KiB)\n`);
try {
  await measure("local disk (DATA_DIR/uploads)", localDiskStorage(path.join(dir, "uploads")));
  const embedded = await openDatabase(`file:${path.join(dir, "embedded.db")}`);
  await migrateDatabase(embedded.db, MIGRATIONS);
  const server = startHranaServer({ file: path.join(dir, "server.db") });
  const remote = await openDatabase(server.url);
  await migrateDatabase(remote.db, MIGRATIONS);
  for (const chunkKib of [256, 512, 1024]) {
    await measure(
      `database, embedded, ${chunkKib} KiB chunks`,
      databaseStorage(embedded.client, { chunkBytes: chunkKib * 1024 }),
    );
  }
  for (const chunkKib of [256, 512, 1024]) {
    await measure(
      `database, test server, ${chunkKib} KiB chunks`,
      databaseStorage(remote.client, { chunkBytes: chunkKib * 1024 }),
    );
  }
  embedded.close();
  remote.close();
  server.stop();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
