// What the server does when the disk holding DATA_DIR fills up: it keeps reading and signing people
// in, refuses other writes with a 507 that says why, reports it on /api/health, and goes back to
// normal by itself once space is freed. A small reserve file is kept in DATA_DIR while there is room
// and given back when the disk fills, so that sign-ins (a session row) still find space.
import { closeSync, openSync, statfsSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import type { MiddlewareHandler } from "hono";
import { AppError } from "./errors";

export type TStorageState = "ok" | "full" | "read-only";

export const DISK_FULL_MESSAGE =
  "The server's disk is full, so nothing was saved. Reading and signing in still work: ask the administrator to free space on the server, then try again.";
const READ_ONLY_MESSAGE =
  "The server's storage is read-only, so nothing was saved. Reading and signing in still work: ask the administrator to check the server's disk, then try again.";

/** Full or read-only storage behind an error (SQLite's codes, Node's errno), or null for anything else. */
export function storageFailureOf(error: unknown): Exclude<TStorageState, "ok"> | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 8; depth++) {
    const code = String((current as { code?: unknown }).code ?? "");
    const message = current instanceof Error ? current.message : String(current);
    if (
      /^(SQLITE_FULL|ENOSPC|EDQUOT)/.test(code) ||
      /database or disk is full|no space left on device/i.test(message)
    )
      return "full";
    if (
      /^(SQLITE_READONLY|EROFS)/.test(code) ||
      /attempt to write a readonly database|read-only file system/i.test(message)
    )
      return "read-only";
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** The 507 (full) or 503 (read-only) a refused write answers. */
export function storageError(state: Exclude<TStorageState, "ok">): AppError {
  return state === "full"
    ? new AppError("INSUFFICIENT_STORAGE", DISK_FULL_MESSAGE)
    : new AppError("UNAVAILABLE", READ_ONLY_MESSAGE, { headers: { "Retry-After": "60" } });
}

/** Bytes kept in reserve while the disk has room, given back when it fills (sessions need a few pages). */
export const RESERVE_BYTES = 8 * 1024 * 1024;
/** Below this many free bytes the disk counts as full. */
const FULL_BELOW_BYTES = 1024 * 1024;
/** Past a full disk, writes go ahead again only once this much is free (room for the reserve too). */
const ROOM_AGAIN_BYTES = RESERVE_BYTES + 16 * 1024 * 1024;
/** How long a probe's answer is kept: health checks every 20 ms must not write a file each time. */
const PROBE_TTL_MS = 2_000;
const RESERVE_FILE = ".space-reserve";
const PROBE_FILE = ".write-probe";

function freeBytes(dir: string): number | null {
  try {
    const stat = statfsSync(dir);
    return Number(stat.bavail) * Number(stat.bsize);
  } catch {
    return null;
  }
}

/** Writes and removes a small file: the proof that the folder takes writes now. */
function probeFile(dir: string): TStorageState {
  const file = path.join(dir, PROBE_FILE);
  try {
    const fd = openSync(file, "w");
    try {
      writeSync(fd, new Uint8Array(4096));
    } finally {
      closeSync(fd);
    }
    return "ok";
  } catch (error) {
    return storageFailureOf(error) ?? "read-only";
  } finally {
    try {
      unlinkSync(file);
    } catch {}
  }
}

/** The storage state of one DATA_DIR, probed now and then and told of failed writes as they happen. */
export function diskSpace(
  dataDir: string,
  options: {
    /** Keep the reserve file (the server does; tests and commands do not). */
    isKeepingReserve?: boolean;
    log?: (message: string, fields?: Record<string, unknown>) => void;
  } = {},
) {
  const { log } = options;
  let state: TStorageState = "ok";
  let probedAt = 0;
  const reserve = path.join(dataDir, RESERVE_FILE);

  /** Keeps the reserve file; false when the disk has no room left for it (it then counts as full). */
  const keepReserve = (): boolean => {
    if (!options.isKeepingReserve) return true;
    try {
      const fd = openSync(reserve, "wx");
      try {
        writeSync(fd, new Uint8Array(RESERVE_BYTES));
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return true;
      if (!storageFailureOf(error)) return true;
      try {
        unlinkSync(reserve);
      } catch {}
      return false;
    }
  };
  const releaseReserve = () => {
    try {
      unlinkSync(reserve);
      return true;
    } catch {
      return false;
    }
  };

  const enter = (next: Exclude<TStorageState, "ok">) => {
    if (state === next) return;
    state = next;
    const released = next === "full" && releaseReserve();
    log?.(
      next === "full"
        ? "The disk holding DATA_DIR is full: writes are refused (507) until space is freed; reading and signing in go on."
        : "DATA_DIR is read-only: writes are refused (503) until it takes writes again; reading and signing in go on.",
      { data_dir: dataDir, ...(released ? { reserve_released_bytes: RESERVE_BYTES } : {}) },
    );
  };

  const probe = (): TStorageState => {
    probedAt = Date.now();
    const free = freeBytes(dataDir);
    const written = probeFile(dataDir);
    if (written !== "ok") enter(written);
    else if (free !== null && free < FULL_BELOW_BYTES) enter("full");
    else if (state !== "ok" && (free === null || free >= ROOM_AGAIN_BYTES || state === "read-only")) {
      state = "ok";
      log?.("DATA_DIR takes writes again.", { data_dir: dataDir, free_bytes: free });
    }
    if (state === "ok" && !keepReserve()) enter("full");
    return state;
  };

  return {
    /** The state, probed again when the last probe is older than a moment. */
    current(): TStorageState {
      return Date.now() - probedAt > PROBE_TTL_MS ? probe() : state;
    },
    /** Probes now (at start, and in tests). */
    probe,
    /** Gives the reserve back now (a start on a full disk, before the database is opened). */
    releaseReserve,
    /** A write failed for lack of space (or a read-only disk): refuse writes from now on. */
    failed(failure: Exclude<TStorageState, "ok">) {
      probedAt = Date.now();
      enter(failure);
    },
  };
}

export type TDiskSpace = ReturnType<typeof diskSpace>;

/** Writes that go on while the disk is full: signing in and out (a session row, in the reserve's room). */
const WRITES_WHILE_FULL = /^\/(api\/(login|logout)|auth\/(login|logout))\/?$/;

/**
 * Refuses a write (anything but GET, HEAD, OPTIONS) at once while DATA_DIR is full or read-only.
 * Typed by the one variable it reads rather than the app's whole context (which names TDiskSpace).
 */
export const refuseWritesWhileFull =
  (): MiddlewareHandler<{ Variables: { disk: TDiskSpace } }> => async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS" || WRITES_WHILE_FULL.test(c.req.path))
      return next();
    const state = c.var.disk.current();
    if (state !== "ok") throw storageError(state);
    return next();
  };
