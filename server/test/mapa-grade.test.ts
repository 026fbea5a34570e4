// The supervisor map of a city-sized project (issue 41): past MAPA_PONTOS_NO_NAVEGADOR points the map's answer has
// no layers but their counts and box, and GET /api/projeto/{id}/mapa/grade gives the server's clusters tile by
// tile, remembered per project version (migration 0020). Here the limit is 3 points, so a handful reach that path.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GradeTile } from '@novus/domain/api/mapa';
import { FLUXOS } from '@novus/domain/flows/keys';
import { type MapaProjeto, STATUS, uuidFromCompact } from '@novus/domain/mapa/api';
import {
  createAdminCliente,
  createCliente,
  createProjeto,
  createSession,
  createTestContext,
  fakeJpeg,
  type TestContext,
  uploadRecord,
  zonaId,
} from './support/test-app.ts';
import { BASE_ZOOM, baseOf, gradeTiles, tilesFromBase } from '../src/modules/mapa/grade.ts';

interface Grade {
  versao: string;
  contagens: Partial<Record<string, number>>;
  tiles: GradeTile[];
}

interface ProjetoCriado {
  _id: string;
  nome: string;
  zonas: { _id: string; label: string }[];
  pontosIP: { _id: string; idConcessionaria: string }[];
  pontosBDGD: { _id: string; idConcessionaria: string }[];
}

/** Leaflet's tile of a place at `zoom`. */
function tileOf(lat: number, lng: number, zoom: number): [number, number] {
  const n = 2 ** zoom;
  const sin = Math.sin((lat * Math.PI) / 180);
  return [
    Math.floor(((lng + 180) / 360) * n),
    Math.floor((0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * n),
  ];
}

/** The tiles around a place, `radius` on each side. */
function around(lat: number, lng: number, zoom: number, radius: number): string {
  const [cx, cy] = tileOf(lat, lng, zoom);
  const tiles: string[] = [];
  for (let x = cx - radius; x <= cx + radius; x += 1)
    for (let y = cy - radius; y <= cy + radius; y += 1) tiles.push(`${x}:${y}`);
  return tiles.join(',');
}

/** Points per layer in the tiles: each cluster's count and each single point. */
function counted(grade: Grade): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const tile of grade.tiles) {
    for (let k = 0; 4 * k < tile.clusters.length; k += 1) {
      const fluxo = FLUXOS[tile.clusters[4 * k] ?? -1] ?? '?';
      counts[fluxo] = (counts[fluxo] ?? 0) + (tile.clusters[4 * k + 3] ?? 0);
    }
    for (let k = 0; 4 * k < tile.pontos.length; k += 1) {
      const fluxo = FLUXOS[tile.pontos[4 * k] ?? -1] ?? '?';
      counts[fluxo] = (counts[fluxo] ?? 0) + 1;
    }
  }
  return counts;
}

/** The single points of the tiles: uuid, layer, place and status. */
function singles(grade: Grade) {
  return grade.tiles.flatMap((tile) =>
    Array.from({ length: tile.pontos.length / 4 }, (_, k) => ({
      id: uuidFromCompact(tile.ids.slice(22 * k, 22 * k + 22)),
      fluxo: FLUXOS[tile.pontos[4 * k] ?? -1],
      lat: (tile.pontos[4 * k + 1] ?? 0) / 1e6,
      lng: (tile.pontos[4 * k + 2] ?? 0) / 1e6,
      status: tile.pontos[4 * k + 3] ?? 0,
    })),
  );
}

// Zona Centro: longitudes -49.28..-49.27, latitudes -25.44..-25.43; Zona Batel: -49.27..-49.26.
const CENTRO = { lat: -25.435, lng: -49.275 };
const IP = [
  // four within a few metres of each other, in Zona Centro
  { coordenadas: [-25.43501, -49.27501], idConcessionaria: 'IP-1', idCircuito: 'C-1' },
  { coordenadas: [-25.43502, -49.27502], idConcessionaria: 'IP-2', idCircuito: 'C-1' },
  { coordenadas: [-25.43503, -49.27503], idConcessionaria: 'IP-3', idCircuito: 'C-1' },
  { coordenadas: [-25.43504, -49.27504], idConcessionaria: 'IP-4', idCircuito: 'C-1' },
  { coordenadas: [-25.4381, -49.2789], idConcessionaria: 'IP-5', idCircuito: 'C-2' },
  // Zona Batel
  { coordenadas: [-25.4355, -49.2655], idConcessionaria: 'IP-BATEL', idCircuito: 'C-3' },
];
const BDGD = [
  { coordenadas: [-25.4344, -49.2764], idConcessionaria: 'B-1', ativo: 'Poste', sequencial: 1 },
  { coordenadas: [-25.4322, -49.2722], idConcessionaria: 'B-2', ativo: 'Poste', sequencial: 2 },
];

