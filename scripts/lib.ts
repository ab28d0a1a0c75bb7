import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dir, "..");

/**
 * Finds a Chromium: CHROMIUM_PATH, Debian's /usr/bin/chromium, or one Playwright installed (in
 * PLAYWRIGHT_BROWSERS_PATH or its default cache; newer Playwright releases use chrome-linux64).
 */
export function findChromium(
  env: Record<string, string | undefined> = process.env,
  systemPaths = ["/usr/bin/chromium", "/usr/bin/chromium-browser"],
): string | null {
  const candidates = [env.CHROMIUM_PATH, ...systemPaths];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  const caches = [env.PLAYWRIGHT_BROWSERS_PATH, path.join(env.HOME ?? "/root", ".cache", "ms-playwright")];
  for (const cache of caches) {
    if (!cache || !existsSync(cache)) continue;
    for (const dir of readdirSync(cache).filter((d) => d.startsWith("chromium"))) {
      for (const platform of ["chrome-linux64", "chrome-linux"]) {
        const binary = path.join(cache, dir, platform, "chrome");
        if (existsSync(binary)) return binary;
      }
    }
  }
  return null;
}

/** Newest modification time of any file below the given paths. */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) for (const child of readdirSync(p)) visit(path.join(p, child));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const p of paths) visit(p);
  return newest;
}

/** Builds the client with Vite when dist/client is missing or older than any client source. */
export async function ensureClientBuild(): Promise<void> {
  const manifest = path.join(ROOT, "dist", "client", ".vite", "manifest.json");
  const sources = ["client", "public", "db/contracts", "vite.config.ts", "package.json"].map((p) =>
    path.join(ROOT, p),
  );
  if (existsSync(manifest) && statSync(manifest).mtimeMs >= newestMtime(sources)) return;
  console.log("Building the client (dist/client is missing or stale)…");
  const build = Bun.spawn([process.execPath, "--bun", "vite", "build", "--logLevel", "warn"], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if ((await build.exited) !== 0) throw new Error("The client build failed");
}

/** A free TCP port on this machine, found by letting the OS pick one. */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = probe.port;
  probe.stop(true);
  if (!port) throw new Error("Could not find a free port");
  return port;
}

/**
 * Waits until the server answers /api/health, or throws after `timeoutMs` (a fresh database, with
 * migrations and the bundled lists, took 40 s to come up on a loaded 2-core machine).
 */
export async function waitForHealth(url: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const isUp = await fetch(`${url}/api/health`)
      .then((res) => res.ok)
      .catch(() => false);
    if (isUp) return;
    await Bun.sleep(50);
  }
  throw new Error(`The server did not answer ${url}/api/health within ${timeoutMs / 1000} s`);
}

/**
 * Starts the real server from source on a free port of 127.0.0.1 (React's production build), waits
 * until it is healthy, and returns its URL and a stop function.
 */
export async function startServer(
  env: Record<string, string | undefined>,
  options: { logs?: "inherit" | "ignore" } = {},
): Promise<{ url: string; stop: () => Promise<number> }> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = Bun.spawn([process.execPath, path.join(ROOT, "server", "main.ts"), "serve"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "silent",
      APP_URL: url,
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", options.logs ?? "ignore", "inherit"],
  });
  const stop = async () => {
    server.kill("SIGTERM");
    return server.exited;
  };
  try {
    await waitForHealth(url);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
