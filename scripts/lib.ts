import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dir, "..");

/** Finds a Chromium: CHROMIUM_PATH, Debian's /usr/bin/chromium, or one Playwright installed. */
export function findChromium(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  const cache = path.join(process.env.HOME ?? "/root", ".cache", "ms-playwright");
  if (existsSync(cache)) {
    for (const dir of readdirSync(cache).filter((d) => d.startsWith("chromium"))) {
      const binary = path.join(cache, dir, "chrome-linux", "chrome");
      if (existsSync(binary)) return binary;
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