describe('the supervisor map of a city-sized project: clusters by the server', () => {
  let ctx: TestContext;
  let admin: string;
  let projeto: ProjetoCriado;
  let supervisor: string;
  let tecnico: string;
  let alheio: string;

  beforeAll(async () => {
    ctx = await createTestContext({ mapaPontosNoNavegador: 3 });
    let cliente: string;
    ({ admin, cliente } = await createAdminCliente(ctx.app, ctx.db, 'Copel'));
    projeto = await createProjeto<ProjetoCriado>(ctx.app, admin, {
      nome: 'Cidade Grande',
      cliente,
      fluxos: ['hc', 'ip', 'bdgd'],
      pontosIP: JSON.stringify(IP),
      pontosBDGD: JSON.stringify(BDGD),
    });
    supervisor = (await createSession(ctx.app, ctx.db, { roles: ['supervisor'], cliente })).cookie;
    tecnico = (
      await createSession(ctx.app, ctx.db, {
        roles: ['tecnico'],
        cliente,
        zonas: [zonaId(projeto, 'Zona Centro')],
      })
    ).cookie;
    const outro = await createCliente(ctx.app, admin, 'Celesc');
    alheio = (await createSession(ctx.app, ctx.db, { roles: ['supervisor'], cliente: outro })).cookie;
  });

  afterAll(async () => {
    await ctx?.close();
  });

  async function mapa(cookie: string): Promise<MapaProjeto> {
    const response = await ctx.app.inject({ url: `/api/projeto/${projeto._id}/mapa`, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MapaProjeto>();
  }

  async function grade(cookie: string, query: string): Promise<Grade> {
    const response = await ctx.app.inject({
      url: `/api/projeto/${projeto._id}/mapa/grade?${query}`,
      headers: { cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Grade>();
  }

  it('answers the counts and the box instead of the layers', async () => {
    const answer = await mapa(supervisor);
    expect(answer.camadas).toEqual([]);
    expect(answer.grade?.contagens).toEqual({ ip: 6, bdgd: 2 });
    const [[south, west], [north, east]] = answer.grade?.limites ?? [
      [0, 0],
      [0, 0],
    ];
    expect([south, west, north, east]).toEqual([-25.4381, -49.2789, -25.4322, -49.2655]);
  });

  it('clusters the near points and gives the far ones singly, every point counted once', async () => {
    const clustered = await grade(supervisor, `z=14&tiles=${around(CENTRO.lat, CENTRO.lng, 14, 1)}`);
    expect(counted(clustered)).toEqual({ ip: 6, bdgd: 2 });
    const clusters = clustered.tiles.flatMap((tile) => tile.clusters);
    // the four IP points 1-4 m apart are one cluster of the IP layer
    expect(clusters.length).toBeGreaterThan(0);
    expect(Math.max(...clusters.filter((_, i) => i % 4 === 3))).toBeGreaterThanOrEqual(4);
    expect(clustered.contagens).toEqual({ ip: 6, bdgd: 2 });

    // at zoom 19 every point is its own, with its record's id and status
    const near = around(-25.43502, -49.27502, 19, 1);
    const single = singles(await grade(supervisor, `z=19&tiles=${near}`));
    const ids = new Map(projeto.pontosIP.map((ponto) => [ponto.idConcessionaria, ponto._id]));
    expect(single.map((ponto) => ponto.id).sort()).toEqual(
      ['IP-1', 'IP-2', 'IP-3', 'IP-4'].map((id) => ids.get(id)).sort(),
    );
    for (const ponto of single) {
      expect(ponto.fluxo).toBe('ip');
      expect(ponto.status & STATUS.carregadoBackoffice).toBe(STATUS.carregadoBackoffice);
    }
  });

  it('merges the base cells into the same clusters the database gives at each zoom', async () => {
    const filtro = { projeto: projeto._id };
    const base = await baseOf(ctx.db, filtro);
    for (const zoom of [9, 12, 14, BASE_ZOOM]) {
      const tiles = around(CENTRO.lat, CENTRO.lng, zoom, 1)
        .split(',')
        .map((pair) => pair.split(':').map(Number) as [number, number]);
      const merged = await tilesFromBase(ctx.db, filtro, base, zoom, tiles);
      const direct = await gradeTiles(ctx.db, filtro, zoom, 'clusters', tiles);
      // each cluster as [layer, lat, lng, count], in one order, places to 1e-5 degree (sums in another order)
      const canonical = (list: GradeTile[]) =>
        list.map((tile) => ({
          ...tile,
          clusters: Array.from({ length: tile.clusters.length / 4 }, (_, k) =>
            tile.clusters.slice(4 * k, 4 * k + 4).map((value, i) => (i === 1 || i === 2 ? Math.round(value / 10) : value)),
          ).sort((a, b) => String(a).localeCompare(String(b))),
        }));
      expect(canonical(merged), `zoom ${zoom}`).toEqual(canonical(direct));
    }
  });

  it("draws one point per 2-px cell when 'Clusterizar' is off", async () => {
    const pontos = await grade(supervisor, `z=14&modo=pontos&tiles=${around(CENTRO.lat, CENTRO.lng, 14, 1)}`);
    expect(pontos.tiles.flatMap((tile) => tile.clusters)).toEqual([]);
    // the four IP points share one 2-px cell at zoom 14 (≈ 16 m): drawn as their first record
    expect(singles(pontos)).toHaveLength(5);
  });

  it('serves a tile again from memory until an upload changes the project, then recomputes it', async () => {
    const tiles = around(CENTRO.lat, CENTRO.lng, 15, 1);
    const before = await grade(supervisor, `z=15&tiles=${tiles}`);
    const again = await grade(supervisor, `z=15&tiles=${tiles}`);
    expect(again.versao).toBe(before.versao);
    expect(again.tiles).toEqual(before.tiles);

    const upload = await uploadRecord(
      ctx.app,
      'unidade',
      {
        id: crypto.randomUUID(),
        projeto: projeto._id,
        coordenadas: JSON.stringify({ lat: -25.4366, lng: -49.2766 }),
        dataHora: String(Date.now()),
        tipoUnidade: 'SDU',
        tipoEdificacao: 'Residencial',
        tipoImovel: 'RESIDENCIAL',
        numero: '120',
        quantidade: '1',
      },
      { fotos: [fakeJpeg()], cookie: tecnico },
    );
    expect(upload.statusCode, upload.body).toBeLessThan(300);
    const after = await grade(supervisor, `z=15&tiles=${tiles}`);
    expect(Number(after.versao)).toBeGreaterThan(Number(before.versao));
    expect(counted(after)).toEqual({ ...counted(before), hc: 1 });
    expect(after.contagens).toEqual({ ip: 6, bdgd: 2, hc: 1 });
    expect((await mapa(supervisor)).grade?.contagens).toEqual({ ip: 6, bdgd: 2, hc: 1 });
  });

  it("shows a technician only their zones' points", async () => {
    const answer = await mapa(tecnico);
    expect(answer.grade?.contagens).toEqual({ ip: 5, bdgd: 2, hc: 1 });
    const mine = await grade(tecnico, `z=13&tiles=${around(CENTRO.lat, CENTRO.lng, 13, 1)}`);
    expect(counted(mine)).toEqual({ ip: 5, bdgd: 2, hc: 1 });
  });

  it("'Somente sinalizados' asks for the flagged points only", async () => {
    const flagged = await grade(supervisor, `z=13&sinalizados=1&tiles=${around(CENTRO.lat, CENTRO.lng, 13, 1)}`);
    // the unit uploaded above has a quality flag (no accuracy sent); the preloaded points have none
    expect(counted(flagged)).toEqual({ hc: 1 });
    expect(flagged.contagens).toEqual({ hc: 1 });
    const [unit] = singles(flagged);
    expect((unit?.status ?? 0) & STATUS.sinalizado).toBe(STATUS.sinalizado);
  });

  it('refuses bad parameters in Portuguese, and another client', async () => {
    const ask = (query: string, cookie = supervisor) =>
      ctx.app.inject({ url: `/api/projeto/${projeto._id}/mapa/grade?${query}`, headers: { cookie } });
    const bad = [
      ['z=25&tiles=1:1', 'Zoom inválido.'],
      ['z=abc&tiles=1:1', 'Zoom inválido.'],
      ['z=10&tiles=1-1', 'Quadros inválidos: use x:y, separados por vírgula.'],
      ['z=10', 'Informe os quadros (x:y, separados por vírgula).'],
      [`z=10&tiles=${Array.from({ length: 121 }, (_, i) => `${i}:1`).join(',')}`, 'No máximo 120 quadros por pedido.'],
      ['z=10&tiles=1:1&modo=todos', "Modo inválido: 'clusters' ou 'pontos'."],
      ['z=10&tiles=1:1&dataInicio=2026-02-30', 'Data inicial inválida: use AAAA-MM-DD.'],
    ] as const;
    for (const [query, message] of bad) {
      const response = await ask(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ message: string }>().message, query).toContain(message);
    }
    expect((await ask('z=10&tiles=1:1', alheio)).statusCode).toBe(403);
    const missing = await ctx.app.inject({
      url: `/api/projeto/${crypto.randomUUID()}/mapa/grade?z=10&tiles=1:1`,
      headers: { cookie: supervisor },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('still deletes a project with records (its changes are not tied to it)', async () => {
    const { admin: otherAdmin, cliente } = await createAdminCliente(ctx.app, ctx.db, 'Light');
    const descartavel = await createProjeto<ProjetoCriado>(ctx.app, otherAdmin, {
      nome: 'Descartável',
      cliente,
      fluxos: ['ip'],
      pontosIP: JSON.stringify(IP.slice(0, 2)),
    });
    const response = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/projeto/${descartavel._id}`,
      headers: { cookie: otherAdmin },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  });
});
