// npm run test:security: the hostile-review suite with the full-size fuzzer.
// FUZZ_REQUESTS / FUZZ_SEED override the size and the seed.
import { ROOT } from "./lib";

const proc = Bun.spawn(
  [
    process.execPath,
    "test",
    "--timeout",
    "300000",
    "server/security",
    // The child of a bulk command ends with its parent; heavy work queues or is refused with a 503.
    "server/lib/bulk-process.test.ts",
    "server/lib/work-limiter.test.ts",
    "server/features/screening/screening-pending.test.ts",
    "db/migrate.test.ts",
    "client/lib/session.test.ts",
  ],
  {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, FUZZ_REQUESTS: process.env.FUZZ_REQUESTS ?? "5000" },
  },
);
process.exit(await proc.exited);
