import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { precompressFolder } from "../../scripts/precompress";
import { signUp } from "../test/factories";
import { appOver, createTestContext, type TTestContext } from "../test/setup";
import { diskAssetStore, parseAcceptEncoding } from "./assets";

let ctx: TTestContext;
let app: ReturnType<typeof appOver>;
const script = `console.log(${JSON.stringify("tradewinds ".repeat(400))});`;
// A WebAssembly file (the header of an empty module, then padding that compresses well).
const wasm = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...new Array(8000).fill(0)]);

beforeAll(async () => {
  ctx = await createTestContext();
  // A client build in miniature: a manifest, one script, one tiny file not worth compressing.
  const folder = mkdtempSync(path.join(tmpdir(), "tradewinds-assets-"));
  mkdirSync(path.join(folder, ".vite"), { recursive: true });
  mkdirSync(path.join(folder, "assets"));
  writeFileSync(
    path.join(folder, ".vite", "manifest.json"),
    JSON.stringify({ "client/entry-client.tsx": { file: "assets/entry.js", isEntry: true } }),
  );
  writeFileSync(path.join(folder, "assets", "entry.js"), script);
  writeFileSync(path.join(folder, "assets", "tiny.js"), "1");
  writeFileSync(path.join(folder, "assets", "engine.wasm"), wasm);
  precompressFolder(folder);
  app = appOver(ctx, { assets: diskAssetStore(folder) });
});
afterAll(() => ctx.database.close());

describe("compressed responses", () => {
  test("a built script goes out as the brotli copy when the browser accepts br", async () => {
    const res = await app.request("/assets/entry.js", {
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(res.headers.get("content-type")).toContain("javascript");
    expect(res.headers.get("vary")).toContain("Accept-Encoding");
    const body = new Uint8Array(await res.arrayBuffer());
    expect(body.length).toBeLessThan(script.length / 10);
    expect(new TextDecoder().decode(decodeBrotli(body))).toBe(script);
  });

  test("gzip when br is not accepted, the plain file when nothing is", async () => {
    const gz = await app.request("/assets/entry.js", { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(new Uint8Array(await gz.arrayBuffer())).toString()).toBe(script);
    const plain = await app.request("/assets/entry.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(script);
    const refused = await app.request("/assets/entry.js", {
      headers: { "accept-encoding": "br;q=0, gzip;q=0" },
    });
    expect(refused.headers.get("content-encoding")).toBeNull();
  });

  test("WebAssembly goes out compressed as application/wasm, cached for good (the reports screen compiles it while it downloads)", async () => {
    const res = await app.request("/assets/engine.wasm", { headers: { "accept-encoding": "gzip, br" } });
    expect(res.status).toBe(200);
    // compileStreaming refuses any other type.
    expect(res.headers.get("content-type")).toBe("application/wasm");
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const body = new Uint8Array(await res.arrayBuffer());
    expect(body.length).toBeLessThan(wasm.length / 10);
    expect(new Uint8Array(decodeBrotli(body))).toEqual(wasm);
    const gz = await app.request("/assets/engine.wasm", { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers.get("content-type")).toBe("application/wasm");
    expect(new Uint8Array(gunzipSync(new Uint8Array(await gz.arrayBuffer())))).toEqual(wasm);
  });

  test("a file too small to gain is served as is, and the variants are not served by their own name to a plain client", async () => {
    const res = await app.request("/assets/tiny.js", { headers: { "accept-encoding": "br" } });
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(await res.text()).toBe("1");
  });

  test("JSON from the API is gzipped for a browser that accepts it", async () => {
    const { auth } = await signUp(ctx);
    const res = await app.request("/api/dictionary?dropdown_values[]=countries", {
      headers: { ...auth, "accept-encoding": "gzip, br" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    const json = JSON.parse(gunzipSync(new Uint8Array(await res.arrayBuffer())).toString());
    expect(json.data.countries.length).toBeGreaterThan(200);
  });

  test("Accept-Encoding parsing honours q=0", () => {
    expect([...parseAcceptEncoding("gzip, br;q=0, deflate;q=0.5")]).toEqual(["gzip", "deflate"]);
    expect(parseAcceptEncoding("").size).toBe(0);
  });
});

function decodeBrotli(body: Uint8Array): Uint8Array {
  const { brotliDecompressSync } = require("node:zlib") as typeof import("node:zlib");
  return brotliDecompressSync(body);
}
