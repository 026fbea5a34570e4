// Projects zoned with real KML (IBGE's Ilhabela as GDAL writes it and as IBGE publishes it, ../shared/realworld):
// the zones stored, and the points and records of each island landing in its zone.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCliente,
  createUser,
  createTestContext,
  FORM,
  formBody,
  loginCookie,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

const KML_DIR = path.resolve(import.meta.dirname, '../../../shared/realworld/kml');
const realKml = (name: string) => fs.readFileSync(path.join(KML_DIR, name), 'utf8');

// A point on two of the three islands of Ilhabela, and São Sebastião across the channel (another municipality).
const VILA_ILHABELA = { lat: -23.7785, lng: -45.358 };
const BUZIOS = { lat: -23.8071, lng: -45.139 };
const SAO_SEBASTIAO = { lat: -23.8036, lng: -45.4019 };

// Outer-ring vertices of each island and its area in square degrees, as ogrinfo reads the GDAL-written file:
//   ogrinfo -ro -q -dialect sqlite -sql 'SELECT ST_NPoints(geometry), ST_Area(geometry) FROM ILHABELA' \
//     gdal-kml__ibge-ilhabela-3-islands.kml
const ISLANDS = { saoSebastiao: 80, buzios: 10, vitoria: 8 } as const;
const ISLAND_AREAS = [0.000193, 0.000634, 0.029721];

interface Zona {
  _id: string;
  label: string;
  poligono: { lat: number; lng: number }[];
}

const island = (zonas: Zona[], vertices: number) => zonas.find((zona) => zona.poligono.length === vertices);

