// npm run dev: the app with hot reload. Vite serves client modules with HMR and renders pages through
// ssrLoadModule, so client edits apply without a restart; `bun --watch` restarts on server edits.
import { createServer as createHttpServer } from "node:http";
import path from "node:path";
import { getRequestListener } from "@hono/node-server";
import { createServer as createViteServer } from "vite";
import { openDatabase } from "../db/client";
import { migrateDatabase } from "../db/migrate";
import { seedReferenceData } from "../db/reference/seed";
import { createApp } from "../server/app";
import { loadEnv } from "../server/env";
import { CLIENT_ENTRY } from "../server/lib/assets";
import { createLogger } from "../server/lib/logger";
import { createServices } from "../server/services";
import type { TRenderPage } from "../server/ssr";
import { ROOT } from "./lib";

const env = loadEnv();
const logger = createLogger(env.logLevel);
const database = await openDatabase(env.databaseUrl, env.databaseAuthToken);
await migrateDatabase(database.db, path.join(ROOT, "db", "migrations"));
await seedReferenceData(database.db);

// HMR rides on the app's own port, so the page's CSP (connect-src 'self') allows its websocket.
const httpServer = createHttpServer();
const vite = await createViteServer({
  root: ROOT,
  server: { middlewareMode: true, hmr: { server: httpServer } },
  appType: "custom",
});
const render: TRenderPage = async (args) => {
  const module = (await vite.ssrLoadModule("/client/entry-server.tsx")) as { render: TRenderPage };
  return module.render(args);
};
const app = createApp({
  db: database.db,
  env,
  logger,
  ...createServices(env, logger, database.db),
  // In dev the page loads the entry straight from Vite, which injects the CSS itself.
  assets: { page: { scripts: ["/@vite/client", `/${CLIENT_ENTRY}`], styles: [] }, read: async () => null },
  render,
  // Edited screens must render anew on every request.
  isKeepingPublicPages: false,
});
const listener = getRequestListener(app.fetch);
httpServer.on("request", (req, res) => vite.middlewares(req, res, () => listener(req, res)));
httpServer.listen(env.port, () => {
  logger.info(`Tradewinds dev server on http://localhost:${env.port} (hot reload on)`);
});
