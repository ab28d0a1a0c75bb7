// npm run test:binary: the compiled binary, alone in an empty folder with no node_modules above it,
// starts on a free port, answers /api/health, renders the login page and its assets, and stops cleanly.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { INDEX_BUILD_FALLBACK } from "../server/features/screening/index-build-child";
import { WORKER_FALLBACK } from "../server/lib/worker-url";
import { freePort, ROOT } from "./lib";

const binary = path.join(ROOT, "dist", "tradewinds");
if (!existsSync(binary)) {
  console.error("dist/tradewinds is missing: run npm run build:binary first");
  process.exit(1);
}
// /dev/shm or /tmp: neither has a node_modules folder above it.
const folder = mkdtempSync(path.join("/tmp", "tradewinds-binary-"));
const copy = path.join(folder, "tradewinds");
copyFileSync(binary, copy);

const IMPORT_EMAIL = "binary-check@example.com";
const UPLOAD_EMAIL = "binary-upload@example.com";
const PASSWORD = "binary check password 1";
const failures: string[] = [];
let passedCount = 0;
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? "✓" : "✖"} ${what}`);
  if (ok) passedCount += 1;
  else failures.push(what);
};

const version = Bun.spawnSync([copy, "--version"], { cwd: folder });
check(
  version.exitCode === 0 && /^\d+\.\d+\.\d+/.test(version.stdout.toString()),
  "--version prints the version",
);
const help = Bun.spawnSync([copy, "--help"], { cwd: folder });
check(help.exitCode === 0 && help.stdout.toString().includes("migrate"), "--help lists the commands");
const badConfig = Bun.spawnSync([copy, "serve"], {
  cwd: folder,
  env: { PORT: "nope", PATH: process.env.PATH },
});
check(
  badConfig.exitCode === 1 && badConfig.stderr.toString().includes("PORT"),
  "a bad PORT stops it naming PORT",
);

/** A contacts CSV of about `bytes` bytes, every company new: its text and how many rows it holds. */
function contactRows(prefix: string, bytes: number) {
  const lines = ["Company,Partner Type,Tax ID,Street,City,Postal Code,Country,Contact,Phone,Email"];
  let size = lines[0]?.length ?? 0;
  for (let i = 0; size < bytes; i++) {
    const line = `${prefix} ${i} GmbH,Customer,UC${String(i).padStart(9, "0")},${i} Kai,Hamburg,20457,DE,Ann Lee,+49 40 5555 ${i},ann.${i}@example.com`;
    lines.push(line);
    size += line.length + 1;
  }
  return { text: `${lines.join("\n")}\n`, count: lines.length - 1 };
}
let uploader: { id: number; workspace_id: number } | null = null;

const port = freePort();
const url = `http://127.0.0.1:${port}`;
const started = performance.now();
const server = Bun.spawn([copy, "serve"], {
  cwd: folder,
  env: { PATH: process.env.PATH, PORT: String(port), DATA_DIR: path.join(folder, "data"), LOG_LEVEL: "warn" },
  stdio: ["ignore", "inherit", "pipe"],
});
// Its standard error, passed on as it comes and kept: no worker of the executable may fall back to
// the main thread (server/lib/worker-url.ts says so in a warning), the index build's and the
// background screening's among them.
let serverErrors = "";
const serverErrorsRead = (async () => {
  const decoder = new TextDecoder();
  for await (const bytes of server.stderr) {
    const text = decoder.decode(bytes, { stream: true });
    serverErrors += text;
    process.stderr.write(text);
  }
})();
let coldStartMs = -1;
try {
  // A first start loads the bundled lists into the new database: seconds on a busy machine.
  while (coldStartMs < 0 && performance.now() - started < 60_000) {
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) {
        coldStartMs = performance.now() - started;
        check((await res.json()).db === "ok", "/api/health answers db ok");
      }
    } catch {
      await Bun.sleep(20);
    }
  }
  check(coldStartMs >= 0, "the server came up");
  const login = await fetch(`${url}/auth/login`);
  const html = await login.text();
  check(login.status === 200 && html.includes("<html") && html.includes("Log in"), "the login page renders");
  const assetUrls = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  check(assetUrls.length >= 2, "the page links the built script and stylesheet");
  for (const asset of assetUrls) {
    const res = await fetch(`${url}${asset}`);
    check(res.ok && (await res.arrayBuffer()).byteLength > 0, `embedded asset ${asset} is served`);
  }
  // The service worker (offline reload of open pages) is part of the server, at the root for scope /.
  const worker = await fetch(`${url}/sw.js`);
  const workerText = await worker.text();
  check(
    worker.ok &&
      /javascript/.test(worker.headers.get("content-type") ?? "") &&
      workerText.includes('addEventListener("fetch"'),
    "the service worker /sw.js is served",
  );
  // The dashboard's lazily-loaded map chunk and the country shapes it fetches are separate files.
  const manifest = JSON.parse(
    await Bun.file(path.join(ROOT, "dist", "client", ".vite", "manifest.json")).text(),
  ) as Record<string, { file: string; assets?: string[] }>;
  const map = manifest["client/features/home/world-map.tsx"];
  for (const asset of [map?.file, ...(map?.assets ?? [])].filter(Boolean)) {
    const res = await fetch(`${url}/${asset}`);
    const type = res.headers.get("content-type") ?? "";
    check(
      res.ok && (await res.arrayBuffer()).byteLength > 0 && /javascript|json/.test(type),
      `map asset /${asset} is served (${type})`,
    );
  }
  check(Boolean(map?.assets?.some((a) => a.endsWith(".json"))), "the map chunk has its country shapes");
  // The reports screen's WebAssembly (Perspective) comes from the binary too, byte for byte.
  const wasmFiles = [...new Set(Object.values(manifest).map((c) => c.file))].filter((f) =>
    f.endsWith(".wasm"),
  );
  check(wasmFiles.length >= 2, "the client build has Perspective's WebAssembly files");
  for (const file of wasmFiles) {
    const res = await fetch(`${url}/${file}`);
    const bytes = (await res.arrayBuffer()).byteLength;
    check(
      res.ok &&
        res.headers.get("content-type") === "application/wasm" &&
        bytes === Bun.file(path.join(ROOT, "dist", "client", file)).size,
      `${file} is served as application/wasm`,
    );
    // Compressed from the build's precompressed copy when it has one (the viewer's WASM is packed
    // already and has none), cached for good: the reports screen compiles the engine while it
    // downloads (compileStreaming needs application/wasm).
    const brotli = Bun.file(path.join(ROOT, "dist", "client", `${file}.br`));
    const hasBrotli = await brotli.exists();
    const packed = await fetch(`${url}/${file}`, {
      headers: { "accept-encoding": "br" },
      decompress: false,
    } as RequestInit);
    const packedBytes = (await packed.arrayBuffer()).byteLength;
    check(
      packed.ok &&
        packed.headers.get("content-type") === "application/wasm" &&
        packed.headers.get("content-encoding") === (hasBrotli ? "br" : null) &&
        packed.headers.get("cache-control") === "public, max-age=31536000, immutable" &&
        packedBytes === (hasBrotli ? brotli.size : bytes),
      `${file} is served ${hasBrotli ? "brotli-compressed" : "as built"} and immutable to a browser that accepts br`,
    );
  }
  // A user for the CLI import below (the binary's import-contacts writes into their workspace), and
  // one for the uploads (their contacts are screened apart from the CLI's).
  const registerUser = (email: string) =>
    fetch(`${url}/api/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "Ms.", name: "Binary", surname: "Check", email, password: PASSWORD }),
    });
  const register = await registerUser(IMPORT_EMAIL);
  check(register.status === 201 && (await registerUser(UPLOAD_EMAIL)).status === 201, "users can register");
  // A web upload of 256 KB or more is imported by the executable started again (import-upload).
  const signIn = await fetch(`${url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: UPLOAD_EMAIL, password: PASSWORD, rememberMe: true }),
  });
  const registered = (await signIn.json()) as {
    token?: string;
    user?: { id: number; workspace_id: number };
  };
  uploader = registered.user ?? null;
  const uploadRows = contactRows("Upload Check", 2_000_000);
  const form = new FormData();
  form.append("csv_upload", new File([uploadRows.text], "contacts.csv", { type: "text/csv" }));
  const auth = { authorization: `Bearer ${registered.token}` };
  // Its progress while the child imports: only the child reports any.
  let progressSeen = 0;
  let isUploading = true;
  const watching = (async () => {
    while (isUploading) {
      const res = await fetch(`${url}/api/contacts/upload/progress`, { headers: auth });
      const { rows } = (await res.json()) as { rows: number | null };
      if (rows) progressSeen = Math.max(progressSeen, rows);
      await Bun.sleep(50);
    }
  })();
  const uploaded = await fetch(`${url}/api/contacts/upload`, { method: "POST", headers: auth, body: form });
  const uploadAnswer = (await uploaded.json()) as { created?: number; message?: string };
  isUploading = false;
  await watching;
  check(
    uploaded.status === 200 && uploadAnswer.created === uploadRows.count,
    `a ${(uploadRows.text.length / 1024 / 1024).toFixed(1)} MB web upload imports every row (${uploadAnswer.created ?? `${uploaded.status} ${uploadAnswer.message}`} of ${uploadRows.count})`,
  );
  check(
    progressSeen > 0,
    `the upload was imported by the executable started again (progress seen: ${progressSeen} rows)`,
  );
  // The reports' server pivot: its worker starts DuckDB and Perspective's protocol module from the
  // WebAssembly embedded in the executable and answers a real Perspective client over the socket.
  const pivotStarted = performance.now();
  const pivot = await pivotTableSize(`${url.replace(/^http/, "ws")}/api/reports/pivot`, auth);
  check(
    pivot.tables.join() === "report_lines" && pivot.size === 0 && pivot.columns > 20,
    `the report pivot socket answers from the executable (${pivot.tables.join()}, ${pivot.size} lines, ${pivot.columns} columns, ${Math.round(performance.now() - pivotStarted)} ms)`,
  );
} finally {
  server.kill("SIGTERM");
  const code = await server.exited;
  check(code === 0, "SIGTERM stops it with exit code 0");
  await serverErrorsRead;
  check(!serverErrors.includes(WORKER_FALLBACK), "the server's worker threads all started in the executable");
  check(
    !serverErrors.includes(INDEX_BUILD_FALLBACK),
    "the executable started again to build the screening index (build-screening-index)",
  );
  const lists = Bun.spawnSync([copy, "screening-lists", "status"], {
    cwd: folder,
    env: { PATH: process.env.PATH, DATA_DIR: path.join(folder, "data"), LOG_LEVEL: "warn" },
  });
  const status = lists.stdout.toString();
  check(
    lists.exitCode === 0 && ["OFAC SDN", "BIS DPL", "CSL"].every((s) => status.includes(s)),
    "the bundled restricted-party lists were loaded on first start",
  );
  // The upload's child on its own: the file on standard input, JSON lines out.
  if (uploader) {
    const child = Bun.spawnSync(
      [copy, "import-upload", "--workspace", String(uploader.workspace_id), "--user", String(uploader.id)],
      {
        cwd: folder,
        env: { PATH: process.env.PATH, DATA_DIR: path.join(folder, "data"), LOG_LEVEL: "warn" },
        // As the server sends it: the file's length on a line, its bytes, and "go" (for when it is ready).
        stdin: (() => {
          const file = new TextEncoder().encode(contactRows("Child Check", 50_000).text);
          return Buffer.concat([Buffer.from(`${file.length}\n`), file, Buffer.from("go\n")]);
        })(),
      },
    );
    const lines = child.stdout.toString().trim().split("\n");
    const done = JSON.parse(lines[lines.length - 1] ?? "{}") as {
      type?: string;
      report?: { created?: number };
    };
    check(
      child.exitCode === 0 &&
        lines[0] === '{"type":"started"}' &&
        lines.includes('{"type":"ready"}') &&
        done.type === "done" &&
        (done.report?.created ?? 0) > 100,
      `import-upload imports a file from standard input and answers in JSON lines (${done.report?.created} created)`,
    );
  } else check(false, "the registered user was answered, for the upload checks");
  // A file of 1 MB or more is parsed on a worker of its own and screened on screening workers while
  // it imports: entry points the executable carries, started by their embedded path
  // (server/lib/worker-url.ts). A worker that cannot load would leave its part to the main thread,
  // which screens after the import ("Screened N: 0 failed."): that is a failure here, since the
  // screening worker opens the database through libSQL, which only the embedded entry can load.
  const csv = path.join(folder, "contacts.csv");
  const rows = [
    "Company,Partner Type,Tax ID,Street,City,State/Province,Postal Code,Country,Contact,Phone,Email",
  ];
  let bytes = rows[0]!.length;
  for (let i = 0; bytes < 1_100_000; i++) {
    const row = `Binary Check Trading ${i} GmbH,Customer,DE${String(i).padStart(9, "0")},${i} Harbour Road,Hamburg,,20457,DE,Ann Lee,+49 40 1234 ${i},ann.${i}@example.com`;
    rows.push(row);
    bytes += row.length + 1;
  }
  await Bun.write(csv, `${rows.join("\n")}\n`);
  const imported = Bun.spawnSync([copy, "import-contacts", "--email", IMPORT_EMAIL, csv], {
    cwd: folder,
    env: { PATH: process.env.PATH, DATA_DIR: path.join(folder, "data"), LOG_LEVEL: "warn" },
  });
  const importOut = imported.stdout.toString();
  const count = rows.length - 1;
  check(
    imported.exitCode === 0 &&
      new RegExp(`${count.toLocaleString("en-US")}\\s+created`).test(importOut) &&
      importOut.includes(`Screened ${count} new contacts while importing.`),
    `import-contacts imports a 1 MB file and screens every new contact on its workers while importing (${count})`,
  );
  check(
    !imported.stderr.toString().includes(WORKER_FALLBACK),
    "the import's worker threads all started in the executable",
  );
  if (imported.exitCode !== 0) console.log(importOut, imported.stderr.toString());
  else console.log(`  (${importOut.match(/Screened [^\n]*/)?.[0] ?? "no screening line"})`);
  rmSync(folder, { recursive: true, force: true });
}
const sizeMb = Bun.file(binary).size / 1024 / 1024;
console.log(
  `binary size ${sizeMb.toFixed(1)} MB, cold start to healthy ${coldStartMs.toFixed(0)} ms (fresh database)`,
);
console.log(`binary: ${passedCount} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);

/** Opens the report pivot socket as a Perspective client: the hosted tables and the lines' table size. */
async function pivotTableSize(socketUrl: string, headers: Record<string, string>) {
  const perspective = await import("@perspective-dev/client/node");
  const socket = new WebSocket(socketUrl, { headers } as never);
  socket.binaryType = "arraybuffer";
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve);
    socket.addEventListener("error", () => reject(new Error("the pivot socket did not open")));
  });
  const client = perspective.make_client(async (bytes: Uint8Array) =>
    socket.send(bytes as Uint8Array<ArrayBuffer>),
  );
  socket.addEventListener("message", (event) => {
    void client.handle_response(new Uint8Array(event.data as ArrayBuffer));
  });
  try {
    const tables = await client.get_hosted_table_names();
    const table = await client.open_table(tables[0] ?? "");
    return { tables, size: await table.size(), columns: (await table.columns()).length };
  } finally {
    socket.close();
  }
}
