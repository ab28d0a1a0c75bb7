import { hostname } from "node:os";
import type { Client } from "@libsql/client";
import { migrate } from "drizzle-orm/libsql/migrator";
import type { TDb } from "./client";

/** Applies every committed drizzle-kit migration in `folder` that the database has not seen yet. */
export async function migrateDatabase(db: TDb, folder: string): Promise<void> {
  await migrate(db, { migrationsFolder: folder });
}

/**
 * Named locks shared by every process of one database, kept in the database itself (outside the
 * drizzle schema: the table must exist before the first migration runs). A holder renews its
 * expiry while it works, so a holder that dies (kill -9, a lost machine) frees the lock when its
 * expiry passes.
 */
const LOCKS_TABLE = `CREATE TABLE IF NOT EXISTS app_locks (
  name TEXT PRIMARY KEY NOT NULL,
  owner TEXT NOT NULL,
  expires_at INTEGER NOT NULL
)`;

/** How long a lock outlives its holder's last renewal; the holder renews it every third of this. */
export const LOCK_TTL_MS = 30_000;
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

/** "host pid random": the host and process id let a holder on this machine that died be seen at once. */
const newOwner = () => `${hostname()} ${process.pid} ${crypto.randomUUID()}`;

/** True when the owner ran on this machine and its process is gone (so its lock need not expire first). */
function isDeadLocalOwner(owner: string): boolean {
  const [host, pid] = owner.split(" ");
  return host === hostname() && Number(pid) !== process.pid && !isProcessAlive(Number(pid));
}

/**
 * The database's clock in milliseconds, as SQL: expiry is written and compared on the one clock
 * every process shares, so a machine whose clock runs ahead cannot take a live lock as expired.
 */
const DB_NOW_MS = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";

/** One attempt: takes the lock if it is free, expired or held by a dead process on this machine. */
async function tryAcquire(client: Client, name: string, owner: string): Promise<boolean> {
  const taken = await client.execute({
    sql: `INSERT INTO app_locks (name, owner, expires_at) VALUES (?, ?, ${DB_NOW_MS} + ?)
      ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
      WHERE app_locks.expires_at < ${DB_NOW_MS}`,
    args: [name, owner, LOCK_TTL_MS],
  });
  if (taken.rowsAffected === 1) return true;
  const current = await client.execute({ sql: "SELECT owner FROM app_locks WHERE name = ?", args: [name] });
  const holder = current.rows[0]?.owner;
  if (typeof holder === "string" && isDeadLocalOwner(holder)) {
    await client.execute({ sql: "DELETE FROM app_locks WHERE name = ? AND owner = ?", args: [name, holder] });
  }
  return false;
}

/**
 * Runs `work` while holding the database-wide lock `name`, waiting for another holder (in any
 * process on any machine using this database) to finish. Two processes started together on an
 * empty database both used to read "nothing applied yet" and both migrate and seed; with the lock
 * the second one waits, then finds everything done. When taking the lock fails with an error that
 * `isUnwritable` accepts (a full disk), `work` runs without it: a database that needs nothing
 * opens, one that does fails with its own reason.
 */
export async function withDatabaseLock<T>(
  client: Client,
  name: string,
  work: () => Promise<T>,
  isUnwritable: (error: unknown) => boolean = () => false,
): Promise<T> {
  const owner = newOwner();
  const started = Date.now();
  try {
    await client.execute(LOCKS_TABLE);
    while (!(await tryAcquire(client, name, owner))) {
      if (Date.now() - started > WAIT_LIMIT_MS) {
        throw new Error(
          `Another process has held the database's "${name}" lock for minutes. If no such process runs, wait ${LOCK_TTL_MS / 1000} s for it to expire or delete its row from app_locks.`,
        );
      }
      await Bun.sleep(100 + Math.random() * 100);
    }
  } catch (error) {
    if (isUnwritable(error)) return work();
    throw error;
  }
  const renew = setInterval(() => {
    client
      .execute({
        sql: `UPDATE app_locks SET expires_at = ${DB_NOW_MS} + ? WHERE name = ? AND owner = ?`,
        args: [LOCK_TTL_MS, name, owner],
      })
      .then((renewed) => {
        if (renewed.rowsAffected === 0) {
          console.error(
            `The database's "${name}" lock was taken over while this process held it (renewals failed for ${LOCK_TTL_MS / 1000} s); another process may be doing the same work.`,
          );
        }
      })
      .catch(() => {});
  }, LOCK_TTL_MS / 3);
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await client
      .execute({ sql: "DELETE FROM app_locks WHERE name = ? AND owner = ?", args: [name, owner] })
      .catch(() => {});
  }
}
