// The drizzle database every service takes, in a file of its own so that the modules openDatabase
// builds on (the reader) can name it without importing db/client.ts.
import type { drizzle } from "drizzle-orm/libsql";
import type * as schema from "./schema";

export type TDb = ReturnType<typeof drizzle<typeof schema>>;
