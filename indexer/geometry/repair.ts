/**
 * Makes an area's geometry right once, at index time (Elasticsearch keeps it unindexed, so nothing
 * downstream would notice a broken ring): antimeridian crossings cut at ±180, invalid polygons repaired
 * (JSTS), coordinates rounded to 6 decimals without breaking validity (JSTS GeometryPrecisionReducer),
 * rings wound the RFC 7946 way (@turf/rewind), and the result checked once more (JSTS IsValidOp).
 */
import rewind from '@turf/rewind';
import type { MultiPolygon, Polygon } from 'geojson';
import { cutAtAntimeridian, unwrapAntimeridian } from './antimeridian.js';
import {
  facesOf,
  factory,
  type JtsGeometry,
  type JtsPolygon,
  polygonsIn,
  reducePrecision,
  toGeoJson,
  toJts,
  unionAll,
  validityError,
} from './jsts.js';

export type PolygonGeometry = Polygon | MultiPolygon;

/** Which repairs a geometry needed; summed per level in the run summary. */
export interface GeometryRepairs {
  repaired: boolean;
  antimeridianSplit: boolean;
  rewound: boolean;
}

export type NormalisedGeometry =
  { ok: true; geometry: PolygonGeometry; repairs: GeometryRepairs } | { ok: false; detail: string };

/**
 * The area a ring encloses by the even-odd rule, after noding it where it crosses itself: a bow-tie
 * becomes its two triangles (buffer(0) would keep only the lobe whose winding it expects).
 */
function ringArea(ring: JtsGeometry): JtsGeometry {
  const line = factory.createLineString(ring.getCoordinates());
  return facesOf(line).reduce<JtsGeometry>((area, face) => area.symDifference(face), factory.createPolygon());
}

/**
 * A valid polygonal geometry covering what the invalid one meant, in the manner of JTS's
 * GeometryFixer (not in jsts 2.12): each shell and hole is rebuilt from its noded ring, holes are
 * subtracted from their shell (a hole outside its shell therefore disappears, as in Dronten), and
 * overlapping parts are unioned.
 */
export function makeValid(g: JtsGeometry): JtsGeometry {
  const parts: JtsPolygon[] = [];
  for (const polygon of polygonsIn(g)) {
    let area = ringArea(polygon.getExteriorRing());
    for (let i = 0; i < polygon.getNumInteriorRing(); i++) {
      area = area.difference(ringArea(polygon.getInteriorRingN(i)));
    }
    parts.push(...polygonsIn(area));
  }
  return unionAll(parts);
}

function asPolygonGeometry(g: JtsGeometry): PolygonGeometry | undefined {
  const polygons = polygonsIn(g).filter((p) => !p.isEmpty());
  if (!polygons.length) return undefined;
  const json = toGeoJson(polygons.length === 1 ? (polygons[0] as JtsPolygon) : factory.createMultiPolygon(polygons));
  return json.type === 'Polygon' || json.type === 'MultiPolygon' ? json : undefined;
}

/** Whether the source had an exterior ring clockwise or a hole counter-clockwise (RFC 7946 §3.1.6). */
function wronglyWound(g: PolygonGeometry): boolean {
  return JSON.stringify(g.coordinates) !== JSON.stringify((rewind(g) as PolygonGeometry).coordinates);
}

/** The input must be well-formed (geometry.ts validatePolygonal); the output is valid and final. */
export function normaliseGeometry(input: PolygonGeometry): NormalisedGeometry {
  try {
    const unwrapped = unwrapAntimeridian(input);
    let g = toJts(unwrapped ?? input);
    const repaired = validityError(g) !== undefined;
    if (repaired) g = makeValid(g);
    if (unwrapped) g = unionAll(cutAtAntimeridian(g));
    g = reducePrecision(g);
    const rounded = asPolygonGeometry(g);
    if (!rounded) return { ok: false, detail: 'no area left after repair and rounding' };
    const wound = rewind(rounded) as PolygonGeometry;
    const problem = validityError(toJts(wound));
    if (problem) return { ok: false, detail: `still invalid after repair: ${problem}` };
    return {
      ok: true,
      geometry: wound,
      // Counted on the source: JSTS writes its own winding, so the output is always rewound.
      repairs: { repaired, antimeridianSplit: unwrapped !== undefined, rewound: wronglyWound(input) },
    };
  } catch (error) {
    // JSTS throws TopologyException on degenerate input it cannot node; that record is rejected.
    return { ok: false, detail: `geometry repair failed: ${(error as Error).message}` };
  }
}
