import { workLimiter } from "./work-limiter";

// The kinds of heavy work, each with its own bounded concurrency and queue (server/lib/work-limiter.ts).
// Two cores: two of a kind at once keep the event loop free for everyone else; a burst waits in
// order, and what does not fit in the queue is told to come back (503 + Retry-After) at once.

/** Report exports (Arrow streams, JSON lines, summaries): read off-thread, encoded here. */
export const exportLimiter = workLimiter({ what: "exporting reports", concurrency: 2, maxQueued: 6 });

/** Paperwork generation (the generate route and a shipment save that asks for documents). */
export const paperworkLimiter = workLimiter({
  what: "generating paperwork",
  concurrency: 2,
  maxQueued: 16,
});

/**
 * Document uploads: each streams to disk as it arrives (server/lib/multipart-spool.ts), so four at
 * once cost little memory. None waits in a queue: the runtime buffers the body of a request nobody
 * reads yet, so a queued maximum-size upload would sit in memory whole; the fifth gets the 503.
 */
export const uploadLimiter = workLimiter({ what: "receiving uploads", concurrency: 4, maxQueued: 0 });
