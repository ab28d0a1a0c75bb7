import { afterEach, describe, expect, test } from "bun:test";
import { workerUrl } from "./worker-url";

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
