/**
 * A full disk degrades cleanly: on a small tmpfs-backed DATA_DIR filled to the last byte, writes
 * answer 507 with a message (never 500), reads and sign-in keep working, /api/health reports the
 * failing write probe, a restart while full starts and says why, and no migration lock is left.
 * Needs `mount -t tmpfs` (root in a sandbox that allows it); skipped with a message elsewhere.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureClientBuild, freePort, startServer, waitForHealth } from "../../scripts/lib";
import { buildRegistration } from "../test/factories";

const mountPoint = mkdtempSync(path.join(tmpdir(), "tradewinds-full-"));
/** Room for a fresh database, its screening lists and index, and a little to spare. */
const TMPFS_SIZE = "160m";
const isMounted =
  process.platform === "linux" &&
  Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${TMPFS_SIZE}`, "tmpfs", mountPoint]).exitCode === 0;
if (!isMounted) {
  console.log(
    "disk-full.test.ts: skipped, this machine does not allow mounting a tmpfs (needs root and mount rights).",
  );
}

const dataDir = path.join(mountPoint, "data");
let server: Awaited<ReturnType<typeof startServer>> | undefined;
const reg = buildRegistration();
let token = "";

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server?.url}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** Writes a filler file until the disk refuses another byte. */
function fillDisk() {
  const fd = openSync(path.join(mountPoint, "filler"), "w");
  const chunk = new Uint8Array(1024 * 1024);
  try {
    for (let size = chunk.length; size >= 1; ) {
      try {
        writeSync(fd, chunk, 0, size);
      } catch {
        size = Math.floor(size / 2);
      }
    }
  } finally {
    closeSync(fd);
  }
}

beforeAll(async () => {
  if (!isMounted) return;
  await ensureClientBuild();
  mkdirSync(dataDir);
  server = await startServer({ DATA_DIR: dataDir });
  expect((await post("/api/register", reg)).status).toBe(201);
  const login = await post("/api/login", { email: reg.email, password: reg.password });
  token = ((await login.json()) as { token: string }).token;
  fillDisk();
}, 300_000);

/** A one-file document upload of a small PDF to a new product. */
async function uploadToNewProduct(auth: Record<string, string>) {
  const form = new FormData();
  form.append("documents[]", new File([new TextEncoder().encode("%PDF-1.4\n%%EOF\n")], "a.pdf"));
  form.append("id", "1");
  return fetch(`${server?.url}/api/products/documents`, { method: "POST", headers: auth, body: form });
}

afterAll(async () => {
  await server?.stop();
  if (isMounted) Bun.spawnSync(["umount", mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

describe.if(isMounted)("a full disk", () => {
  test("writes answer 507 with a message, never 500; reads keep working", async () => {
    const auth = { authorization: `Bearer ${token}` };
    const statuses: number[] = [];
    let message = "";
    // Writes that still fit the database's free pages may succeed until the next write probe
    // (every 2 s) or a failed write tells the server; within a few seconds every write is a 507.
    for (let i = 0; i < 80 && !message; i++) {
      const res = await post("/api/shipments", {}, auth);
      statuses.push(res.status);
      if (res.status === 507) message = ((await res.json()) as { message: string }).message;
      else {
        await res.arrayBuffer();
        await Bun.sleep(100);
      }
    }
    expect(statuses.filter((s) => s >= 500 && s !== 507 && s !== 503)).toEqual([]);
    expect(statuses).toContain(507);
    expect(message).toMatch(/disk is full/i);
    const list = await fetch(`${server?.url}/api/shipments`, { headers: auth });
    expect(list.status).toBe(200);
    const upload = await uploadToNewProduct(auth);
    expect([507, 404]).toContain(upload.status);
  });

  test("sign-in still works", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await post("/api/login", { email: reg.email, password: reg.password });
      expect(res.status).toBe(200);
    }
  });

  test("health reports the failing write probe", async () => {
    const res = await fetch(`${server?.url}/api/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; db: string; storage: string; message?: string };
    expect(body.db).toBe("ok");
    expect(body.storage).toBe("full");
    expect(body.status).toBe("degraded");
    expect(body.message).toMatch(/full/);
  });

  test("a restart while full starts, says why, and leaves no migration lock behind", async () => {
    await server?.stop();
    server = undefined;
    // Whatever room the first server gave back (its reserve) is taken too: the disk is full to the byte.
    fillDisk();
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = Bun.spawn([process.execPath, path.join(import.meta.dir, "..", "main.ts"), "serve"], {
      cwd: path.join(import.meta.dir, "..", ".."),
      env: {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "info",
        APP_URL: url,
        DATA_DIR: dataDir,
        PORT: String(port),
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const output = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
    try {
      await waitForHealth(url, 120_000);
      const login = await fetch(`${url}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: reg.email, password: reg.password }),
      });
      expect(login.status).toBe(200);
    } finally {
      child.kill("SIGTERM");
      await child.exited;
    }
    const [stdout, stderr] = await output;
    const said = stdout + stderr;
    console.log(
      `restart on a full disk said:\n${said
        .split("\n")
        .filter((line) => /full|lock|error|fail/i.test(line))
        .join("\n")}`,
    );
    expect(said).toMatch(/disk .*full/i);
    expect(said).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(readdirSync(dataDir).filter((name) => name.includes("lock"))).toEqual([]);
    expect(existsSync(path.join(dataDir, "app.db"))).toBe(true);
  }, 180_000);
});
