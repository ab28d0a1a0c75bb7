// Native add-ons the executable carries as files: written once to a folder of their own, private to
// the user the server runs as, and loaded from there, so that an add-on finds the shared library
// beside it (DuckDB's binding links libduckdb.so from its own folder).
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A folder in the temporary directory that only this user can write: created with mode 0700, or
 * an existing one that is a real directory (not a link), owned by this user and closed to others.
 * Null when it exists and is none of that (another user made it): the caller then uses a fresh one.
 */
function privateFolder(): string | null {
  const uid = process.getuid?.();
  const folder = path.join(tmpdir(), `tradewinds-${uid ?? "user"}`);
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return null;
  }
  const stat = lstatSync(folder);
  if (!stat.isDirectory() || stat.isSymbolicLink()) return null;
  if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o077) !== 0)) return null;
  return folder;
}

/** Writes `files` (name → embedded path) into a new folder below `parent`. */
function writeAll(parent: string, prefix: string, files: Record<string, string>): string {
  const folder = mkdtempSync(path.join(parent, prefix));
  for (const [name, embedded] of Object.entries(files)) {
    writeFileSync(path.join(folder, name), readFileSync(embedded), { mode: 0o700 });
  }
  return folder;
}

/**
 * Loads the add-on `addon` (a file name among `files`) after writing every file of `files` (name →
 * embedded path) to `<private folder>/<name>`; a folder already written there (by an earlier start
 * or another process) is reused when each file has its size. Folders are renamed into place whole,
 * so none is ever half-written, and none in use is removed.
 */
export function loadEmbeddedAddon(name: string, files: Record<string, string>, addon: string): unknown {
  const parent = privateFolder();
  let folder: string;
  if (parent === null) {
    folder = writeAll(tmpdir(), `${name}-`, files);
  } else {
    const target = path.join(parent, name);
    const complete = () =>
      Object.entries(files).every(([file, embedded]) => {
        const written = path.join(target, file);
        return existsSync(written) && statSync(written).size === statSync(embedded).size;
      });
    folder = target;
    if (!complete()) {
      const staging = writeAll(parent, `${name}.staging-`, files);
      try {
        renameSync(staging, target);
      } catch {
        // Another process put a complete one there first: use it; otherwise keep using ours.
        if (complete()) rmSync(staging, { recursive: true, force: true });
        else folder = staging;
      }
    }
  }
  const module = { exports: {} as unknown };
  process.dlopen(module, path.join(folder, addon));
  return module.exports;
}
