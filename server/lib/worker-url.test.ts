import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { reportWorkerFallback, WORKER_FALLBACK, workerUrl } from "./worker-url";

const global = globalThis as { TRADEWINDS_BUNDLE_ROOT?: string };

describe("workerUrl", () => {
  afterEach(() => {
    delete global.TRADEWINDS_BUNDLE_ROOT;
  });

  test("from source, a worker starts from its module's URL", () => {
    const url = new URL("./contacts/contact-parse.worker.ts", import.meta.url);
    expect(workerUrl(url)).toBe(url.href);
  });

  test("in the executable, a worker starts from its embedded entry, named by its path from the bundle's root", () => {
    // What scripts/build-binary.ts defines; import.meta.url there still names the build machine's file.
    global.TRADEWINDS_BUNDLE_ROOT = "/build/tradewinds";
    const url = new URL("file:///build/tradewinds/server/features/screening/screening.worker.ts");
    expect(workerUrl(url)).toBe("./server/features/screening/screening.worker.ts");
  });
});

describe("reportWorkerFallback", () => {
  const saved = { NODE_ENV: process.env.NODE_ENV, LOG_LEVEL: process.env.LOG_LEVEL };
  afterEach(() => {
    process.env.NODE_ENV = saved.NODE_ENV;
    if (saved.LOG_LEVEL === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = saved.LOG_LEVEL;
  });

  test("a worker that could not start is said once per module, as a warning naming it and why", () => {
    process.env.NODE_ENV = "production";
    delete process.env.LOG_LEVEL;
    const errors = spyOn(console, "error").mockImplementation(() => {});
    try {
      reportWorkerFallback("./server/features/x/first.worker.ts", "Cannot find module '@libsql/client'");
      reportWorkerFallback("./server/features/x/first.worker.ts", "again");
      reportWorkerFallback("file:///srv/server/features/x/second.worker.ts", "the worker stopped");
      const lines = errors.mock.calls.map((call) => String(call[0]));
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain(`WARN ${WORKER_FALLBACK} worker=first.worker.ts`);
      expect(lines[0]).toContain(`reason="Cannot find module '@libsql/client'"`);
      expect(lines[1]).toContain("worker=second.worker.ts");
    } finally {
      errors.mockRestore();
    }
  });

  test("quiet when the log level asks for errors only, and under bun test", () => {
    const errors = spyOn(console, "error").mockImplementation(() => {});
    try {
      process.env.NODE_ENV = "production";
      process.env.LOG_LEVEL = "error";
      reportWorkerFallback("./third.worker.ts", "no");
      process.env.LOG_LEVEL = "warn";
      process.env.NODE_ENV = "test";
      reportWorkerFallback("./fourth.worker.ts", "no");
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });
});
