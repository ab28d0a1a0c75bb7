import { describe, expect, test } from "bun:test";
import { CLIENT_ENTRY, pageAssetsFromManifest } from "./assets";

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
});
