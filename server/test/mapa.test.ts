// The supervisor map (SPEC.md 2 'Supervisor', 3 'Map entities', 7; domain/src/mapa/api.ts): a project's points in
// the compact form, layer by layer, with their filters and statistics; the map calls of section 7; a popup's
// record; who may read them; the size at 100,000 points; and points arriving live as Server-Sent Events.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fluxo } from '@novus/domain/flows/keys';
import {
  type EstatisticaItem,
  type MapaProjeto,
  type PontoEvento,
  STATUS,
  statusOfDigit,
  uuidFromCompact,
} from '@novus/domain/mapa/api';
import type { Database } from '../src/db/database.ts';
import { PontosLive } from '../src/live/pontos.ts';
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

/** A moment of a local day in Curitiba (UTC-3, no daylight saving since 2019), as epoch ms. */
const local = (isoWithoutZone: string) => Date.parse(`${isoWithoutZone}-03:00`);

const COLETADO = STATUS.coletado;
const CARREGADO = STATUS.carregadoBackoffice;
const CONFLITO = STATUS.conflito;
/** The bits of before issue 24; the upload's flags (its own tests: revisao.test.ts) set STATUS.sinalizado besides. */
const antes = (status: number | undefined) =>
  status === undefined ? undefined : status & (COLETADO | CARREGADO | CONFLITO);

// docs/samples/zoneamento-curitiba.kml: Zona Centro spans longitudes -49.28..-49.27, Zona Batel -49.27..-49.26,
// both latitudes -25.44..-25.43.
type Nome =
  | 'ipLivre'
  | 'ipColetado'
  | 'ipDisputado'
  | 'ipBatel'
  | 'ipNovo'
  | 'bdgdLivre'
  | 'bdgdColetado'
  | 'unidadeSdu'
  | 'unidadeMdu'
  | 'unidadeBatel'
  | 'posteMadrugada'
  | 'grupoA';

/** What the map must show of a fixture: its layer, where it is and its status bits. */
interface Esperado {
  fluxo: Fluxo;
  id: string;
  lat: number;
  lng: number;
  status: number;
}

/** A point as decoded from the compact form. */
interface PontoMapa extends Esperado {
  nome: Nome | undefined;
}

interface ProjetoCriado {
  _id: string;
  nome: string;
  zonas: { _id: string; label: string }[];
  pontosIP: { _id: string; idConcessionaria: string }[];
  pontosBDGD: { _id: string; idConcessionaria: string }[];
}

/** Every point of the compact answer, checking each layer's three strings agree on the number of points. */
function decode(mapa: MapaProjeto, nomes: Map<string, Nome>): PontoMapa[] {
  return mapa.camadas.flatMap((camada) => {
    const n = camada.status.length;
    expect(camada.ids.length, camada.fluxo).toBe(22 * n);
    expect(camada.coords.length, camada.fluxo).toBe(2 * n);
    return Array.from({ length: n }, (_, i) => {
      const id = uuidFromCompact(camada.ids.slice(22 * i, 22 * i + 22));
      return {
        nome: nomes.get(id),
        fluxo: camada.fluxo,
        id,
        lat: (camada.coords[2 * i] ?? Number.NaN) / 1e6,
        lng: (camada.coords[2 * i + 1] ?? Number.NaN) / 1e6,
        status: statusOfDigit(camada.status[i] ?? ''),
      };
    });
  });
}

/** An open event stream read over real HTTP, as the browser's EventSource would: its `ponto` events. */
class EventStream {
  readonly received: PontoEvento[] = [];
  private readonly waiters = new Set<() => void>();
  private buffer = '';

  private constructor(private readonly controller: AbortController) {}

  static async open(url: string, cookie: string): Promise<EventStream> {
    const controller = new AbortController();
    const response = await fetch(url, { headers: { cookie }, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const body = response.body;
    if (!body) throw new Error('event stream without a body');
    const stream = new EventStream(controller);
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          stream.take(value);
        }
      } catch {
        // aborted by close()
      }
    })();
    return stream;
  }

  /** The first event (received already or within `ms`) that matches. */
  async waitFor(match: (evento: PontoEvento) => boolean, ms = 5000): Promise<PontoEvento> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${ms} ms: ${JSON.stringify(this.received)}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  close() {
    this.controller.abort();
  }

  private take(text: string) {
    this.buffer += text;
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end).split('\n');
      this.buffer = this.buffer.slice(end + 2);
      const event = block.find((line) => line.startsWith('event: '))?.slice('event: '.length);
      const data = block.find((line) => line.startsWith('data: '))?.slice('data: '.length);
      if (event === 'ponto' && data !== undefined) this.received.push(JSON.parse(data) as PontoEvento);
    }
    for (const wake of [...this.waiters]) wake();
  }
}

/**
 * Waits until the stream is subscribed: the route writes its opening comment before its LISTEN is in place (see
 * the report), so a test publishes a probe point of the project (in a zone the reader sees) until it comes through.
 */
