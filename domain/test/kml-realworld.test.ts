// Zoning files written by other tools (GDAL's two KML drivers, IBGE's boundaries as published, Google's and
// togeojson's samples), read from ../shared/realworld: the zones a GIS reads, or a Portuguese refusal.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKmlZones, type ParsedZona } from '../src/geo/kml.ts';
import { FileParseError } from '../src/geo/parse-error.ts';
import { isInZonas } from '../src/geo/zonas.ts';

const KML_DIR = path.resolve(import.meta.dirname, '../../../shared/realworld/kml');

const readKml = (name: string) => fs.readFileSync(path.join(KML_DIR, name), 'utf8');
const zonesOf = (name: string) => parseKmlZones(readKml(name));

/** Planar area of a ring in square degrees, as OGR's ST_Area gives it for lon/lat geometries. */
function area(ring: readonly (readonly number[])[]): number {
  let twice = 0;
  for (let i = 0; i + 1 < ring.length; i += 1) {
    const [x0 = 0, y0 = 0] = ring[i] ?? [];
    const [x1 = 0, y1 = 0] = ring[i + 1] ?? [];
    twice += x0 * y1 - x1 * y0;
  }
  return Math.abs(twice) / 2;
}

/** What a GIS lists per polygon: vertices of the outer ring (closing one included), holes, area. */
function shapes(zonas: ParsedZona[]) {
  return zonas.map((zona) => ({
    label: zona.label,
    vertices: zona.poligono.length,
    holes: zona.poligono2.coordinates.length - 1,
    area: Number(area(zona.poligono2.coordinates[0] ?? []).toFixed(6)),
  }));
}

/** A ring's vertices wherever it starts and whichever way it turns. */
function vertexSet(zona: ParsedZona | undefined): string[] {
  return (zona?.poligono.slice(1) ?? []).map(({ lat, lng }) => `${lat} ${lng}`).sort();
}

function parseError(name: string): string {
  try {
    parseKmlZones(readKml(name));
  } catch (error) {
    expect(error).toBeInstanceOf(FileParseError);
    return (error as Error).message;
  }
  throw new Error(`${name} gave zones`);
}

// Vertices and areas as GDAL 3.6's ogrinfo reads them, e.g.
//   ogrinfo -ro -q -dialect sqlite -sql 'SELECT Name, ST_NPoints(geometry), ST_Area(geometry) FROM ILHABELA' \
//     gdal-kml__ibge-ilhabela-3-islands.kml
// (for the IBGE files, whose boundaries are LineStrings, ST_Area(ST_MakePolygon(geometry))), rounded to 1e-6.
const ILHABELA = [
  { label: 'ILHABELA', vertices: 10, holes: 0, area: 0.000634 }, // Ilha de Búzios
  { label: 'ILHABELA', vertices: 8, holes: 0, area: 0.000193 }, // Ilha da Vitória
  { label: 'ILHABELA', vertices: 80, holes: 0, area: 0.029721 }, // Ilha de São Sebastião, the town's island
];
const BRASILIA = [{ label: 'BRASÍLIA', vertices: 144, holes: 0, area: 0.487445 }];
const SAO_PAULO = [{ label: 'SÃO PAULO', vertices: 219, holes: 0, area: 0.134657 }];
const FLORIANOPOLIS = [{ label: 'FLORIANÓPOLIS', vertices: 26, holes: 0, area: 0.062683 }];

// A point on each island, and one across the channel in São Sebastião (the mainland town, another municipality).
const BUZIOS = { lat: -23.8071, lng: -45.139 };
const VITORIA = { lat: -23.7548, lng: -45.0192 };
const VILA_ILHABELA = { lat: -23.7785, lng: -45.358 };
const SAO_SEBASTIAO = { lat: -23.8036, lng: -45.4019 };

function zoneIndexOf(at: { lat: number; lng: number }, zonas: ParsedZona[]): number[] {
  return zonas.flatMap((zona, index) => (isInZonas(at, [zona]) ? [index] : []));
}

