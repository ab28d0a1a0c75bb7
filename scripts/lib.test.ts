import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findChromium } from "./lib";

describe("findChromium", () => {
  const fakeBrowser = (root: string, platform: string) => {
    const binary = path.join(root, "chromium-1200", platform, "chrome");
    mkdirSync(path.dirname(binary), { recursive: true });
    writeFileSync(binary, "");
    return binary;
  };

  test("CHROMIUM_PATH wins over everything else", () => {
    const root = mkdtempSync(path.join(tmpdir(), "tw-chromium-"));
    const own = path.join(root, "my-chrome");
    writeFileSync(own, "");
    fakeBrowser(root, "chrome-linux64");
    expect(findChromium({ CHROMIUM_PATH: own, PLAYWRIGHT_BROWSERS_PATH: root }, [])).toBe(own);
    rmSync(root, { recursive: true, force: true });
  });

  test("finds a Playwright-installed Chromium in either folder layout", () => {
    for (const platform of ["chrome-linux64", "chrome-linux"]) {
      const root = mkdtempSync(path.join(tmpdir(), "tw-chromium-"));
      const binary = fakeBrowser(root, platform);
      expect(findChromium({ PLAYWRIGHT_BROWSERS_PATH: root, HOME: "/nonexistent" }, [])).toBe(binary);
      const home = mkdtempSync(path.join(tmpdir(), "tw-home-"));
      const cached = fakeBrowser(path.join(home, ".cache", "ms-playwright"), platform);
      expect(findChromium({ HOME: home }, [])).toBe(cached);
      rmSync(root, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  });

  test("none found is null, so the test run can name the install command", () => {
    expect(findChromium({ HOME: "/nonexistent" }, ["/nonexistent/chromium"])).toBeNull();
  });
});
