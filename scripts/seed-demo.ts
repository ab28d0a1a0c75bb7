// npm run seed:demo [-- --shipments 100000 --seed 7]: demo data into DATA_DIR / DATABASE_URL, the same
// as `tradewinds seed-demo` in the compiled binary (server/features/shipments/seed-demo.ts).
import path from "node:path";
import { runCli } from "../server/cli";
import { diskAssetStore } from "../server/lib/assets";

const root = path.resolve(import.meta.dir, "..");
const code = await runCli(["seed-demo", ...process.argv.slice(2)], {
  migrationsFolder: async () => path.join(root, "db", "migrations"),
  screeningListsFolder: async () => path.join(root, "db", "screening-lists"),
  assets: () => diskAssetStore(path.join(root, "dist", "client")),
  render: async () => {
    throw new Error("seed-demo renders no pages");
  },
  self: [process.execPath, path.join(root, "server", "main.ts")],
});
process.exit(code);
