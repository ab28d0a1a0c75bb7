import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { preparePerspectiveWasm } from "./scripts/perspective-wasm.ts";
import { precompressFolder } from "./scripts/precompress.ts";

// The reports screen imports Perspective's engine already inflated (see scripts/perspective-wasm.ts).
await preparePerspectiveWasm();

/** Brotli and gzip copies of the built assets, served by the server when the browser accepts them. */
function precompress(): Plugin {
  return {
    name: "tradewinds-precompress",
    apply: "build",
    closeBundle() {
      precompressFolder("dist/client");
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  publicDir: "public",
  // Perspective ships its own WASM and workers: prebundling them breaks their asset URLs.
  optimizeDeps: {
    exclude: [
      "@finos/perspective",
      "@finos/perspective-viewer",
      "@finos/perspective-viewer-datagrid",
      "@finos/perspective-viewer-d3fc",
    ],
  },
  build: {
    // Perspective's modules use top-level await.
    target: "es2022",
    outDir: "dist/client",
    emptyOutDir: true,
    manifest: true,
    // React, the router and Radix make a ~520 kB entry; heavy screens (map, pivot) load lazily.
    chunkSizeWarningLimit: 700,
    sourcemap: false,
    rollupOptions: { input: "client/entry-client.tsx" },
  },
  server: { middlewareMode: true },
  appType: "custom",
});
