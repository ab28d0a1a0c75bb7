import { describe, expect, test } from "bun:test";
import { fromLonLat } from "ol/proj";
import { startView } from "./start-view";

const at = (lng: number, lat: number) => fromLonLat([lng, lat]) as [number, number];
/** Pixel offset of a point from the view's centre at the view's zoom (256 px tiles). */
function pixel(point: [number, number], view: { center: [number, number]; zoom: number }) {
  const resolution = 156543.03392804097 / 2 ** view.zoom;
  return [(point[0] - view.center[0]) / resolution, (view.center[1] - point[1]) / resolution];
}

describe("startView", () => {
  test("no markers, or markers that fit: the spec's centre 0,0 at the start zoom", () => {
    expect(startView([], [1100, 440], 30, 2, 0)).toEqual({ center: [0, 0], zoom: 2 });
    const points = [at(10, 51), at(138, 36), at(-55, -10)];
    expect(startView(points, [1100, 440], 30, 2, 0)).toEqual({ center: [0, 0], zoom: 2 });
  });

  test("a marker far north moves the view down just enough to show it whole", () => {
    const greenland = at(-40, 72);
    const view = startView([greenland, at(-55, -10)], [1100, 440], 30, 2, 0);
    expect(view.zoom).toBe(2);
    expect(view.center[0]).toBe(0);
    const [, y] = pixel(greenland, view);
    // 30 px from the top edge of a 440 px map, exactly: moved no further than needed.
    expect(y).toBeCloseTo(-220 + 30, 6);
  });

  test("markers too far apart for the start zoom: zoomed out until all fit inside the padding", () => {
    const points = [at(-40, 72), at(174, -41), at(-97, 38)];
    const size: [number, number] = [390, 260];
    const view = startView(points, size, 30, 2, 0);
    expect(view.zoom).toBeLessThan(2);
    for (const point of points) {
      const [x, y] = pixel(point, view);
      expect(Math.abs(x)).toBeLessThanOrEqual(size[0] / 2 - 30 + 1e-6);
      expect(Math.abs(y)).toBeLessThanOrEqual(size[1] / 2 - 30 + 1e-6);
    }
  });
});
