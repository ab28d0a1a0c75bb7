import { z } from "zod";

// The periods, without zod, so /home's route (in every screen's JavaScript) does not load zod.
import { DEFAULT_PERIOD, PERIODS, type TPeriod } from "./periods";

export { DEFAULT_PERIOD, PERIODS, type TPeriod } from "./periods";

export const ZPeriod = z.enum(PERIODS, {
  error: (issue) => `Unknown filter ${JSON.stringify(issue.input)}; allowed: ${PERIODS.join(", ")}`,
});

/**
 * `?filter=&user_id=` of the home endpoints: one of the periods, "all" when absent; with user_id,
 * only the shipments that member of the workspace created (a removed member's included).
 */
export const ZPeriodQuery = z.object({
  filter: ZPeriod.default(DEFAULT_PERIOD),
  user_id: z.coerce
    .number({ error: "user_id must be a member's id (a whole number)" })
    .int("user_id must be a member's id (a whole number)")
    .positive("user_id must be a member's id (a whole number)")
    .max(Number.MAX_SAFE_INTEGER, "user_id must be a member's id (a whole number)")
    .optional(),
});

/** `?filter=&country_id=&page=&per_page=` of GET /api/home/map; per_page=0 answers only the destinations. */
export const ZMapQuery = ZPeriodQuery.extend({
  country_id: z.coerce
    .number({ error: "country_id must be a country id (a whole number)" })
    .int("country_id must be a whole number")
    .positive("country_id must be a whole number")
    .optional(),
  page: z.coerce.number().int().min(1, "page must be a whole number of at least 1").default(1),
  per_page: z.coerce
    .number()
    .int()
    .min(0, "per_page must be between 0 and 500")
    .max(500, "per_page must be between 0 and 500")
    .default(100),
});

/** The statuses the dashboard counts, in the order the tiles show them (templates are not shipments). */
export const PERFORMANCE_STATUSES = [
  { id: 2, name: "draft", color: "yellow" },
  { id: 3, name: "in transit", color: "blue" },
  { id: 4, name: "customs", color: "orange" },
  { id: 5, name: "delayed", color: "red" },
  { id: 6, name: "delivered", color: "green" },
] as const;

/** A performance entry (spec section 3): status, count, percentage. */
export type TPerformanceEntry = { status_id: number; status: string; count: number; percentage: number };

/** GET /api/home/shipping-performance. */
export type TPerformance = {
  filter: TPeriod;
  /** First day of the period and the first day after it (YYYY-MM-DD, UTC); null for "all". */
  from: string | null;
  until: string | null;
  total: number;
  /** Whether the workspace has any shipment at all (in any period): an empty dashboard invites creating one. */
  has_shipments: boolean;
  /** The spec's client reads data.data[0].shipments and data.data[1].percentage. */
  data: [{ shipments: TPerformanceEntry[] }, { percentage: TPerformanceEntry[] }];
};

/** A row of GET /api/home/most-recent-shipments. */
export type TRecentShipment = {
  id: number;
  /** The ship date, else the day the shipment was created (YYYY-MM-DD). */
  date: string;
  ship_date: string | null;
  addressee: string | null;
  destination: string | null;
  destination_code: string | null;
  tracking_number: string;
  tracking_number_2: string;
  status_id: number;
};

/** A row of GET /api/home/most-common-shipments. */
export type TCommonDestination = {
  country_id: number;
  destination: string;
  code_iso_2: string;
  order_number: number;
  order_percent: number;
};

/** One destination on the map: its reference centroid and how many shipments go there. */
export type TMapDestination = {
  country_id: number;
  name: string;
  code_iso_2: string;
  lat: number;
  lng: number;
  count: number;
};

/** A map entry (spec section 3); name is the status. */
export type TMapEntry = {
  id: number;
  lat: number;
  lng: number;
  ship_date: string | null;
  shiper_ref: string;
  carrier: string | null;
  name: string;
};

/** GET /api/home/map. */
export type TMapAnswer = {
  filter: TPeriod;
  destinations: TMapDestination[];
  data: TMapEntry[];
  total: number;
  current_page: number;
  per_page: number;
  last_page: number;
};

/**
 * Whole-number percentages of `counts` that sum to exactly 100 (largest-remainder method), or all
 * 0 when the counts are all 0. Ties in the remainder go to the larger count, then the earlier entry.
 */
export function largestRemainder(counts: readonly number[]): number[] {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (total === 0) return counts.map(() => 0);
  // Integer arithmetic: floor(n*100/total) and its remainder n*100 % total, no floats.
  const floors = counts.map((n) => Math.floor((n * 100) / total));
  const remainders = counts.map((n) => (n * 100) % total);
  let left = 100 - floors.reduce((sum, n) => sum + n, 0);
  const order = counts
    .map((_, i) => i)
    .sort((a, b) => remainders[b] - remainders[a] || counts[b] - counts[a] || a - b);
  for (const i of order) {
    if (left === 0) break;
    floors[i] += 1;
    left -= 1;
  }
  return floors;
}
