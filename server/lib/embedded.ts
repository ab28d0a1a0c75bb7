import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pageAssetsFromManifest, type TAssetStore } from "./assets";

/** Serves the client build that the compiled binary carries inside itself. */
export function embeddedAssetStore(
  manifest: Parameters<typeof pageAssetsFromManifest>[0],
  files: Record<string, string>,
): TAssetStore {
  const page = pageAssetsFromManifest(manifest);
  return {
    page,
    async read(urlPath) {
      const embedded = files[urlPath];
      return embedded ? Bun.file(embedded) : null;
    },
  };
}

/**
 * Writes embedded files to a temporary folder, for code that reads a real folder: drizzle's
 * migrator, and the first-start load of the bundled restricted-party lists.
 */
export async function extractFiles(files: Record<string, string>, label: string): Promise<string> {
  const folder = mkdtempSync(path.join(tmpdir(), `tradewinds-${label}-`));
  for (const [name, embedded] of Object.entries(files)) {
    const target = path.join(folder, name);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, new Uint8Array(await Bun.file(embedded).arrayBuffer()));
  }
  return folder;
}
