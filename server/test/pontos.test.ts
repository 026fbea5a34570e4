// Points a project preloads (ip, bdgd, fiscalizacao) or a device draws (lpt): collecting them, replays, two
// devices collecting one point, BDGD's sequencial, and the access check that comes before any photo byte.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pontoBDGD, pontoIP } from './support/fixtures.ts';
import {
  createAdminCliente,
  createProjeto,
  createSession,
  createTestContext,
  fakeJpeg,
  FORM,
  formBody,
  multipart,
  sample,
  type TestContext,
  uploadRecord,
  zonaId,
} from './support/test-app.ts';

// Inside 'Zona Centro' of docs/samples/zoneamento-curitiba.kml.
const IP_PONTOS = [
  pontoIP(1, [-25.435, -49.275], 'C-1', { quantidadeCompartilhamento: 3 }),
  pontoIP(2, [-25.436, -49.276], 'C-1'),
  pontoIP(3, [-25.434, -49.274], 'C-2'),
  pontoIP(4, [-25.437, -49.277], 'C-2'),
];
const BDGD_PONTOS = [pontoBDGD(7, [-25.435, -49.275], 'Poste'), pontoBDGD(12, [-25.436, -49.274], 'Chave')];
const DATA_HORA = Date.UTC(2026, 10, 21, 13, 0);

interface Json {
  _id: string;
  [campo: string]: unknown;
}

