import { afterAll, beforeAll, expect, test } from "bun:test";
import { appOver, createTestContext, type TTestContext } from "../test/setup";
import type { TAssetStore } from "./assets";

let ctx: TTestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.database.close());

const shapes = JSON.stringify({ type: "Topology", arcs: Array.from({ length: 500 }, (_, i) => [[i, i]]) });
const store: TAssetStore = {
  page: { scripts: [], styles: [] },
  async read(urlPath) {
    if (urlPath === "/assets/countries-110m-abc.json")
      return new Blob([shapes], { type: "application/json" });
    if (urlPath === "/assets/logo-abc.png")
      return new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" });
    return null;
  },
};

test("built text assets (the map's country shapes) are served gzipped and cached for good", async () => {
  const app = appOver(ctx, { assets: store });
  const res = await app.request("/assets/countries-110m-abc.json", {
    headers: { "accept-encoding": "gzip, br" },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-encoding")).toBe("gzip");
  expect(res.headers.get("cache-control")).toContain("immutable");
  expect(res.headers.get("vary")).toBe("Accept-Encoding");
  const body = new Uint8Array(await res.arrayBuffer());
  expect(body.byteLength).toBeLessThan(shapes.length / 2);
  expect(new TextDecoder().decode(Bun.gunzipSync(body))).toBe(shapes);
  // The second request is served from the kept result, byte for byte the same.
  const again = await app.request("/assets/countries-110m-abc.json", {
    headers: { "accept-encoding": "gzip" },
  });
  expect(new Uint8Array(await again.arrayBuffer())).toEqual(body);
});

test("without gzip in Accept-Encoding, and for images, the file goes as it is", async () => {
  const app = appOver(ctx, { assets: store });
  const plain = await app.request("/assets/countries-110m-abc.json");
  expect(plain.headers.get("content-encoding")).toBeNull();
  expect(await plain.text()).toBe(shapes);
  const png = await app.request("/assets/logo-abc.png", { headers: { "accept-encoding": "gzip" } });
  expect(png.headers.get("content-encoding")).toBeNull();
  expect((await png.arrayBuffer()).byteLength).toBe(4);
});