async function subscribed(stream: EventStream, db: Database, projeto: string, zona: string): Promise<void> {
  const live = new PontosLive(db);
  const id = crypto.randomUUID();
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      await live.publish({
        projeto,
        zona,
        fluxo: 'hc',
        id,
        lat: 0,
        lng: 0,
        status: 0,
        tecnico: null,
        dataHora: null,
      });
      try {
        await stream.waitFor((evento) => evento.id === id, 100);
        return;
      } catch {
        // not yet listening: publish again
      }
    }
    throw new Error('the event stream never subscribed');
  } finally {
    await live.close();
  }
}

describe('supervisor map', () => {
  let ctx: TestContext;
  let base: string;
  let admin: string;
  let cliente: string;
  let supervisor: string;
  let outroSupervisor: string;
  let ana: string;
  let bruno: string;
  let brunoId: string;
  let tiago: string;
  let forasteiro: string;
  let projeto: ProjetoCriado;
  let aoVivo: ProjetoCriado;
  const esperados = new Map<Nome, Esperado>();
  const nomes = new Map<string, Nome>();
  let disputa: { coletaId: string; lat: number; lng: number; dataHora: number };

  const get = (url: string, cookie?: string) =>
    ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const getJson = async <T>(url: string, cookie: string): Promise<T> => {
    const response = await get(url, cookie);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json() as T;
  };
  const mapa = (query = '', cookie = supervisor, id = projeto._id) =>
    getJson<MapaProjeto>(`/api/projeto/${id}/mapa${query}`, cookie);
  const estatistica = (query = '', cookie = supervisor, key = encodeURIComponent(projeto.nome)) =>
    getJson<EstatisticaItem[]>(`/api/projeto/${key}/estatistica${query}`, cookie);
  /** The fixture names of the points on the map, sorted. */
  const nomesNoMapa = async (query = '', cookie = supervisor) =>
    decode(await mapa(query, cookie), nomes)
      .map((ponto) => ponto.nome ?? ponto.id)
      .sort();

  /** Uploads one record as a device would, with a photo; its id. */
  async function subir(
    apiPath: string,
    cookie: string,
    fields: Record<string, string>,
    onde: { lat: number; lng: number },
    alvo: ProjetoCriado = projeto,
  ) {
    const id = fields.id ?? crypto.randomUUID();
    const response = await uploadRecord(
      ctx.app,
      apiPath,
      { ...fields, id, projeto: alvo._id, coordenadas: JSON.stringify(onde) },
      { fotos: [fakeJpeg()], cookie },
    );
    expect(response.statusCode, response.body).toBeLessThan(300);
    return id;
  }

  /** Where the map must show a fixture. */
  function lembrar(nome: Nome, esperado: Esperado) {
    esperados.set(nome, esperado);
    nomes.set(esperado.id, nome);
  }

  /** Uploads a fixture and remembers it. */
  async function enviar(
    nome: Nome,
    apiPath: string,
    cookie: string,
    fields: Record<string, string>,
    esperado: Omit<Esperado, 'id'>,
  ) {
    const id = await subir(apiPath, cookie, fields, esperado);
    lembrar(nome, { ...esperado, id });
    return id;
  }

  const unidade = (dataHora: number, extra: Record<string, string> = {}) => ({
    dataHora: String(dataHora),
    tipoUnidade: 'SDU',
    tipoEdificacao: 'Residencial',
    tipoImovel: 'RESIDENCIAL',
    numero: '10',
    quantidade: '1',
    ...extra,
  });
  const poste = (dataHora: number) => ({
    dataHora: String(dataHora),
    tipo: 'CONCRETO DUPLO T',
    altura: '11',
    carga: '300',
    tipoRedeEletrica: 'MISTA',
    equipamentoRedeEnergia: 'NAO POSSUI',
  });
  const ip = (dataHora: number, extra: Record<string, string> = {}) => ({
    dataHora: String(dataHora),
    possuiIP: 'true',
    ...extra,
  });

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ admin, cliente } = await createAdminCliente(ctx.app, ctx.db, 'Copel'));
    const outroCliente = await createCliente(ctx.app, admin, 'Celesc');
    projeto = await createProjeto<ProjetoCriado>(ctx.app, admin, {
      nome: 'Supervisão Curitiba',
      cliente,
      fluxos: ['hc', 'poste', 'ip', 'grupoA', 'bdgd'],
      pontosIP: JSON.stringify([
        { coordenadas: [-25.431111, -49.279111], idConcessionaria: 'IP-LIVRE', idCircuito: 'C-1' },
        { coordenadas: [-25.432222, -49.278222], idConcessionaria: 'IP-COLETADO', idCircuito: 'C-1' },
        { coordenadas: [-25.433333, -49.277333], idConcessionaria: 'IP-DISPUTADO', idCircuito: 'C-2' },
        { coordenadas: [-25.435555, -49.265555], idConcessionaria: 'IP-BATEL', idCircuito: 'C-3' },
      ]),
      pontosBDGD: JSON.stringify([
        { coordenadas: [-25.434444, -49.276444], idConcessionaria: 'B-LIVRE', ativo: 'Poste', sequencial: 3 },
        {
          coordenadas: [-25.437777, -49.273777],
          idConcessionaria: 'B-COLETADO',
          ativo: 'Chave',
          sequencial: 5,
        },
      ]),
    });
    aoVivo = await createProjeto<ProjetoCriado>(ctx.app, admin, {
      nome: 'Ao Vivo',
      cliente,
      fluxos: ['hc', 'ip'],
    });
    const outro = await createProjeto(ctx.app, admin, { nome: 'Outro Projeto', cliente, fluxos: ['hc'] });
    const todas = [...projeto.zonas, ...aoVivo.zonas].map((z) => z._id);
    const session = (options: Parameters<typeof createSession>[2]) => createSession(ctx.app, ctx.db, options);
    ana = (await session({ roles: ['tecnico'], cliente, firstName: 'Ana', zonas: todas })).cookie;
    const brunoSession = await session({ roles: ['tecnico'], cliente, firstName: 'Bruno', zonas: todas });
    bruno = brunoSession.cookie;
    brunoId = brunoSession.user.id;
    tiago = (
      await session({
        roles: ['tecnico'],
        cliente,
        firstName: 'Tiago',
        zonas: [zonaId(projeto, 'Zona Centro'), zonaId(aoVivo, 'Zona Centro')],
      })
    ).cookie;
    forasteiro = (
      await session({
        roles: ['tecnico'],
        cliente,
        firstName: 'Forasteiro',
        zonas: [zonaId(outro, 'Zona Centro')],
      })
    ).cookie;
    supervisor = (await session({ roles: ['supervisor'], cliente })).cookie;
    outroSupervisor = (await session({ roles: ['supervisor'], cliente: outroCliente })).cookie;

    const preloaded = (lista: { _id: string; idConcessionaria: string }[], idConcessionaria: string) =>
      lista.find((ponto) => ponto.idConcessionaria === idConcessionaria)?._id ?? '';
    const carregado = (nome: Nome, fluxo: Fluxo, id: string, lat: number, lng: number) =>
      lembrar(nome, { fluxo, id, lat, lng, status: CARREGADO });
    carregado('ipLivre', 'ip', preloaded(projeto.pontosIP, 'IP-LIVRE'), -25.431111, -49.279111);
    carregado('ipBatel', 'ip', preloaded(projeto.pontosIP, 'IP-BATEL'), -25.435555, -49.265555);
    carregado('bdgdLivre', 'bdgd', preloaded(projeto.pontosBDGD, 'B-LIVRE'), -25.434444, -49.276444);

    // Collected where the technician found it, not where the file had it.
    await enviar(
      'ipColetado',
      'ip',
      ana,
      {
        id: preloaded(projeto.pontosIP, 'IP-COLETADO'),
        coletaId: crypto.randomUUID(),
        ...ip(local('2026-11-21T10:00')),
      },
      { fluxo: 'ip', lat: -25.432301, lng: -49.278305, status: COLETADO + CARREGADO },
    );
    const disputado = await enviar(
      'ipDisputado',
      'ip',
      ana,
      {
        id: preloaded(projeto.pontosIP, 'IP-DISPUTADO'),
        coletaId: crypto.randomUUID(),
        ...ip(local('2026-11-20T15:00')),
      },
      { fluxo: 'ip', lat: -25.433333, lng: -49.277333, status: COLETADO + CARREGADO + CONFLITO },
    );
    // Bruno collects the same point on his device: a competing collection, kept under the point.
    disputa = {
      coletaId: crypto.randomUUID(),
      lat: -25.433401,
      lng: -49.277402,
      dataHora: local('2026-11-21T16:00'),
    };
    const competing = await uploadRecord(
      ctx.app,
      'ip',
      {
        id: disputado,
        coletaId: disputa.coletaId,
        projeto: projeto._id,
        coordenadas: JSON.stringify({ lat: disputa.lat, lng: disputa.lng }),
        ...ip(disputa.dataHora, { possuiIP: 'false', possuiUsoMutuo: 'true' }),
      },
      { fotos: [fakeJpeg()], cookie: bruno },
    );
    expect(competing.statusCode, competing.body).toBe(200);
    expect(competing.json()).toMatchObject({ _id: disputado, conflito: true });

    await enviar('ipNovo', 'ip', bruno, ip(local('2026-11-21T12:00')), {
      fluxo: 'ip',
      lat: -25.436666,
      lng: -49.266666,
      status: COLETADO,
    });
    await enviar(
      'bdgdColetado',
      'bdgd',
      ana,
      {
        id: preloaded(projeto.pontosBDGD, 'B-COLETADO'),
        coletaId: crypto.randomUUID(),
        dataHora: String(local('2026-11-22T09:00')),
        ativo: 'Chave',
      },
      { fluxo: 'bdgd', lat: -25.437777, lng: -49.273777, status: COLETADO + CARREGADO },
    );
    await enviar('unidadeSdu', 'unidade', ana, unidade(local('2026-11-20T10:00')), {
      fluxo: 'hc',
      lat: -25.431234,
      lng: -49.271234,
      status: COLETADO,
    });
    // Late at night on the 21st in Curitiba: already the 22nd in UTC.
    await enviar(
      'unidadeMdu',
      'unidade',
      ana,
      unidade(local('2026-11-21T23:30'), {
        tipoUnidade: 'MDU',
        numero: '250',
        quantidade: '',
        nomeEdificio: 'Edifício Curitiba',
        totalAndares: '12',
        aptosPorAndar: '4',
      }),
      { fluxo: 'hc', lat: -25.438765, lng: -49.278765, status: COLETADO },
    );
    await enviar(
      'unidadeBatel',
      'unidade',
      bruno,
      unidade(local('2026-11-21T08:00'), {
        tipoEdificacao: 'Comercial',
        tipoImovel: 'padaria',
        numero: '77',
      }),
      { fluxo: 'hc', lat: -25.432468, lng: -49.262468, status: COLETADO },
    );
    await enviar('posteMadrugada', 'poste', bruno, poste(local('2026-11-22T00:30')), {
      fluxo: 'poste',
      lat: -25.439135,
      lng: -49.279135,
      status: COLETADO,
    });
    await enviar(
      'grupoA',
      'grupoa',
      ana,
      { dataHora: String(local('2026-11-21T14:00')), uc: 'UC-1', medidor: 'M-1' },
      { fluxo: 'grupoA', lat: -25.430987, lng: -49.270987, status: COLETADO },
    );

    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const address = ctx.app.server.address();
    if (!address || typeof address === 'string') throw new Error('the test server has no port');
    base = `http://127.0.0.1:${address.port}`;
  });

  afterAll(async () => {
    // fetch keeps its connections alive, and the server's close would wait for them.
    ctx.app.server.closeAllConnections();
    await ctx.close();
  });

  describe('the compact form', () => {
    it('gives every point of the project once, in its layer, where it is, with its status bits', async () => {
      const resposta = await mapa();
      expect(resposta.projeto).toEqual({ id: projeto._id, nome: 'Supervisão Curitiba' });
      expect(resposta.camadas.map((camada) => camada.fluxo).sort()).toEqual([
        'bdgd',
        'grupoA',
        'hc',
        'ip',
        'poste',
      ]);
      const pontos = decode(resposta, nomes);
      // Bruno's competing collection of the disputed point is no point of its own.
      expect(pontos.map((ponto) => ponto.id)).not.toContain(disputa.coletaId);
      expect(pontos.map((ponto) => ponto.nome ?? ponto.id).sort()).toEqual([...esperados.keys()].sort());
      for (const ponto of pontos) {
        const esperado = ponto.nome === undefined ? undefined : esperados.get(ponto.nome);
        expect(ponto.fluxo, ponto.nome).toBe(esperado?.fluxo);
        expect(ponto.lat, ponto.nome).toBeCloseTo(esperado?.lat ?? Number.NaN, 6);
        expect(ponto.lng, ponto.nome).toBeCloseTo(esperado?.lng ?? Number.NaN, 6);
        expect(antes(ponto.status), ponto.nome).toBe(esperado?.status);
      }
      // the flagged bit is the record's flags; nothing is reviewed yet
      const flagged = new Set(
        (
          await ctx.db.query<{ id: string }>(
            `SELECT id FROM registros WHERE projeto = $1 AND flags <> '[]'`,
            [projeto._id],
          )
        ).map((row) => row.id),
      );
      for (const ponto of pontos) {
        expect((ponto.status & STATUS.sinalizado) !== 0, ponto.nome).toBe(flagged.has(ponto.id));
        expect(ponto.status & (STATUS.aprovado | STATUS.reprovado), ponto.nome).toBe(0);
      }
      // The IP colours of SPEC section 4, as bits: preloaded and waiting, collected, collected on two devices,
      // drawn and collected in the app.
      const status = (nome: Nome) => antes(pontos.find((ponto) => ponto.nome === nome)?.status);
      expect([status('ipLivre'), status('ipColetado'), status('ipDisputado'), status('ipNovo')]).toEqual([
        CARREGADO,
        COLETADO + CARREGADO,
        COLETADO + CARREGADO + CONFLITO,
        COLETADO,
      ]);
    });

    it('marks flagged, approved and rejected records with their bits (issue 24), one character each', async () => {
      const ip = esperados.get('ipColetado');
      const unidade = esperados.get('unidadeSdu');
      const poste = esperados.get('posteMadrugada');
      if (!ip || !unidade || !poste) throw new Error('fixtures missing');
      const ids = [ip.id, unidade.id, poste.id];
      const guardados = await ctx.db.query<{ id: string; flags: unknown }>(
        `SELECT id, flags FROM registros WHERE id = ANY($1::uuid[])`,
        [ids],
      );
      const outros = new Map(
        decode(await mapa(), nomes)
          .filter((ponto) => !ids.includes(ponto.id))
          .map((ponto) => [ponto.id, ponto.status]),
      );
      await ctx.db.query(`UPDATE registros SET flags = '[]' WHERE id = $1`, [unidade.id]);
      await ctx.db.query(
        `UPDATE registros SET flags = '[{"codigo":"precisao_baixa","valor":22.5}]', revisao = 'reprovado' WHERE id = $1`,
        [ip.id],
      );
      await ctx.db.query(`UPDATE registros SET revisao = 'aprovado' WHERE id = $1`, [unidade.id]);
      await ctx.db.query(`UPDATE registros SET flags = '[{"codigo":"ritmo","valor":450}]' WHERE id = $1`, [
        poste.id,
      ]);
      try {
        const resposta = await mapa();
        const pontos = decode(resposta, nomes);
        const status = (nome: Nome) => pontos.find((ponto) => ponto.nome === nome)?.status;
        expect(status('ipColetado')).toBe(COLETADO + CARREGADO + STATUS.sinalizado + STATUS.reprovado);
        expect(status('unidadeSdu')).toBe(COLETADO + STATUS.aprovado);
        expect(status('posteMadrugada')).toBe((antes(poste.status) ?? 0) + STATUS.sinalizado);
        // the others keep their bits
        for (const ponto of pontos) {
          if (!ids.includes(ponto.id)) expect(ponto.status, ponto.nome).toBe(outros.get(ponto.id));
        }
        // 43 and 17 travel as letters: no digit string could hold them
        const ipCamada = resposta.camadas.find((camada) => camada.fluxo === 'ip');
        expect(ipCamada?.status).toMatch(/^[0-9A-Za-z_-]+$/);
        expect(ipCamada?.status).toContain('h');
      } finally {
        for (const { id, flags } of guardados) {
          await ctx.db.query(`UPDATE registros SET flags = $2::jsonb, revisao = 'pendente' WHERE id = $1`, [
            id,
            JSON.stringify(flags),
          ]);
        }
      }
    });

    it('carries the zones as polygons and the technicians who collected, for the filter', async () => {
      const resposta = await mapa();
      expect(resposta.zonas.map((z) => z.label).sort()).toEqual([
        'Zona Batel',
        'Zona Centro',
        'Zona Rebouças',
      ]);
      const centro = resposta.zonas.find((z) => z.label === 'Zona Centro');
      expect(centro?._id).toBe(zonaId(projeto, 'Zona Centro'));
      expect(centro?.poligono).toEqual(
        expect.arrayContaining([
          { lat: -25.44, lng: -49.28 },
          { lat: -25.43, lng: -49.27 },
        ]),
      );
      expect(resposta.tecnicos.map((t) => t.nome)).toEqual(['Ana de Tal', 'Bruno de Tal']);
      expect(resposta.tecnicos.find((t) => t.nome === 'Bruno de Tal')?.id).toBe(brunoId);
    });
  });

  describe('filters', () => {
    it('keeps the records of one technician, on the layers and in the statistics alike', async () => {
      const query = `?tecnico=${brunoId}`;
      // The disputed point stays Ana's: Bruno's competing collection does not make it his.
      expect(await nomesNoMapa(query)).toEqual(['ipNovo', 'posteMadrugada', 'unidadeBatel']);
      expect(await estatistica(query)).toEqual([
        { _id: 'hc', count: 1 },
        { _id: 'ip', count: 1 },
        { _id: 'poste', count: 1 },
      ]);
    });

    it('keeps the records collected between two local days, the end day included', async () => {
      // Points nobody collected have no date, so a period leaves them out.
      const dia21 = '?dataInicio=2026-11-21&dataFim=2026-11-21';
      expect(await nomesNoMapa(dia21)).toEqual([
        'grupoA',
        'ipColetado',
        'ipNovo',
        'unidadeBatel',
        'unidadeMdu',
      ]);
      expect(await estatistica(dia21)).toEqual([
        { _id: 'grupoA', count: 1 },
        { _id: 'hc', count: 2 },
        { _id: 'ip', count: 2 },
      ]);
      expect(await nomesNoMapa('?dataFim=2026-11-20')).toEqual(['ipDisputado', 'unidadeSdu']);
      // 00:30 on the 22nd in Curitiba is the 22nd, though 03:30 UTC.
      expect(await nomesNoMapa('?dataInicio=2026-11-22')).toEqual(['bdgdColetado', 'posteMadrugada']);
      expect(await estatistica('?dataInicio=2026-11-22')).toEqual([
        { _id: 'bdgd', count: 1 },
        { _id: 'poste', count: 1 },
      ]);
      expect(await nomesNoMapa(`?tecnico=${brunoId}&dataFim=2026-11-21`)).toEqual(['ipNovo', 'unidadeBatel']);
      expect(await nomesNoMapa('?dataInicio=2026-11-23')).toEqual([]);
      expect((await mapa('?dataInicio=2026-11-23')).camadas).toEqual([]);
      expect(await estatistica('?dataInicio=2026-11-23')).toEqual([]);
    });

    it('refuses a malformed filter with a Portuguese message, on the map and the statistics', async () => {
      const cases: [string, string][] = [
        ['?dataInicio=2026-02-30', 'Data inicial inválida: use AAAA-MM-DD.'],
        ['?dataFim=21/11/2026', 'Data final inválida: use AAAA-MM-DD.'],
        [
          '?dataInicio=2026-11-22&dataFim=2026-11-21',
          'A data inicial deve ser anterior ou igual à data final.',
        ],
        ['?tecnico=Bruno', 'Técnico inválido.'],
      ];
      for (const [query, message] of cases) {
        for (const url of [
          `/api/projeto/${projeto._id}/mapa${query}`,
          `/api/projeto/${encodeURIComponent(projeto.nome)}/estatistica${query}`,
        ]) {
          const response = await get(url, supervisor);
          expect(response.statusCode, url).toBe(400);
          expect(response.json(), url).toMatchObject({ message, errors: [{ msg: message }] });
        }
      }
    });
  });

  it('counts the collected records per flow, by project name or id', async () => {
    const esperado = [
      { _id: 'bdgd', count: 1 },
      { _id: 'grupoA', count: 1 },
      { _id: 'hc', count: 3 },
      { _id: 'ip', count: 3 },
      { _id: 'poste', count: 1 },
    ];
    expect(await estatistica()).toEqual(esperado);
    expect(await estatistica('', supervisor, projeto._id)).toEqual(esperado);
    expect(await estatistica('', admin, encodeURIComponent('supervisão curitiba'))).toEqual(esperado);
    const desconhecido = await get('/api/projeto/Nenhum/estatistica', supervisor);
    expect(desconhecido.statusCode).toBe(404);
    expect(desconhecido.json()).toEqual({ message: 'Projeto não encontrado.' });
  });

  it('answers the map calls of SPEC section 7 with the fields of the map entities', async () => {
    const nome = encodeURIComponent(projeto.nome);
    const por = <T extends { _id: string }>(lista: T[], n: Nome) =>
      lista.find((item) => item._id === esperados.get(n)?.id);
    const coordenadas = (n: Nome) => ({ lat: esperados.get(n)?.lat, lng: esperados.get(n)?.lng });

    const unidades = await getJson<{ _id: string }[]>(`/api/unidade/${nome}`, supervisor);
    expect(unidades.map((u) => nomes.get(u._id)).sort()).toEqual([
      'unidadeBatel',
      'unidadeMdu',
      'unidadeSdu',
    ]);
    expect(por(unidades, 'unidadeMdu')).toMatchObject({
      coordenadas: coordenadas('unidadeMdu'),
      tipoUnidade: 'MDU',
      tipoImovel: 'RESIDENCIAL',
      numero: '250',
    });
    expect(por(unidades, 'unidadeBatel')).toMatchObject({
      tipoUnidade: 'SDU',
      tipoImovel: 'padaria',
      numero: '77',
    });

    const postes = await getJson<{ _id: string }[]>(`/api/poste/getByNomeProjeto/${nome}`, supervisor);
    expect(postes).toEqual([
      expect.objectContaining({
        _id: esperados.get('posteMadrugada')?.id,
        coordenadas: coordenadas('posteMadrugada'),
        tecnico: 'Bruno de Tal',
      }),
    ]);

    // IP points carry no sequencial (only BDGD numbers its points): the popup shows id and collector.
    const ips = await getJson<{ _id: string }[]>(`/api/ip/${nome}`, supervisor);
    expect(ips.map((p) => nomes.get(p._id)).sort()).toEqual([
      'ipBatel',
      'ipColetado',
      'ipDisputado',
      'ipLivre',
      'ipNovo',
    ]);
    expect(por(ips, 'ipLivre')).toMatchObject({
      coordenadas: coordenadas('ipLivre'),
      tecnico: null,
      coletado: false,
    });
    expect(por(ips, 'ipColetado')).toMatchObject({
      coordenadas: coordenadas('ipColetado'),
      tecnico: 'Ana de Tal',
      coletado: true,
      carregadoBackoffice: true,
    });
    expect(por(ips, 'ipNovo')).toMatchObject({
      tecnico: 'Bruno de Tal',
      coletado: true,
      carregadoBackoffice: false,
    });
    expect(por(ips, 'ipDisputado')).toMatchObject({ tecnico: 'Ana de Tal', conflito: true });

    const grupos = await getJson<{ _id: string }[]>(`/api/grupoa/${nome}`, supervisor);
    expect(grupos).toEqual([
      expect.objectContaining({
        _id: esperados.get('grupoA')?.id,
        coordenadas: coordenadas('grupoA'),
        tecnico: 'Ana de Tal',
      }),
    ]);

    const bdgd = await getJson<{ _id: string }[]>(`/api/bdgd/projeto/${projeto._id}`, supervisor);
    expect(bdgd.map((b) => nomes.get(b._id)).sort()).toEqual(['bdgdColetado', 'bdgdLivre']);
    expect(por(bdgd, 'bdgdColetado')).toMatchObject({
      coordenadas: coordenadas('bdgdColetado'),
      tecnico: 'Ana de Tal',
      coletado: true,
      sequencial: 5,
    });
    expect(por(bdgd, 'bdgdLivre')).toMatchObject({ coordenadas: coordenadas('bdgdLivre'), tecnico: null });
  });

  it("answers a popup's record; a point collected on two devices shows both collections", async () => {
    const ponto = await getJson<Record<string, unknown>>(
      `/api/registro/${esperados.get('ipDisputado')?.id}`,
      supervisor,
    );
    // The first collection to reach the server is the point's value; the competing one is listed under it.
    expect(ponto).toMatchObject({
      _id: esperados.get('ipDisputado')?.id,
      tecnico: 'Ana de Tal',
      coordenadas: { lat: -25.433333, lng: -49.277333 },
      dataHora: local('2026-11-20T15:00'),
      coletado: true,
      conflito: true,
      possuiIP: true,
    });
    expect(ponto.coletas).toEqual([
      expect.objectContaining({
        _id: disputa.coletaId,
        tecnico: 'Bruno de Tal',
        coordenadas: { lat: disputa.lat, lng: disputa.lng },
        dataHora: disputa.dataHora,
        possuiIP: false,
        possuiUsoMutuo: true,
        fotos: [`/api/fotos/${disputa.coletaId}/0`],
      }),
    ]);
    const unico = await getJson<Record<string, unknown>>(
      `/api/registro/${esperados.get('ipColetado')?.id}`,
      supervisor,
    );
    expect(unico).toMatchObject({ conflito: false, coletas: [] });
    const casa = await getJson<Record<string, unknown>>(
      `/api/registro/${esperados.get('unidadeSdu')?.id}`,
      supervisor,
    );
    expect(casa).toMatchObject({
      tipoUnidade: 'SDU',
      tipoImovel: 'RESIDENCIAL',
      numero: '10',
      tecnico: 'Ana de Tal',
    });
  });

  describe('access', () => {
    it("refuses a supervisor of another client the project's map, statistics, events and records", async () => {
      const urls = [
        `/api/projeto/${projeto._id}/mapa`,
        `/api/projeto/${encodeURIComponent(projeto.nome)}/estatistica`,
        `/api/projeto/${projeto._id}/estatistica`,
        `/api/projeto/${projeto._id}/mapa/eventos`,
        `/api/registro/${esperados.get('ipDisputado')?.id}`,
        `/api/unidade/${encodeURIComponent(projeto.nome)}`,
        `/api/bdgd/projeto/${projeto._id}`,
      ];
      for (const url of urls) {
        const response = await get(url, outroSupervisor);
        expect(response.statusCode, url).toBe(403);
        expect(response.json(), url).toEqual({ message: 'Usuario nao tem permissao para esse recurso' });
      }
    });

    it('shows a technician only the points of their zones, and refuses a project without one', async () => {
      const centro = [
        'bdgdColetado',
        'bdgdLivre',
        'grupoA',
        'ipColetado',
        'ipDisputado',
        'ipLivre',
        'posteMadrugada',
        'unidadeMdu',
        'unidadeSdu',
      ];
      expect(await nomesNoMapa('', tiago)).toEqual(centro);
      const resposta = await mapa('', tiago);
      expect(resposta.zonas.map((z) => z.label)).toEqual(['Zona Centro']);
      expect(await estatistica('', tiago)).toEqual([
        { _id: 'bdgd', count: 1 },
        { _id: 'grupoA', count: 1 },
        { _id: 'hc', count: 2 },
        { _id: 'ip', count: 2 },
        { _id: 'poste', count: 1 },
      ]);
      expect(await nomesNoMapa(`?tecnico=${brunoId}`, tiago)).toEqual(['posteMadrugada']);
      expect((await get(`/api/registro/${esperados.get('unidadeSdu')?.id}`, tiago)).statusCode).toBe(200);
      expect((await get(`/api/registro/${esperados.get('unidadeBatel')?.id}`, tiago)).statusCode).toBe(403);

      for (const url of [
        `/api/projeto/${projeto._id}/mapa`,
        `/api/projeto/${encodeURIComponent(projeto.nome)}/estatistica`,
        `/api/projeto/${projeto._id}/mapa/eventos`,
      ]) {
        const response = await get(url, forasteiro);
        expect(response.statusCode, url).toBe(403);
      }
    });

    it('asks for a session', async () => {
      for (const url of [
        `/api/projeto/${projeto._id}/mapa`,
        `/api/projeto/${encodeURIComponent(projeto.nome)}/estatistica`,
        `/api/projeto/${projeto._id}/mapa/eventos`,
        `/api/registro/${esperados.get('unidadeSdu')?.id}`,
      ]) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(401);
        expect(response.json().message, url).toBe('Sessão expirada ou inexistente. Faça login novamente.');
      }
    });
  });

  // The full size on both engines: the set-based insert of 100,000 rows took ≈ 7–9 s on PGlite and ≈ 3 s on
  // PostgreSQL on a busy 2-core machine (2026-11), the answer ≈ 1 s on either.
  it('sends 100,000 points in under 5 MB that parse into five layers', async () => {
    const n = 100_000;
    const grande = await createProjeto(ctx.app, admin, {
      nome: 'Cem Mil Pontos',
      cliente,
      fluxos: ['hc', 'poste', 'ip', 'grupoA', 'bdgd'],
    });
    const inicio = Date.now();
    // Six decimals like a GPS fix; every third point not collected, every other IP/BDGD loaded by the back office.
    await ctx.db.query(
      `INSERT INTO registros (id, fluxo, projeto, lat, lng, geom, data_hora, coletado, carregado_backoffice)
       SELECT gen_random_uuid(), (ARRAY['hc', 'poste', 'ip', 'grupoA', 'bdgd'])[1 + i % 5], $1,
         lat, lng, ST_SetSRID(ST_MakePoint(lng, lat), 4326),
         CASE WHEN i % 3 = 0 THEN NULL ELSE now() END, i % 3 <> 0, i % 5 IN (2, 4) AND i % 2 = 0
       FROM (SELECT i, -25.43 - (i % 9973) / 1e6::float8 AS lat, -49.27 - (i % 9967) / 1e6::float8 AS lng
             FROM generate_series(1, $2::int) AS i) AS s`,
      [grande._id, n],
    );
    const semeado = Date.now() - inicio;

    const pedido = Date.now();
    const response = await get(`/api/projeto/${grande._id}/mapa`, supervisor);
    const servido = Date.now() - pedido;
    expect(response.statusCode).toBe(200);
    const bytes = Buffer.byteLength(response.body);
    console.log(
      `mapa (${ctx.db.engine}): ${n} pontos, ${bytes} bytes, ${(bytes / n).toFixed(1)} bytes/ponto; ` +
        `inserir ${semeado} ms, servir ${servido} ms`,
    );
    expect(bytes).toBeLessThan(5 * 1024 * 1024);

    const resposta = JSON.parse(response.body) as MapaProjeto;
    expect(resposta.camadas.map((camada) => [camada.fluxo, camada.status.length])).toEqual([
      ['bdgd', n / 5],
      ['grupoA', n / 5],
      ['hc', n / 5],
      ['ip', n / 5],
      ['poste', n / 5],
    ]);
    const pontos = decode(resposta, new Map());
    expect(new Set(pontos.map((ponto) => ponto.id)).size).toBe(n);
    // A sample of points decodes to the stored rows.
    const amostra = [pontos[0], pontos[12_345], pontos[n - 1]].filter((ponto) => ponto !== undefined);
    const rows = await ctx.db.query<{ id: string; fluxo: string; lat: number; lng: number; status: number }>(
      `SELECT id, fluxo, lat, lng, (CASE WHEN coletado THEN 1 ELSE 0 END) + (CASE WHEN carregado_backoffice THEN 2 ELSE 0 END) AS status
       FROM registros WHERE id = ANY($1::uuid[]) ORDER BY id`,
      [amostra.map((ponto) => ponto.id)],
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      const ponto = pontos.find((p) => p.id === row.id);
      expect(ponto?.fluxo).toBe(row.fluxo);
      expect(ponto?.lat).toBeCloseTo(row.lat, 6);
      expect(ponto?.lng).toBeCloseTo(row.lng, 6);
      expect(ponto?.status).toBe(row.status);
    }
    const coletados = pontos.filter((ponto) => ponto.status & COLETADO).length;
    const contagem = await estatistica('', supervisor, grande._id);
    expect(contagem.reduce((sum, item) => sum + item.count, 0)).toBe(coletados);
  });

  describe('live', () => {
    const url = (alvo: ProjetoCriado) => `${base}/api/projeto/${alvo._id}/mapa/eventos`;
    const centroAoVivo = () => zonaId(aoVivo, 'Zona Centro');

    it('sends a point to the open map within 5 s of its upload, and again when a second device collects it', async () => {
      const stream = await EventStream.open(url(aoVivo), supervisor);
      try {
        await subscribed(stream, ctx.db, aoVivo._id, centroAoVivo());
        const enviado = Date.now();
        const dataHora = local('2026-11-23T09:30');
        const onde = { lat: -25.435123, lng: -49.275123 };
        const id = await subir('unidade', ana, unidade(dataHora), onde, aoVivo);
        const evento = await stream.waitFor((e) => e.id === id);
        expect(Date.now() - enviado).toBeLessThan(5000);
        expect({ ...evento, status: antes(evento.status) }).toEqual({
          fluxo: 'hc',
          id,
          ...onde,
          status: COLETADO,
          tecnico: 'Ana de Tal',
          dataHora,
        });

        // An IP point drawn by Ana, then collected again by Bruno: the point is announced with its conflict bit.
        const ponto = await subir(
          'ip',
          ana,
          { coletaId: crypto.randomUUID(), ...ip(dataHora) },
          onde,
          aoVivo,
        );
        await stream.waitFor((e) => e.id === ponto && antes(e.status) === COLETADO);
        await subir(
          'ip',
          bruno,
          { id: ponto, coletaId: crypto.randomUUID(), ...ip(dataHora + 60_000) },
          { lat: -25.4352, lng: -49.2752 },
          aoVivo,
        );
        const disputado = await stream.waitFor((e) => e.id === ponto && antes(e.status) !== COLETADO);
        // The point as the map shows it: its first collection (Ana's) stays its value, now with the conflict bit,
        // as its popup and the technician filter (by the point's collector) will read it.
        expect({ ...disputado, status: antes(disputado.status) }).toEqual({
          fluxo: 'ip',
          id: ponto,
          ...onde,
          status: COLETADO + CONFLITO,
          tecnico: 'Ana de Tal',
          dataHora,
        });
      } finally {
        stream.close();
      }
    });

    it("sends a technician only the points of their zones, and refuses another client's supervisor", async () => {
      const stream = await EventStream.open(url(aoVivo), tiago);
      try {
        await subscribed(stream, ctx.db, aoVivo._id, centroAoVivo());
        const dataHora = local('2026-11-23T10:00');
        const batel = await subir('ip', bruno, ip(dataHora), { lat: -25.435, lng: -49.265 }, aoVivo);
        const centro = await subir('ip', bruno, ip(dataHora), { lat: -25.435, lng: -49.275 }, aoVivo);
        // Events arrive in the order the uploads committed: once the second is here, the first was held back.
        await stream.waitFor((e) => e.id === centro);
        expect(stream.received.map((e) => e.id)).not.toContain(batel);
      } finally {
        stream.close();
      }
      const refused = await fetch(url(aoVivo), { headers: { cookie: outroSupervisor } });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ message: 'Usuario nao tem permissao para esse recurso' });
    });
  });
});
