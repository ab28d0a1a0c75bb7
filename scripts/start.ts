// npm start: build the client if it is missing or stale, then migrate, seed and serve.
import path from "node:path";
import { ensureClientBuild, ROOT } from "./lib";

await ensureClientBuild();
const server = Bun.spawn([process.execPath, path.join(ROOT, "server", "main.ts"), "serve"], {
  cwd: process.cwd(),
  // React's development build renders several times slower on the server.
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? "production" },
  stdio: ["inherit", "inherit", "inherit"],
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
process.exit(await server.exited);
