import { parseArgs } from "node:util";
import type { TDatabase } from "../../../db/client";
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemo } from "./seed-demo";

export const SEED_DEMO_HELP = `Usage: tradewinds seed-demo [--shipments N] [--seed S] [--today YYYY-MM-DD]
                          [--email <e-mail>] [--password <password>]

Creates a demo workspace with a login, an address book in many countries, products with export
classifications, licences and N shipments over the two years before today in every status (plus a
few templates), each with 3 items and 2 packages. The same --seed and --today give the same data.
Writes into DATA_DIR / DATABASE_URL like the server; run it while the server is stopped or idle.

Options:
  --shipments N     How many shipments (default 500; 100000 takes well under a minute)
  --seed S          Random seed, a whole number (default 1)
  --today DATE      The last day of the data (default: today, UTC)
  --email E         The demo login (default ${DEMO_EMAIL}); it must not exist yet
  --password P      Its password (default ${DEMO_PASSWORD})
  --help            Show this help`;

/** `tradewinds seed-demo`: fills a workspace with demo data and prints the login. Returns the exit code. */
export async function seedDemoCommand(args: string[], database: TDatabase): Promise<number> {
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({
      args,
      options: {
        shipments: { type: "string" },
        seed: { type: "string" },
        today: { type: "string" },
        email: { type: "string" },
        password: { type: "string" },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${SEED_DEMO_HELP}`);
    return 2;
  }
  const shipments = Number(values.shipments ?? 500);
  const seed = Number(values.seed ?? 1);
  if (!Number.isInteger(shipments) || shipments < 0 || shipments > 5_000_000) {
    console.error(`--shipments must be a whole number from 0 to 5,000,000, not "${values.shipments}"`);
    return 2;
  }
  if (!Number.isInteger(seed)) {
    console.error(`--seed must be a whole number, not "${values.seed}"`);
    return 2;
  }
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let lastReport = 0;
  try {
    const result = await seedDemo(database.db, database.client, {
      shipments,
      seed,
      today: values.today ?? new Date().toISOString().slice(0, 10),
      email: values.email,
      password: values.password,
      onProgress(done, total) {
        const now = performance.now();
        if (total < 10_000 || (now - lastReport < 1000 && done < total)) return;
        lastReport = now;
        console.log(`… ${done.toLocaleString("en-US")}/${total.toLocaleString("en-US")} shipments`);
      },
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const cpu = process.cpuUsage(cpuBefore);
    // CPU time next to wall time: on a shared machine the wall clock mostly measures the neighbours.
    const cpuSeconds = ((cpu.user + cpu.system) / 1e6).toFixed(1);
    console.log(
      `Demo data ready in ${seconds} s (${cpuSeconds} s CPU): ${result.contacts} contacts, ${result.products} products, ${result.licenses} licences, ${result.shipments.toLocaleString("en-US")} shipments and ${result.templates} templates.`,
    );
    console.log(`Log in as ${result.email} with the password ${result.password}`);
    return 0;
  } catch (error) {
    console.error(`Seeding failed: ${(error as Error).message}`);
    return 1;
  }
}
