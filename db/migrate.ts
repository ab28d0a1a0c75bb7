import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { migrate } from "drizzle-orm/libsql/migrator";
import type { TDb } from "./client";

/** Applies every committed drizzle-kit migration in `folder` that the database has not seen yet. */
export async function migrateDatabase(db: TDb, folder: string): Promise<void> {
  await migrate(db, { migrationsFolder: folder });
}

/** A lock older than this is left over from a crash, whatever its process id says. */
const STALE_LOCK_MS = 10 * 60 * 1000;
const WAIT_LIMIT_MS = 5 * 60 * 1000;

function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** An empty lock (its holder could not write its id: a full disk) is taken over after this long. */
const EMPTY_LOCK_MS = 10 * 1000;

/** Removes a lock file whose holder is gone (killed mid-migration) or that is implausibly old. */
function clearStaleLock(lockPath: string): void {
  try {
    const content = readFileSync(lockPath, "utf8");
    const age = Date.now() - statSync(lockPath).mtimeMs;
    if (!content) {
      if (age > EMPTY_LOCK_MS) unlinkSync(lockPath);
      return;
    }
    const [pid] = content.split(" ");
    if (!isProcessAlive(Number(pid)) || age > STALE_LOCK_MS) unlinkSync(lockPath);
  } catch {
    // Gone already, or half-written by a holder that is starting: try again shortly.
  }
}

/**
 * Runs `work` while holding an exclusive lock file (created with O_EXCL, so only one process can),
 * waiting for another holder to finish. Two processes started together on an empty data folder
 * both used to read "nothing applied yet" and both ran the first migration; with the lock the
 * second one waits, then finds everything applied. A lock left by a killed process is taken over.
 */
export async function withMigrationLock<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = openSync(lockPath, "wx");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // No room for even an empty file, or a read-only folder: nothing can be migrated there, and
      // a database that needs nothing opens without the lock (one that does fails with its reason).
      if (code === "ENOSPC" || code === "EDQUOT" || code === "EROFS") return work();
      if (code !== "EEXIST") throw error;
      if (Date.now() - started > WAIT_LIMIT_MS) {
        throw new Error(
          `Another process has been migrating the database for minutes (lock ${lockPath}); remove the file if no such process runs.`,
        );
      }
      clearStaleLock(lockPath);
      await Bun.sleep(50 + Math.random() * 50);
    }
  }
  try {
    try {
      writeSync(fd, `${process.pid} ${new Date().toISOString()}`);
    } catch {
      // A full disk: the lock is held all the same (the file exists), only without its holder's id.
    }
    return await work();
  } finally {
    closeSync(fd);
    try {
      unlinkSync(lockPath);
    } catch {
      // Taken over as stale meanwhile: nothing of ours to remove.
    }
  }
}
