/** Metres per pixel at zoom 0 in Web Mercator with 256 px tiles. */
const RESOLUTION_AT_ZOOM_0 = 156543.03392804097;

export type TStartView = { center: [number, number]; zoom: number };

/** The value nearest to `preferred` inside [low, high] (low ≤ high). */
function nearest(preferred: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, preferred));
}

/**
 * The map's start view: the spec's centre 0,0 at zoom `startZoom`, moved (and, only when they cannot
 * fit otherwise, zoomed out) just enough that every marker, `paddingPx` around its point, lies inside
 * a map of `size` pixels. A marker far north (Greenland) or south is then never cut by an edge.
 * Points are Web Mercator coordinates.
 */
export function startView(
  points: [number, number][],
  size: [number, number],
  paddingPx: number,
  startZoom: number,
  minZoom: number,
): TStartView {
  if (points.length === 0 || size[0] <= 0 || size[1] <= 0) return { center: [0, 0], zoom: startZoom };
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const [width, height] = [size[0] - 2 * paddingPx, size[1] - 2 * paddingPx];
  if (width <= 0 || height <= 0) return { center: [(minX + maxX) / 2, (minY + maxY) / 2], zoom: minZoom };
  // The largest resolution (metres per pixel) at which the markers' extent fits inside the padding.
  const fitting = Math.max((maxX - minX) / width, (maxY - minY) / height);
  const zoom =
    fitting > 0
      ? Math.max(minZoom, Math.min(startZoom, Math.log2(RESOLUTION_AT_ZOOM_0 / fitting)))
      : startZoom;
  const resolution = RESOLUTION_AT_ZOOM_0 / 2 ** zoom;
  const halfWidth = (size[0] * resolution) / 2;
  const halfHeight = (size[1] * resolution) / 2;
  const padding = paddingPx * resolution;
  return {
    center: [
      nearest(0, maxX + padding - halfWidth, minX - padding + halfWidth),
      nearest(0, maxY + padding - halfHeight, minY - padding + halfHeight),
    ],
    zoom,
  };
}