describe('points: preloaded, collected, collected twice', () => {
  let ctx: TestContext;
  let admin: string;
  let ana: string;
  let bruno: string;
  let forasteiro: string;
  let projeto: {
    _id: string;
    nome: string;
    zonas: { _id: string; label: string }[];
    pontosIP: Json[];
    pontosBDGD: Json[];
    pontosFiscalizacao: Json[];
  };
  let centro: string;

  const upload = (apiPath: string, fields: Record<string, string>, fotos: Buffer[] = [], cookie = ana) =>
    uploadRecord(ctx.app, apiPath, fields, { fotos, cookie });
  const get = async (url: string, cookie = admin) => {
    const response = await ctx.app.inject({ method: 'GET', url, headers: { cookie } });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  const byZona = async (apiPath: string, id: string, cookie = ana): Promise<Json> => {
    const list: Json[] = await get(`/api/${apiPath}/getByZona?id=${centro}`, cookie);
    const found = list.find((registro) => registro._id === id);
    if (!found) throw new Error(`${id} not in getByZona`);
    return found;
  };
  const ipColeta = (ponto: Json, extra: Record<string, string> = {}) => ({
    id: ponto._id,
    coletaId: crypto.randomUUID(),
    projeto: projeto._id,
    coordenadas: JSON.stringify(ponto.coordenadas),
    dataHora: String(DATA_HORA),
    possuiIP: 'true',
    possuiUsoMutuo: 'true',
    ...extra,
  });
  /** Every photo file in the store (its tmp directory holds nothing between requests). */
  const blobFiles = () =>
    fs
      .readdirSync(ctx.blobDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  const blobPath = (bytes: Buffer) => {
    const hash = crypto.createHash('sha256').update(bytes).digest('hex');
    return path.join(ctx.blobDir, hash.slice(0, 2), hash);
  };
  const pontoRows = async (id: string) =>
    ctx.db.query<{ id: string; conflito_de: string | null }>(
      'SELECT id, conflito_de FROM registros WHERE id = $1 OR conflito_de = $1 ORDER BY conflito_de NULLS FIRST',
      [id],
    );

  beforeAll(async () => {
    ctx = await createTestContext();
    let cliente: string;
    ({ admin, cliente } = await createAdminCliente(ctx.app, ctx.db, 'Copel'));
    projeto = await createProjeto<typeof projeto>(ctx.app, admin, {
      nome: 'Pontos',
      cliente,
      fluxos: ['ip', 'bdgd', 'fiscalizacao', 'lpt'],
      pontosIP: JSON.stringify(IP_PONTOS),
      pontosBDGD: JSON.stringify(BDGD_PONTOS),
      arquivoFiscalizacao: sample('fiscalizacao-fuso22.csv'),
    });
    const outro = await createProjeto(ctx.app, admin, { nome: 'Outro', cliente, fluxos: ['ip'] });
    centro = zonaId(projeto, 'Zona Centro');
    const tecnico = async (firstName: string, zonas: string[]) =>
      (await createSession(ctx.app, ctx.db, { roles: ['tecnico'], cliente, firstName, zonas })).cookie;
    const todas = projeto.zonas.map((zona) => zona._id);
    ana = await tecnico('Ana', todas);
    bruno = await tecnico('Bruno', todas);
    forasteiro = await tecnico('Forasteiro', [outro.zonas[0]?._id ?? '']);
  });
  afterAll(async () => ctx.close());

  it('collects a preloaded IP point: who, when, fields and photos, the preloaded values and position kept', async () => {
    const ponto = projeto.pontosIP[0] as Json;
    const antes = await byZona('ip', ponto._id);
    expect(antes).toMatchObject({ coletado: false, carregadoBackoffice: true, adicionadoApp: false });
    expect(antes.tecnico).toBeNull();

    const onde = { lat: -25.43505, lng: -49.27502 };
    const fotos = [fakeJpeg(), fakeJpeg()];
    const response = await upload(
      'ip',
      ipColeta(ponto, { coordenadas: JSON.stringify(onde), possuiUsoMutuo: 'false' }),
      fotos,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()._id).toBe(ponto._id);

    const depois = await byZona('ip', ponto._id);
    expect(depois).toMatchObject({
      coletado: true,
      carregadoBackoffice: true,
      adicionadoApp: false,
      tecnico: 'Ana de Tal',
      dataHora: DATA_HORA,
      coordenadas: onde,
      possuiIP: true,
      possuiUsoMutuo: false,
      // Not sent by the device: the preloaded values stay.
      idConcessionaria: 'IP-1',
      idCircuito: 'C-1',
      quantidadeCompartilhamento: 3,
      coordenadasOriginais: [-25.435, -49.275],
      conflito: false,
      coletas: [],
    });
    expect(depois.sincronizadoEm).toBeGreaterThan(0);
    expect(depois.fotos).toEqual([`/api/fotos/${ponto._id}/0`, `/api/fotos/${ponto._id}/1`]);
    const foto = await ctx.app.inject({
      method: 'GET',
      url: `/api/fotos/${ponto._id}/1`,
      headers: { cookie: ana },
    });
    expect(foto.rawPayload.equals(fotos[1] as Buffer)).toBe(true);
    // The back office's list by project name shows the same point, collected.
    const lista: Json[] = await get(`/api/ip/${projeto.nome}`);
    expect(lista.find((registro) => registro._id === ponto._id)).toMatchObject({ coletado: true });
  });

  it('answers the same upload sent twice with the same point and keeps one collection', async () => {
    const ponto = projeto.pontosIP[2] as Json;
    const fields = ipColeta(ponto);
    const fotos = [fakeJpeg()];
    const first = await upload('ip', fields, fotos);
    const filesAfterFirst = blobFiles().length;
    const again = await upload('ip', fields, fotos);
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(again.json()).toEqual(first.json());
    expect(again.json()).toMatchObject({ _id: ponto._id, conflito: false, coletas: [] });
    expect(await pontoRows(ponto._id)).toHaveLength(1);
    expect(blobFiles()).toHaveLength(filesAfterFirst);
  });

  it('keeps both collections when two devices collect one point: the first stays, the second is listed', async () => {
    const ponto = projeto.pontosIP[1] as Json;
    const fotoAna = fakeJpeg();
    const fotoBruno = fakeJpeg();
    const daAna = ipColeta(ponto, { possuiUsoMutuo: 'false' });
    const doBruno = ipColeta(ponto, {
      possuiIP: 'false',
      coordenadas: JSON.stringify([-25.43601, -49.27601]),
      dataHora: String(DATA_HORA - 60_000), // taken earlier on the device, but it reached the server second
    });
    const respostaAna = await upload('ip', daAna, [fotoAna], ana);
    const respostaBruno = await upload('ip', doBruno, [fotoBruno], bruno);
    // Each device is told its upload is stored under the id it sent, so both mark it synchronised.
    expect([respostaAna.statusCode, respostaBruno.statusCode]).toEqual([200, 200]);
    expect([respostaAna.json()._id, respostaBruno.json()._id]).toEqual([ponto._id, ponto._id]);
    // Bruno's retry after a lost response changes nothing.
    expect((await upload('ip', doBruno, [fotoBruno], bruno)).json()).toEqual(respostaBruno.json());

    const atual = await byZona('ip', ponto._id, bruno);
    expect(atual).toMatchObject({
      tecnico: 'Ana de Tal',
      possuiIP: true,
      possuiUsoMutuo: false,
      coordenadas: { lat: -25.436, lng: -49.276 },
      dataHora: DATA_HORA,
      conflito: true,
      fotos: [`/api/fotos/${ponto._id}/0`],
    });
    expect(atual.coletas).toEqual([
      expect.objectContaining({
        _id: doBruno.coletaId,
        tecnico: 'Bruno de Tal',
        dataHora: DATA_HORA - 60_000,
        coordenadas: { lat: -25.43601, lng: -49.27601 },
        possuiIP: false,
        possuiUsoMutuo: true,
        fotos: [`/api/fotos/${doBruno.coletaId}/0`],
      }),
    ]);
    expect(respostaBruno.json()).toEqual(atual);
    const foto = await ctx.app.inject({
      method: 'GET',
      url: `/api/fotos/${doBruno.coletaId}/0`,
      headers: { cookie: admin },
    });
    expect(foto.rawPayload.equals(fotoBruno)).toBe(true);
    // The competing collection is no record of its own in any list.
    const lista: Json[] = await get(`/api/ip/${projeto.nome}`);
    expect(lista.map((registro) => registro._id).sort()).toEqual(
      projeto.pontosIP.map((registro) => registro._id).sort(),
    );
    expect(await pontoRows(ponto._id)).toEqual([
      { id: ponto._id, conflito_de: null },
      { id: doBruno.coletaId, conflito_de: ponto._id },
    ]);
  });

  it('keeps one current collection and one competing when two devices upload the same point at once', async () => {
    const ponto = projeto.pontosIP[3] as Json;
    const [a, b] = await Promise.all([
      upload('ip', ipColeta(ponto), [fakeJpeg()], ana),
      upload('ip', ipColeta(ponto), [fakeJpeg()], bruno),
    ]);
    expect([a?.statusCode, b?.statusCode]).toEqual([200, 200]);
    const atual = await byZona('ip', ponto._id);
    expect(atual.conflito).toBe(true);
    expect(atual.coletas).toHaveLength(1);
    const tecnicos = [atual.tecnico, (atual.coletas as Json[])[0]?.tecnico].sort();
    expect(tecnicos).toEqual(['Ana de Tal', 'Bruno de Tal']);
  });

  it('collects a fiscalização with two corrections and keeps the original values', async () => {
    const ponto = projeto.pontosFiscalizacao[0] as Json;
    const response = await upload('fiscalizacao', {
      id: ponto._id,
      coletaId: crypto.randomUUID(),
      projeto: projeto._id,
      coordenadas: JSON.stringify(ponto.coordenadas),
      dataHora: String(DATA_HORA),
      correcaoAltura: '12',
      correcaoPlaca: 'PL-9999',
      observacao: 'Placa trocada',
    });
    expect(response.statusCode, response.body).toBe(200);
    const lista: Json[] = await get(`/api/fiscalizacao/projeto/${projeto.nome}`);
    expect(lista).toHaveLength(2);
    expect(lista.find((registro) => registro._id === ponto._id)).toMatchObject({
      coletado: true,
      tecnico: 'Ana de Tal',
      barramento: 'B-01',
      altura: '11',
      placa: 'PL-1001',
      medidor: 'M-555',
      correcaoAltura: '12',
      correcaoPlaca: 'PL-9999',
      correcaoBarramento: '',
      observacao: 'Placa trocada',
      conflito: false,
    });
  });

  it('numbers new BDGD points on the server: ten uploads at once get ten consecutive numbers', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        upload(
          'bdgd',
          {
            id: crypto.randomUUID(),
            projeto: projeto._id,
            coordenadas: JSON.stringify([-25.435 + i * 0.0001, -49.275]),
            dataHora: String(DATA_HORA),
            ativo: 'Poste',
            sequencial: '1', // what the device thinks is ignored
          },
          [],
          i % 2 === 0 ? ana : bruno,
        ),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(10).fill(201));
    const numbers = responses.map((response) => response.json().sequencial as number).sort((a, b) => a - b);
    expect(numbers).toEqual([13, 14, 15, 16, 17, 18, 19, 20, 21, 22]);

    // A preloaded asset, once collected, keeps its number.
    const preloaded = projeto.pontosBDGD.find((ponto) => ponto.sequencial === 7) as Json;
    const collected = await upload('bdgd', {
      id: preloaded._id,
      coletaId: crypto.randomUUID(),
      projeto: projeto._id,
      coordenadas: JSON.stringify(preloaded.coordenadas),
      dataHora: String(DATA_HORA),
      ativo: 'Poste',
      sequencial: '99',
    });
    expect(collected.statusCode, collected.body).toBe(200);
    expect(collected.json()).toMatchObject({ sequencial: 7, idConcessionaria: 'B-7', coletado: true });
    const lista: Json[] = await get(`/api/bdgd/projeto/${projeto._id}`);
    expect(lista.map((registro) => registro.sequencial).sort((a, b) => Number(a) - Number(b))).toEqual([
      7, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
    ]);
  });

  it('numbers IP points as BDGD: preloaded in file order, added in the app as they reach the server, in every answer', async () => {
    // The project's answer, the technician's download by zone and the map's popup carry the file's order.
    expect(projeto.pontosIP.map((ponto) => [ponto.idConcessionaria, ponto.sequencial])).toEqual([
      ['IP-1', 1],
      ['IP-2', 2],
      ['IP-3', 3],
      ['IP-4', 4],
    ]);
    const terceiro = projeto.pontosIP[2] as Json;
    expect(await byZona('ip', terceiro._id)).toMatchObject({ sequencial: 3 });
    expect(await get(`/api/registro/${terceiro._id}`)).toMatchObject({ sequencial: 3 });

    // Three points drawn in the app on two devices at once get the next three numbers, whatever the device says.
    const responses = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        upload(
          'ip',
          {
            id: crypto.randomUUID(),
            projeto: projeto._id,
            coordenadas: JSON.stringify([-25.4355 + i * 0.0001, -49.2755]),
            dataHora: String(DATA_HORA),
            possuiIP: 'true',
            sequencial: '1',
          },
          [],
          i % 2 === 0 ? ana : bruno,
        ),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual([201, 201, 201]);
    expect(responses.map((response) => response.json().sequencial as number).sort()).toEqual([5, 6, 7]);

    // A preloaded point keeps its number once collected (the device's own number is ignored).
    const quarto = projeto.pontosIP[3] as Json;
    const collected = await upload('ip', ipColeta(quarto, { sequencial: '99' }));
    expect(collected.statusCode, collected.body).toBe(200);
    expect(collected.json()).toMatchObject({ sequencial: 4, coletado: true });

    const lista: Json[] = await get(`/api/ip/${encodeURIComponent(projeto.nome)}`);
    expect(lista.map((registro) => registro.sequencial).sort((a, b) => Number(a) - Number(b))).toEqual([
      1, 2, 3, 4, 5, 6, 7,
    ]);

    // A new IP file keeps the collected points and their numbers, and numbers its new points after the largest.
    const reenvio = await ctx.app.inject({
      method: 'PUT',
      url: `/api/projeto/${projeto._id}`,
      headers: { ...FORM, cookie: admin },
      payload: formBody({
        nome: projeto.nome,
        cliente: (await get(`/api/projeto/${projeto._id}`)).cliente,
        fuso: '22',
        fluxos: ['ip', 'bdgd', 'fiscalizacao', 'lpt'],
        pontosIP: JSON.stringify([
          { coordenadas: [-25.4345, -49.2745], idConcessionaria: 'IP-8', idCircuito: 'C-3' },
          { coordenadas: [-25.4346, -49.2746], idConcessionaria: 'IP-9', idCircuito: 'C-3' },
        ]),
      }),
    });
    expect(reenvio.statusCode, reenvio.body).toBe(200);
    const depois: Json[] = await get(`/api/ip/${encodeURIComponent(projeto.nome)}`);
    const numero = (idConcessionaria: string) =>
      depois.find((registro) => registro.idConcessionaria === idConcessionaria)?.sequencial;
    expect([numero('IP-1'), numero('IP-4'), numero('IP-8'), numero('IP-9')]).toEqual([1, 4, 8, 9]);
  });

  it("numbers the IP points stored before the numbering (migration 0010): preloaded in file order, then the app's", async () => {
    const ips = () =>
      ctx.db.query<{ c: string; s: number | null }>(
        `SELECT dados->>'idConcessionaria' AS c, (dados->'sequencial')::int AS s FROM registros
         WHERE projeto = $1 AND fluxo = 'ip' AND conflito_de IS NULL ORDER BY s, c`,
        [projeto._id],
      );
    const before = await ips();
    await ctx.db.query(
      `UPDATE registros SET dados = dados - 'sequencial' WHERE projeto = $1 AND fluxo = 'ip'`,
      [projeto._id],
    );
    const migration = fs.readFileSync(
      path.resolve(import.meta.dirname, '../src/db/migrations/0010_ip_sequencial.sql'),
      'utf8',
    );
    await ctx.db.query(migration);
    const after = await ips();
    expect(after.map((ip) => ip.s)).toEqual(before.map((_, i) => i + 1));
    // the preloaded points (IP-n) first, in the file's order, then those added in the app
    const preloaded = after.filter((ip) => ip.c?.startsWith('IP-'));
    expect(preloaded.map((ip) => ip.c)).toEqual(['IP-1', 'IP-2', 'IP-3', 'IP-4', 'IP-8', 'IP-9']);
    expect(preloaded.map((ip) => ip.s)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('checks access before storing a photo byte, and removes the photos of a refused record', async () => {
    const novo = (extra: Record<string, string> = {}) => ({
      id: crypto.randomUUID(),
      projeto: projeto._id,
      coordenadas: JSON.stringify([-25.435, -49.275]),
      dataHora: String(DATA_HORA),
      possuiIP: 'true',
      ...extra,
    });
    const before = blobFiles();
    // Watches the store itself: a photo written and then removed would leave the directory as it was too.
    const putImage = vi.spyOn(ctx.blobs, 'putImage');

    const semZona = await upload('ip', novo(), [fakeJpeg(64 * 1024)], forasteiro);
    expect(semZona.statusCode).toBe(403);
    expect(blobFiles()).toEqual(before);
    expect(putImage).not.toHaveBeenCalled();

    // Photos before the fields: refused before their bytes are read.
    const soFotos = multipart({}, [
      { field: 'fotos', filename: '0.jpg', contentType: 'image/jpeg', data: fakeJpeg() },
    ]);
    const fotosAntes = await ctx.app.inject({
      method: 'POST',
      url: '/api/ip',
      headers: { ...soFotos.headers, cookie: ana },
      payload: soFotos.payload,
    });
    expect(fotosAntes.statusCode).toBe(400);
    expect(fotosAntes.json().message).toBe('Envie os campos antes das fotos.');
    expect(putImage).not.toHaveBeenCalled();
    putImage.mockRestore();

    const foto = fakeJpeg();
    const invalido = await upload('ip', novo({ possuiIP: 'false' }), [foto]);
    expect(invalido.statusCode).toBe(400);
    expect(invalido.json().message).toBe('POR FAVOR ESCOLHA UM DOS ITENS');
    expect(fs.existsSync(blobPath(foto))).toBe(false);
    expect(blobFiles()).toEqual(before);

    // A refused record sharing its photo with a stored one never deletes the stored one's file.
    const guardada = fakeJpeg();
    const ok = await upload('ip', novo(), [guardada]);
    expect(ok.statusCode).toBe(201);
    expect((await upload('ip', novo({ possuiIP: 'false' }), [guardada])).statusCode).toBe(400);
    expect(fs.existsSync(blobPath(guardada))).toBe(true);
  });

  it('stores a new LPT point drawn in the app as added by the app, not loaded by the back office', async () => {
    const id = crypto.randomUUID();
    const response = await upload(
      'lpt',
      {
        id,
        projeto: projeto._id,
        coordenadas: JSON.stringify({ lat: -25.4355, lng: -49.2755 }),
        dataHora: String(DATA_HORA),
        listaConcessionaria: 'true',
        qtdCasas: '3',
      },
      [fakeJpeg()],
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(await byZona('lpt', id)).toMatchObject({
      _id: id,
      coletado: true,
      adicionadoApp: true,
      carregadoBackoffice: false,
      tecnico: 'Ana de Tal',
      qtdCasas: '3',
      listaConcessionaria: true,
      conflito: false,
      coletas: [],
      fotos: [`/api/fotos/${id}/0`],
    });
  });
});
