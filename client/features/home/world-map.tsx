// The dashboard's OpenLayers map. Loaded lazily (its own chunk), only in the browser: never in the
// server render nor in other screens' bundles. Fully offline: no tile server, the country shapes
// come from world-atlas (Natural Earth) as a separate, immutable-cached asset.

import { boundingExtent } from "ol/extent";
import type { FeatureLike } from "ol/Feature";
import Feature from "ol/Feature";
import TopoJSON from "ol/format/TopoJSON";
import type Geometry from "ol/geom/Geometry";
import MultiPolygon from "ol/geom/MultiPolygon";
import Point from "ol/geom/Point";
import Polygon from "ol/geom/Polygon";
import VectorLayer from "ol/layer/Vector";
import OlMap from "ol/Map";
import { fromLonLat } from "ol/proj";
import Cluster from "ol/source/Cluster";
import VectorSource from "ol/source/Vector";
import { Circle as CircleStyle, Fill, Stroke, Style, Text } from "ol/style";
import View from "ol/View";
import { useEffect, useRef } from "react";
import countriesUrl from "world-atlas/countries-110m.json?url";
import type { TMapDestination } from "../../../db/contracts/home";
import { unwrapRing } from "./antimeridian";
import { startView } from "./start-view";

export const START_ZOOM = 2;
export const MAX_ZOOM = 7;
/** The widest marker's radius and white ring: the start view keeps this much room around each marker. */
const MARKER_ROOM_PX = 30;
/** Antarctica (ISO 3166 numeric 010): nobody ships there, and its ring circles the pole. */
const ANTARCTICA = "010";

export type TWorldMapProps = {
  destinations: TMapDestination[];
  /** A cluster that cannot be split further (one destination, or the map is at its largest zoom). */
  onSelect: (destinations: TMapDestination[]) => void;
};

function unwrapGeometry(geometry: Geometry | undefined): Geometry | undefined {
  if (geometry instanceof Polygon) return new Polygon(geometry.getCoordinates().map(unwrapRing));
  if (geometry instanceof MultiPolygon) {
    return new MultiPolygon(geometry.getCoordinates().map((polygon) => polygon.map(unwrapRing)));
  }
  return geometry;
}

/**
 * The country shapes, requested as soon as this chunk runs (not after React mounts the map) and
 * kept for the page's life: the file is immutable and a period switch must not fetch it again.
 */
let topologyRequest: Promise<unknown> | null = null;
function fetchTopology(): Promise<unknown> {
  topologyRequest ??= fetch(countriesUrl).then((response) => {
    if (!response.ok) throw new Error(`Country shapes: ${response.status}`);
    return response.json();
  });
  topologyRequest.catch(() => {
    topologyRequest = null;
  });
  return topologyRequest;
}
if (typeof window !== "undefined") void fetchTopology().catch(() => undefined);

/** Countries from the TopoJSON, antimeridian-safe, projected to Web Mercator. */
async function loadCountries(): Promise<Feature[]> {
  const topology = await fetchTopology();
  const features = new TopoJSON().readFeatures(topology, {
    dataProjection: "EPSG:4326",
    featureProjection: "EPSG:4326",
  }) as Feature[];
  const projected: Feature[] = [];
  let sliceStart = performance.now();
  for (const feature of features) {
    if (String(feature.getId()) === ANTARCTICA) continue;
    const geometry = unwrapGeometry(feature.getGeometry() ?? undefined);
    geometry?.transform("EPSG:4326", "EPSG:3857");
    const country = new Feature(geometry);
    country.setId(feature.getId());
    country.set("name", feature.get("name"));
    projected.push(country);
    // Short slices, so a slow phone's main thread stays free for taps and the page's own start.
    if (performance.now() - sliceStart > 30) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = performance.now();
    }
  }
  return projected;
}

const landStyle = new Style({
  fill: new Fill({ color: "#e2e8f0" }),
  stroke: new Stroke({ color: "#ffffff", width: 0.75 }),
});

const clusterStyles = new Map<number, Style>();
/** Total shipments behind a cluster: each feature is one destination carrying its count. */
const clusterCount = (cluster: FeatureLike) =>
  (cluster.get("features") as Feature[]).reduce((sum, f) => sum + (f.get("count") as number), 0);

function clusterStyle(cluster: FeatureLike): Style {
  const count = clusterCount(cluster);
  const cached = clusterStyles.get(count);
  if (cached) return cached;
  const radius = Math.min(28, 11 + Math.log10(count) * 5);
  const style = new Style({
    image: new CircleStyle({
      radius,
      fill: new Fill({ color: "rgba(21, 94, 117, 0.88)" }),
      stroke: new Stroke({ color: "#ffffff", width: 2 }),
    }),
    text: new Text({
      text: count.toLocaleString("en-US"),
      font: "600 11px system-ui, sans-serif",
      fill: new Fill({ color: "#ffffff" }),
    }),
  });
  clusterStyles.set(count, style);
  return style;
}

function destinationFeatures(destinations: TMapDestination[]): Feature[] {
  return destinations.map((d) => {
    const feature = new Feature(new Point(fromLonLat([d.lng, d.lat])));
    feature.setId(d.country_id);
    feature.setProperties({ count: d.count, destination: d });
    return feature;
  });
}

/** Centre 0,0 at zoom 2 (spec), moved or zoomed out only so that no marker is cut by an edge. */
function showStartView(instance: OlMap | null, points: VectorSource, animate: boolean) {
  if (!instance) return;
  const size = (instance.getSize() ?? [0, 0]) as [number, number];
  const coordinates = points
    .getFeatures()
    .map((f) => (f.getGeometry() as Point).getCoordinates() as [number, number]);
  const { center, zoom } = startView(coordinates, size, MARKER_ROOM_PX, START_ZOOM, 0);
  const view = instance.getView();
  if (animate) view.animate({ center, zoom, duration: 200 });
  else {
    view.setCenter(center);
    view.setZoom(zoom);
  }
}