describe('KML zoning written by GDAL', () => {
  it('reads Ilhabela written by ogr2ogr -f KML as three placemarks: three zones, the islands a GIS reads', () => {
    const zonas = zonesOf('gdal-kml__ibge-ilhabela-3-islands.kml');
    expect(shapes(zonas)).toEqual(ILHABELA);
    expect(zoneIndexOf(BUZIOS, zonas)).toEqual([0]);
    expect(zoneIndexOf(VITORIA, zonas)).toEqual([1]);
    expect(zoneIndexOf(VILA_ILHABELA, zonas)).toEqual([2]);
    expect(zoneIndexOf(SAO_SEBASTIAO, zonas)).toEqual([]);
  });

  it('reads Ilhabela written by -f LIBKML as one MultiGeometry: one zone per island, all named ILHABELA', () => {
    const zonas = zonesOf('gdal-libkml__ibge-ilhabela-multipolygon.kml');
    // ogrinfo reads one MULTIPOLYGON of 3 parts, 98 points, 0.030548 square degrees; LIBKML wrote the big one first.
    expect(shapes(zonas)).toEqual([ILHABELA[2], ILHABELA[0], ILHABELA[1]]);
    expect(shapes(zonas).reduce((sum, shape) => sum + shape.area, 0)).toBeCloseTo(0.030548, 6);
    expect(zoneIndexOf(VILA_ILHABELA, zonas)).toEqual([0]);
    expect(zoneIndexOf(BUZIOS, zonas)).toEqual([1]);
    expect(zoneIndexOf(SAO_SEBASTIAO, zonas)).toEqual([]);
    // The same islands, vertex for vertex, as the other driver wrote them (LIBKML starts each ring elsewhere).
    const placemarks = zonesOf('gdal-kml__ibge-ilhabela-3-islands.kml');
    expect(zonas.map(vertexSet)).toEqual([placemarks[2], placemarks[0], placemarks[1]].map(vertexSet));
  });

  it('reads single municipalities from both drivers (LIBKML writes Z coordinates)', () => {
    expect(shapes(zonesOf('gdal-kml__ibge-brasilia.kml'))).toEqual(BRASILIA);
    expect(shapes(zonesOf('gdal-libkml__ibge-sao-paulo.kml'))).toEqual(SAO_PAULO);
    expect(shapes(zonesOf('gdal-libkml__ibge-florianopolis.kml'))).toEqual(FLORIANOPOLIS);
    expect(isInZonas({ lat: -15.7998, lng: -47.8645 }, zonesOf('gdal-kml__ibge-brasilia.kml'))).toBe(true);
    expect(isInZonas({ lat: -23.5503, lng: -46.6339 }, zonesOf('gdal-libkml__ibge-sao-paulo.kml'))).toBe(
      true,
    );
    expect(isInZonas({ lat: -27.5954, lng: -48.548 }, zonesOf('gdal-libkml__ibge-florianopolis.kml'))).toBe(
      true,
    );
    // São Paulo's Praça da Sé is not in Brasília.
    expect(isInZonas({ lat: -23.5503, lng: -46.6339 }, zonesOf('gdal-kml__ibge-brasilia.kml'))).toBe(false);
  });
});

describe('IBGE boundaries as published: each a closed LineString', () => {
  it.each([
    ['ibge__municipios_SP_ILHABELA.kml', ILHABELA],
    ['ibge__municipios_DF_BRASILIA.kml', BRASILIA],
    ['ibge__municipios_SP_SAO_PAULO.kml', SAO_PAULO],
    ['ibge__municipios_SC_FLORIANOPOLIS.kml', FLORIANOPOLIS],
  ])('%s gives the zones of the polygons GDAL made of it', (name, expected) => {
    expect(shapes(zonesOf(name))).toEqual(expected);
  });

  it('assigns the islands of the LineString file as it does the polygon file', () => {
    const zonas = zonesOf('ibge__municipios_SP_ILHABELA.kml');
    expect(zoneIndexOf(BUZIOS, zonas)).toEqual([0]);
    expect(zoneIndexOf(VILA_ILHABELA, zonas)).toEqual([2]);
    expect(zoneIndexOf(SAO_SEBASTIAO, zonas)).toEqual([]);
  });

  it('reads a state of many islands and the whole country, one zone per ring', () => {
    // ogrinfo: 12 LINESTRINGs for RJ (the mainland of 1092 points and 11 islands), 43 for the 27 states.
    const rj = zonesOf('ibge__estados_RJ.kml');
    expect(rj).toHaveLength(12);
    expect(rj.map((zona) => zona.poligono.length).sort((a, b) => b - a)[0]).toBe(1092);
    const brasil = zonesOf('ibge__pais_Brasil_Estados.kml');
    expect(brasil).toHaveLength(43);
    expect(new Set(brasil.map((zona) => zona.label)).size).toBe(27);
  });

  it('still ignores an open line (a street, a feeder), which outlines no zone', () => {
    const text = readKml('ibge__municipios_SC_FLORIANOPOLIS.kml');
    // Drop the closing vertex: the line now ends where it did not start.
    const open = text.replace(' -48.57545372680801,-27.84351974524003\n', '\n');
    expect(open).not.toBe(text);
    expect(() => parseKmlZones(open)).toThrow('O arquivo KML não contém nenhum polígono.');
  });
});

