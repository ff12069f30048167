/**
 * `polygon_geojson=1`: the outline of each area among the results (a suburb, city, municipality, province or
 * country), read from the areas index as GET /{level}/{id}/geojson reads it; `polygon_threshold` (degrees, as
 * Nominatim takes it) thins it. Addresses, streets and postcodes keep their point.
 */
import type { Geometry } from 'geojson';
import type { AreaLevel } from '../../../../core/elasticsearch/documents.js';
import { NotFoundError } from '../../../../core/domain/errors.js';
import { METRES_PER_DEGREE, simplifyShape } from '../../../geojson/simplify.js';
import type { AreaRepository } from '../../hierarchy/areaRepository.js';
import type { DialectPlace } from '../place.js';

const AREA_KINDS: readonly string[] = ['suburb', 'city', 'municipality', 'province', 'country'];

export async function outlinesOf(
  areas: AreaRepository,
  places: readonly DialectPlace[],
  thresholdDegrees: number | undefined,
): Promise<Map<string, Geometry>> {
  const wanted = places.filter((p) => AREA_KINDS.includes(p.kind) && p.id);
  const docs = await Promise.all(
    wanted.map((p) =>
      areas.get(p.kind as AreaLevel, p.id, true).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }),
    ),
  );
  const outlines = new Map<string, Geometry>();
  docs.forEach((doc, i) => {
    if (!doc) return;
    const place = wanted[i]!;
    const geometry = thresholdDegrees
      ? simplifyShape(doc.geometry, thresholdDegrees * METRES_PER_DEGREE, place.lat)
      : doc.geometry;
    outlines.set(place.id, geometry);
  });
  return outlines;
}
