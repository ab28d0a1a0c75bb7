// The built screening index kept on disk (DATA_DIR/cache), so a process that starts (the server, an
// import from the command line, a screening worker) loads it in one read instead of building it for
// seconds. A file is used only under its exact key: the engine's code and the entries it was built
// from (see engine/index-pack.ts). Anything else — another list version, another engine, a missing,
// truncated or damaged file — is built again and written again, atomically (a temporary file
// renamed over), so a reader never sees half a file.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { reportWorkerFallback, workerUrl } from "../../lib/worker-url";
import { buildIndex, type ListEntry, type ScreeningIndex } from "./engine";
import { indexKey, packIndex, unpackIndex } from "./engine/index-pack";
import type { TIndexBuildReply, TIndexBuildRequest } from "./index-build-messages";

const PREFIX = "screening-index-";
const SUFFIX = ".bin";

let defaultDir: string | undefined;
let defaultWorker = false;
let defaultBuildCommand: readonly string[] | undefined;

/**
 * Where the processes of this data folder keep the index (set once at start; unset: no cache), and
 * how it is built when it is not there: in a child process started with `buildCommand` (this
 * program started again, see index-build-child.ts), else on a worker thread with `buildInWorker`.
 */
export function setIndexCacheDir(
  dir: string | undefined,
  options: { buildInWorker?: boolean; buildCommand?: readonly string[] } = {},
): void {
  defaultDir = dir;
  defaultWorker = options.buildInWorker ?? false;
  defaultBuildCommand = options.buildCommand?.length ? options.buildCommand : undefined;
}

/** How setIndexCacheDir asked for the program to be started again to build the index, if it did. */
export function indexBuildCommand(): readonly string[] | undefined {
  return defaultBuildCommand;
}

/** The cache folder set by setIndexCacheDir, if any. */
export function indexCacheDir(): string | undefined {
  return defaultDir;
}

/** Whether setIndexCacheDir asked for builds on a worker thread. */
export function indexBuildsInWorker(): boolean {
  return defaultWorker;
}

/** The file the index of entries identified by `sourceKey` is kept in (see indexKey). */
export function indexCacheFile(dir: string, sourceKey: string): string {
  return path.join(dir, `${PREFIX}${Bun.hash(indexKey(sourceKey) ?? "").toString(16)}${SUFFIX}`);
}

/**
 * The index over the entries `sourceKey` identifies: loaded from `dir` when a file of exactly this
 * key is there (the entries come with it: nothing else is read), else built from `loadEntries()`
 * and stored for the next process. A cache that cannot be read or written never fails the caller.
 */
export async function loadOrBuildIndex(
  dir: string,
  sourceKey: string,
  loadEntries: () => Promise<readonly ListEntry[]> | readonly ListEntry[],
): Promise<{ index: ScreeningIndex; loaded: boolean }> {
  const key = indexKey(sourceKey);
  // An engine of unknown version (an executable built without its fingerprint) caches nothing.
  if (key === undefined) return { index: buildIndex(await loadEntries()), loaded: false };
  const file = indexCacheFile(dir, sourceKey);
  const cached = loadCachedIndex(dir, sourceKey);
  if (cached) return { index: cached, loaded: true };
  const built = buildIndex(await loadEntries());
  let packed: Uint8Array;
  try {
    packed = packIndex(built, key);
  } catch {
    // An index that cannot be stored exactly is used as built, and built again by the next process.
    return { index: built, loaded: false };
  }
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, packed);
    renameSync(temporary, file);
    removeOlderFiles(dir, file);
  } catch {
    // A read-only or full disk: this process still has its index, the next one builds again. A
    // partial temporary file (a write that ran out of space) is not left to fill the disk further.
    try {
      rmSync(temporary, { force: true });
    } catch {}
  }
  // The packed form holds no object per name or entry: what stays in memory is that, not the build's.
  return { index: unpackIndex(packed, key) ?? built, loaded: false };
}

/** A temporary file this old was left by a process that stopped mid-write (a write takes seconds). */
const STALE_TEMPORARY_MS = 5 * 60 * 1000;

/**
 * Removes the indexes stored before `written` (earlier list versions or engines: not read again)
 * and temporary files left by stopped writers. Other processes share the folder: an index stored
 * since (another key, written by a process with newer lists) and a write in progress are kept.
 */
function removeOlderFiles(dir: string, written: string): void {
  const writtenAt = statSync(written).mtimeMs;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!name.startsWith(PREFIX) || file === written) continue;
    try {
      const modified = statSync(file).mtimeMs;
      const isOld = name.endsWith(".tmp")
        ? Date.now() - modified > STALE_TEMPORARY_MS
        : name.endsWith(SUFFIX) && modified < writtenAt;
      if (isOld) rmSync(file, { force: true });
    } catch {
      // Removed meanwhile by another process.
    }
  }
}

/**
 * The file's bytes, mapped rather than read where the platform can: the index's typed arrays are
 * views of the file's pages, which the OS shares and can drop, and a screening worker is ready
 * ~0.2 s sooner (a 33 MB read and its copy, against page faults as the hash walks the file). Safe
 * because a stored index is never written in place: writers rename a whole new file over it, and a
 * mapping of a replaced or removed file keeps the old pages.
 */
function mapFile(file: string): Uint8Array {
  try {
    return Bun.mmap(file, { shared: false });
  } catch (error) {
    // A missing file is missing either way; anything else (a platform without mmap) reads it.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw error;
    return readFileSync(file);
  }
}

/** The stored index of exactly this key, if `dir` holds a whole one. */
export function loadCachedIndex(dir: string, sourceKey: string): ScreeningIndex | undefined {
  const key = indexKey(sourceKey);
  if (key === undefined) return undefined;
  const file = indexCacheFile(dir, sourceKey);
  let bytes: Uint8Array;
  try {
    bytes = mapFile(file);
  } catch {
    return undefined;
  }
  return unpackIndex(bytes, key);
}

/**
 * Builds and stores the index of these entries on a worker thread (see index-build.worker.ts), so
 * the build's garbage goes with the thread; an error when no worker could (the caller then builds on
 * its own thread).
 */
export async function buildIndexInWorker(
  dir: string,
  sourceKey: string,
  entries: readonly ListEntry[],
  workerSpecifier = workerUrl(new URL("./index-build.worker.ts", import.meta.url)),
): Promise<{ error?: string }> {
  let worker: Worker;
  try {
    worker = new Worker(workerSpecifier);
  } catch (error) {
    reportWorkerFallback(workerSpecifier, String(error));
    return { error: String(error) };
  }
  try {
    const reply = await new Promise<TIndexBuildReply>((resolve) => {
      worker.onmessage = (event: MessageEvent<TIndexBuildReply>) => resolve(event.data);
      worker.onerror = (event) => resolve({ ok: false, error: event.message || "the worker stopped" });
      // A worker that ends without a word (exited, killed for memory) would otherwise be waited for
      // forever, and screening with it.
      worker.addEventListener("close", () =>
        resolve({ ok: false, error: "the worker ended without an answer" }),
      );
      worker.postMessage({ dir, sourceKey, entries: [...entries] } satisfies TIndexBuildRequest);
    });
    if (!reply.ok) reportWorkerFallback(workerSpecifier, reply.error);
    return reply.ok ? {} : { error: reply.error };
  } finally {
    worker.terminate();
  }
}