const NO_POLYGON = 'O arquivo KML não contém nenhum polígono.';
const outside = (label: string) => `O polígono "${label}" (1) tem coordenadas fora do Brasil.`;
// togeojson's fixtures lie outside Brazil or hold no polygon: each is refused with the reason a user can act on.
const TOGEOJSON: [string, string][] = [
  ['togeojson__addresses.kml', NO_POLYGON],
  ['togeojson__bad.kml', NO_POLYGON],
  ['togeojson__cdata.kml', NO_POLYGON],
  ['togeojson__extended_data.kml', NO_POLYGON],
  ['togeojson__ground_overlay.kml', outside('Large-scale overlay on terrain')],
  ['togeojson__ground_overlay_quad.kml', outside('gx:LatLonQuad Example')],
  ['togeojson__gxmultitrack.kml', NO_POLYGON],
  ['togeojson__gxtrack.kml', NO_POLYGON],
  ['togeojson__inline_style.kml', outside('With all inline styles')],
  ['togeojson__inline_style_mini.kml', NO_POLYGON],
  ['togeojson__linear_ring.kml', outside('AOI')],
  ['togeojson__linestring.kml', NO_POLYGON],
  ['togeojson__literal_color.kml', outside('With all inline styles')],
  ['togeojson__multigeometry.kml', NO_POLYGON],
  ['togeojson__multigeometry_discrete.kml', NO_POLYGON],
  ['togeojson__multigeometry_sibling.kml', NO_POLYGON],
  ['togeojson__multitrack.kml', NO_POLYGON],
  ['togeojson__networklink.kml', outside('Zona 1')],
  ['togeojson__nogeomplacemark.kml', NO_POLYGON],
  ['togeojson__non_gx_multitrack.kml', NO_POLYGON],
  ['togeojson__noname.kml', outside('Zona 1')],
  ['togeojson__null_geometry.kml', NO_POLYGON],
  ['togeojson__opacity_override.kml', NO_POLYGON],
  ['togeojson__point.kml', NO_POLYGON],
  ['togeojson__point_extra_coordinates.kml', NO_POLYGON],
  ['togeojson__point_id.kml', NO_POLYGON],
  ['togeojson__polygon.kml', outside('hollow box')],
  ['togeojson__schema.kml', outside('Zona 1')],
  ['togeojson__selfclosing.kml', NO_POLYGON],
  ['togeojson__simpledata.kml', NO_POLYGON],
  ['togeojson__style.kml', NO_POLYGON],
  ['togeojson__style_url.kml', outside('Building 41')],
  ['togeojson__styles.kml', outside('Untitled Polygon')],
  ['togeojson__timespan.kml', outside('1')],
  ['togeojson__twopoints.kml', NO_POLYGON],
];

describe('KML samples of other producers', () => {
  it('finds the polygon inside Google’s MultiGeometry and refuses it for lying outside Brazil', () => {
    expect(parseError('google__polygon-point.kml')).toBe(
      'O polígono "Adelaide" (1) tem coordenadas fora do Brasil.',
    );
  });

  it('makes a zone of that polygon, and not of its icon point, once the file is moved into Brazil', () => {
    // The file as Google wrote it (KML 2.1 namespace, a comment before the root), only 186° west and 7° north.
    const moved = readKml('google__polygon-point.kml').replace(
      /138\.(\d+),-34\.(\d+)/g,
      (_, lng: string, lat: string) => `-48.${lng},-27.${lat}`,
    );
    // ogrinfo: GEOMETRYCOLLECTION (POINT, POLYGON of 62 points), area 0.0072 square degrees.
    expect(shapes(parseKmlZones(moved))).toEqual([
      { label: 'Adelaide', vertices: 62, holes: 0, area: 0.0072 },
    ]);
  });

  it.each(TOGEOJSON)('%s: %s', (name, message) => {
    expect(parseError(name)).toBe(message);
  });

  it('leaves no togeojson fixture out', () => {
    const fixtures = fs.readdirSync(KML_DIR).filter((name) => name.startsWith('togeojson__'));
    expect(TOGEOJSON.map(([name]) => name).sort()).toEqual(fixtures.sort());
  });
});
