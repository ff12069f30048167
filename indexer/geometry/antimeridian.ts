/**
 * Antimeridian splitting (RFC 7946 §3.1.9). Natural Earth draws Russia, Fiji and others with rings that
 * jump from +179.9 to -180 and back: read as planar lon/lat, such a ring spans the whole map and
 * crosses itself. The ring is unwrapped into continuous longitudes (beyond ±180) and the area is then
 * cut by JSTS into the world box and the boxes east and west of it, which are shifted back by 360°.
 *
 * The npm package geojson-antimeridian-cut (0.1.0, the only one found) was tried first: it left an
 * unclosed ring for Fiji, whose ring runs along the antimeridian, so the cut is done with JSTS overlays.
 */
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { factory, type JtsGeometry, type JtsPolygon, polygonsIn, toJts } from './jsts.js';

type Ring = Position[];

/** Longitudes made continuous: every jump of more than 180° is read as crossing the antimeridian. */
export function unwrapRing(ring: Ring): { ring: Ring; shifted: boolean } {
  let offset = 0;
  let shifted = false;
  const out: Ring = [];
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i] as Position;
    if (i > 0) {
      const delta = (p[0] as number) - ((ring[i - 1] as Position)[0] as number);
      if (delta > 180) offset -= 360;
      else if (delta < -180) offset += 360;
    }
    if (offset !== 0) shifted = true;
    out.push([(p[0] as number) + offset, p[1] as number]);
  }
  // A ring that does not close once unwrapped goes round a pole (Antarctica's coast): it is already
  // a planar polygon bounded by ±180, so it is left as it is.
  if (offset !== 0) return { ring, shifted: false };
  return { ring: out, shifted };
}

function box(minLon: number, maxLon: number): JtsGeometry {
  return toJts({
    type: 'Polygon',
    coordinates: [
      [
        [minLon, -90],
        [maxLon, -90],
        [maxLon, 90],
        [minLon, 90],
        [minLon, -90],
      ],
    ],
  });
}

function shiftLon(g: JtsGeometry, by: number): JtsGeometry {
  const polygons = polygonsIn(g);
  if (!polygons.length) return factory.createPolygon();
  const json = {
    type: 'MultiPolygon' as const,
    coordinates: polygons.map((p) => [p.getExteriorRing(), ...interiorRings(p)].map((r) => coords(r, by))),
  };
  return toJts(json);
}

function interiorRings(p: JtsPolygon): JtsGeometry[] {
  return Array.from({ length: p.getNumInteriorRing() }, (_, i) => p.getInteriorRingN(i));
}

function coords(ring: JtsGeometry, by: number): Position[] {
  return ring.getCoordinates().map((c) => [c.x + by, c.y]);
}

/** The geometry with every antimeridian-crossing ring unwrapped, or undefined when none crosses. */
export function unwrapAntimeridian(geometry: Polygon | MultiPolygon): MultiPolygon | undefined {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  let crossed = false;
  const coordinates = polygons.map((rings) =>
    rings.map((r) => {
      const u = unwrapRing(r);
      crossed ||= u.shifted;
      return u.ring;
    }),
  );
  return crossed ? { type: 'MultiPolygon', coordinates } : undefined;
}

/**
 * A valid (repaired) unwrapped area cut at ±180: the part inside the world box stays, the parts
 * beyond it move back by 360°. Pieces meet at ±180 only, so they stay separate polygons.
 */
export function cutAtAntimeridian(valid: JtsGeometry): JtsPolygon[] {
  return [
    valid.intersection(box(-180, 180)),
    shiftLon(valid.intersection(box(180, 540)), -360),
    shiftLon(valid.intersection(box(-540, -180)), 360),
  ].flatMap(polygonsIn);
}
