import { describe, expect, test } from "bun:test";
import path from "node:path";
import { ConfigError, loadEnv } from "./env";

describe("loadEnv", () => {
  test("defaults: port 8000, ./data, embedded database, APP_URL from the port", () => {
    const env = loadEnv({});
    expect(env.port).toBe(8000);
    expect(env.dataDir).toBe(path.resolve("./data"));
    expect(env.databaseUrl).toBe(`file:${path.resolve("./data/app.db")}`);
    expect(env.appUrl).toBe("http://localhost:8000");
    expect(env.logLevel).toBe("info");
  });

  test("honours every variable; empty strings count as unset", () => {
    const env = loadEnv({
      PORT: "9001",
      DATA_DIR: "/tmp/tw-x",
      DATABASE_URL: "libsql://db.example.com",
      APP_URL: "https://trade.example.com/",
      LOG_LEVEL: "",
    });
    expect(env.port).toBe(9001);
    expect(env.dataDir).toBe("/tmp/tw-x");
    expect(env.databaseUrl).toBe("libsql://db.example.com");
    expect(env.appUrl).toBe("https://trade.example.com");
    expect(env.logLevel).toBe("info");
  });

  test.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PORT", "80.5"],
    ["DATABASE_URL", "postgres://x"],
    ["APP_URL", "not a url"],
    ["LOG_LEVEL", "loud"],
  ])("a bad %s (%s) throws a one-line message naming it", (name, value) => {
    let error: unknown;
    try {
      loadEnv({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toStartWith(`Invalid configuration: ${name} `);
    expect(message).not.toContain("\n");
  });
});

describe("starting with a bad configuration", () => {
  test("stops the process with exit code 1 and the variable named", async () => {
    const proc = Bun.spawn([process.execPath, path.resolve(import.meta.dir, "main.ts"), "serve"], {
      env: { ...process.env, PORT: "eighty", DATA_DIR: "/tmp/tw-never-created" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const code = await proc.exited;
    const stderr = await new Response(proc.stderr).text();
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'Invalid configuration: PORT must be a whole number between 0 and 65535 (0 picks a free port) (got "eighty")',
    );
  });
});
