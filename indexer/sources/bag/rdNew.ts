/**
 * RD New (EPSG:28992, Amersfoort / RD New: the BAG's coordinates) to WGS84 longitude and latitude with proj4, using
 * the published EPSG:28992 definition with its 7-parameter datum shift (towgs84, the EPSG:28992 entry of epsg.io /
 * the PROJ database's Amersfoort to WGS 84 transformation). Without the shift positions are off by about 100 m.
 * Measured against GDAL on every fixture point: data/fixtures/bag/README.md.
 */
import type { Geometry, Position } from 'geojson';
import proj4 from 'proj4';

export const EPSG_28992 =
  '+proj=sterea +lat_0=52.1561605555556 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000 ' +
  '+ellps=bessel +towgs84=565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725 +units=m +no_defs';

const converter = proj4(EPSG_28992, 'WGS84');

/** [x, y] in RD New to [lon, lat] in WGS84. */
export function rdToWgs84(position: Position): [number, number] {
  const [lon, lat] = converter.forward([position[0] as number, position[1] as number]);
  return [lon, lat];
}

function mapPositions(geometry: Geometry): Geometry {
  switch (geometry.type) {
    case 'Point':
      return { type: 'Point', coordinates: rdToWgs84(geometry.coordinates) };
    case 'MultiPoint':
    case 'LineString':
      return { type: geometry.type, coordinates: geometry.coordinates.map(rdToWgs84) };
    case 'Polygon':
    case 'MultiLineString':
      return { type: geometry.type, coordinates: geometry.coordinates.map((r) => r.map(rdToWgs84)) };
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: geometry.coordinates.map((p) => p.map((r) => r.map(rdToWgs84))) };
    case 'GeometryCollection':
      return { type: 'GeometryCollection', geometries: geometry.geometries.map(mapPositions) };
  }
}

/** A whole geometry from RD New to WGS84. */
export function geometryToWgs84(geometry: Geometry): Geometry {
  return mapPositions(geometry);
}