describe('a project zoned with Ilhabela from IBGE and GDAL', () => {
  let ctx: TestContext;
  let admin: string;
  let cliente: string;

  const save = (fields: Record<string, string | string[]>, id?: string) =>
    ctx.app.inject({
      method: id ? 'PUT' : 'POST',
      url: id ? `/api/projeto/${id}` : '/api/projeto',
      headers: { ...FORM, cookie: admin },
      payload: formBody(fields),
    });

  /** The areas PostGIS stores for the project's zones, smallest first. */
  const storedAreas = async (projeto: string) =>
    (
      await ctx.db.query<{ area: number }>(
        'SELECT ST_Area(geom) AS area FROM zonas WHERE projeto = $1 ORDER BY 1',
        [projeto],
      )
    ).map(({ area }) => Number(area.toFixed(6)));

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await loginCookie(ctx.app, (await createUser(ctx.db, { roles: ['administrador'] })).login);
    cliente = await createCliente(ctx.app, admin, 'Elektro');
  });
  afterAll(async () => ctx.close());

  it('stores one zone per island of a LIBKML MultiGeometry and puts each IP point in its island', async () => {
    const arquivoIP = [
      `${VILA_ILHABELA.lng};${VILA_ILHABELA.lat};IP-VILA;C1;1`,
      `${BUZIOS.lng};${BUZIOS.lat};IP-BUZIOS;C2;1`,
      `${SAO_SEBASTIAO.lng};${SAO_SEBASTIAO.lat};IP-CONTINENTE;C3;1`,
    ].join('\n');
    const response = await save({
      nome: 'Ilhabela',
      cliente,
      fuso: '23',
      fluxos: ['ip'],
      kml: realKml('gdal-libkml__ibge-ilhabela-multipolygon.kml'),
      arquivoIP,
    });
    expect(response.statusCode, response.body).toBe(201);
    const projeto = response.json();
    const zonas: Zona[] = projeto.zonas;
    expect(zonas.map((zona) => zona.label)).toEqual(['ILHABELA', 'ILHABELA', 'ILHABELA']);
    expect(zonas.map((zona) => zona.poligono.length).sort((a, b) => a - b)).toEqual([8, 10, 80]);
    expect(await storedAreas(projeto._id)).toEqual(ISLAND_AREAS);

    const zonaOf = Object.fromEntries(
      (
        await ctx.db.query<{ id: string; zona: string | null }>(
          `SELECT dados->>'idConcessionaria' AS id, zona FROM registros WHERE projeto = $1 AND fluxo = 'ip'`,
          [projeto._id],
        )
      ).map((row) => [row.id, row.zona]),
    );
    expect(zonaOf).toEqual({
      'IP-VILA': island(zonas, ISLANDS.saoSebastiao)?._id,
      'IP-BUZIOS': island(zonas, ISLANDS.buzios)?._id,
      'IP-CONTINENTE': null,
    });
  });

  it('takes IBGE’s file of closed LineStrings as the same zoning, and a technician’s unit lands on the island', async () => {
    const response = await save({
      nome: 'Ilhabela IBGE',
      cliente,
      fuso: '23',
      fluxos: ['hc'],
      kml: realKml('ibge__municipios_SP_ILHABELA.kml'),
    });
    expect(response.statusCode, response.body).toBe(201);
    const projeto = response.json();
    const zonas: Zona[] = projeto.zonas;
    expect(zonas.map((zona) => zona.poligono.length).sort((a, b) => a - b)).toEqual([8, 10, 80]);
    expect(await storedAreas(projeto._id)).toEqual(ISLAND_AREAS);

    const vila = island(zonas, ISLANDS.saoSebastiao);
    const tecnico = await createUser(ctx.db, { roles: ['tecnico'], cliente });
    await ctx.db.query('INSERT INTO usuario_zonas (usuario, zona) VALUES ($1, $2)', [tecnico.id, vila?._id]);
    const cookie = await loginCookie(ctx.app, tecnico.login);
    const mine = (
      await ctx.app.inject({ method: 'GET', url: '/api/projeto/getByUser', headers: { cookie } })
    ).json();
    expect(mine).toHaveLength(1);
    expect(mine[0].zonas.map((zona: Zona) => zona._id)).toEqual([vila?._id]);

    const id = crypto.randomUUID();
    const upload = await uploadRecord(
      ctx.app,
      'unidade',
      {
        id,
        projeto: projeto._id,
        coordenadas: JSON.stringify(VILA_ILHABELA),
        dataHora: String(Date.UTC(2026, 10, 20, 14, 30)),
        precisao: '4.5',
        tipoUnidade: 'SDU',
        tipoEdificacao: 'Residencial',
        tipoImovel: 'RESIDENCIAL',
        numero: '12',
        quantidade: '1',
      },
      { cookie },
    );
    expect(upload.statusCode, upload.body).toBe(201);
    expect(upload.json().zona).toBe(vila?._id);
  });

  it('keeps each island’s zone, and its technician, when the same islands are sent again in another order', async () => {
    const fields = { nome: 'Ilhabela reenviada', cliente, fuso: '23', fluxos: ['hc'] };
    const created = await save({ ...fields, kml: realKml('gdal-kml__ibge-ilhabela-3-islands.kml') });
    expect(created.statusCode, created.body).toBe(201);
    const before: Zona[] = created.json().zonas;
    const vila = island(before, ISLANDS.saoSebastiao);
    const tecnico = await createUser(ctx.db, { roles: ['tecnico'], cliente });
    await ctx.db.query('INSERT INTO usuario_zonas (usuario, zona) VALUES ($1, $2)', [tecnico.id, vila?._id]);

    // LIBKML's MultiGeometry lists the big island first; every zone is labelled ILHABELA in both files.
    const edited = await save(
      { ...fields, kml: realKml('gdal-libkml__ibge-ilhabela-multipolygon.kml') },
      created.json()._id,
    );
    expect(edited.statusCode, edited.body).toBe(200);
    const after: Zona[] = edited.json().zonas;
    for (const vertices of Object.values(ISLANDS)) {
      expect(island(after, vertices)?._id).toBe(island(before, vertices)?._id);
    }
    const cookie = await loginCookie(ctx.app, tecnico.login);
    const mine = (
      await ctx.app.inject({ method: 'GET', url: '/api/projeto/getByUser', headers: { cookie } })
    ).json();
    expect(mine[0].zonas.map((zona: Zona) => zona.poligono.length)).toEqual([ISLANDS.saoSebastiao]);
  });
});
