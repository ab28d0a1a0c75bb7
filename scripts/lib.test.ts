import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findChromium, resolveChromium, SPARTICUZ_DIR } from "./lib";

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

describe("resolveChromium", () => {
  test("a Chromium found on the machine comes first", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "tw-chromium-"));
    const own = path.join(root, "my-chrome");
    writeFileSync(own, "");
    expect(await resolveChromium({ CHROMIUM_PATH: own, HOME: "/nonexistent" })).toEqual({
      executablePath: own,
      env: {},
      source: own,
    });
    rmSync(root, { recursive: true, force: true });
  });

  test.if(process.platform === "linux" && process.arch === "x64")(
    "with none on the machine (FORCE_SPARTICUZ=1), the one from npm is unpacked and runs",
    async () => {
      const found = await resolveChromium({ ...process.env, FORCE_SPARTICUZ: "1" });
      if ("error" in found) throw new Error(found.error);
      expect(found.executablePath).toBe(path.join(SPARTICUZ_DIR, "chromium"));
      const version = Bun.spawnSync([found.executablePath, "--version"], {
        env: { ...process.env, ...found.env },
      });
      expect(version.stdout.toString()).toMatch(/Chromium \d+/);
    },
    60_000,
  );
});