/**
 * The world with one clustered marker per destination country. A cluster's number is the sum of
 * its destinations' shipments. Clicking a cluster zooms in to split it; a cluster of one
 * destination, or any cluster at the largest zoom, is handed to onSelect (the shipments list).
 */
export default function WorldMap({ destinations, onSelect }: TWorldMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<OlMap | null>(null);
  // wrapX off: on a map wider than one world, a destination near the antimeridian shows once, not
  // once per copy of the world.
  const points = useRef(new VectorSource({ wrapX: false }));
  /** Until the user moves the map, it keeps its start view, also when its size settles or changes. */
  const hasUserMoved = useRef(false);
  const selectRef = useRef(onSelect);
  selectRef.current = onSelect;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    performance.mark("home-map:mount");
    const countries = new VectorSource();
    const clusters = new Cluster({ distance: 42, minDistance: 8, source: points.current, wrapX: false });
    const instance = new OlMap({
      target: element,
      controls: [],
      layers: [
        new VectorLayer({ source: countries, style: landStyle }),
        new VectorLayer({ source: clusters, style: clusterStyle }),
      ],
      view: new View({
        center: [0, 0],
        zoom: START_ZOOM,
        minZoom: 0,
        maxZoom: MAX_ZOOM,
        // Not snapped to whole zooms: the start view of a small map (a phone) zooms out only as far
        // as its markers need.
        constrainResolution: false,
        // The spec's zoom 2 shows the whole world (1024 px wide); without this a wider map would be
        // pushed to zoom 3 so the world fills it.
        showFullExtent: true,
      }),
    });
    map.current = instance;

    // What the clusters on screen say, for people reading the page with tools and for the tests.
    const describeClusters = () => {
      const counts = clusters
        .getFeatures()
        .map(clusterCount)
        .sort((a, b) => b - a);
      element.dataset.clusterCounts = counts.join(",");
      element.dataset.zoom = String(instance.getView().getZoom());
      element.dataset.center = (instance.getView().getCenter() ?? [0, 0]).map((n) => n.toFixed(0)).join(",");
    };
    instance.on("rendercomplete", () => {
      describeClusters();
      if (countries.getFeatures().length && !element.dataset.ready) {
        element.dataset.ready = "true";
        performance.mark("home-map:interactive");
      }
    });
    instance.on("change:size", () => {
      if (!hasUserMoved.current) showStartView(instance, points.current, false);
    });
    instance.on("pointerdrag", () => {
      hasUserMoved.current = true;
    });
    element.addEventListener(
      "wheel",
      () => {
        hasUserMoved.current = true;
      },
      { passive: true },
    );
    instance.on("pointermove", (event) => {
      element.style.cursor = instance.hasFeatureAtPixel(event.pixel) ? "pointer" : "";
    });
    instance.on("click", (event) => {
      const hit = instance.forEachFeatureAtPixel(event.pixel, (f) => f, {
        layerFilter: (layer) => layer.getSource() === clusters,
      });
      if (!hit) return;
      const members = hit.get("features") as Feature[];
      const view = instance.getView();
      const isAtMax = (view.getZoom() ?? 0) >= MAX_ZOOM;
      if (members.length > 1 && !isAtMax) {
        hasUserMoved.current = true;
        const extent = boundingExtent(members.map((f) => (f.getGeometry() as Point).getCoordinates()));
        view.fit(extent, { duration: 300, padding: [80, 80, 80, 80], maxZoom: MAX_ZOOM });
        return;
      }
      selectRef.current(members.map((f) => f.get("destination") as TMapDestination));
    });

    let isMounted = true;
    loadCountries()
      .then((features) => isMounted && countries.addFeatures(features))
      .catch((error: unknown) => {
        if (isMounted) element.dataset.error = String(error);
      });
    return () => {
      isMounted = false;
      instance.setTarget(undefined);
      map.current = null;
    };
  }, []);

  useEffect(() => {
    points.current.clear(true);
    points.current.addFeatures(destinationFeatures(destinations));
    showStartView(map.current, points.current, false);
  }, [destinations]);

  const zoomBy = (delta: number) => {
    const view = map.current?.getView();
    if (!view) return;
    hasUserMoved.current = true;
    view.animate({
      zoom: Math.min(MAX_ZOOM, Math.max(0, (view.getZoom() ?? START_ZOOM) + delta)),
      duration: 200,
    });
  };
  const reset = () => {
    hasUserMoved.current = false;
    showStartView(map.current, points.current, true);
  };

  return (
    <div className="relative h-full w-full">
      <div
        ref={container}
        className="h-full w-full"
        data-testid="world-map"
        role="img"
        aria-label="World map of shipment destinations"
      />
      <div className="absolute top-2 right-2 flex flex-col gap-1">
        <MapButton label="Zoom in" onClick={() => zoomBy(1)}>
          +
        </MapButton>
        <MapButton label="Zoom out" onClick={() => zoomBy(-1)}>
          −
        </MapButton>
        <MapButton label="Reset the map" onClick={reset}>
          ⟲
        </MapButton>
      </div>
    </div>
  );
}

function MapButton({ label, onClick, children }: { label: string; onClick: () => void; children: string }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      className="flex size-8 items-center justify-center rounded-md border bg-background/95 text-base font-medium shadow-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      {children}
    </button>
  );
}
