/**
 * Shifts longitudes so that consecutive points never jump by more than 180°: a ring that crosses
 * the antimeridian (Russia's Chukotka, Fiji) then continues past ±180 instead of being drawn back
 * across the whole map as a horizontal streak.
 */
export function unwrapRing(ring: number[][]): number[][] {
  const out: number[][] = [];
  let offset = 0;
  for (let i = 0; i < ring.length; i++) {
    const [lng, lat] = ring[i];
    if (i > 0) {
      const previous = ring[i - 1][0];
      if (lng - previous > 180) offset -= 360;
      else if (previous - lng > 180) offset += 360;
    }
    out.push([lng + offset, lat]);
  }
  return out;
}
