// KML zoning -> zones: every Polygon and closed LineString (also inside MultiGeometry and nested Folders) becomes a
// zone.
import { kml } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import type { Geometry, Polygon, Position } from 'geojson';
import { isInBrazil } from './brazil.ts';
import { FileParseError } from './parse-error.ts';
import { checkReadableText } from './text-file.ts';

export interface LatLng {
  lat: number;
  lng: number;
}

export interface ParsedZona {
  label: string;
  /** Outer ring as lat/lng vertices (SPEC.md section 3, Zona.poligono). */
  poligono: LatLng[];
  /** GeoJSON Polygon with [lng, lat] pairs, holes kept (Zona.poligono2). */
  poligono2: Polygon;
}

export const MAX_KML_BYTES = 10 * 1024 * 1024;
/** A zone's label, as the zones' JSON field allows it. */
export const MAX_ZONA_LABEL = 200;

export function parseKmlZones(text: string): ParsedZona[] {
  if (text.length > MAX_KML_BYTES)
    throw new FileParseError('O arquivo KML excede o tamanho máximo de 10 MB.');
  checkReadableText(text);
  const source = text.replace(/^\uFEFF/, '');
  // KML needs no DTD: refusing one closes the door to external entities (XXE) and entity expansion bombs.
  if (/<!DOCTYPE|<!ENTITY/i.test(source)) {
    throw new FileParseError('O arquivo KML não pode conter DOCTYPE ou entidades.');
  }
  const doc = parseXml(source);
  if (doc.documentElement?.localName !== 'kml') throw new FileParseError('O arquivo não é um KML válido.');
  const zonas: ParsedZona[] = [];
  // xmldom's Document and the DOM's are the same shape for what togeojson reads.
  const collection = kml(doc as unknown as Parameters<typeof kml>[0]);
  for (const feature of collection.features) {
    const name = feature.properties?.name;
    const label = typeof name === 'string' && name.trim() ? name.trim() : `Zona ${zonas.length + 1}`;
    if (label.length > MAX_ZONA_LABEL) {
      throw new FileParseError(
        `O nome da zona ${zonas.length + 1} tem mais de ${MAX_ZONA_LABEL} caracteres ("${label.slice(0, 40)}...").`,
      );
    }
    for (const polygon of polygonsOf(feature.geometry)) {
      zonas.push(toZona(label, polygon, zonas.length + 1));
    }
  }
  if (zonas.length === 0) throw new FileParseError('O arquivo KML não contém nenhum polígono.');
  return zonas;
}

function parseXml(source: string) {
  const errors: string[] = [];
  try {
    const doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') errors.push(message);
      },
    }).parseFromString(source, 'text/xml');
    if (errors.length === 0) return doc;
  } catch {
    // xmldom throws on fatal errors; either way the file is not XML.
  }
  throw new FileParseError('O arquivo não é um XML/KML válido.');
}

function polygonsOf(geometry: Geometry | null): Polygon[] {
  if (!geometry) return [];
  switch (geometry.type) {
    case 'Polygon':
      return [geometry];
    case 'MultiPolygon':
      return geometry.coordinates.map((coordinates) => ({ type: 'Polygon', coordinates }));
    case 'GeometryCollection':
      return geometry.geometries.flatMap(polygonsOf);
    case 'LineString':
      // IBGE publishes its municipal boundaries as closed LineStrings: a line ending where it starts is a zone's
      // outline; an open one (a street, a feeder) is not.
      return isClosedLine(geometry.coordinates)
        ? [{ type: 'Polygon', coordinates: [geometry.coordinates] }]
        : [];
    default:
      return [];
  }
}

function isClosedLine(line: Position[]): boolean {
  const first = line[0];
  const last = line[line.length - 1];
  return (
    line.length >= 4 &&
    first !== undefined &&
    last !== undefined &&
    first[0] === last[0] &&
    first[1] === last[1]
  );
}

/** Checks a polygon (closed rings, valid coordinates in Brazil) and makes the zone of it. */
export function toZona(label: string, polygon: Polygon, index: number): ParsedZona {
  const rings = polygon.coordinates.map((ring) => cleanRing(ring, label, index));
  const outer = rings[0];
  if (!outer) throw new FileParseError(`O polígono "${label}" não tem contorno.`);
  return {
    label,
    poligono: outer.map(([lng, lat]) => ({ lat, lng })),
    poligono2: { type: 'Polygon', coordinates: rings },
  };
}

function cleanRing(ring: Position[], label: string, index: number): [number, number][] {
  const points = ring.map((position): [number, number] => [Number(position[0]), Number(position[1])]);
  for (const [lng, lat] of points) {
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
      throw new FileParseError(`O polígono "${label}" (${index}) tem coordenadas inválidas.`);
    }
    if (!isInBrazil(lat, lng)) {
      throw new FileParseError(`O polígono "${label}" (${index}) tem coordenadas fora do Brasil.`);
    }
  }
  const first = points[0];
  const last = points[points.length - 1];
  if (points.length < 4 || !first || !last || first[0] !== last[0] || first[1] !== last[1]) {
    throw new FileParseError(
      `O polígono "${label}" (${index}) não é um anel fechado (o primeiro e o último ponto devem coincidir).`,
    );
  }
  return points;
}
