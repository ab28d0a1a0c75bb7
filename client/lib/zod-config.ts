// The client's "zod": every `import … from "zod"` in the client build resolves here
// (vite.config.ts, lazyModules), so the setting below runs before any schema is used, in whichever
// lazy chunk zod first loads (list screens never load it).
// zod compiles fast parsers with `new Function`, probing for it first; under our CSP (no
// unsafe-eval) that probe is a console violation.
import { z } from "zod";

z.config({ jitless: true });

export * from "zod";
export { z as default, z };
