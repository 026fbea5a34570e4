// Vegetação / Árvore and Grupo A on the server (SPEC.md sections 3, 5, 7): upload with photos, replay, the
// Portuguese validation messages with nothing stored, and who may upload and read.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCliente,
  createCookie,
  createFieldProject,
  createTestContext,
  fakeJpeg,
  type TestContext,
  uploadRecord,
  zonaId,
} from './support/test-app.ts';

// Inside 'Zona Centro' of docs/samples/zoneamento-curitiba.kml.
const CENTRO = { lat: -25.435, lng: -49.275 };

const envelope = (projeto: string, id = crypto.randomUUID()) => ({
  id,
  projeto,
  coordenadas: JSON.stringify(CENTRO),
  dataHora: String(Date.UTC(2026, 10, 21, 9, 15)),
});

describe('Vegetação and Grupo A uploads', () => {
  let ctx: TestContext;
  let tecnico: string;
  let semZona: string;
  let supervisorB: string;
  let supervisorA: string;
  let projeto: { _id: string; zonas: { _id: string; label: string }[] };

  const upload = (path: string, fields: Record<string, string>, fotos: Buffer[] = [], cookie = tecnico) =>
    uploadRecord(ctx.app, path, fields, { fotos, cookie });
  const get = (url: string, cookie = tecnico) => ctx.app.inject({ method: 'GET', url, headers: { cookie } });
  const rows = async (fluxo: string) =>
    (
      await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM registros WHERE fluxo = $1', [fluxo])
    )[0]?.n ?? -1;

  beforeAll(async () => {
    ctx = await createTestContext();
    const campo = await createFieldProject(ctx.app, ctx.db, {
      nome: 'Arborização',
      cliente: 'Copel',
      fluxos: ['arvore', 'grupoA'],
    });
    const { admin, cliente: clienteA } = campo;
    projeto = { _id: campo.projeto, zonas: campo.zonas };
    tecnico = campo.tecnicoCookie;
    const clienteB = await createCliente(ctx.app, admin, 'Celesc');
    const session = (options: Parameters<typeof createCookie>[2]) => createCookie(ctx.app, ctx.db, options);
    semZona = await session({ roles: ['tecnico'], cliente: clienteA });
    supervisorA = await session({ roles: ['supervisor'], cliente: clienteA });
    supervisorB = await session({ roles: ['supervisor'], cliente: clienteB });
  });
  afterAll(async () => ctx.close());

  it('stores a tree once with its photo, its height as typed with a comma and only the ticked distances', async () => {
    const fields = {
      ...envelope(projeto._id),
      contatoRede: JSON.stringify(['Baixa Tensão']),
      projecaoRede: JSON.stringify([]),
      distanciaRedeBT: '0',
      // MT is ticked nowhere: its distance is never stored
      distanciaRedeMT: '150',
      diametroTronco: '35',
      fenotipo: 'Sibipiruna',
      altura: '8,5',
    };
    const foto = fakeJpeg();
    const first = await upload('arvore', fields, [foto]);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      _id: fields.id,
      contatoRede: ['Baixa Tensão'],
      projecaoRede: [],
      distanciaRedeBT: '0',
      distanciaRedeMT: '',
      altura: '8.5',
      fenotipo: 'Sibipiruna',
      coletado: true,
    });
    const replay = await upload('arvore', fields, [foto]);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()._id).toBe(fields.id);
    expect(await rows('arvore')).toBe(1);

    const zona = zonaId(projeto, 'Zona Centro');
    const listed = (await get(`/api/arvore/getByZona?id=${zona}`)).json() as {
      _id: string;
      fotos: string[];
    }[];
    expect(listed.map((arvore) => arvore._id)).toEqual([fields.id]);
    const [url] = listed[0]?.fotos ?? [];
    const served = await get(url ?? '');
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(foto)).toBe(true);
  });

  it('refuses a tree without a valid height with a Portuguese message, storing nothing', async () => {
    const before = await rows('arvore');
    for (const [altura, message] of [
      ['', 'A altura é obrigatória.'],
      ['alta', 'deve ser um número'],
    ] as const) {
      const response = await upload('arvore', { ...envelope(projeto._id), altura }, [fakeJpeg()]);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(message);
    }
    const bad = await upload('arvore', {
      ...envelope(projeto._id),
      altura: '4',
      contatoRede: JSON.stringify(['Alta Tensão']),
    });
    expect(bad.statusCode).toBe(400);
    expect(await rows('arvore')).toBe(before);
  });

  it('stores a Grupo A once and lists it by project name for the client supervisor', async () => {
    const fields = {
      ...envelope(projeto._id),
      uc: '3001234567',
      medidor: 'M-778',
      levantamentoAcompanhado: 'true',
      levantamentoAutorizado: 'false',
    };
    expect((await upload('grupoa', fields, [fakeJpeg()])).statusCode).toBe(201);
    expect((await upload('grupoa', fields, [fakeJpeg()])).statusCode).toBe(200);
    const list = await get(`/api/grupoa/${encodeURIComponent('Arborização')}`, supervisorA);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toHaveLength(1);
    expect(list.json()[0]).toMatchObject({
      uc: '3001234567',
      medidor: 'M-778',
      levantamentoAcompanhado: true,
      levantamentoAutorizado: false,
    });
    expect(list.json()[0].fotos).toHaveLength(1);
  });

  it('refuses a Grupo A without UC and Medidor, naming both', async () => {
    const response = await upload('grupoa', envelope(projeto._id));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('A UC é obrigatória. | O medidor é obrigatório.');
    expect(await rows('grupoA')).toBe(1);
  });

  it('lets only technicians of the project upload, and only its client read', async () => {
    const fields = { ...envelope(projeto._id), uc: '1', medidor: '2' };
    const refused = await upload('grupoa', fields, [fakeJpeg()], semZona);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Usuario nao tem permissao para esse recurso');
    expect(await rows('grupoA')).toBe(1);
    expect((await get(`/api/grupoa/${encodeURIComponent('Arborização')}`, supervisorB)).statusCode).toBe(403);
    const zona = zonaId(projeto, 'Zona Centro');
    expect((await get(`/api/arvore/getByZona?id=${zona}`, semZona)).statusCode).toBe(403);
  });
});
