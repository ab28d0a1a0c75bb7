import path from "node:path";
import { runInBulkChild } from "./lib/bulk-process";

// Running from source: migrations and the client build are read from the checkout.
const root = path.resolve(import.meta.dir, "..");

// A bulk command runs in a child with the allocator set for it (decision 012), before the rest of
// the program is loaded here for nothing.
const self = [process.execPath, path.join(import.meta.dir, "main.ts")];
const inChild = runInBulkChild(self, process.argv.slice(2));
if (inChild) process.exit(await inChild);

const { runCli } = await import("./cli");
const { diskAssetStore } = await import("./lib/assets");
const code = await runCli(process.argv.slice(2), {
  migrationsFolder: async () => path.join(root, "db", "migrations"),
  screeningListsFolder: async () => path.join(root, "db", "screening-lists"),
  assets: () => diskAssetStore(path.join(root, "dist", "client")),
  render: async () => (await import("../client/entry-server")).render,
  self,
});
process.exit(code);
