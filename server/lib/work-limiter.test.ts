import { describe, expect, test } from "bun:test";
import { Hono } from "hono";
import type { TAppEnv } from "./context";
import { AppError, STATUS_BY_CODE } from "./errors";
import { workLimiter } from "./work-limiter";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("workLimiter", () => {
  test("runs at most `concurrency` at once, queues `maxQueued`, refuses the rest with 503 + Retry-After", async () => {
    const limiter = workLimiter({ what: "testing", concurrency: 2, maxQueued: 3, retryAfterSeconds: 7 });
    let active = 0;
    let peak = 0;
    const gates: (() => void)[] = [];
    const job = () =>
      limiter.run(async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise<void>((resolve) => gates.push(resolve));
        active--;
        return "done";
      });
    const settled = Array.from({ length: 8 }, () =>
      job().then(
        (v) => v,
        (e: unknown) => e,
      ),
    );
    await tick();
    expect(limiter.state()).toEqual({ running: 2, queued: 3 });
    while (gates.length || limiter.state().running) {
      gates.shift()?.();
      await tick();
    }
    const results = await Promise.all(settled);
    expect(peak).toBe(2);
    expect(results.filter((r) => r === "done").length).toBe(5);
    const refused = results.filter((r) => r instanceof AppError) as AppError[];
    expect(refused.length).toBe(3);
    expect(STATUS_BY_CODE[refused[0].code]).toBe(503);
    expect(refused[0].headers?.["Retry-After"]).toBe("7");
    expect(refused[0].message).toContain("testing");
    expect(limiter.state()).toEqual({ running: 0, queued: 0 });
  });

  test("a queued request that waits too long is refused, and its place is given up", async () => {
    const limiter = workLimiter({ what: "testing", concurrency: 1, maxQueued: 5, maxWaitMs: 20 });
    const release = await limiter.acquire();
    const waited = await limiter.acquire().then(
      () => null,
      (error: unknown) => error,
    );
    expect(waited).toBeInstanceOf(AppError);
    expect(limiter.state()).toEqual({ running: 1, queued: 0 });
    release();
    release();
    expect(limiter.state()).toEqual({ running: 0, queued: 0 });
  });

  test("a streamed answer holds its slot until the stream has been read", async () => {
    const limiter = workLimiter({ what: "testing", concurrency: 1, maxQueued: 0 });
    const app = new Hono<TAppEnv>()
      .onError((error, c) => c.json({ message: error.message }, error instanceof AppError ? 503 : 500))
      .get("/", limiter.middleware(), (c) => {
        const parts = ["a", "b", "c"];
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            const next = parts.shift();
            if (next) controller.enqueue(new TextEncoder().encode(next));
            else controller.close();
          },
        });
        return c.body(body, 200, { "content-type": "application/octet-stream" });
      });
    const first = await app.request("/");
    expect(limiter.state().running).toBe(1);
    const second = await app.request("/");
    expect(second.status).toBe(503);
    expect(await first.text()).toBe("abc");
    await tick();
    expect(limiter.state().running).toBe(0);
    expect((await app.request("/")).status).toBe(200);
  });
});
