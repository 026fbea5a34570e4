import { describe, expect, it } from 'vitest';
import { parseKmlZones } from '../src/geo/kml.ts';
import { FileParseError } from '../src/geo/parse-error.ts';
import { isInZonas } from '../src/geo/zonas.ts';

const ring = (lng: number, lat: number, size = 0.01) =>
  [
    [lng, lat],
    [lng + size, lat],
    [lng + size, lat + size],
    [lng, lat + size],
    [lng, lat],
  ]
    .map(([x, y]) => `${x},${y},0`)
    .join(' ');

const polygon = (outer: string, holes: string[] = []) =>
  `<Polygon><outerBoundaryIs><LinearRing><coordinates>${outer}</coordinates></LinearRing></outerBoundaryIs>${holes
    .map((h) => `<innerBoundaryIs><LinearRing><coordinates>${h}</coordinates></LinearRing></innerBoundaryIs>`)
    .join('')}</Polygon>`;

const kml = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document>${body}</Document></kml>`;

const placemark = (name: string, geometry: string) =>
  `<Placemark><name>${name}</name>${geometry}</Placemark>`;

function expectParseError(text: string, message: RegExp) {
  expect(() => parseKmlZones(text)).toThrow(FileParseError);
  expect(() => parseKmlZones(text)).toThrow(message);
}

describe('parseKmlZones', () => {
  it('turns each Placemark polygon into a zone with lat/lng vertices and a lng/lat GeoJSON polygon', () => {
    const zonas = parseKmlZones(kml(placemark('Zona Norte', polygon(ring(-49.27, -25.43)))));
    expect(zonas).toHaveLength(1);
    const [zona] = zonas;
    expect(zona?.label).toBe('Zona Norte');
    expect(zona?.poligono[0]).toEqual({ lat: -25.43, lng: -49.27 });
    expect(zona?.poligono).toHaveLength(5);
    expect(zona?.poligono2.type).toBe('Polygon');
    const [lng, lat] = zona?.poligono2.coordinates[0]?.[1] ?? [];
    expect(lng).toBeCloseTo(-49.26, 10);
    expect(lat).toBeCloseTo(-25.43, 10);
  });

  it('finds polygons inside MultiGeometry and nested Folders, keeping holes', () => {
    const text = kml(`
      <Folder><name>Lote 1</name>
        ${placemark('A', polygon(ring(-49.3, -25.5, 0.1), [ring(-49.28, -25.48, 0.01)]))}
        <Folder><name>Sub</name>
          ${placemark('B', `<MultiGeometry>${polygon(ring(-49.1, -25.5))}${polygon(ring(-49.0, -25.5))}<Point><coordinates>-49,-25</coordinates></Point></MultiGeometry>`)}
        </Folder>
      </Folder>
      ${placemark('Só um ponto', '<Point><coordinates>-49.2,-25.4</coordinates></Point>')}`);
    const zonas = parseKmlZones(text);
    expect(zonas.map((z) => z.label)).toEqual(['A', 'B', 'B']);
    expect(zonas[0]?.poligono2.coordinates).toHaveLength(2);
  });

  it('reads a file with a BOM, CRLF line ends and stray whitespace in coordinates', () => {
    const text =
      '\uFEFF' +
      kml(
        placemark('  Centro  ', polygon(`\r\n   ${ring(-43.2, -22.9).split(' ').join(' \r\n ')}   \r\n`)),
      ).replace(/\n/g, '\r\n');
    const zonas = parseKmlZones(text);
    expect(zonas[0]?.label).toBe('Centro');
    expect(zonas[0]?.poligono).toHaveLength(5);
  });

  it('names unnamed polygons by their position', () => {
    const zonas = parseKmlZones(kml(`<Placemark>${polygon(ring(-47.9, -15.8))}</Placemark>`));
    expect(zonas[0]?.label).toBe('Zona 1');
  });

  it('refuses what is not XML, not KML, or has no polygon', () => {
    expectParseError('isto não é xml', /não é um XML\/KML válido/);
    expectParseError('<?xml version="1.0"?><gpx></gpx>', /não é um KML válido/);
    expectParseError(
      kml(placemark('P', '<Point><coordinates>-49,-25</coordinates></Point>')),
      /nenhum polígono/,
    );
    expectParseError('', /não é um XML\/KML válido/);
  });

  it('refuses DOCTYPE and entities (XXE, entity expansion)', () => {
    expectParseError(
      '<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><kml><Document><name>&xxe;</name></Document></kml>',
      /DOCTYPE ou entidades/,
    );
    const lol = '<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">';
    expectParseError(`<?xml version="1.0"?><!DOCTYPE kml [${lol}]><kml>&lol2;</kml>`, /DOCTYPE ou entidades/);
  });

  it('closes an open ring as KML readers do, and drops a ring too short to be a polygon', () => {
    const open = '-49.27,-25.43 -49.26,-25.43 -49.26,-25.42 -49.27,-25.42';
    const [zona] = parseKmlZones(kml(placemark('Aberta', polygon(open))));
    expect(zona?.poligono2.coordinates[0]).toHaveLength(5);
    expect(zona?.poligono2.coordinates[0]?.[4]).toEqual([-49.27, -25.43]);
    expectParseError(kml(placemark('Linha', polygon('-49.27,-25.43 -49.26,-25.43'))), /nenhum polígono/);
  });

  it('refuses bad coordinates and coordinates outside Brazil', () => {
    expectParseError(kml(placemark('Lisboa', polygon(ring(-9.14, 38.72)))), /fora do Brasil/);
    expectParseError(
      kml(placemark('Louca', polygon(ring(-49.27, -95)))),
      /coordenadas inválidas|fora do Brasil/,
    );
  });

  it('refuses a file over 10 MB', () => {
    expectParseError(kml(' '.repeat(11 * 1024 * 1024)), /tamanho máximo/);
  });
});

describe('zones as a geofence', () => {
  const zona = {
    poligono: [
      { lat: -25.44, lng: -49.28 },
      { lat: -25.44, lng: -49.27 },
      { lat: -25.43, lng: -49.27 },
      { lat: -25.43, lng: -49.28 },
    ],
  };
  it('tells a point inside one of the zones from one outside all of them', () => {
    expect(isInZonas({ lat: -25.435, lng: -49.275 }, [zona])).toBe(true);
    expect(isInZonas({ lat: -25.45, lng: -49.275 }, [zona])).toBe(false);
    expect(isInZonas({ lat: -25.435, lng: -49.275 }, [])).toBe(false);
  });
});
