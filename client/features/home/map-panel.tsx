import { Link } from "@tanstack/react-router";
import { XIcon } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { TMapAnswer, TMapDestination, TMapEntry, TPeriod } from "../../../db/contracts/home";
import { Button } from "../../components/ui/button";
import { Skeleton } from "../../components/ui/skeleton";
import { Spinner } from "../../components/ui/spinner";
import type { TApi } from "../../lib/api";
import { formatDate } from "../../lib/format";
import { statusLabel } from "./statuses";

// The map (OpenLayers, ~300 KB) is its own chunk, requested only once the page runs in a browser.
const WorldMap = lazy(() => import("./world-map"));

/** How many shipments the list at a cluster shows per destination before linking on. */
const LIST_SIZE = 50;

/** Keeps the map's place on the page before and while its chunk loads, so nothing moves. */
function MapPlaceholder({ label }: { label: string }) {
  return (
    <div className="relative h-full w-full" role="status" aria-label={label}>
      <Skeleton className="h-full w-full rounded-none" />
      <span className="absolute inset-0 flex items-center justify-center text-sm text-muted-foreground">
        {label}
      </span>
    </div>
  );
}

/**
 * The world map card: the lazily-loaded map, a keyboard-usable list of its destinations, and the
 * shipments of a chosen cluster with links to them.
 */
export function MapPanel({
  map,
  period,
  user,
  api,
}: {
  map: TMapAnswer;
  period: TPeriod;
  /** The member whose shipments the map shows (everyone's when absent). */
  user?: number;
  api: TApi;
}) {
  const [isNear, setIsNear] = useState(false);
  const [selected, setSelected] = useState<TMapDestination[] | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  // The map (its chunk, the country shapes, OpenLayers' start) is the dashboard's heaviest work: it
  // starts only once its frame is on or near the screen, so on a phone, where it sits below the
  // fold, it does not hold up the page's start.
  useEffect(() => {
    const element = frame.current;
    if (!element || typeof IntersectionObserver === "undefined") {
      setIsNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setIsNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: "200px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // A new period redraws the markers; a list from the previous period would be stale.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the data changes.
  useEffect(() => setSelected(null), [map]);

  return (
    <div className="space-y-4">
      <div ref={frame} className="h-[260px] overflow-hidden rounded-lg border bg-sky-50 sm:h-[440px]">
        {isNear ? (
          <Suspense fallback={<MapPlaceholder label="Loading map…" />}>
            <WorldMap destinations={map.destinations} onSelect={setSelected} />
          </Suspense>
        ) : (
          <MapPlaceholder label="Loading map…" />
        )}
      </div>
      <div>
        {selected ? (
          <ClusterShipments
            destinations={selected}
            period={period}
            user={user}
            api={api}
            onClose={() => setSelected(null)}
          />
        ) : (
          <DestinationList destinations={map.destinations} onSelect={(d) => setSelected([d])} />
        )}
      </div>
    </div>
  );
}

function DestinationList({
  destinations,
  onSelect,
}: {
  destinations: TMapDestination[];
  onSelect: (destination: TMapDestination) => void;
}) {
  if (destinations.length === 0) {
    return (
      <p className="p-2 text-sm text-muted-foreground">No shipments with a destination in this period.</p>
    );
  }
  return (
    <section aria-labelledby="map-destinations">
      <h3 id="map-destinations" className="mb-2 text-sm font-medium">
        Destinations on the map{" "}
        <span className="font-normal text-muted-foreground">(choose one to list its shipments)</span>
      </h3>
      <ul className="flex max-h-40 flex-wrap gap-2 overflow-auto" data-testid="map-destinations">
        {destinations.map((d) => (
          <li key={d.country_id}>
            <button
              type="button"
              onClick={() => onSelect(d)}
              className="flex items-center gap-2 rounded-full border px-3 py-1 text-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              <span>{d.name}</span>
              <span className="tabular-nums text-muted-foreground" data-count={d.count}>
                {d.count.toLocaleString("en-US")}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

type TLoaded = { destination: TMapDestination; entries: TMapEntry[]; total: number };

/** The shipments at a cluster: per destination the latest ones, each linking to its edit page. */
function ClusterShipments({
  destinations,
  period,
  user,
  api,
  onClose,
}: {
  destinations: TMapDestination[];
  period: TPeriod;
  user?: number;
  api: TApi;
  onClose: () => void;
}) {
  const [loaded, setLoaded] = useState<TLoaded[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let isCurrent = true;
    setLoaded(null);
    setError(null);
    Promise.all(
      destinations.map(async (destination) => {
        const page = await api.get<TMapAnswer>(
          `/home/map?filter=${period}${user ? `&user_id=${user}` : ""}&country_id=${destination.country_id}&per_page=${LIST_SIZE}`,
        );
        return { destination, entries: page.data, total: page.total };
      }),
    )
      .then((result) => isCurrent && setLoaded(result))
      .catch((e: unknown) => isCurrent && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      isCurrent = false;
    };
  }, [destinations, period, user, api]);

  const title = destinations.map((d) => d.name).join(", ");
  return (
    <section aria-label={`Shipments to ${title}`} className="space-y-3" data-testid="cluster-shipments">
      <div className="flex items-start justify-between gap-2">
        <h3 className="text-sm font-medium">Shipments to {title}</h3>
        <Button variant="ghost" size="icon" className="size-7" onClick={onClose} aria-label="Close the list">
          <XIcon />
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      {!loaded && !error && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
          <Spinner /> Loading shipments…
        </p>
      )}
      {loaded?.map(({ destination, entries, total }) => (
        <div key={destination.country_id} className="space-y-1">
          {loaded.length > 1 && (
            <h4 className="text-xs font-medium text-muted-foreground">{destination.name}</h4>
          )}
          <ul className="grid max-h-72 divide-y overflow-auto rounded-md border text-sm sm:grid-cols-2 sm:divide-y-0 lg:grid-cols-3">
            {entries.map((entry) => (
              <li key={entry.id}>
                <Link
                  to="/shipments/edit-shipment/$itemId"
                  params={{ itemId: String(entry.id) }}
                  className="block px-2 py-1.5 hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                >
                  <span className="font-medium">{entry.shiper_ref || `Shipment ${entry.id}`}</span>
                  <span className="block text-xs text-muted-foreground">
                    {[formatDate(entry.ship_date) || "No ship date", entry.carrier, statusLabel(entry.name)]
                      .filter(Boolean)
                      .join(" · ")}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          {total > entries.length && (
            <p className="text-xs text-muted-foreground">
              The latest {entries.length} of {total.toLocaleString("en-US")}; the Most Recent Shipments table
              filters by destination.
            </p>
          )}
        </div>
      ))}
    </section>
  );
}
