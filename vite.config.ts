import path from "node:path";
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

/**
 * Packages the client reaches through a module of ours, by bare name, from every other module:
 * zod (set jitless before any schema is used, whichever lazy chunk loads it first) and sonner
 * (loaded on the first toast instead of with every screen). Only that module imports the package
 * itself. Keeps the screens' `import … from "zod" | "sonner"` as they are; types come from the packages.
 */
function lazyModules(): Plugin {
  const wrappers: Record<string, string> = {
    zod: path.resolve(import.meta.dirname, "client/lib/zod-config.ts"),
    sonner: path.resolve(import.meta.dirname, "client/lib/toast.tsx"),
  };
  return {
    name: "tradewinds-lazy-modules",
    enforce: "pre",
    resolveId(source, importer) {
      const wrapper = wrappers[source];
      if (!wrapper || !importer || path.resolve(importer.split("?")[0]!) === wrapper) return null;
      return wrapper;
    },
  };
}

/**
 * Perspective's worker instantiates its engine with `WebAssembly.instantiate(bytes)` and reads
 * `.instance` off the result. Given a compiled `WebAssembly.Module` (which `init_server` accepts and
 * hands to the worker as is), `instantiate` answers the Instance itself, so the worker broke. This
 * reads either, so the reports screen can compile the engine while it downloads (streaming) instead
 * of the worker compiling 10 MB from bytes after the download. The build fails if the code changed.
 */
const PERSPECTIVE_WORKER_INSTANTIATE = "let d=await WebAssembly.instantiate(n,i);return c(d.instance)";
function perspectiveCompiledEngine(): Plugin {
  let isPatched = false;
  return {
    name: "tradewinds-perspective-compiled-engine",
    transform(code, id) {
      if (!/@perspective-dev[\\/]client[\\/]dist[\\/]esm[\\/]perspective\.js$/.test(id.split("?")[0]!))
        return null;
      isPatched = true;
      if (!code.includes(PERSPECTIVE_WORKER_INSTANTIATE)) {
        throw new Error(
          "Perspective's worker no longer instantiates its engine as expected: review vite.config.ts",
        );
      }
      return code.replace(
        PERSPECTIVE_WORKER_INSTANTIATE,
        "let d=await WebAssembly.instantiate(n,i);d=d instanceof WebAssembly.Instance?{instance:d}:d;return c(d.instance)",
      );
    },
    // A bundle with Perspective's client code that this transform never saw (the package now resolves
    // to another file) would hand the worker a compiled module it cannot read: fail the build instead.
    generateBundle(_options, bundle) {
      const hasPerspective = Object.values(bundle).some(
        (output) =>
          output.type === "chunk" &&
          output.moduleIds.some((id) => /[\\/]@perspective-dev[\\/]client[\\/]dist[\\/]/.test(id)),
      );
      if (hasPerspective && !isPatched) {
        this.error("Perspective's worker code was bundled without its engine patch: review vite.config.ts");
      }
    },
  };
}

const CLIENT_ENTRY = path.resolve(import.meta.dirname, "client/entry-client.tsx");
let loadedFirst: Set<string> | undefined;

/** Whether a module is in the entry's static import graph: what every page loads before it runs. */
function isLoadedFirst(
  id: string,
  ctx: { getModuleInfo(id: string): { importedIds: readonly string[] } | null },
) {
  if (!loadedFirst) {
    loadedFirst = new Set();
    const stack = [CLIENT_ENTRY];
    while (stack.length) {
      const next = stack.pop()!;
      if (loadedFirst.has(next)) continue;
      loadedFirst.add(next);
      stack.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
    }
  }
  return loadedFirst.has(id) && id !== CLIENT_ENTRY;
}

export default defineConfig({
  plugins: [lazyModules(), perspectiveCompiledEngine(), react(), tailwindcss(), precompress()],
  publicDir: "public",
  // Perspective ships its own WASM and workers: prebundling them breaks their asset URLs.
  optimizeDeps: {
    exclude: ["@perspective-dev/client", "@perspective-dev/viewer", "@perspective-dev/viewer-datagrid"],
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
    rollupOptions: {
      input: "client/entry-client.tsx",
      output: {
        // Libraries every screen needs, in two chunks of their own: they change less often than
        // the app, so a browser keeps them cached across releases. The rest of what every screen
        // loads first (the frame, the list kit, the route table) is one "app" chunk instead of
        // dozens of tiny shared ones; everything else splits by route and loads when used.
        codeSplitting: {
          groups: [
            { name: "react", priority: 3, test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            {
              name: "vendor",
              priority: 2,
              test: /node_modules[\\/](@tanstack[\\/](router-core|react-router|history|store|react-store)|use-sync-external-store|tailwind-merge|clsx|class-variance-authority|@radix-ui[\\/](react-slot|react-compose-refs))[\\/]/,
            },
            // Our own modules and icons only: a library module can be in the graph (a barrel's
            // re-export) without any of it being used, and capturing it would keep it.
            {
              debugName: "app",
              name: (id, ctx) =>
                (!id.includes("node_modules") || /lucide-react/.test(id)) && isLoadedFirst(id, ctx)
                  ? "app"
                  : null,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  server: { middlewareMode: true },
  appType: "custom",
});
