// LPT Agiltec (SPEC.md sections 3, 4, 7): the records of the project's file listed by project with their
// collections, collected by a technician of the project, collected again, and who may read the list.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdminCliente,
  createProjeto,
  createSession,
  createTestContext,
  fakeJpeg,
  sample,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

const DATA_HORA = Date.UTC(2026, 10, 22, 14, 30);
// Inside 'Zona Centro' of docs/samples/zoneamento-curitiba.kml.
const NA_CASA = { lat: -25.435, lng: -49.275 };

interface Registro {
  _id: string;
  os: string;
  possuiColeta: boolean;
  coletas: { _id: string; tecnico: string; dataHora: number; fotos: string[]; [campo: string]: unknown }[];
  [campo: string]: unknown;
}

describe('LPT Agiltec: list by project, collect, collect again', () => {
  let ctx: TestContext;
  let admin: string;
  let ana: string;
  let forasteiro: string;
  let projeto: { _id: string; nome: string; zonas: { _id: string }[] };

  const lista = async (cookie: string, nome = projeto.nome) => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/lptv2/projeto/${encodeURIComponent(nome)}`,
      headers: { cookie },
    });
    return { status: response.statusCode, body: response.json() as Registro[] & { message?: string } };
  };
  const registro = async (os: string, cookie = ana): Promise<Registro> => {
    const { status, body } = await lista(cookie);
    expect(status).toBe(200);
    const found = body.find((candidate) => candidate.os === os);
    if (!found) throw new Error(`OS ${os} not listed`);
    return found;
  };
  const coletar = (fields: Record<string, string>, fotos: Buffer[], cookie = ana) =>
    uploadRecord(ctx.app, 'lptv2', fields, { fotos, cookie });
  const coleta = (id: string, extra: Record<string, string> = {}) => ({
    id,
    coletaId: crypto.randomUUID(),
    projeto: projeto._id,
    coordenadas: JSON.stringify(NA_CASA),
    dataHora: String(DATA_HORA),
    telefoneAtualizado: '(41) 98888-1234',
    emailAtualizado: 'maria.silva@example.com',
    possuiCasa: 'Sim',
    configuraMoradia: 'Alvenaria, 2 quartos',
    observacao: 'Medidor no muro',
    ...extra,
  });

  beforeAll(async () => {
    ctx = await createTestContext();
    let cliente: string;
    ({ admin, cliente } = await createAdminCliente(ctx.app, ctx.db, 'Agiltec'));
    projeto = await createProjeto(ctx.app, admin, {
      nome: 'Luz no Campo',
      cliente,
      fluxos: ['lpt2'],
      arquivoLPTv2: sample('lpt-agiltec.csv'),
    });
    const outro = await createProjeto(ctx.app, admin, { nome: 'Outro Campo', cliente, fluxos: ['lpt2'] });
    const tecnico = async (firstName: string, zonas: string[]) =>
      (await createSession(ctx.app, ctx.db, { roles: ['tecnico'], cliente, firstName, zonas })).cookie;
    // One zone of the project is enough to read its whole list: LPT Agiltec records have no position yet.
    ana = await tecnico('Ana', [projeto.zonas[0]?._id ?? '']);
    forasteiro = await tecnico('Forasteiro', [outro.zonas[0]?._id ?? '']);
  });
  afterAll(async () => ctx.close());

  it('lists the records of the project’s file, not collected, with their original data', async () => {
    const { status, body } = await lista(ana);
    expect(status).toBe(200);
    expect(body.map((item) => item.os).sort()).toEqual(['5001', '5002']);
    expect(body.find((item) => item.os === '5001')).toMatchObject({
      os: '5001',
      nome: 'Maria da Silva',
      cpf: '123.456.789-00',
      telefone1: '(41) 99999-0001',
      email: 'maria@example.com',
      propriedade: 'Sítio Boa Vista',
      comunidade: 'Santa Rita',
      municipio: 'Lapa',
      polo: 'Polo Sul',
      regional: 'Curitiba',
      projeto: projeto._id,
      possuiColeta: false,
      coletado: false,
      carregadoBackoffice: true,
      coordenadas: null,
      coletas: [],
      fotos: [],
    });
  });

  it('collects a record: possuiColeta, one coleta with who, when, where, the fields and the photo', async () => {
    const antes = await registro('5001');
    const foto = fakeJpeg();
    const fields = coleta(antes._id);
    const response = await coletar(fields, [foto]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()._id).toBe(antes._id);

    const depois = await registro('5001');
    expect(depois).toMatchObject({
      _id: antes._id,
      possuiColeta: true,
      coletado: true,
      tecnico: 'Ana de Tal',
      coordenadas: NA_CASA,
      dataHora: DATA_HORA,
      // The file's data stays beside the collected data.
      nome: 'Maria da Silva',
      telefone1: '(41) 99999-0001',
      telefoneAtualizado: '(41) 98888-1234',
      possuiCasa: 'Sim',
      fotos: [`/api/fotos/${antes._id}/0`],
    });
    expect(depois.coletas).toEqual([
      expect.objectContaining({
        _id: antes._id,
        tecnico: 'Ana de Tal',
        dataHora: DATA_HORA,
        coordenadas: NA_CASA,
        telefoneAtualizado: '(41) 98888-1234',
        emailAtualizado: 'maria.silva@example.com',
        possuiCasa: 'Sim',
        configuraMoradia: 'Alvenaria, 2 quartos',
        observacao: 'Medidor no muro',
        fotos: [`/api/fotos/${antes._id}/0`],
      }),
    ]);
    const bytes = await ctx.app.inject({
      method: 'GET',
      url: `/api/fotos/${antes._id}/0`,
      headers: { cookie: admin },
    });
    expect(bytes.rawPayload.equals(foto)).toBe(true);
    // The other record of the file is untouched.
    expect(await registro('5002')).toMatchObject({ possuiColeta: false, coletas: [] });

    // A retry after a lost response is the same collection.
    const replay = await coletar(fields, [foto]);
    expect(replay.statusCode).toBe(200);
    expect((await registro('5001')).coletas).toHaveLength(1);
  });

  it('keeps every collection of a record collected again, newest first', async () => {
    const { _id: id } = await registro('5002');
    const primeira = await coletar(coleta(id, { possuiCasa: 'Em construção' }), [fakeJpeg()]);
    const segunda = await coletar(
      coleta(id, { possuiCasa: 'Sim', dataHora: String(DATA_HORA + 86_400_000) }),
      [fakeJpeg()],
    );
    expect([primeira.statusCode, segunda.statusCode]).toEqual([200, 200]);
    const depois = await registro('5002');
    // The record keeps the collection that reached the server first; the list shows both.
    expect(depois).toMatchObject({ possuiColeta: true, possuiCasa: 'Em construção' });
    expect(depois.coletas.map((item) => [item.possuiCasa, item.dataHora])).toEqual([
      ['Sim', DATA_HORA + 86_400_000],
      ['Em construção', DATA_HORA],
    ]);
    expect(depois.coletas.every((item) => item.fotos.length === 1)).toBe(true);
  });

  it('a record corrected once (issue 24) is still collected again: the new collection is kept, not a replay', async () => {
    const { _id: id } = await registro('5001');
    const primeira = coleta(id, { possuiCasa: 'Sim' });
    expect((await coletar(primeira, [fakeJpeg()])).statusCode).toBe(200);
    const supervisor = (await createSession(ctx.app, ctx.db, { roles: ['administrador'] })).cookie;
    const rejeitar = await ctx.app.inject({
      method: 'POST',
      url: `/api/revisao/${id}`,
      headers: { cookie: supervisor },
      payload: { estado: 'reprovado', comentario: 'Telefone errado.', versao: 1 },
    });
    expect(rejeitar.statusCode, rejeitar.body).toBe(200);
    const correcao = await coletar({ ...primeira, versao: '2', telefoneAtualizado: '(41) 97777-0000' }, [
      fakeJpeg(),
    ]);
    expect(correcao.json()).toMatchObject({ _id: id, versao: 2, telefoneAtualizado: '(41) 97777-0000' });
    const outra = await coletar(
      coleta(id, { possuiCasa: 'Em construção', dataHora: String(DATA_HORA + 2 * 86_400_000) }),
      [fakeJpeg()],
    );
    expect(outra.statusCode, outra.body).toBe(200);
    const depois = await registro('5001');
    expect(depois.coletas[0]).toMatchObject({
      possuiCasa: 'Em construção',
      dataHora: DATA_HORA + 2 * 86_400_000,
    });
  });

  it('refuses a collection without telefone or possuiCasa, with the form’s messages', async () => {
    const { _id: id } = await registro('5001');
    const response = await coletar(coleta(id, { telefoneAtualizado: '', possuiCasa: 'Talvez' }), []);
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain('O telefone é obrigatório.');
    expect(JSON.stringify(response.json())).toContain("'Possui casa?' é obrigatório.");
  });

  it('answers a technician of another project 403, and an unknown project 404', async () => {
    const { status, body } = await lista(forasteiro);
    expect(status).toBe(403);
    expect(body.message).toBeTruthy();
    expect((await lista(admin, 'Projeto Que Não Existe')).status).toBe(404);
  });
});
