// Native add-ons the executable carries as files: written once to a folder of their own in the
// system's temporary directory and loaded from there, so that an add-on finds the shared library
// beside it (DuckDB's binding links libduckdb.so from its own folder).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Loads the add-on `addon` (a file name among `files`) after writing every file of `files`
 * (name → embedded path) to `tmpdir()/folder`; a folder already written (by an earlier start or
 * another process) is reused when each file has its size.
 */
export function loadEmbeddedAddon(folder: string, files: Record<string, string>, addon: string): unknown {
  const target = path.join(tmpdir(), folder);
  const complete = () =>
    Object.entries(files).every(([name, embedded]) => {
      const written = path.join(target, name);
      return existsSync(written) && statSync(written).size === statSync(embedded).size;
    });
  if (!complete()) {
    // Written beside the target and renamed into place, so no process loads a half-written file.
    const staging = `${target}.${process.pid}.${Date.now()}`;
    mkdirSync(staging, { recursive: true });
    for (const [name, embedded] of Object.entries(files)) {
      writeFileSync(path.join(staging, name), readFileSync(embedded));
    }
    rmSync(target, { recursive: true, force: true });
    try {
      renameSync(staging, target);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      if (!complete()) throw error;
    }
  }
  const module = { exports: {} as unknown };
  process.dlopen(module, path.join(target, addon));
  return module.exports;
}
