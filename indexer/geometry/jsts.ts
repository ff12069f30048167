/**
 * The few JSTS (the JavaScript port of JTS) operations the indexer uses, behind one small typed
 * facade: jsts 2.x ships declarations for only part of its modules, so the rest are typed here.
 */
// monkey.js attaches the overlay methods (intersection, difference, ...) to Geometry's prototype.
import 'jsts/org/locationtech/jts/monkey.js';
import GeometryFactoryModule from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import PrecisionModelModule from 'jsts/org/locationtech/jts/geom/PrecisionModel.js';
import PolygonExtracterModule from 'jsts/org/locationtech/jts/geom/util/PolygonExtracter.js';
import GeoJSONReaderModule from 'jsts/org/locationtech/jts/io/GeoJSONReader.js';
import GeoJSONWriterModule from 'jsts/org/locationtech/jts/io/GeoJSONWriter.js';
import PolygonizerModule from 'jsts/org/locationtech/jts/operation/polygonize/Polygonizer.js';
import UnaryUnionOpModule from 'jsts/org/locationtech/jts/operation/union/UnaryUnionOp.js';
import IsValidOpModule from 'jsts/org/locationtech/jts/operation/valid/IsValidOp.js';
import GeometryPrecisionReducerModule from 'jsts/org/locationtech/jts/precision/GeometryPrecisionReducer.js';
import type { Geometry as GeoJsonGeometry } from 'geojson';

export interface JtsCoordinate {
  x: number;
  y: number;
}

export interface JtsGeometry {
  isEmpty(): boolean;
  getArea(): number;
  getNumGeometries(): number;
  getGeometryN(n: number): JtsGeometry;
  getCoordinates(): JtsCoordinate[];
  getFactory(): JtsFactory;
  getInteriorPoint(): JtsGeometry;
  getCoordinate(): JtsCoordinate | null;
  intersection(other: JtsGeometry): JtsGeometry;
  difference(other: JtsGeometry): JtsGeometry;
  symDifference(other: JtsGeometry): JtsGeometry;
  getGeometryType(): string;
}

export interface JtsPolygon extends JtsGeometry {
  getExteriorRing(): JtsGeometry;
  getNumInteriorRing(): number;
  getInteriorRingN(n: number): JtsGeometry;
}

export interface JtsFactory {
  createLineString(coordinates: JtsCoordinate[]): JtsGeometry;
  createPolygon(): JtsPolygon;
  createMultiPolygon(polygons: JtsPolygon[]): JtsGeometry;
  toGeometry(envelope: unknown): JtsGeometry;
}

interface Polygonizer {
  add(geometry: JtsGeometry): void;
  getPolygons(): { toArray(): JtsPolygon[] };
}

interface Modules {
  GeometryFactory: new (precisionModel?: unknown) => JtsFactory;
  PrecisionModel: new (scale: number) => unknown;
  PolygonExtracter: { getPolygons(g: JtsGeometry): { toArray(): JtsPolygon[] } };
  GeoJSONReader: new (factory: JtsFactory) => { read(g: GeoJsonGeometry): JtsGeometry };
  GeoJSONWriter: new () => { write(g: JtsGeometry): GeoJsonGeometry };
  Polygonizer: new () => Polygonizer;
  UnaryUnionOp: { union(g: unknown): JtsGeometry };
  IsValidOp: new (g: JtsGeometry) => { isValid(): boolean; getValidationError(): { toString(): string } | null };
  GeometryPrecisionReducer: { reduce(g: JtsGeometry, precisionModel: unknown): JtsGeometry };
}

const jsts = {
  GeometryFactory: GeometryFactoryModule,
  PrecisionModel: PrecisionModelModule,
  PolygonExtracter: PolygonExtracterModule,
  GeoJSONReader: GeoJSONReaderModule,
  GeoJSONWriter: GeoJSONWriterModule,
  Polygonizer: PolygonizerModule,
  UnaryUnionOp: UnaryUnionOpModule,
  IsValidOp: IsValidOpModule,
  GeometryPrecisionReducer: GeometryPrecisionReducerModule,
} as unknown as Modules;

export const factory = new jsts.GeometryFactory();
const reader = new jsts.GeoJSONReader(factory);
const writer = new jsts.GeoJSONWriter();
/** 6 decimals: about 11 cm at the equator, RFC 7946 §11.2's advice and below any source's accuracy. */
export const PRECISION = new jsts.PrecisionModel(1e6);

export const toJts = (g: GeoJsonGeometry): JtsGeometry => reader.read(g);
export const toGeoJson = (g: JtsGeometry): GeoJsonGeometry => writer.write(g);

/** Why the geometry is invalid (OGC Simple Features), or undefined when it is valid. */
export function validityError(g: JtsGeometry): string | undefined {
  const op = new jsts.IsValidOp(g);
  return op.isValid() ? undefined : (op.getValidationError()?.toString() ?? 'invalid');
}

export function polygonsIn(g: JtsGeometry): JtsPolygon[] {
  return jsts.PolygonExtracter.getPolygons(g).toArray();
}

/** Union of polygons: overlapping parts merge, so the result is valid. */
export function unionAll(polygons: JtsPolygon[]): JtsGeometry {
  return polygons.length ? jsts.UnaryUnionOp.union(factory.createMultiPolygon(polygons)) : factory.createPolygon();
}

/** The faces a (possibly self-intersecting) linework encloses, after noding it. */
export function facesOf(lines: JtsGeometry): JtsPolygon[] {
  const noded = jsts.UnaryUnionOp.union(lines);
  const polygonizer = new jsts.Polygonizer();
  polygonizer.add(noded);
  return polygonizer.getPolygons().toArray();
}

export function reducePrecision(g: JtsGeometry): JtsGeometry {
  return jsts.GeometryPrecisionReducer.reduce(g, PRECISION);
}
