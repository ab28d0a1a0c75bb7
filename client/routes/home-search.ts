import type { TPeriod } from "../../db/contracts/periods";
import type { TListSearch } from "../lib/list-search";

/**
 * /home's search: the period (bookmarkable; absent means all), the member whose shipments it
 * shows (absent: everyone's), the recent table's page, sort and
 * filters under the list screens' usual names, and the destinations table's page as cpage.
 * Its own module, so the route (./home) and its lazily loaded screen (./home-screen) share it
 * without importing each other.
 */
export type THomeSearch = TListSearch & { period?: TPeriod; user?: number; cpage?: number };
