// The Extrator's and the reports' files (SPEC.md 2 'Extractor' and 'Reports screen', 7 'KML / zip downloads',
// 9 'CSV exports') as the tools people open them with read them: GDAL's ogrinfo for KML, csv-parse for CSV,
// PROJ's cs2cs for the UTM values, Info-ZIP's unzip for zips; then who may download them and bad requests.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Extracao, Produtividade, RelatorioTecnico } from '@novus/domain/export/api';
import { FLOWS } from '@novus/domain/flows/registry';
import { registrosQuery } from '../src/modules/export/queries.ts';
import { csvStream } from '../src/modules/export/writers.ts';
import type { UsuarioRow } from '../src/modules/usuarios/queries.ts';
import {
  createScratch,
  cs2csUtm,
  ogrFeatures,
  ogrLayers,
  parseCsv,
  type ParsedCsv,
  type Scratch,
  unzipEntry,
  unzipList,
} from './support/files.ts';
import { pontoBDGD, pontoIP } from './support/fixtures.ts';
import {
  createAdminCliente,
  createCliente,
  createCookie,
  createProjeto,
  createSession,
  createTestContext,
  fakeJpeg,
  FORM,
  formBody,
  sample,
  type TestContext,
  uploadRecord,
  zonaId,
} from './support/test-app.ts';

/** America/Sao_Paulo has been UTC−3 all year since 2019: a local time of November 2026 as an instant. */
const local = (dia: number, hora: number, minuto = 0) => Date.UTC(2026, 10, dia, hora + 3, minuto);

/** The n-th spot inside 'Zona Centro' of docs/samples/zoneamento-curitiba.kml: every record has its own. */
const lugar = (n: number) => ({
  lat: Number((-25.4312 - n * 0.0005).toFixed(6)),
  lng: Number((-49.2788 + n * 0.0004).toFixed(6)),
});

