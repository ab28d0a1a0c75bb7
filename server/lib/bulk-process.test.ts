import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BULK_JIT, BULK_NO_HEAP_WARM_UP, KEEP_FREED_MEMORY, runInBulkChild } from "./bulk-process";

const dir = mkdtempSync(path.join(tmpdir(), "tradewinds-bulk-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A program shaped like server/main.ts: a bulk command runs again in a child; the child says what
// its allocator setting is and, for "sleep", waits long enough to be killed.
const program = path.join(dir, "program.ts");
writeFileSync(
  program,
  `import { runInBulkChild } from ${JSON.stringify(path.join(import.meta.dir, "bulk-process.ts"))};
const inChild = runInBulkChild([process.execPath, ${JSON.stringify(program)}], process.argv.slice(2));
if (inChild) process.exit(await inChild);
console.log(JSON.stringify({ pid: process.pid, purge: process.env.${KEEP_FREED_MEMORY.name} ?? null, jit: process.env.${BULK_JIT.name} ?? null, warmUp: process.env.${BULK_NO_HEAP_WARM_UP.name} ?? null }));
if (process.argv[3] === "sleep") await Bun.sleep(20_000);
// A main thread busy for 20 s without a pause, as inside a big import's transaction.
if (process.argv[3] === "busy") { const until = Date.now() + 20_000; while (Date.now() < until) {} }
process.exit(Number(process.argv[3] ?? 0) || 0);
`,
);

const env = () => {
  const copy = { ...process.env };
  delete copy[KEEP_FREED_MEMORY.name];
  delete copy[BULK_JIT.name];
  delete copy[BULK_NO_HEAP_WARM_UP.name];
  delete copy.TRADEWINDS_BULK_CHILD;
  return copy;
};

/** Whether the process runs (a zombie waiting for init to reap it has ended: it holds nothing). */
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
};

describe("bulk commands run in a child that keeps freed memory", () => {
  test("a bulk command runs in a child with the allocator setting, and its exit code is the command's", () => {
    const run = Bun.spawnSync([process.execPath, program, "import-contacts", "3"], { env: env() });
    const said = JSON.parse(run.stdout.toString()) as {
      pid: number;
      purge: string | null;
      jit: string;
      warmUp: string;
    };
    expect(said.purge).toBe(KEEP_FREED_MEMORY.value);
    expect(said.jit).toBe(BULK_JIT.value);
    expect(said.warmUp).toBe(BULK_NO_HEAP_WARM_UP.value);
    // The operator's own compiler and heap settings are kept.
    const theirs = Bun.spawnSync([process.execPath, program, "import-contacts"], {
      env: { ...env(), [BULK_JIT.name]: "200000", [BULK_NO_HEAP_WARM_UP.name]: "1" },
    });
    expect(JSON.parse(theirs.stdout.toString())).toMatchObject({
      purge: KEEP_FREED_MEMORY.value,
      jit: "200000",
      warmUp: "1",
    });
    expect(said.pid).not.toBe(run.pid);
    expect(run.exitCode).toBe(3);
  });

  test("other commands, and a setting given by the operator, run in this process", () => {
    const serve = Bun.spawnSync([process.execPath, program, "serve"], { env: env() });
    const served = JSON.parse(serve.stdout.toString()) as {
      pid: number;
      purge: string | null;
      jit: string | null;
      warmUp: string | null;
    };
    expect(served).toEqual({ pid: serve.pid, purge: null, jit: null, warmUp: null });
    const given = Bun.spawnSync([process.execPath, program, "seed-demo"], {
      env: { ...env(), [KEEP_FREED_MEMORY.name]: "10" },
    });
    expect(JSON.parse(given.stdout.toString())).toEqual({
      pid: given.pid,
      purge: "10",
      jit: null,
      warmUp: null,
    });
    expect(runInBulkChild([process.execPath, program], ["migrate"])).toBeNull();
  });

  test("the child ends when its parent is killed with SIGKILL, so a killed import commits nothing", async () => {
    const parent = Bun.spawn([process.execPath, program, "screening-lists", "sleep"], {
      env: env(),
      stdout: "pipe",
    });
    const reader = parent.stdout.getReader();
    const { value } = await reader.read();
    const child = (JSON.parse(new TextDecoder().decode(value)) as { pid: number }).pid;
    expect(child).not.toBe(parent.pid);
    expect(isAlive(child)).toBe(true);
    parent.kill("SIGKILL");
    await parent.exited;
    const deadline = Date.now() + 5_000;
    while (isAlive(child) && Date.now() < deadline) await Bun.sleep(20);
    expect(isAlive(child)).toBe(false);
  });

  test("the child notices its parent's end at once even while its main thread is busy", async () => {
    const parent = Bun.spawn([process.execPath, program, "screening-lists", "busy"], {
      env: env(),
      stdout: "pipe",
    });
    const reader = parent.stdout.getReader();
    const { value } = await reader.read();
    const child = (JSON.parse(new TextDecoder().decode(value)) as { pid: number }).pid;
    expect(isAlive(child)).toBe(true);
    // The child's watcher thread is up well before this (it starts before the command runs).
    await Bun.sleep(300);
    parent.kill("SIGKILL");
    await parent.exited;
    const killed = performance.now();
    // Busy for 20 s, a child that only polled on its event loop would live on for all of them.
    const deadline = Date.now() + 5_000;
    while (isAlive(child) && Date.now() < deadline) await Bun.sleep(5);
    const lived = performance.now() - killed;
    console.log(`the busy child lived ${Math.round(lived)} ms after its parent`);
    expect(isAlive(child)).toBe(false);
  });
});
