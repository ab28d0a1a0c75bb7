import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** The client build as the server needs it: page asset URLs and a way to read a built file. */
export type TAssetStore = {
  /** URLs to put in every page: the entry module and its stylesheets. */
  page: TPageAssets;
  /** A built file by its URL path (e.g. "/assets/index-abc123.js"), or null. */
  read(urlPath: string): Promise<Blob | null>;
};

/**
 * `preloads`: the entry's static imports, as modulepreload links, fetched with the entry instead of after it.
 * `reports`: what the /reports screen loads lazily (its chunk, Perspective's chunk, stylesheet and
 * WebAssembly), so the server render of /reports can ask for them with the page's first bytes.
 */
export type TPageAssets = {
  scripts: string[];
  styles: string[];
  preloads?: string[];
  reports?: TLazyAssets;
};

/**
 * A lazy part of the client: its module chunks (not already preloaded), stylesheets and other files,
 * and `start`, the chunk the page runs as soon as it has it (`<script type="module" async>`), not
 * only when the app's own code asks for it.
 */
export type TLazyAssets = { modules: string[]; styles: string[]; files: string[]; start?: string };

type TViteManifest = Record<
  string,
  { file: string; css?: string[]; isEntry?: boolean; imports?: string[]; assets?: string[] }
>;

export const CLIENT_ENTRY = "client/entry-client.tsx";
/** The reports screen's chunk and the one module that imports Perspective (with its WASM). */
export const REPORTS_CHUNKS = [
  "client/features/reports/reports-screen.tsx",
  "client/features/reports/perspective-loader.ts",
];

/** Reads Vite's manifest to find the entry chunk and every stylesheet it pulls in. */
export function pageAssetsFromManifest(manifest: TViteManifest): TPageAssets {
  const entry = manifest[CLIENT_ENTRY];
  if (!entry)
    throw new Error(`The client build has no entry for ${CLIENT_ENTRY}; rebuild it with npm run build`);
  const styles = new Set<string>();
  const preloads = new Set<string>();
  const visit = (key: string, seen = new Set<string>()) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    for (const css of chunk?.css ?? []) styles.add(`/${css}`);
    if (chunk && key !== CLIENT_ENTRY) preloads.add(`/${chunk.file}`);
    for (const imported of chunk?.imports ?? []) visit(imported, seen);
  };
  visit(CLIENT_ENTRY);
  const page: TPageAssets = { scripts: [`/${entry.file}`], styles: [...styles], preloads: [...preloads] };
  if (REPORTS_CHUNKS.every((key) => manifest[key])) {
    const lazy: TLazyAssets = { modules: [], styles: [], files: [] };
    const seen = new Set([
      CLIENT_ENTRY,
      ...Object.keys(manifest).filter((k) => preloads.has(`/${manifest[k].file}`)),
    ]);
    const walk = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      const chunk = manifest[key];
      if (!chunk) return;
      lazy.modules.push(`/${chunk.file}`);
      for (const css of chunk.css ?? []) if (!styles.has(`/${css}`)) lazy.styles.push(`/${css}`);
      for (const file of chunk.assets ?? []) if (file.endsWith(".wasm")) lazy.files.push(`/${file}`);
      for (const imported of chunk.imports ?? []) walk(imported);
    };
    for (const key of REPORTS_CHUNKS) walk(key);
    // Perspective's chunk starts its WebAssembly and worker when it runs on /reports
    // (perspective-loader.ts): run it with the page's first bytes, alongside the app's own code.
    lazy.start = `/${manifest[REPORTS_CHUNKS[1]!]!.file}`;
    page.reports = lazy;
  }
  return page;
}

/** Serves the client build from a folder on disk (dist/client when running from source). */
export function diskAssetStore(folder: string): TAssetStore {
  const manifestPath = path.join(folder, ".vite", "manifest.json");
  if (!existsSync(manifestPath)) {
    throw new Error(`No client build at ${folder}; run npm run build (npm start does it for you)`);
  }
  const page = pageAssetsFromManifest(JSON.parse(readFileSync(manifestPath, "utf8")));
  const root = path.resolve(folder);
  return {
    page,
    async read(urlPath) {
      const file = path.resolve(root, `.${decodeURIComponent(urlPath)}`);
      // Never serve outside the build folder, nor Vite's own manifest.
      if (!file.startsWith(`${root}${path.sep}`) || file.includes(`${path.sep}.vite${path.sep}`)) return null;
      const blob = Bun.file(file);
      return (await blob.exists()) ? blob : null;
    },
  };
}

export type TEncodedAsset = { body: Blob; type: string; encoding: "br" | "gzip" | null };

/**
 * A built file in the best encoding the browser accepts: the brotli or gzip copy the build wrote
 * next to it (scripts/precompress.ts), else the file itself.
 */
export async function readEncodedAsset(
  store: TAssetStore,
  urlPath: string,
  acceptEncoding: string | undefined,
): Promise<TEncodedAsset | null> {
  const plain = await store.read(urlPath);
  if (!plain) return null;
  const type = plain.type || "application/octet-stream";
  const accepted = parseAcceptEncoding(acceptEncoding ?? "");
  for (const [encoding, suffix] of [
    ["br", ".br"],
    ["gzip", ".gz"],
  ] as const) {
    if (!accepted.has(encoding)) continue;
    const variant = await store.read(`${urlPath}${suffix}`);
    if (variant) return { body: variant, type, encoding };
  }
  return { body: plain, type, encoding: null };
}

/** The codings an Accept-Encoding header allows (q=0 excludes one). */
export function parseAcceptEncoding(header: string): Set<string> {
  const accepted = new Set<string>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name);
  }
  return accepted;
}