/** DD/MM/YYYY HH:mm:ss in America/Sao_Paulo, by Intl (the server writes it with PostgreSQL's to_char). */
function dataHoraLocal(epoch: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/Sao_Paulo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(epoch))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}:${parts.second}`;
}

const BASE = ['ID', 'TECNICO', 'DATA', 'UTM_E', 'UTM_N'];

/** A CSV's decimal ('673468,04', the comma of the spreadsheets of Brazil) as a number. */
const decimal = (text: string | undefined) => Number(text?.replace(',', '.'));

/** A CSV's UTM value within a centimetre of what cs2cs computes. */
const expectUtm = (text: string | undefined, expected: number | undefined, label?: string) =>
  expect(Math.abs(decimal(text) - (expected ?? 0)), label).toBeLessThanOrEqual(0.01);

/** The header of each CSV file: the contract the README documents. */
const HEADERS = {
  unidades: [
    ...BASE,
    'TIPO_UNIDADE',
    'TIPO_EDIFICACAO',
    'TIPO_IMOVEL',
    'NUMERO',
    'COMPLEMENTO_NUMERO',
    'COMPLEMENTO1',
    'COMPLEMENTO2',
    'COMPLEMENTO3',
    'QUANTIDADE',
    'NOME_EDIFICIO',
    'NOME_BLOCO',
    'TOTAL_ANDARES',
    'APTOS_POR_ANDAR',
    'POSTE',
    'OBSERVACAO',
    'FOTOS',
  ],
  postes: [
    ...BASE,
    'TIPO',
    'ALTURA',
    'CARGA',
    'TIPO_REDE_ELETRICA',
    'ATERRAMENTO',
    'EQUIPAMENTO_REDE_ENERGIA',
    'QTD_DROP',
    'OBSERVACAO',
    'FOTOS',
  ],
  'postes-simplificado': [...BASE, 'TIPO', 'ALTURA', 'QTD_DROP', 'FOTOS'],
  ip: [
    ...BASE,
    'SEQUENCIAL',
    'ID_CONCESSIONARIA',
    'ID_CIRCUITO',
    'POSSUI_USO_MUTUO',
    'POSSUI_IP',
    'NAO_POSSUI_IP_OU_USO_MUTUO',
    'POSSUI_IRREGULARIDADE',
    'POSSUI_ANOMALIA_POSTE',
    'BDGD',
    'QUANTIDADE_COMPARTILHAMENTO',
    'FOTOS',
  ],
  vegetacao: [
    ...BASE,
    'CONTATO_BT',
    'CONTATO_MT',
    'CONTATO_RAMAL',
    'PROJECAO_BT',
    'PROJECAO_MT',
    'PROJECAO_RAMAL',
    'DISTANCIA_REDE_BT',
    'DISTANCIA_REDE_MT',
    'DIAMETRO_TRONCO',
    'FENOTIPO',
    'ALTURA',
    'OBSERVACAO',
    'FOTOS',
  ],
  'vegetacao-producao': ['TECNICO', 'DATA', 'QUANTIDADE'],
  lpt: [...BASE, 'LISTA_CONCESSIONARIA', 'QTD_CASAS', 'OBSERVACAO', 'FOTOS'],
  'grupo-a': [
    ...BASE,
    'UC',
    'MEDIDOR',
    'LEVANTAMENTO_ACOMPANHADO',
    'LEVANTAMENTO_AUTORIZADO',
    'OBSERVACAO',
    'FOTOS',
  ],
  bdgd: [
    ...BASE,
    'SEQUENCIAL',
    'ATIVO',
    'ID_CONCESSIONARIA',
    'COORDENADAS_ATUALIZADAS',
    'OBSERVACAO',
    'FOTOS',
  ],
  fiscalizacao: [
    ...BASE,
    'BARRAMENTO',
    'BARRAMENTO_CORRIGIDO',
    'TIPO',
    'TIPO_CORRIGIDO',
    'MATERIAL',
    'MATERIAL_CORRIGIDO',
    'ALTURA',
    'ALTURA_CORRIGIDO',
    'CARGA',
    'CARGA_CORRIGIDO',
    'TIPO_EQUIPAMENTO',
    'TIPO_EQUIPAMENTO_CORRIGIDO',
    'PLACA',
    'PLACA_CORRIGIDO',
    'POTENCIA',
    'POTENCIA_CORRIGIDO',
    'FASES',
    'FASES_CORRIGIDO',
    'MEDIDOR',
    'MEDIDOR_CORRIGIDO',
    'FASE_CONSUMIDOR',
    'FASE_CONSUMIDOR_CORRIGIDO',
    'OBSERVACAO',
    'FOTOS',
  ],
  'lpt-agiltec': [
    ...BASE,
    'OS',
    'NOME',
    'CPF',
    'EMAIL',
    'TELEFONE_1',
    'PROPRIEDADE',
    'COMUNIDADE',
    'MUNICIPIO',
    'POLO',
    'REGIONAL',
    'TELEFONE_ATUALIZADO',
    'EMAIL_ATUALIZADO',
    'POSSUI_CASA',
    'CONFIGURA_MORADIA',
    'OBSERVACAO',
    'FOTOS',
  ],
} as const;

const IP_PONTOS = [
  pontoIP(1, [-25.4355, -49.2755], 'C-1', { quantidadeCompartilhamento: 3 }),
  pontoIP(2, [-25.4365, -49.2765], 'C-1'),
  pontoIP(3, [-25.4375, -49.2775], 'C-2'),
];
const BDGD_PONTOS = [
  pontoBDGD(7, [-25.4355, -49.2745], 'Poste'),
  pontoBDGD(12, [-25.4365, -49.2735], 'Chave'),
];

interface Ponto {
  _id: string;
  coordenadas: [number, number];
  [campo: string]: unknown;
}

interface ProjetoJson {
  _id: string;
  nome: string;
  zonas: { _id: string; label: string }[];
  pontosIP: Ponto[];
  pontosBDGD: Ponto[];
  pontosFiscalizacao: Ponto[];
  pontosLPTv2: Ponto[];
}

/** The preloaded point of a project's list whose field holds the value. */
function preloaded(projeto: ProjetoJson, lista: Lista, campo: string, valor: string): Ponto {
  const found = projeto[lista].find((item) => item[campo] === valor);
  if (!found) throw new Error(`${campo} ${valor} not preloaded`);
  return found;
}

/** What was sent for each stored record: where and when, to compare with what the files say. */
interface Enviado {
  lat: number;
  lng: number;
  dataHora: number;
}

type Lista = 'pontosIP' | 'pontosBDGD' | 'pontosFiscalizacao' | 'pontosLPTv2';

/** One record this file uploads, as the app sends it, under the name the tests give it. */
interface Envio {
  nome: string;
  apiPath: string;
  por: 'joao' | 'maria';
  at: number;
  /** Its own spot, lugar(n); 'ponto' where the project's file put the preloaded point it collects. */
  onde: number | 'ponto';
  /** The preloaded point it collects, under the point's id: its list and a field and value that find it. */
  ponto?: [Lista, string, string];
  precisao?: number;
  fotos?: number;
  /** The name of the pole that feeds this unit (the form's `drop`). */
  drop?: string;
  /** Sent to the project without fuso. */
  semFuso?: true;
  campos: Record<string, string>;
}

const SDU = { tipoUnidade: 'SDU', tipoEdificacao: 'Residencial', tipoImovel: 'RESIDENCIAL', quantidade: '1' };
const COLETA_LPT = { telefoneAtualizado: '(41) 98888-1234', possuiCasa: 'Sim', observacao: 'Ação social' };

/** Every record of the file, in the order sent. */
const ENVIOS: Envio[] = [
  // João's 21 November: poles, units fed by the first pole, trees, and one record of every other flow.
  {
    nome: 'poste1',
    apiPath: 'poste',
    por: 'joao',
    at: local(21, 8),
    onde: 0,
    precisao: 4,
    fotos: 1,
    campos: {
      tipo: 'CONCRETO CIRCULAR',
      altura: '10.5',
      carga: '600',
      tipoRedeEletrica: 'MISTA',
      aterramento: 'true',
      equipamentoRedeEnergia: 'TRANSFORMADOR',
      observacao: 'Ação',
    },
  },
  {
    nome: 'poste2',
    apiPath: 'poste',
    por: 'joao',
    at: local(21, 8, 30),
    onde: 1,
    precisao: 6,
    campos: {
      tipo: 'MADEIRA',
      altura: '9',
      carga: '300',
      tipoRedeEletrica: 'BAIXA TENSAO',
      aterramento: 'false',
      equipamentoRedeEnergia: 'NAO POSSUI',
    },
  },
  {
    nome: 'unidade1',
    apiPath: 'unidade',
    por: 'joao',
    at: local(21, 9),
    onde: 2,
    precisao: 3,
    fotos: 2,
    drop: 'poste1',
    campos: {
      ...SDU,
      numero: '10',
      complemento1: '+1',
      complemento2: '-2',
      complemento3: '@SUM(A1)',
      observacao: '=HYPERLINK("x")',
    },
  },
  {
    nome: 'unidade2',
    apiPath: 'unidade',
    por: 'joao',
    at: local(21, 9, 15),
    onde: 3,
    precisao: 5,
    drop: 'poste1',
    campos: { ...SDU, numero: '12', complementoNumero: 'casa 2; fundos', observacao: 'Ação' },
  },
  {
    nome: 'unidade3',
    apiPath: 'unidade',
    por: 'joao',
    at: local(21, 9, 30),
    onde: 4,
    fotos: 1,
    campos: {
      tipoUnidade: 'MDU',
      tipoEdificacao: 'Residencial',
      tipoImovel: 'RESIDENCIAL',
      numero: '200',
      nomeEdificio: 'Edifício São João',
      nomeBloco: 'B',
      totalAndares: '10',
      aptosPorAndar: '4',
    },
  },
  {
    nome: 'arvore1',
    apiPath: 'arvore',
    por: 'joao',
    at: local(21, 10),
    onde: 5,
    precisao: 2,
    campos: {
      contatoRede: JSON.stringify(['Baixa Tensão']),
      projecaoRede: JSON.stringify(['Média Tensão', 'Ramal de Serviço']),
      distanciaRedeBT: '0',
      distanciaRedeMT: '120',
      diametroTronco: '35',
      fenotipo: 'Ipê-amarelo',
      altura: '8,5',
      observacao: 'Poda urgente',
    },
  },
  {
    nome: 'arvore2',
    apiPath: 'arvore',
    por: 'joao',
    at: local(21, 10, 30),
    onde: 6,
    campos: {
      contatoRede: JSON.stringify([]),
      projecaoRede: JSON.stringify([]),
      fenotipo: 'Sibipiruna',
      altura: '4',
    },
  },
  {
    nome: 'ip1',
    apiPath: 'ip',
    por: 'joao',
    at: local(21, 11),
    onde: 7,
    ponto: ['pontosIP', 'idConcessionaria', 'IP-1'],
    precisao: 8,
    fotos: 1,
    campos: { possuiIP: 'true', possuiUsoMutuo: 'true' },
  },
  {
    nome: 'lpt1',
    apiPath: 'lpt',
    por: 'joao',
    at: local(21, 11, 30),
    onde: 8,
    campos: { listaConcessionaria: 'true', qtdCasas: '3', observacao: 'Três casas no lote' },
  },
  {
    nome: 'bdgd7',
    apiPath: 'bdgd',
    por: 'joao',
    at: local(21, 12),
    onde: 9,
    ponto: ['pontosBDGD', 'idConcessionaria', 'B-7'],
    campos: { ativo: 'Poste', coordenadasAtualizadas: 'true', observacao: 'Posição corrigida' },
  },
  {
    nome: 'bdgdNovo',
    apiPath: 'bdgd',
    por: 'joao',
    at: local(21, 12, 15),
    onde: 10,
    campos: { ativo: 'Chave', idConcessionaria: 'B-NOVO' },
  },
  {
    nome: 'fiscalizacao1',
    apiPath: 'fiscalizacao',
    por: 'joao',
    at: local(21, 13),
    onde: 'ponto',
    ponto: ['pontosFiscalizacao', 'placa', 'PL-1001'],
    campos: {
      correcaoTipo: 'MADEIRA',
      // As a Brazilian keyboard types it, and with a point.
      correcaoAltura: '12,5',
      correcaoPotencia: '112.5',
      observacao: 'Placa trocada',
    },
  },
  // The last minutes of the 21st in Brasília are already the 22nd in UTC.
  {
    nome: 'lpt5001',
    apiPath: 'lptv2',
    por: 'joao',
    at: local(21, 23, 30),
    onde: 11,
    ponto: ['pontosLPTv2', 'os', '5001'],
    campos: COLETA_LPT,
  },

  // Maria's 21st (two IP points, one drawn on the map, and a Grupo A) and 22nd (a tree, an LPT Agiltec).
  {
    nome: 'ip2',
    apiPath: 'ip',
    por: 'maria',
    at: local(21, 14),
    onde: 12,
    ponto: ['pontosIP', 'idConcessionaria', 'IP-2'],
    precisao: 10,
    campos: { possuiUsoMutuo: 'true', possuiAnomaliaPoste: 'true' },
  },
  {
    nome: 'ipNovo',
    apiPath: 'ip',
    por: 'maria',
    at: local(21, 14, 30),
    onde: 13,
    campos: { naoPossuiIPouUsoMutuo: 'true', idConcessionaria: 'IP-NOVO' },
  },
  {
    nome: 'grupoA1',
    apiPath: 'grupoa',
    por: 'maria',
    at: local(21, 15),
    onde: 14,
    fotos: 1,
    campos: {
      uc: 'UC-123',
      medidor: 'M-9',
      levantamentoAcompanhado: 'true',
      levantamentoAutorizado: 'false',
      observacao: 'Cliente ausente',
    },
  },
  {
    nome: 'lpt5002',
    apiPath: 'lptv2',
    por: 'maria',
    at: local(22, 0, 30),
    onde: 15,
    ponto: ['pontosLPTv2', 'os', '5002'],
    campos: { ...COLETA_LPT, possuiCasa: 'Em construção' },
  },
  {
    nome: 'arvore3',
    apiPath: 'arvore',
    por: 'maria',
    at: local(22, 8),
    onde: 16,
    campos: {
      contatoRede: JSON.stringify(['Média Tensão']),
      projecaoRede: JSON.stringify([]),
      distanciaRedeMT: '0',
      altura: '6',
    },
  },

  // The project without fuso: a unit and a tree of João's.
  {
    nome: 'semFusoUnidade',
    apiPath: 'unidade',
    por: 'joao',
    at: local(21, 10),
    onde: 0,
    semFuso: true,
    campos: { ...SDU, numero: '1' },
  },
  {
    nome: 'semFusoArvore',
    apiPath: 'arvore',
    por: 'joao',
    at: local(21, 10, 5),
    onde: 1,
    semFuso: true,
    campos: { altura: '3' },
  },
];

describe('exports: CSV, KML and zips read by csv-parse, cs2cs, ogrinfo and unzip', () => {
  let ctx: TestContext;
  let scratch: Scratch;
  let admin: string;
  let cliente: string;
  let supervisor: string;
  let supervisorOutro: string;
  let tecnicoCookie: string;
  let joao: UsuarioRow;
  let maria: UsuarioRow;
  let projeto: ProjetoJson;
  let semFuso: ProjetoJson;
  const enviados = new Map<string, Enviado>();
  const utm = new Map<string, [number, number]>();
  /** Record ids by the name this file gives them. */
  const ids: Record<string, string> = {};
  const fotos: Record<string, Buffer[]> = {};

  /** GET as the project's supervisor, as someone else, or (null) with no session at all. */
  const get = (url: string, cookie: string | null = supervisor) =>
    ctx.app.inject({ method: 'GET', url, headers: cookie === null ? {} : { cookie } });
  async function download(url: string): Promise<Buffer> {
    const response = await get(url);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.rawPayload;
  }
  const csv = async (url: string): Promise<ParsedCsv> => parseCsv(await download(url));
  const extrator = (arquivo: string, query = '') => `/api/extrator/${projeto._id}/${arquivo}${query}`;
  function ogr(nome: string, kml: Buffer) {
    return ogrLayers(scratch.write(nome, kml));
  }

  /** Checks the columns every record file starts with against what was sent: technician, local time, UTM. */
  function expectBase(rows: ParsedCsv['rows'], tecnicos: Record<string, string>) {
    for (const row of rows) {
      const id = row.ID ?? '';
      const enviado = enviados.get(id);
      const [easting, northing] = utm.get(id) ?? [];
      expect(enviado, `record ${id} was sent`).toBeDefined();
      expect(row.TECNICO).toBe(tecnicos[id]);
      expect(row.DATA).toBe(dataHoraLocal(enviado?.dataHora ?? 0));
      expect(row.DATA).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
      expect(row.UTM_E).toMatch(/^\d+,\d{2}$/);
      expect(row.UTM_N).toMatch(/^\d+,\d{2}$/);
      expectUtm(row.UTM_E, easting, `UTM_E of ${id}`);
      expectUtm(row.UTM_N, northing, `UTM_N of ${id}`);
    }
  }
  const byId = (rows: ParsedCsv['rows'], nome: string) => {
    const row = rows.find((candidate) => candidate.ID === ids[nome]);
    if (!row) throw new Error(`${nome} (${ids[nome]}) not in the file`);
    return row;
  };
  const tecnicoDe = (nomes: string[], tecnico: string) =>
    Object.fromEntries(nomes.map((nome) => [ids[nome] ?? '', tecnico]));
  /**
   * One of the Extrator's record CSVs (at url when not the plain one), checked as every one is: the BOM, the
   * README's header, and the base columns of each row against what each technician sent.
   */
  async function recordCsv(
    arquivo: keyof typeof HEADERS,
    por: Record<string, string[]>,
    url = extrator(`${arquivo}.csv`),
  ): Promise<ParsedCsv> {
    const file = await csv(url);
    expect(file.bom, url).toBe(true);
    expect(file.headers, url).toEqual(HEADERS[arquivo]);
    expectBase(
      file.rows,
      Object.assign({}, ...Object.entries(por).map(([tecnico, nomes]) => tecnicoDe(nomes, tecnico))),
    );
    return file;
  }
  /** The project without fuso edited as the administrador's form sends it. */
  async function editarSemFuso(fuso: string, fluxos: string[]) {
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/projeto/${semFuso._id}`,
      headers: { ...FORM, cookie: admin },
      payload: formBody({ nome: semFuso.nome, cliente, fuso, fluxos }),
    });
    expect(put.statusCode, put.body).toBe(200);
  }

  beforeAll(async () => {
    ctx = await createTestContext();
    scratch = createScratch();
    ({ admin, cliente } = await createAdminCliente(ctx.app, ctx.db, 'Copel'));
    const outroCliente = await createCliente(ctx.app, admin, 'Celesc');
    projeto = await createProjeto<ProjetoJson>(ctx.app, admin, {
      nome: 'Expansão Centro',
      cliente,
      fluxos: FLOWS.map((flow) => flow.key),
      pontosIP: JSON.stringify(IP_PONTOS),
      pontosBDGD: JSON.stringify(BDGD_PONTOS),
      arquivoFiscalizacao: sample('fiscalizacao-fuso22.csv'),
      arquivoLPTv2: sample('lpt-agiltec.csv'),
    });
    semFuso = await createProjeto<ProjetoJson>(ctx.app, admin, {
      nome: 'Sem Fuso',
      cliente,
      fuso: '',
      fluxos: ['hc', 'arvore'],
    });
    const tecnicos = {
      joao: await createSession(ctx.app, ctx.db, {
        roles: ['tecnico'],
        cliente,
        firstName: 'João',
        zonas: [...projeto.zonas.map((zona) => zona._id), zonaId(semFuso, 'Zona Centro')],
      }),
      maria: await createSession(ctx.app, ctx.db, {
        roles: ['tecnico'],
        cliente,
        firstName: 'Maria',
        zonas: [zonaId(projeto, 'Zona Centro')],
      }),
    };
    joao = tecnicos.joao.user;
    maria = tecnicos.maria.user;
    tecnicoCookie = tecnicos.joao.cookie;
    supervisor = await createCookie(ctx.app, ctx.db, { roles: ['supervisor'], cliente });
    supervisorOutro = await createCookie(ctx.app, ctx.db, { roles: ['supervisor'], cliente: outroCliente });

    // Each record as the app uploads it; a preloaded point is collected under its own id.
    for (const envio of ENVIOS) {
      const para = envio.semFuso ? semFuso : projeto;
      const ponto = envio.ponto && preloaded(para, ...envio.ponto);
      const [lat = 0, lng = 0] = ponto?.coordenadas ?? [];
      const onde = envio.onde === 'ponto' ? { lat, lng } : lugar(envio.onde);
      const id = ponto?._id ?? crypto.randomUUID();
      const bytes = Array.from({ length: envio.fotos ?? 0 }, () => fakeJpeg());
      const response = await uploadRecord(
        ctx.app,
        envio.apiPath,
        {
          id,
          ...(ponto ? { coletaId: crypto.randomUUID() } : {}),
          projeto: para._id,
          coordenadas: JSON.stringify(onde),
          dataHora: String(envio.at),
          ...(envio.precisao === undefined ? {} : { precisao: String(envio.precisao) }),
          ...envio.campos,
          ...(envio.drop ? { drop: ids[envio.drop] ?? '' } : {}),
        },
        { fotos: bytes, cookie: tecnicos[envio.por].cookie },
      );
      expect(response.statusCode, `${envio.nome}: ${response.body}`).toBe(ponto ? 200 : 201);
      ids[envio.nome] = id;
      fotos[envio.nome] = bytes;
      enviados.set(id, { ...onde, dataHora: envio.at });
    }

    const all = [...enviados.entries()];
    cs2csUtm(
      all.map(([, enviado]) => enviado),
      22,
    ).forEach((value, index) => utm.set(all[index]?.[0] ?? '', value));
  });
  afterAll(async () => {
    scratch?.remove();
    await ctx?.close();
  });

  it('lists the days with records and sums up the files of the whole project and of a date range', async () => {
    const datas = await get(`/api/projeto/${projeto._id}/datas`);
    expect(datas.statusCode).toBe(200);
    expect(datas.json()).toEqual([
      { ano: 2026, mes: 11, dia: 21, data: { ano: 2026, mes: 11, dia: 21 } },
      { ano: 2026, mes: 11, dia: 22, data: { ano: 2026, mes: 11, dia: 22 } },
    ]);

    const tudo: Extracao = (await get(`/api/extrator/${projeto._id}`)).json();
    expect(tudo.erro).toBeNull();
    expect(tudo.projeto).toEqual({ id: projeto._id, nome: 'Expansão Centro', fuso: 22 });
    expect(tudo.kml.map((file) => [file.id, file.registros])).toEqual([
      ['unidade', 3],
      ['poste', 2],
      ['ip', 3],
      ['arvore', 3],
      ['lpt', 1],
      ['grupoa', 1],
      ['bdgd', 2],
      ['fiscalizacao', 1],
      ['lptv2', 2],
    ]);
    expect(tudo.kml.find((file) => file.id === 'bdgd')?.nome).toBe('Expansão Centro.zip');
    expect(tudo.kml.find((file) => file.id === 'poste')?.url).toBe(`/api/poste/${projeto._id}/kml`);
    // The production file's count is left out: it should be its rows (technician-days), see the report.
    expect(
      tudo.csv.map((file) => [file.id, file.label, file.id === 'vegetacao-producao' || file.registros]),
    ).toEqual([
      ['unidades', 'Unidades', 3],
      ['postes', 'Postes', 2],
      ['postes-simplificado', 'Postes simplificado', 2],
      ['ip', 'Uso Mútuo/IP - João de Tal', 1],
      ['ip', 'Uso Mútuo/IP - Maria de Tal', 2],
      ['vegetacao', 'Vegetação (coleta)', 3],
      ['vegetacao-producao', 'Vegetação (produção)', true],
      ['lpt', 'LPT', 1],
      ['grupo-a', 'Grupo A', 1],
      ['bdgd', 'BDGD', 2],
      ['fiscalizacao', 'Fiscalização', 1],
      ['lpt-agiltec', 'LPT Agiltec', 2],
    ]);
    // A production file counts its rows: technician-days (João on the 21st, Maria on the 22nd).
    expect(tudo.csv.find((file) => file.id === 'vegetacao-producao')?.registros).toBe(2);
    expect(tudo.fotos).toMatchObject({ id: 'fotos', registros: 6, url: extrator('fotos.zip') });

    const dia22: Extracao = (
      await get(`/api/extrator/${projeto._id}?dataInicio=2026-11-22&dataFim=2026-11-22`)
    ).json();
    expect(dia22.kml.filter((file) => file.registros > 0).map((file) => [file.id, file.registros])).toEqual([
      ['arvore', 1],
      ['lptv2', 1],
    ]);
    // The files keep the range, so the button downloads what the screen counted.
    expect(dia22.kml.find((file) => file.id === 'arvore')?.url).toBe(
      `/api/arvore/${projeto._id}/kml?dataInicio=2026-11-22&dataFim=2026-11-22`,
    );
    expect(dia22.fotos).toBeNull();
  });

  it('writes the units CSV: BOM, exact header, accents, local time, UTM as cs2cs, formulas neutralised', async () => {
    const file = await recordCsv('unidades', { 'João de Tal': ['unidade1', 'unidade2', 'unidade3'] });
    expect(file.rows.map((row) => row.ID)).toEqual([ids.unidade1, ids.unidade2, ids.unidade3]);
    expect(byId(file.rows, 'unidade1')).toMatchObject({
      DATA: '21/11/2026 09:00:00',
      TIPO_UNIDADE: 'SDU',
      NUMERO: '10',
      COMPLEMENTO1: "'+1",
      COMPLEMENTO2: "'-2",
      COMPLEMENTO3: "'@SUM(A1)",
      OBSERVACAO: `'=HYPERLINK("x")`,
      POSTE: ids.poste1,
      FOTOS: '2',
    });
    expect(byId(file.rows, 'unidade2')).toMatchObject({
      COMPLEMENTO_NUMERO: 'casa 2; fundos',
      OBSERVACAO: 'Ação',
      FOTOS: '0',
    });
    expect(byId(file.rows, 'unidade3')).toMatchObject({
      TIPO_UNIDADE: 'MDU',
      NOME_EDIFICIO: 'Edifício São João',
      NOME_BLOCO: 'B',
      TOTAL_ANDARES: '10',
      APTOS_POR_ANDAR: '4',
      POSTE: '',
      FOTOS: '1',
    });
  });

  it('writes a CSV in parts exactly as in one piece, undated records last', async () => {
    const unidades = FLOWS.find((flow) => flow.key === 'hc')?.exports.csv[0];
    if (unidades?.kind !== 'registros') throw new Error('the units CSV is a records CSV');
    const write = async (parte: number) => {
      const query = registrosQuery(unidades.colunas, { projeto: projeto._id, fluxos: ['hc'] });
      const chunks: Buffer[] = [];
      const headers = unidades.colunas.map((coluna) => coluna.header);
      for await (const chunk of csvStream(ctx.db, query, headers, parte))
        chunks.push(Buffer.from(chunk as string));
      return Buffer.concat(chunks).toString('utf8');
    };
    const whole = await write(1_000_000);
    expect(parseCsv(Buffer.from(whole)).rows.map((row) => row.ID)).toEqual([
      ids.unidade1,
      ids.unidade2,
      ids.unidade3,
    ]);
    for (const parte of [1, 2, 3]) expect(await write(parte), `parts of ${parte}`).toBe(whole);
    const [{ data_hora }] = await ctx.db.query<{ data_hora: Date }>(
      'SELECT data_hora FROM registros WHERE id = $1',
      [ids.unidade1],
    );
    await ctx.db.query('UPDATE registros SET data_hora = NULL WHERE id = $1', [ids.unidade1]);
    try {
      const undated = await write(1_000_000);
      expect(parseCsv(Buffer.from(undated)).rows.map((row) => row.ID)).toEqual([
        ids.unidade2,
        ids.unidade3,
        ids.unidade1,
      ]);
      for (const parte of [1, 2]) expect(await write(parte), `undated, parts of ${parte}`).toBe(undated);
    } finally {
      await ctx.db.query('UPDATE registros SET data_hora = $1 WHERE id = $2', [data_hora, ids.unidade1]);
    }
  });

  it('guards a technician name typed like a formula or markup, in the CSV and in the KML', async () => {
    await ctx.db.query('UPDATE usuarios SET first_name = $1 WHERE id = $2', ['=1+1 <b>&', joao.id]);
    try {
      const file = await csv(extrator('unidades.csv'));
      expect(file.rows.map((row) => row.TECNICO)).toEqual(Array(3).fill("'=1+1 <b>& de Tal"));
      // Poles are named after their technician on the map.
      const kml = await download(`/api/poste/${projeto._id}/kml`);
      const postes = ogrFeatures(scratch.write('tecnico-formula.kml', kml), 'Postes');
      expect(postes.map((feature) => feature.Name)).toEqual(Array(2).fill('=1+1 <b>& de Tal'));
    } finally {
      await ctx.db.query('UPDATE usuarios SET first_name = $1 WHERE id = $2', ['João', joao.id]);
    }
  });

  it('writes the poles CSV with QTD_DROP counting the units fed by each pole, and the simplified file', async () => {
    const postes = await recordCsv('postes', { 'João de Tal': ['poste1', 'poste2'] });
    expect(postes.rows.map((row) => [row.ID, row.QTD_DROP])).toEqual([
      [ids.poste1, '2'],
      [ids.poste2, '0'],
    ]);
    expect(byId(postes.rows, 'poste1')).toMatchObject({
      TIPO: 'CONCRETO CIRCULAR',
      ALTURA: '10,5',
      CARGA: '600',
      TIPO_REDE_ELETRICA: 'MISTA',
      ATERRAMENTO: 'SIM',
      EQUIPAMENTO_REDE_ENERGIA: 'TRANSFORMADOR',
      OBSERVACAO: 'Ação',
      FOTOS: '1',
    });
    expect(byId(postes.rows, 'poste2')).toMatchObject({ ATERRAMENTO: 'NÃO', OBSERVACAO: '', FOTOS: '0' });

    const simples = await recordCsv('postes-simplificado', { 'João de Tal': ['poste1', 'poste2'] });
    expect(simples.rows.map((row) => [row.TIPO, row.ALTURA, row.QTD_DROP, row.FOTOS])).toEqual([
      ['CONCRETO CIRCULAR', '10,5', '2', '1'],
      ['MADEIRA', '9', '0', '0'],
    ]);
  });

  it('offers one IP file per technician, each holding only that technician’s points', async () => {
    const tudo: Extracao = (await get(`/api/extrator/${projeto._id}`)).json();
    const arquivos = tudo.csv.filter((file) => file.id === 'ip');
    expect(arquivos.map((file) => file.url)).toEqual([
      extrator('ip.csv', `?tecnico=${joao.id}`),
      extrator('ip.csv', `?tecnico=${maria.id}`),
    ]);
    const [doJoao, daMaria] = await Promise.all([
      recordCsv('ip', { 'João de Tal': ['ip1'] }, arquivos[0]?.url),
      recordCsv('ip', { 'Maria de Tal': ['ip2', 'ipNovo'] }, arquivos[1]?.url),
    ]);
    expect(doJoao.rows.map((row) => row.ID)).toEqual([ids.ip1]);
    expect(daMaria.rows.map((row) => row.ID)).toEqual([ids.ip2, ids.ipNovo]);
    // The preloaded values stay beside what the technician answered; the point never collected is absent.
    expect(byId(doJoao.rows, 'ip1')).toMatchObject({
      SEQUENCIAL: '1',
      ID_CONCESSIONARIA: 'IP-1',
      ID_CIRCUITO: 'C-1',
      POSSUI_USO_MUTUO: 'SIM',
      POSSUI_IP: 'SIM',
      NAO_POSSUI_IP_OU_USO_MUTUO: 'NÃO',
      POSSUI_IRREGULARIDADE: 'NÃO',
      QUANTIDADE_COMPARTILHAMENTO: '3',
      FOTOS: '1',
    });
    expect(byId(daMaria.rows, 'ip2')).toMatchObject({
      SEQUENCIAL: '2',
      ID_CONCESSIONARIA: 'IP-2',
      POSSUI_USO_MUTUO: 'SIM',
      POSSUI_IP: 'NÃO',
      POSSUI_ANOMALIA_POSTE: 'SIM',
      QUANTIDADE_COMPARTILHAMENTO: '0',
    });
    // a point added in the app follows the project's three preloaded ones
    expect(byId(daMaria.rows, 'ipNovo')).toMatchObject({
      SEQUENCIAL: '4',
      ID_CONCESSIONARIA: 'IP-NOVO',
      NAO_POSSUI_IP_OU_USO_MUTUO: 'SIM',
    });
    // Without the technician, the file has every collected point.
    expect((await csv(extrator('ip.csv'))).rows).toHaveLength(3);
  });

  it('writes the vegetation CSV with contact and projection flags per network, and production per technician per day', async () => {
    const coleta = await recordCsv('vegetacao', {
      'João de Tal': ['arvore1', 'arvore2'],
      'Maria de Tal': ['arvore3'],
    });
    const flags = (nome: string) => {
      const row = byId(coleta.rows, nome);
      return [
        row.CONTATO_BT,
        row.CONTATO_MT,
        row.CONTATO_RAMAL,
        row.PROJECAO_BT,
        row.PROJECAO_MT,
        row.PROJECAO_RAMAL,
      ];
    };
    expect(flags('arvore1')).toEqual(['SIM', 'NÃO', 'NÃO', 'NÃO', 'SIM', 'SIM']);
    expect(flags('arvore2')).toEqual(['NÃO', 'NÃO', 'NÃO', 'NÃO', 'NÃO', 'NÃO']);
    expect(flags('arvore3')).toEqual(['NÃO', 'SIM', 'NÃO', 'NÃO', 'NÃO', 'NÃO']);
    expect(byId(coleta.rows, 'arvore1')).toMatchObject({
      DATA: '21/11/2026 10:00:00',
      DISTANCIA_REDE_BT: '0',
      DISTANCIA_REDE_MT: '120',
      DIAMETRO_TRONCO: '35',
      FENOTIPO: 'Ipê-amarelo',
      ALTURA: '8,5',
      OBSERVACAO: 'Poda urgente',
    });

    const producao = await csv(extrator('vegetacao-producao.csv'));
    expect(producao.bom).toBe(true);
    expect(producao.headers).toEqual(HEADERS['vegetacao-producao']);
    expect(producao.rows).toEqual([
      { TECNICO: 'João de Tal', DATA: '21/11/2026', QUANTIDADE: '2' },
      { TECNICO: 'Maria de Tal', DATA: '22/11/2026', QUANTIDADE: '1' },
    ]);
    expect((await csv(extrator('vegetacao-producao.csv', '?dataInicio=2026-11-22'))).rows).toEqual([
      { TECNICO: 'Maria de Tal', DATA: '22/11/2026', QUANTIDADE: '1' },
    ]);
  });

  it('writes the LPT, Grupo A and BDGD CSVs', async () => {
    const lpt = await recordCsv('lpt', { 'João de Tal': ['lpt1'] });
    expect(lpt.rows).toEqual([
      expect.objectContaining({
        LISTA_CONCESSIONARIA: 'SIM',
        QTD_CASAS: '3',
        OBSERVACAO: 'Três casas no lote',
        FOTOS: '0',
      }),
    ]);

    const grupoA = await recordCsv('grupo-a', { 'Maria de Tal': ['grupoA1'] });
    expect(grupoA.rows).toEqual([
      expect.objectContaining({
        UC: 'UC-123',
        MEDIDOR: 'M-9',
        LEVANTAMENTO_ACOMPANHADO: 'SIM',
        LEVANTAMENTO_AUTORIZADO: 'NÃO',
        OBSERVACAO: 'Cliente ausente',
        FOTOS: '1',
      }),
    ]);

    const bdgd = await recordCsv('bdgd', { 'João de Tal': ['bdgd7', 'bdgdNovo'] });
    expect(bdgd.rows.map((row) => [row.ID, row.SEQUENCIAL, row.ATIVO, row.ID_CONCESSIONARIA])).toEqual([
      [ids.bdgd7, '7', 'Poste', 'B-7'],
      // Numbered by the server: the highest of the project plus one.
      [ids.bdgdNovo, '13', 'Chave', 'B-NOVO'],
    ]);
    expect(byId(bdgd.rows, 'bdgd7')).toMatchObject({
      COORDENADAS_ATUALIZADAS: 'SIM',
      OBSERVACAO: 'Posição corrigida',
    });
  });

  it('writes the fiscalização CSV with each field’s original value beside its corrected one', async () => {
    const file = await recordCsv('fiscalizacao', { 'João de Tal': ['fiscalizacao1'] });
    expect(file.rows).toEqual([
      expect.objectContaining({
        BARRAMENTO: 'B-01',
        BARRAMENTO_CORRIGIDO: '',
        TIPO: 'CIRCULAR',
        TIPO_CORRIGIDO: 'MADEIRA',
        MATERIAL: 'CONCRETO',
        MATERIAL_CORRIGIDO: '',
        ALTURA: '11',
        ALTURA_CORRIGIDO: '12,5',
        CARGA: '600',
        TIPO_EQUIPAMENTO: 'TRANSFORMADOR',
        PLACA: 'PL-1001',
        POTENCIA: '75',
        POTENCIA_CORRIGIDO: '112,5',
        FASES: '3',
        MEDIDOR: 'M-555',
        FASE_CONSUMIDOR: 'ABC',
        FASE_CONSUMIDOR_CORRIGIDO: '',
        OBSERVACAO: 'Placa trocada',
      }),
    ]);
    // The point was not moved: its UTM is the one of the project's file (docs/samples/fiscalizacao-fuso22.csv).
    const [row] = file.rows;
    expectUtm(row?.UTM_E, 673468.04);
    expectUtm(row?.UTM_N, 7185762.165);
    // For GIS tools, every decimal of a measure with a point; what is no plain decimal stays as typed.
    const [ponto] = (await csv(extrator('fiscalizacao.csv', '?decimal=ponto'))).rows;
    expect(ponto).toMatchObject({
      UTM_E: row?.UTM_E.replace(',', '.'),
      UTM_N: row?.UTM_N.replace(',', '.'),
      ALTURA_CORRIGIDO: '12.5',
      POTENCIA_CORRIGIDO: '112.5',
      PLACA: 'PL-1001',
      FASE_CONSUMIDOR: 'ABC',
    });
  });

  it('filters LPT Agiltec by a date range that includes the whole end day in Brasília time', async () => {
    const dia21 = await recordCsv(
      'lpt-agiltec',
      { 'João de Tal': ['lpt5001'] },
      extrator('lpt-agiltec.csv', '?dataInicio=2026-11-21&dataFim=2026-11-21'),
    );
    // 23:30 of the end day is in; 00:30 of the next day is out.
    expect(dia21.rows.map((row) => row.ID)).toEqual([ids.lpt5001]);
    expect(dia21.rows[0]).toMatchObject({
      DATA: '21/11/2026 23:30:00',
      OS: '5001',
      NOME: 'Maria da Silva',
      CPF: '123.456.789-00',
      EMAIL: 'maria@example.com',
      TELEFONE_1: '(41) 99999-0001',
      PROPRIEDADE: 'Sítio Boa Vista',
      COMUNIDADE: 'Santa Rita',
      MUNICIPIO: 'Lapa',
      POLO: 'Polo Sul',
      REGIONAL: 'Curitiba',
      TELEFONE_ATUALIZADO: '(41) 98888-1234',
      EMAIL_ATUALIZADO: '',
      POSSUI_CASA: 'Sim',
      OBSERVACAO: 'Ação social',
      FOTOS: '0',
    });
    const dia22 = await csv(extrator('lpt-agiltec.csv', '?dataInicio=2026-11-22&dataFim=2026-11-22'));
    expect(dia22.rows.map((row) => [row.ID, row.DATA, row.NOME, row.POSSUI_CASA])).toEqual([
      [ids.lpt5002, '22/11/2026 00:30:00', 'José Souza', 'Em construção'],
    ]);
    expect((await csv(extrator('lpt-agiltec.csv', '?dataFim=2026-11-20'))).rows).toEqual([]);
    expect((await csv(extrator('lpt-agiltec.csv', '?dataInicio=2026-11-21'))).rows).toHaveLength(2);
  });

  it('serves each flow’s KML, which GDAL opens with one feature per collected record', async () => {
    const esperado: [string, string, number][] = [
      ['unidade', 'Unidades', 3],
      ['poste', 'Postes', 2],
      ['ip', 'Uso Mútuo/IP', 3],
      ['arvore', 'Vegetação', 3],
      ['lpt', 'LPT', 1],
      ['grupoa', 'Grupo A', 1],
      ['fiscalizacao', 'Fiscalização', 1],
      ['lptv2', 'LPT Agiltec', 2],
    ];
    for (const [apiPath, layer, features] of esperado) {
      const kml = await download(`/api/${apiPath}/${projeto._id}/kml`);
      expect(ogr(`${apiPath}.kml`, kml), apiPath).toEqual([{ name: layer, features }]);
    }
    // By the project's name too (SPEC.md 7 '{project}'), and by date range.
    const porNome = await download(`/api/unidade/${encodeURIComponent('Expansão Centro')}/kml`);
    const unidades = ogrFeatures(scratch.write('por-nome.kml', porNome), 'Unidades');
    expect(unidades.map((feature) => feature.Name)).toEqual(['10', '12', '200']);
    // The KML is no spreadsheet: what was typed is kept as typed, accents included.
    expect(unidades.map((feature) => feature.OBSERVACAO ?? '')).toEqual(['=HYPERLINK("x")', 'Ação', '']);
    const [lng, lat] = (unidades[0]?.POINT ?? '').split(' ').map(Number);
    expect([lat, lng]).toEqual([lugar(2).lat, lugar(2).lng]);
    const arvores22 = await download(
      `/api/arvore/${projeto._id}/kml?dataInicio=2026-11-22&dataFim=2026-11-22`,
    );
    expect(ogr('arvores-22.kml', arvores22)).toEqual([{ name: 'Vegetação', features: 1 }]);
  });

  it('serves BDGD as a zip holding {projeto}.kml and {projeto}.csv', async () => {
    const zip = scratch.write('bdgd.zip', await download(`/api/bdgd/${projeto._id}/kml`));
    expect(
      unzipList(zip)
        .map((entry) => entry.name)
        .sort(),
    ).toEqual(['Expansão Centro.csv', 'Expansão Centro.kml']);
    const kml = unzipEntry(zip, 'Expansão Centro.kml');
    expect(ogr('bdgd.kml', kml)).toEqual([{ name: 'BDGD', features: 2 }]);
    const inside = parseCsv(unzipEntry(zip, 'Expansão Centro.csv'));
    expect(inside.bom).toBe(true);
    expect(inside.headers).toEqual(HEADERS.bdgd);
    expect(inside.rows).toEqual((await csv(extrator('bdgd.csv'))).rows);
  });

  it('zips the photos as {flow}/{record}/{n}.jpg, one entry per photo, with the uploaded bytes', async () => {
    const zip = scratch.write('fotos.zip', await download(extrator('fotos.zip')));
    const entries = unzipList(zip);
    expect(entries.map((entry) => entry.name).sort()).toEqual(
      [
        `Unidade/${ids.unidade1}/1.jpg`,
        `Unidade/${ids.unidade1}/2.jpg`,
        `Unidade/${ids.unidade3}/1.jpg`,
        `Poste/${ids.poste1}/1.jpg`,
        `Uso Mútuo - IP/${ids.ip1}/1.jpg`,
        `Grupo A/${ids.grupoA1}/1.jpg`,
      ].sort(),
    );
    expect(entries.every((entry) => entry.size === 2048)).toBe(true);
    const segunda = unzipEntry(zip, `Unidade/${ids.unidade1}/2.jpg`);
    expect(segunda.equals(fotos.unidade1?.[1] ?? Buffer.alloc(0))).toBe(true);
    const doIp = unzipEntry(zip, `Uso Mútuo - IP/${ids.ip1}/1.jpg`);
    expect(doIp.equals(fotos.ip1?.[0] ?? Buffer.alloc(0))).toBe(true);

    const dia21 = scratch.write('fotos-21.zip', await download(extrator('fotos.zip', '?dataFim=2026-11-21')));
    expect(unzipList(dia21)).toHaveLength(6);
  });

  it('reports a technician’s day: counts per flow, a CSV across flows and a KML with one layer per flow', async () => {
    const relatorio = await get(`/api/relatorio/${projeto._id}?data=2026-11-21`);
    expect(relatorio.statusCode).toBe(200);
    const dia: RelatorioTecnico[] = relatorio.json();
    expect(dia).toEqual([
      {
        tecnico: { id: joao.id, nome: 'João de Tal' },
        contagens: { hc: 3, poste: 2, ip: 1, arvore: 2, lpt: 1, bdgd: 2, fiscalizacao: 1, lpt2: 1 },
        total: 13,
        csv: `/api/relatorio/${projeto._id}/${joao.id}.csv?data=2026-11-21`,
        kml: `/api/relatorio/${projeto._id}/${joao.id}.kml?data=2026-11-21`,
      },
      {
        tecnico: { id: maria.id, nome: 'Maria de Tal' },
        contagens: { ip: 2, grupoA: 1 },
        total: 3,
        csv: `/api/relatorio/${projeto._id}/${maria.id}.csv?data=2026-11-21`,
        kml: `/api/relatorio/${projeto._id}/${maria.id}.kml?data=2026-11-21`,
      },
    ]);

    const file = await csv(dia[0]?.csv ?? '');
    expect(file.bom).toBe(true);
    expect(file.headers).toEqual(['FLUXO', ...BASE]);
    const nomes = [
      'poste1',
      'poste2',
      'unidade1',
      'unidade2',
      'unidade3',
      'arvore1',
      'arvore2',
      'ip1',
      'lpt1',
      'bdgd7',
      'bdgdNovo',
      'fiscalizacao1',
      'lpt5001',
    ];
    expect(file.rows.map((row) => row.ID)).toEqual(nomes.map((nome) => ids[nome]));
    expect(file.rows.map((row) => row.FLUXO)).toEqual([
      'Poste',
      'Poste',
      'Unidade',
      'Unidade',
      'Unidade',
      'Vegetação',
      'Vegetação',
      'Uso Mútuo / IP',
      'LPT',
      'BDGD',
      'BDGD',
      'Fiscalização',
      'LPT Agiltec',
    ]);
    expectBase(file.rows, tecnicoDe(nomes, 'João de Tal'));

    const kml = await download(dia[0]?.kml ?? '');
    expect(ogr('joao-21.kml', kml)).toEqual([
      { name: 'Unidades', features: 3 },
      { name: 'Postes', features: 2 },
      { name: 'Uso Mútuo/IP', features: 1 },
      { name: 'Vegetação', features: 2 },
      { name: 'LPT', features: 1 },
      { name: 'Grupo A', features: 0 },
      { name: 'BDGD', features: 2 },
      { name: 'Fiscalização', features: 1 },
      { name: 'LPT Agiltec', features: 1 },
    ]);
    const daMaria = await download(dia[1]?.kml ?? '');
    expect(
      ogr('maria-21.kml', daMaria)
        .filter((layer) => layer.features > 0)
        .map((layer) => [layer.name, layer.features]),
    ).toEqual([
      ['Uso Mútuo/IP', 2],
      ['Grupo A', 1],
    ]);
  });

  it('measures productivity per technician and day: counts, first and last, median precision, photos', async () => {
    const response = await get(`/api/relatorio/${projeto._id}/produtividade`);
    expect(response.statusCode).toBe(200);
    const linhas: Produtividade[] = response.json();
    expect(linhas).toEqual([
      {
        tecnico: { id: joao.id, nome: 'João de Tal' },
        data: '2026-11-21',
        contagens: { hc: 3, poste: 2, ip: 1, arvore: 2, lpt: 1, bdgd: 2, fiscalizacao: 1, lpt2: 1 },
        total: 13,
        primeiro: local(21, 8),
        ultimo: local(21, 23, 30),
        // 2, 3, 4, 5, 6 and 8 m: the records sent without precision do not count.
        precisaoMediana: 4.5,
        // poste1, unidade1, unidade3 and ip1 hold a photo.
        fotosCompletas: expect.closeTo(4 / 13, 6),
      },
      {
        tecnico: { id: maria.id, nome: 'Maria de Tal' },
        data: '2026-11-21',
        contagens: { ip: 2, grupoA: 1 },
        total: 3,
        primeiro: local(21, 14),
        ultimo: local(21, 15),
        precisaoMediana: 10,
        fotosCompletas: expect.closeTo(1 / 3, 6),
      },
      {
        tecnico: { id: maria.id, nome: 'Maria de Tal' },
        data: '2026-11-22',
        contagens: { arvore: 1, lpt2: 1 },
        total: 2,
        primeiro: local(22, 0, 30),
        ultimo: local(22, 8),
        precisaoMediana: null,
        fotosCompletas: 0,
      },
    ]);
    const dia22: Produtividade[] = (
      await get(`/api/relatorio/${projeto._id}/produtividade?dataInicio=2026-11-22&dataFim=2026-11-22`)
    ).json();
    expect(dia22.map((linha) => [linha.tecnico.nome, linha.data, linha.total])).toEqual([
      ['Maria de Tal', '2026-11-22', 2],
    ]);

    const file = await csv(`/api/relatorio/${projeto._id}/produtividade.csv`);
    expect(file.bom).toBe(true);
    expect(file.headers).toEqual([
      'TECNICO',
      'DATA',
      'UNIDADE',
      'POSTE',
      'USO MÚTUO / IP',
      'VEGETAÇÃO',
      'LPT',
      'GRUPO A',
      'BDGD',
      'FISCALIZAÇÃO',
      'LPT AGILTEC',
      'TOTAL',
      'PRIMEIRO',
      'ULTIMO',
      'PRECISAO_MEDIANA_M',
      'FOTOS_COMPLETAS_PCT',
    ]);
    expect(file.rows[0]).toEqual({
      TECNICO: 'João de Tal',
      DATA: '21/11/2026',
      UNIDADE: '3',
      POSTE: '2',
      'USO MÚTUO / IP': '1',
      VEGETAÇÃO: '2',
      LPT: '1',
      'GRUPO A': '0',
      BDGD: '2',
      FISCALIZAÇÃO: '1',
      'LPT AGILTEC': '1',
      TOTAL: '13',
      PRIMEIRO: '08:00',
      ULTIMO: '23:30',
      PRECISAO_MEDIANA_M: '4,5',
      FOTOS_COMPLETAS_PCT: '31',
    });
  });

  it('without a fuso: the summary says why and offers no record CSV, which answers 422', async () => {
    const resumo: Extracao = (await get(`/api/extrator/${semFuso._id}`)).json();
    expect(resumo.erro).toMatch(/fuso/);
    expect(resumo.csv.map((file) => file.id)).toEqual(['vegetacao-producao']);
    expect(resumo.kml.map((file) => [file.id, file.registros])).toEqual([
      ['unidade', 1],
      ['arvore', 1],
    ]);
    for (const arquivo of ['unidades.csv', 'vegetacao.csv']) {
      const response = await get(`/api/extrator/${semFuso._id}/${arquivo}`);
      expect(response.statusCode, arquivo).toBe(422);
      expect(response.json().message).toBe(resumo.erro);
    }
    const tecnicoDia = await get(`/api/relatorio/${semFuso._id}/${joao.id}.csv?data=2026-11-21`);
    expect(tecnicoDia.statusCode).toBe(422);
    expect(tecnicoDia.json().message).toMatch(/fuso/);
    // What needs no UTM still works: production, and the KML (which reads latitude and longitude).
    expect((await csv(`/api/extrator/${semFuso._id}/vegetacao-producao.csv`)).rows).toEqual([
      { TECNICO: 'João de Tal', DATA: '21/11/2026', QUANTIDADE: '1' },
    ]);
    const kml = await download(`/api/unidade/${semFuso._id}/kml`);
    expect(ogr('sem-fuso.kml', kml)).toEqual([{ name: 'Unidades', features: 1 }]);
  });

  it('refuses bad dates, unknown files and unknown projects with Portuguese messages', async () => {
    const p = projeto._id;
    const casos: [string, number, RegExp][] = [
      [`/api/extrator/${p}?dataInicio=21/11/2026`, 400, /Data inicial inválida/],
      [`/api/extrator/${p}/unidades.csv?dataFim=2026-13-45`, 400, /Data final inválida/],
      [`/api/unidade/${p}/kml?dataInicio=ontem`, 400, /Data inicial inválida/],
      [`/api/relatorio/${p}?data=21-11-2026`, 400, /Data inválida/],
      [`/api/relatorio/${p}`, 400, /Data inválida/],
      [`/api/relatorio/${p}/${joao.id}.kml?data=amanhã`, 400, /Data inválida/],
      [
        `/api/extrator/${p}?dataInicio=2026-11-22&dataFim=2026-11-21`,
        400,
        /^A data inicial deve ser anterior ou igual à data final\.$/,
      ],
      [
        `/api/extrator/${p}/postes.csv?dataInicio=2026-11-22&dataFim=2026-11-21`,
        400,
        /data inicial deve ser anterior/,
      ],
      [`/api/extrator/${p}/ip.csv?tecnico=joao`, 400, /Técnico inválido/],
      [`/api/extrator/${p}/nada.csv`, 404, /Arquivo de exportação não encontrado/],
      [`/api/extrator/${p}/unidades.xlsx`, 404, /Arquivo de exportação não encontrado/],
      [`/api/relatorio/${p}/nada.pdf?data=2026-11-21`, 404, /não encontrado/],
      [`/api/extrator/${crypto.randomUUID()}`, 404, /Projeto não encontrado/],
      [`/api/extrator/nao-e-um-id`, 400, /inválido/],
      [`/api/poste/Projeto Que Nao Existe/kml`, 404, /Projeto não encontrado/],
    ];
    for (const [url, status, message] of casos) {
      const response = await get(url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
      expect(response.json().message, url).toMatch(message);
    }
  });

  it('refuses a day that does not exist in the calendar (30 February) with a 400, not a database error', async () => {
    for (const url of [
      `/api/extrator/${projeto._id}?dataInicio=2026-02-30`,
      `/api/extrator/${projeto._id}/unidades.csv?dataFim=2026-02-30`,
      `/api/relatorio/${projeto._id}?data=2026-02-31`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
      expect(response.json().message, url).toMatch(/inválida/);
    }
  });

  it('lets no one but the project’s supervisors and administrators download: 403 elsewhere, 401 without a session', async () => {
    const p = projeto._id;
    const rotas = [
      `/api/projeto/${p}/datas`,
      `/api/extrator/${p}`,
      `/api/extrator/${p}?dataInicio=2026-11-21&dataFim=2026-11-21`,
      ...FLOWS.flatMap((flow) => flow.exports.csv.map((file) => extrator(`${file.id}.csv`))),
      extrator('ip.csv', `?tecnico=${joao.id}`),
      ...FLOWS.map((flow) => `/api/${flow.apiPath}/${p}/kml`),
      `/api/unidade/${encodeURIComponent(projeto.nome)}/kml`,
      extrator('fotos.zip'),
      `/api/relatorio/${p}?data=2026-11-21`,
      `/api/relatorio/${p}/produtividade`,
      `/api/relatorio/${p}/produtividade.csv`,
      `/api/relatorio/${p}/${joao.id}.csv?data=2026-11-21`,
      `/api/relatorio/${p}/${joao.id}.kml?data=2026-11-21`,
    ];
    expect(rotas).toHaveLength(3 + 11 + 1 + 9 + 1 + 1 + 5);
    for (const url of rotas) {
      const outro = await get(url, supervisorOutro);
      expect(outro.statusCode, `other client's supervisor: ${url}`).toBe(403);
      expect(outro.json().message).toBe('Usuario nao tem permissao para esse recurso');
      const tecnico = await get(url, tecnicoCookie);
      expect(tecnico.statusCode, `technician: ${url}`).toBe(403);
      const anonimo = await get(url, null);
      expect(anonimo.statusCode, `no session: ${url}`).toBe(401);
      expect(anonimo.json().message).toMatch(/login/);
      // The project's own supervisor gets the file.
      expect((await get(url)).statusCode, `supervisor: ${url}`).toBe(200);
    }
  });

  // Runs last: it changes the project without fuso.
  it('keeps a flow unticked after collecting in the technician’s day files, as the day report counts it', async () => {
    await editarSemFuso('', ['hc']);
    const resumo: Extracao = (await get(`/api/extrator/${semFuso._id}`)).json();
    expect(resumo.kml.map((file) => [file.id, file.registros])).toEqual([
      ['unidade', 1],
      ['arvore', 1],
    ]);
    const [dia]: RelatorioTecnico[] = (await get(`/api/relatorio/${semFuso._id}?data=2026-11-21`)).json();
    expect(dia).toMatchObject({ contagens: { hc: 1, arvore: 1 }, total: 2 });
    const kml = await download(dia?.kml ?? '');
    expect(ogr('desmarcado.kml', kml)).toEqual([
      { name: 'Unidades', features: 1 },
      { name: 'Vegetação', features: 1 },
    ]);
  });

  // Runs after the one above: it gives the project without fuso one, then another (migration 0006's triggers).
  it('fills in the stored UTM when a project gains a fuso, and recomputes it when the fuso changes', async () => {
    const unidade = enviados.get(ids.semFusoUnidade ?? '');
    if (!unidade) throw new Error('semFusoUnidade was not sent');
    for (const fuso of [22, 23]) {
      await editarSemFuso(String(fuso), ['hc']);
      const [[easting, northing] = []] = cs2csUtm([unidade], fuso);
      const [row] = (await csv(`/api/extrator/${semFuso._id}/unidades.csv`)).rows;
      expect(row?.ID).toBe(ids.semFusoUnidade);
      expectUtm(row?.UTM_E, easting, `UTM_E in fuso ${fuso}`);
      expectUtm(row?.UTM_N, northing, `UTM_N in fuso ${fuso}`);
    }
  });

  // Runs last: it rewrites a unit's observation.
  it('writes KML text as XML: markup and ampersands escaped, line breaks kept, forbidden control characters dropped, photos linked', async () => {
    const observacao = 'Portão <azul> & "grade"\nsegunda linha\u0001\u0002';
    await ctx.db.query(
      `UPDATE registros SET dados = jsonb_set(dados, '{observacao}', to_jsonb($2::text)) WHERE id = $1`,
      [ids.unidade2, observacao],
    );
    const kml = await download(`/api/unidade/${projeto._id}/kml`);
    const text = kml.toString('utf8');
    expect(text).toContain(
      '<SimpleData name="OBSERVACAO">Portão &lt;azul&gt; &amp; "grade"&#10;segunda linha</SimpleData>',
    );
    // Every column is in the layer's schema; an empty value is left out of its placemark, as GDAL writes a null.
    expect(text).toContain('<SimpleField name="COMPLEMENTO_NUMERO" type="string"/>');
    expect(text).not.toMatch(/<SimpleData name="\w+"><\/SimpleData>/);
    expect(text.includes('\u0001') || text.includes('\u0002')).toBe(false);
    const features = ogrFeatures(scratch.write('escape.kml', kml), 'Unidades');
    expect(features.map((feature) => feature.Name)).toEqual(['10', '12', '200']);
    expect(features[1]?.OBSERVACAO).toBe('Portão <azul> & "grade"');
    expect(features[2]?.COMPLEMENTO_NUMERO).toBeUndefined();
    // unidade1 has two photos: its description links them, absolute, by record and slot.
    const link = (slot: number, n: number) =>
      `&lt;a href="http://localhost:80/api/fotos/${ids.unidade1}/${slot}"&gt;Foto ${n}&lt;/a&gt;`;
    expect(text).toContain(`<name>10</name><description>${link(0, 1)}&lt;br/&gt;${link(1, 2)}</description>`);
    // Slots with a gap are numbered in order; a record without photos has no description.
    await ctx.db.query(`UPDATE registros SET fotos_slots = '{0,2}' WHERE id = $1`, [ids.unidade1]);
    const gap = (await download(`/api/unidade/${projeto._id}/kml`)).toString('utf8');
    await ctx.db.query(`UPDATE registros SET fotos_slots = '{0,1}' WHERE id = $1`, [ids.unidade1]);
    expect(gap).toContain(`<name>10</name><description>${link(0, 1)}&lt;br/&gt;${link(2, 2)}</description>`);
    expect(gap).toContain('<name>12</name><styleUrl>');
    expect(features[0]?.description).toBe(
      `<a href="http://localhost:80/api/fotos/${ids.unidade1}/0">Foto 1</a><br/><a href="http://localhost:80/api/fotos/${ids.unidade1}/1">Foto 2</a>`,
    );

    // Each character alone: what XML needs sends the record down the careful path (texto_xml, migration 0017);
    // quotes, backslashes and tabs, which JSON escapes too, do not, and come out as typed.
    const cases: [typed: string, careful: boolean, written: string | null][] = [
      ['Portão "azul"', false, 'Portão "azul"'],
      ['C:\\Usuarios\\casa', false, 'C:\\Usuarios\\casa'],
      // A backslash typed before an n, f, r, b or u is a false alarm: careful, and still as typed.
      ['C:\\fotos\\nova', true, 'C:\\fotos\\nova'],
      ['grade\tverde', false, 'grade\tverde'],
      ['linha\nsegunda', true, 'linha&#10;segunda'],
      ['a\rb', true, 'a&#13;b'],
      ['x\u0001y\u001fz\u0007', true, 'xyz'],
      ['sino\bfolha\f', true, 'sinofolha'],
      ['\u0001\u0002', true, null],
      ['R&D <1>', true, 'R&amp;D &lt;1&gt;'],
    ];
    for (const [typed, careful, written] of cases) {
      const [row] = await ctx.db.query<{ texto_xml: boolean }>(
        `UPDATE registros SET dados = jsonb_set(dados, '{observacao}', to_jsonb($2::text)) WHERE id = $1
          RETURNING texto_xml`,
        [ids.unidade2, typed],
      );
      expect(row?.texto_xml, JSON.stringify(typed)).toBe(careful);
      const placemark = (await download(`/api/unidade/${projeto._id}/kml`))
        .toString('utf8')
        .split('\n')
        .find((line) => line.includes(`>${ids.unidade2}<`) || line.includes('<name>12</name>'));
      if (written === null) expect(placemark, JSON.stringify(typed)).not.toContain('name="OBSERVACAO"');
      else
        expect(placemark, JSON.stringify(typed)).toContain(
          `<SimpleData name="OBSERVACAO">${written}</SimpleData>`,
        );
    }
  });
});
