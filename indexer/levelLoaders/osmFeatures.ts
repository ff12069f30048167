/**
 * What an `osm-pbf` address source gives besides its addresses (indexer/sources/osm/readOsmFeatures.ts), once every
 * address source has been read: its named streets, into the streets the addresses made (streetDocuments.ts: the
 * street of that name in the way's city, else municipality, or a street of its own with no address), and its place
 * nodes no area of their name holds, as places (placeDocuments.ts). A way or node lies where its middle point, or
 * the node, is; one in no municipality or city of the hierarchy, or in a country another address source won
 * (countryClaims.ts), is skipped and counted.
 */
import type { GeoPoint } from '../../core/elasticsearch/documents.js';
import { normaliseStreet, normaliseText, streetKey } from '../base/text.js';
import { uuidv5 } from '../records/ids.js';
import type { StreetAccumulator } from '../derived/streetDocuments.js';
import type { PlacePoint } from '../derived/placeDocuments.js';
import type { AddressSource } from '../manifest/manifestSources.js';
import type { Parents } from '../records/records.js';
import { readOsmFeatures } from '../sources/osm/readOsmFeatures.js';
import type { RunContext } from '../execution/runContext.js';
import type { CountryClaims } from './countryClaims.js';
import type { OsmStreetCounts } from '../execution/summary.js';

/** `place` values that are localities (the `city` place type); the others are parts of one (`suburb`). */
const LOCALITIES = new Set(['city', 'town', 'village', 'hamlet']);

/** A place node's id: its own, never a hierarchy id (the same node, the same id). */
export const placeNodeId = (nodeId: number): string => uuidv5(`places:osm:node/${nodeId}`);

export async function loadOsmFeatures(
  ctx: RunContext,
  sources: readonly AddressSource[],
  streets: StreetAccumulator,
  claims: CountryClaims,
): Promise<void> {
  for (const [index, source] of sources.entries()) {
    if (source.format !== 'osm-pbf') continue;
    ctx.checkAbort();
    const features = await readOsmFeatures(source.file);
    const counts: OsmStreetCounts = (ctx.streets.osm ??= { ways: 0, joined: 0, alone: 0, merged: 0, skipped: 0 });
    const nodes = (ctx.places.osmNodes ??= { read: 0, built: 0, skipped: 0 });
    const parentsAt = (lon: number, lat: number): Parents | undefined => {
      const parents = ctx.hierarchy.resolveSpatialParents('addresses', lon, lat);
      if (!(parents.city_id || parents.municipality_id)) return undefined;
      return claims.keeps(parents.country_id, index) ? parents : undefined;
    };
    addStreetWays(ctx, features.streets, streets, parentsAt, counts);
    addPlaceNodes(ctx, features.places, parentsAt, nodes);
    ctx.log.info(
      { dataset_level: 'streets', osm: counts, place_nodes: nodes },
      'OpenStreetMap streets and places read',
    );
  }
}

type ParentsAt = (lon: number, lat: number) => Parents | undefined;
type OsmFeatures = Awaited<ReturnType<typeof readOsmFeatures>>;

/** Each named way joins the addresses' street of its name in its locality, or makes (or joins) one of its own. */
function addStreetWays(
  ctx: RunContext,
  ways: OsmFeatures['streets'],
  streets: StreetAccumulator,
  parentsAt: ParentsAt,
  counts: OsmStreetCounts,
): void {
  const localityName = (parents: Parents): string =>
    ctx.hierarchy.area(parents.city_id || parents.municipality_id)?.name ?? '';
  const made = new Set<string>();
  for (const way of ways) {
    counts.ways++;
    const key = streetKey(way.name);
    const count = way.coords.length / 2;
    const middle = 2 * Math.floor(count / 2);
    const parents =
      key && count ? parentsAt(way.coords[middle] as number, way.coords[middle + 1] as number) : undefined;
    if (!parents) {
      counts.skipped++;
      continue;
    }
    const city = localityName(parents);
    const points: GeoPoint[] = [];
    for (let i = 0; i < way.coords.length; i += 2) points.push({ lon: way.coords[i]!, lat: way.coords[i + 1]! });
    const others = Object.values(way.names).filter((n) => streetKey(n) !== key);
    const { cityKey, joined } = streets.addWay({
      streetname: way.name,
      street_key: key,
      city,
      city_key: normaliseText(city),
      parents,
      points,
      ...(Object.keys(way.names).length && {
        names: {
          street_names: way.names,
          other_street_keys: others.map(streetKey),
          other_street_text: others.map(normaliseStreet),
        },
      }),
    });
    // An update builds every street an OpenStreetMap way is part of (none is kept as the live one holds it).
    ctx.untouched?.touch({ street_key: key, city_key: cityKey, postcode_key: '' });
    if (joined) counts.joined++;
    else if (made.has(`${key}|${cityKey}`)) counts.merged++;
    else {
      made.add(`${key}|${cityKey}`);
      counts.alone++;
    }
  }
}

/** Each place node no area of its name holds becomes a place of its own. */
function addPlaceNodes(
  ctx: RunContext,
  places: OsmFeatures['places'],
  parentsAt: ParentsAt,
  nodes: { read: number; built: number; skipped: number },
): void {
  for (const node of places) {
    nodes.read++;
    const parents = parentsAt(node.lon, node.lat);
    const own = normaliseText(node.name);
    // An area of the node's name holds it (Vaduz, the Gemeinde; Delft, the municipality): the area is the place.
    const held =
      !parents ||
      [parents.municipality_id, parents.city_id, parents.suburb_id].some(
        (id) => id && normaliseText(ctx.hierarchy.area(id)?.name ?? '') === own,
      );
    if (held) {
      nodes.skipped++;
      continue;
    }
    const place: PlacePoint = {
      id: placeNodeId(node.id),
      type: LOCALITIES.has(node.place) ? 'city' : 'suburb',
      name: node.name,
      names: node.names,
      location: { lon: node.lon, lat: node.lat },
      parents: {
        country_id: parents.country_id,
        province_id: parents.province_id,
        municipality_id: parents.municipality_id,
        city_id: parents.city_id,
      },
    };
    ctx.pointPlaces.push(place);
    nodes.built++;
  }
}
