import { z } from "zod";

// zod compiles fast parsers with `new Function`, probing for it first; under our CSP (no
// unsafe-eval) that probe is a console violation. Imported first by the client entry.
z.config({ jitless: true });
