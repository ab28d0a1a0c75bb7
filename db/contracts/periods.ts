// The dashboard's periods, without zod (re-exported by ./home): /home's route parses its search
// with them, and routes load with every screen.

/** The dashboard's periods (spec section 9); "all" is the default. */
export const PERIODS = ["week", "month", "year", "all"] as const;
export type TPeriod = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: TPeriod = "all";
