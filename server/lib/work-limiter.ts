import type { MiddlewareHandler } from "hono";
import type { TAppEnv } from "./context";
import { AppError } from "./errors";

export type TWorkLimiter = {
  /** Runs `work` once a slot is free; 503 with Retry-After when the queue is full or the wait too long. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Takes a slot (waiting in the queue); the returned function gives it back (once). */
  acquire(): Promise<() => void>;
  /**
   * The route middleware: the request holds a slot from before its body is read until its answer
   * is sent in full (a streamed answer keeps the slot until the stream ends or is cancelled).
   */
  middleware(): MiddlewareHandler<TAppEnv>;
  /** What runs and waits now (tests and diagnostics). */
  state(): { running: number; queued: number };
};

/**
 * Bounded concurrency for one kind of heavy work (exports, paperwork, uploads): at most `concurrency`
 * at once, up to `maxQueued` more waiting in order, and past that a clear 503 with Retry-After at
 * once, so a burst queues or is refused instead of taking the event loop and memory from everyone.
 */
export function workLimiter(options: {
  /** What is limited, as the 503 says it ("generating paperwork"). */
  what: string;
  concurrency: number;
  maxQueued: number;
  /** A request that waited this long in the queue gets the 503 instead of running late. */
  maxWaitMs?: number;
  retryAfterSeconds?: number;
}): TWorkLimiter {
  const { concurrency, maxQueued, maxWaitMs = 60_000, retryAfterSeconds = 5 } = options;
  let running = 0;
  const queue: { grant: () => void; timer: ReturnType<typeof setTimeout> }[] = [];

  const busy = () =>
    new AppError(
      "UNAVAILABLE",
      `The server is busy ${options.what} for other requests. Please try again in ${retryAfterSeconds} seconds.`,
      { headers: { "Retry-After": String(retryAfterSeconds) } },
    );

  const release = () => {
    const next = queue.shift();
    if (next) {
      clearTimeout(next.timer);
      next.grant();
    } else running -= 1;
  };

  const acquire = (): Promise<() => void> => {
    let isReleased = false;
    const releaseOnce = () => {
      if (isReleased) return;
      isReleased = true;
      release();
    };
    if (running < concurrency) {
      running += 1;
      return Promise.resolve(releaseOnce);
    }
    if (queue.length >= maxQueued) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      const entry = {
        // The slot passes straight from the releasing holder: `running` stays the same.
        grant: () => resolve(releaseOnce),
        timer: setTimeout(() => {
          const at = queue.indexOf(entry);
          if (at !== -1) queue.splice(at, 1);
          reject(busy());
        }, maxWaitMs),
      };
      queue.push(entry);
    });
  };

  return {
    acquire,
    async run(work) {
      const done = await acquire();
      try {
        return await work();
      } finally {
        done();
      }
    },
    middleware: () => async (c, next) => {
      const done = await acquire();
      try {
        await next();
      } catch (error) {
        done();
        throw error;
      }
      const body = c.res.body;
      // A JSON answer is built in memory already; only a streamed one (an export) holds the slot on.
      if (!body || /json/i.test(c.res.headers.get("content-type") ?? "")) {
        done();
        return;
      }
      // The answer streams after the handler returns: the slot is held until it is sent or dropped.
      const reader = body.getReader();
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { done: isDone, value } = await reader.read();
            if (isDone) {
              done();
              controller.close();
            } else controller.enqueue(value);
          } catch (error) {
            done();
            controller.error(error);
          }
        },
        cancel(reason) {
          done();
          return reader.cancel(reason);
        },
      });
      c.res = new Response(stream, c.res);
    },
    state: () => ({ running, queued: queue.length }),
  };
}
