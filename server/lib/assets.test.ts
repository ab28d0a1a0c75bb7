import { describe, expect, test } from "bun:test";
import { CLIENT_ENTRY, pageAssetsFromManifest, REPORTS_CHUNKS } from "./assets";

describe("page assets from Vite's manifest", () => {
  const manifest = {
    [CLIENT_ENTRY]: {
      file: "assets/entry-client-1.js",
      isEntry: true,
      imports: ["_react-2.js", "_app-3.js"],
      css: ["assets/entry-client-4.css"],
      dynamicImports: ["client/routes/auth-routes.tsx"],
    },
    "_react-2.js": { file: "assets/react-2.js" },
    "_app-3.js": {
      file: "assets/app-3.js",
      imports: ["_react-2.js", "_vendor-5.js"],
      css: ["assets/app-6.css"],
    },
    "_vendor-5.js": { file: "assets/vendor-5.js", imports: ["_react-2.js"] },
    "client/routes/auth-routes.tsx": { file: "assets/auth-routes-7.js", imports: ["_app-3.js", "_zod-8.js"] },
    "_zod-8.js": { file: "assets/zod-8.js" },
  };

  test("the entry's static imports, each once, are preloaded; lazy chunks are not", () => {
    const page = pageAssetsFromManifest(manifest);
    expect(page.scripts).toEqual(["/assets/entry-client-1.js"]);
    expect(page.preloads?.sort()).toEqual(["/assets/app-3.js", "/assets/react-2.js", "/assets/vendor-5.js"]);
    expect(page.styles.sort()).toEqual(["/assets/app-6.css", "/assets/entry-client-4.css"]);
  });

  test("/reports' lazy chunks, their new imports, stylesheet and WASM are listed for its server render, Perspective's chunk to start", () => {
    expect(pageAssetsFromManifest(manifest).reports).toBeUndefined();
    const page = pageAssetsFromManifest({
      ...manifest,
      [REPORTS_CHUNKS[0]]: { file: "assets/reports-screen-9.js", imports: ["_app-3.js", "_switch-10.js"] },
      "_switch-10.js": { file: "assets/switch-10.js", imports: ["_react-2.js"] },
      [REPORTS_CHUNKS[1]]: {
        file: "assets/perspective-loader-11.js",
        css: ["assets/perspective-loader-12.css"],
        assets: ["assets/perspective-viewer-13.wasm", "assets/perspective-server-14.wasm", "assets/x-15.svg"],
      },
    });
    expect(page.reports).toEqual({
      modules: ["/assets/reports-screen-9.js", "/assets/switch-10.js", "/assets/perspective-loader-11.js"],
      styles: ["/assets/perspective-loader-12.css"],
      files: ["/assets/perspective-viewer-13.wasm", "/assets/perspective-server-14.wasm"],
      start: "/assets/perspective-loader-11.js",
    });
  });
});
