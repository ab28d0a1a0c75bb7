import type { Client, InStatement, Transaction, TransactionMode } from "@libsql/client";

/** A FIFO async mutex. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();

  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.tail;
    this.tail = previous.then(() => next);
    return previous.then(() => release);
  }
}

const READ_ONLY = /^\s*(select|explain)\b/i;

/** Takes a client's in-process write lock for work done elsewhere (another thread's connection). */
export const HOLD_WRITE_LOCK = Symbol("holdWriteLock");
const sqlOf = (stmt: InStatement | string) => (typeof stmt === "string" ? stmt : stmt.sql);

/**
 * Serialises writes within this process. libsql's embedded driver waits for SQLite's write lock
 * synchronously, which blocks the event loop: a second writer in the same process would freeze it
 * while the lock holder (an import's transaction, say) could never get to commit. So every write
 * statement, batch and transaction first takes an async lock and waits its turn without blocking;
 * reads go straight through (WAL lets them run beside a write). Statements inside a transaction run
 * on its own connection and do not take the lock again.
 */
export function withWriteLock(client: Client): Client {
  const mutex = new Mutex();
  const locked = async <T>(run: () => Promise<T>): Promise<T> => {
    const release = await mutex.lock();
    try {
      return await run();
    } finally {
      release();
    }
  };
  const wrapTransaction = (tx: Transaction, release: () => void): Transaction => {
    let isReleased = false;
    const releaseOnce = () => {
      if (!isReleased) {
        isReleased = true;
        release();
      }
    };
    return new Proxy(tx, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop === "commit" || prop === "rollback") {
          return async () => {
            try {
              return await (value as () => Promise<void>).call(target);
            } finally {
              releaseOnce();
            }
          };
        }
        if (prop === "close") {
          return () => {
            try {
              (value as () => void).call(target);
            } finally {
              releaseOnce();
            }
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  };
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === HOLD_WRITE_LOCK) return () => mutex.lock();
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (prop === "execute") {
        return (stmt: InStatement | string, args?: unknown) => {
          const run = () => (value as (s: unknown, a?: unknown) => Promise<unknown>).call(target, stmt, args);
          return READ_ONLY.test(sqlOf(stmt)) ? run() : locked(run);
        };
      }
      if (prop === "batch" || prop === "migrate" || prop === "executeMultiple") {
        return (...args: unknown[]) =>
          locked(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      }
      if (prop === "transaction") {
        return async (mode?: TransactionMode) => {
          const release = await mutex.lock();
          try {
            const tx = await (value as (m?: TransactionMode) => Promise<Transaction>).call(target, mode);
            return wrapTransaction(tx, release);
          } catch (error) {
            release();
            throw error;
          }
        };
      }
      return value.bind(target);
    },
  });
}
