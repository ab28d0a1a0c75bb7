import path from "node:path";
import { runCli } from "./cli";
import { diskAssetStore } from "./lib/assets";

// Running from source: migrations and the client build are read from the checkout.
const root = path.resolve(import.meta.dir, "..");

const code = await runCli(process.argv.slice(2), {
  migrationsFolder: async () => path.join(root, "db", "migrations"),
  screeningListsFolder: async () => path.join(root, "db", "screening-lists"),
  assets: () => diskAssetStore(path.join(root, "dist", "client")),
  render: async () => (await import("../client/entry-server")).render,
});
process.exit(code);
