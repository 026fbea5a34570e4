import { describe, expect, it } from 'vitest';
import { parseKmlZones } from '../src/geo/kml.ts';
import { parseIpPoints } from '../src/geo/point-files.ts';
import { checkReadableText, decodeTextFile } from '../src/geo/text-file.ts';

const bytes = (text: string, encoding: BufferEncoding) => new Uint8Array(Buffer.from(text, encoding));

describe('the text of an uploaded file', () => {
  it('reads UTF-8, Latin-1 and Windows-1252 (the quotes and dashes Excel writes) and UTF-16 with its mark', () => {
    expect(decodeTextFile(bytes('São João; Ação', 'utf8'))).toBe('São João; Ação');
    expect(decodeTextFile(bytes('São João; Ação', 'latin1'))).toBe('São João; Ação');
    // 0x93 0x94 0x96 0x80 are “ ” – € in Windows-1252 (C1 control characters in ISO-8859-1).
    expect(decodeTextFile(Uint8Array.from([0x93, 0x41, 0x94, 0x20, 0x96, 0x20, 0x80, 0x20, 0xe7]))).toBe(
      '“A” – € ç',
    );
    // The byte order mark says which; it is not part of the text.
    expect(decodeTextFile(bytes('\uFEFFPonto ç', 'utf16le'))).toBe('Ponto ç');
    const be = Buffer.from('\uFEFFPonto ç', 'utf16le').swap16();
    expect(decodeTextFile(new Uint8Array(be))).toBe('Ponto ç');
    expect(decodeTextFile(bytes('\uFEFFPonto ç', 'utf8'))).toBe('Ponto ç');
  });

  it('gives the parsers Latin-1 point files right', () => {
    const file = decodeTextFile(bytes('-49.27;-25.43;São João;Circuito Ação\n', 'latin1'));
    expect(parseIpPoints(file)).toMatchObject([
      { idConcessionaria: 'São João', idCircuito: 'Circuito Ação' },
    ]);
  });

  it('refuses binary files and text already garbled by a wrong decoding, in Portuguese', () => {
    expect(() => checkReadableText('PK\u0003\u0004\u0000')).toThrow(
      'O arquivo não é um arquivo de texto (parece um arquivo binário).',
    );
    expect(() => checkReadableText('S\uFFFDo Jo\uFFFDo')).toThrow(/caracteres ilegíveis/);
    expect(() => checkReadableText('São João')).not.toThrow();
    expect(() => parseIpPoints('-49.27;-25.43;S\uFFFDo;B')).toThrow(/caracteres ilegíveis/);
    expect(() => parseKmlZones('<kml>\u0000</kml>')).toThrow(/não é um arquivo de texto/);
  });

  it('refuses a point value past 500 characters and a zone name past 200, naming where', () => {
    expect(() => parseIpPoints(`-49.27;-25.43;A;B\n-49.27;-25.43;${'x'.repeat(501)};B`)).toThrow(
      'Linha 2: a coluna 3 tem mais de 500 caracteres.',
    );
    const ring = '-49.28,-25.44,0 -49.27,-25.44,0 -49.27,-25.43,0 -49.28,-25.43,0 -49.28,-25.44,0';
    const kml = (name: string) =>
      `<kml><Document><Placemark><name>${name}</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Document></kml>`;
    expect(parseKmlZones(kml('z'.repeat(200)))[0]?.label).toHaveLength(200);
    expect(() => parseKmlZones(kml('z'.repeat(201)))).toThrow(/O nome da zona 1 tem mais de 200 caracteres/);
  });
});
