// The supervisor's Extrator and Relatórios screens (SPEC.md 2 'Extractor', 'Reports screen'): their page models,
// the records a technician uploads for them through the API, and how the downloaded files are opened and read.
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import {
  type APIRequestContext,
  type Download,
  expect,
  type Locator,
  type Page,
  request,
} from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { createCliente, createUser, unique } from './api';
import { type CollectWorld, setUpWorld, TECNICO_PASSWORD } from './collect-setup';
import { BASE_URL } from './env';
import { fakeJpeg } from '../../server/test/support/multipart';

// ——— page models ———

/** A day as the selects show it. */
const DIA = String.raw`\d{2}/\d{2}/\d{4}`;

/** What both screens share: the 'Projeto' select, selects of days, titled sections, download links. */
class ExportScreen {
  readonly heading: Locator;
  readonly projeto: Locator;

  constructor(
    readonly page: Page,
    title: string,
  ) {
    this.heading = page.getByRole('heading', { name: title, level: 1 });
    this.projeto = this.combobox('Projeto');
  }

  /**
   * The select labelled `label`: a MUI select is named by its label then its current value ('Projeto Campo x',
   * 'Data inicial 10/03/2026'), so `value` tells 'Data' from 'Data inicial'.
   */
  combobox(label: string, value = '.*', scope: Page | Locator = this.page): Locator {
    return scope.getByRole('combobox', { name: new RegExp(`^${label}(?:\\s+${value})?\\s*$`) });
  }

  /** The options of an open select. */
  get options(): Locator {
    return this.page.getByRole('listbox').getByRole('option');
  }

  /** Opens `select`, picks `option` and waits for the select to show it. */
  async choose(select: Locator, option: string): Promise<void> {
    await select.click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
    await expect(this.page.getByRole('listbox')).toBeHidden();
    await expect(select).toContainText(option);
  }

  /** The options `select` offers, as shown, then closes it again. */
  async optionsOf(select: Locator): Promise<string[]> {
    await select.click();
    await expect(this.options.first()).toBeVisible();
    const texts = await this.options.allInnerTexts();
    await this.page.keyboard.press('Escape');
    await expect(this.page.getByRole('listbox')).toBeHidden();
    return texts.map((text) => text.trim());
  }

  async chooseProjeto(nome: string): Promise<void> {
    await this.choose(this.projeto, nome);
  }

  /** A titled block ('KML', 'CSV', 'Fotos', 'Produtividade'). */
  section(title: string): Locator {
    return this.page.getByRole('region', { name: title, exact: true });
  }

  get noData(): Locator {
    return this.page.getByText('Não há dados a serem exibidos', { exact: true });
  }
}

export class ExtratorScreen extends ExportScreen {
  readonly dataInicial: Locator;
  readonly dataFinal: Locator;
  readonly kml: Locator;
  readonly csv: Locator;
  readonly fotos: Locator;

  constructor(page: Page) {
    super(page, 'Extrator');
    this.dataInicial = this.combobox('Data inicial', DIA);
    this.dataFinal = this.combobox('Data final', DIA);
    this.kml = this.section('KML');
    this.csv = this.section('CSV');
    this.fotos = this.section('Fotos');
  }

  /** The download link of a file in a section: 'Unidades (4)'. */
  arquivo(section: Locator, label: string, registros: number): Locator {
    return section.getByRole('link', { name: `${label} (${registros})`, exact: true });
  }
}

export class RelatorioScreen extends ExportScreen {
  readonly data: Locator;
  readonly produtividade: Locator;
  readonly produtividadeTable: Locator;
  readonly chart: Locator;
  readonly legenda: Locator;
  readonly baixarCsv: Locator;
  readonly produtividadeInicial: Locator;
  readonly produtividadeFinal: Locator;

  constructor(page: Page) {
    super(page, 'Relatórios');
    this.data = this.combobox('Data', DIA);
    this.produtividade = this.section('Produtividade');
    this.produtividadeTable = this.produtividade.getByRole('table', {
      name: 'Produtividade por técnico e dia',
    });
    this.chart = this.produtividade.getByRole('img', { name: /^Registros por dia e por técnico/ });
    this.legenda = this.produtividade.getByRole('list', { name: 'Legenda' });
    this.baixarCsv = this.produtividade.getByRole('link', { name: 'Baixar CSV' });
    this.produtividadeInicial = this.combobox('Data inicial', DIA, this.produtividade);
    this.produtividadeFinal = this.combobox('Data final', DIA, this.produtividade);
  }

  /** 'Técnicos em 11/03/2026' and its table. */
  tecnicos(dia: string): Locator {
    return this.section(`Técnicos em ${dia}`);
  }

  tecnicosTable(dia: string): Locator {
    return this.tecnicos(dia).getByRole('table', { name: `Registros por técnico em ${dia}` });
  }

  /** A table's row headed by a technician's name. */
  row(table: Locator, nome: string): Locator {
    return table
      .getByRole('row')
      .filter({ has: this.page.getByRole('rowheader', { name: nome, exact: true }) });
  }
}

/** Clicks a download link and saves the file at `outputPath(the name the browser would give it)`. */
export async function download(
  page: Page,
  link: Locator,
  outputPath: (name: string) => string,
): Promise<{ file: string; download: Download }> {
  const [started] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const file = outputPath(started.suggestedFilename());
  await started.saveAs(file);
  expect(await started.failure()).toBeNull();
  return { file, download: started };
}

// ——— the downloaded files ———

/** A `;` CSV as the exports write it: the BOM (kept, so a test can see it), then rows of named columns. */
export function readCsv(file: string): { bom: boolean; rows: Record<string, string>[]; headers: string[] } {
  const text = fs.readFileSync(file, 'utf8');
  const bom = text.startsWith('\uFEFF');
  const [headers = [], ...lines] = parse(bom ? text.slice(1) : text, {
    delimiter: ';',
    skip_empty_lines: true,
  }) as string[][];
  const rows = lines.map((line) => Object.fromEntries(headers.map((header, i) => [header, line[i] ?? ''])));
  return { bom, rows, headers };
}

/** Each layer GDAL reads in the file and its feature count (`ogrinfo -ro -al -so`). */
export function ogrLayers(file: string): Record<string, number> {
  const out = execFileSync('ogrinfo', ['-ro', '-al', '-so', file], { encoding: 'utf8' });
  const layers: Record<string, number> = {};
  let layer: string | undefined;
  for (const line of out.split('\n')) {
    const name = /^Layer name: (.*)$/.exec(line);
    if (name) layer = name[1]?.trim();
    const count = /^Feature Count: (\d+)$/.exec(line);
    if (count && layer !== undefined) layers[layer] = Number(count[1]);
  }
  return layers;
}

/** The entries of a zip as `unzip -l` lists them (directories left out). */
export function zipEntries(file: string): string[] {
  const out = execFileSync('unzip', ['-l', file], {
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C.UTF-8' },
  });
  const entries: string[] = [];
  for (const line of out.split('\n')) {
    const entry = /^\s*\d+\s+\d{2,4}-\d{2}-\d{2,4}\s+\d{2}:\d{2}\s+(.+)$/.exec(line);
    if (entry?.[1] && !entry[1].endsWith('/')) entries.push(entry[1].trim());
  }
  return entries;
}

// ——— the world: a project, its technicians' records on two days, supervisors ———

export const SUPERVISOR_PASSWORD = 'supervisor-e2e-senha';
/** The two days of the records (America/Sao_Paulo, UTC−3): as the routes take them and as the screens show them. */
export const DIA_1 = { iso: '2026-03-10', tela: '10/03/2026' } as const;
export const DIA_2 = { iso: '2026-03-11', tela: '11/03/2026' } as const;

/** An instant of a day at a São Paulo local hour. */
const at = (dia: { iso: string }, hora: number, minuto = 0) =>
  Date.parse(`${dia.iso}T${String(hora).padStart(2, '0')}:${String(minuto).padStart(2, '0')}:00-03:00`);

/** An API session of a user (its own cookie). */
export async function apiAs(login: string, password: string): Promise<APIRequestContext> {
  const context = await request.newContext({ baseURL: BASE_URL });
  const response = await context.post('/api/auth/login', { data: { login, password } });
  expect(response.ok(), await response.text()).toBe(true);
  return context;
}

interface Registro {
  apiPath: 'unidade' | 'poste' | 'arvore';
  dataHora: number;
  fields: Record<string, string>;
  fotos: number;
  precisao?: number;
}

/** POST /api/{flow} as the app sends a record: the envelope and fields, then its photos under 'fotos' by slot. */
export async function uploadRecord(
  tecnico: APIRequestContext,
  projeto: string,
  registro: Registro,
): Promise<string> {
  const id = crypto.randomUUID();
  const form = new FormData();
  const envelope: Record<string, string> = {
    id,
    projeto,
    coordenadas: JSON.stringify({
      lat: -25.435 + Math.random() * 0.004 - 0.002,
      lng: -49.275 + Math.random() * 0.004 - 0.002,
    }),
    dataHora: String(registro.dataHora),
    ...(registro.precisao === undefined ? {} : { precisao: String(registro.precisao) }),
  };
  for (const [name, value] of Object.entries({ ...envelope, ...registro.fields })) form.append(name, value);
  for (let slot = 0; slot < registro.fotos; slot += 1) {
    form.append('fotos', new Blob([new Uint8Array(fakeJpeg())], { type: 'image/jpeg' }), `${slot}.jpg`);
  }
  const response = await tecnico.post(`/api/${registro.apiPath}`, { multipart: form });
  expect(response.status(), await response.text()).toBe(201);
  return id;
}

const unidade = (numero: string, observacao: string) => ({
  tipoUnidade: 'SDU',
  tipoEdificacao: 'Residencial',
  tipoImovel: 'RESIDENCIAL',
  numero,
  quantidade: '1',
  observacao,
});
const poste = (observacao: string) => ({
  tipo: 'CONCRETO DUPLO T',
  altura: '10',
  carga: '300',
  tipoRedeEletrica: 'MISTA',
  aterramento: 'true',
  equipamentoRedeEnergia: 'NAO POSSUI',
  observacao,
});
const arvore = (fenotipo: string) => ({
  contatoRede: 'Baixa Tensão',
  projecaoRede: '',
  distanciaRedeBT: '50',
  diametroTronco: '30',
  fenotipo,
  altura: '6',
  observacao: '',
});

/** Texts a supervisor opens the CSV for: accents kept, a formula neutralised. */
export const OBSERVACAO_ACENTOS = 'Ação de poda; "urgente"';
export const OBSERVACAO_FORMULA = '=HYPERLINK("http://exemplo.invalido","clique")';

export interface ExtratorWorld extends CollectWorld {
  /** The second technician, in the same zone. */
  tecnico2: { login: string; nome: string };
  supervisor: { login: string; nome: string };
  /** A supervisor of another client, with a project of their own. */
  outroSupervisor: { login: string; nome: string; projetoNome: string };
}

/**
 * The collection world (fuso 22, the Curitiba zones, 'Paula Campos' in Zona Centro) with flows hc, poste, ip and
 * arvore, a second technician 'Álvaro Ribeiro', a supervisor of the client, and these records:
 *
 * | day        | Paula Campos                                              | Álvaro Ribeiro        |
 * |------------|-----------------------------------------------------------|-----------------------|
 * | 10/03/2026 | 2 unidades (2 + 1 photos), 1 poste (1 photo), 1 árvore    | —                     |
 * | 11/03/2026 | 1 unidade (1 photo), 1 poste, 1 árvore (1 photo)          | 1 unidade (1), 1 poste|
 *
 * so 4 unidades, 3 postes, 2 árvores and 7 photos in all; 2, 2, 1 and 3 on the 11th.
 */
export async function setUpExtratorWorld(): Promise<ExtratorWorld> {
  const world = await setUpWorld({ fluxos: 'hc,poste,ip,arvore' });
  const { admin, projetoId, zonaId } = world;
  const detail = (await (await admin.get(`/api/projeto/${projetoId}`)).json()) as { cliente: string };

  const tecnico2 = { login: unique('campo2').replace(' ', '-'), nome: 'Álvaro Ribeiro' };
  await createUser(admin, {
    login: tecnico2.login,
    password: TECNICO_PASSWORD,
    firstName: 'Álvaro',
    lastName: 'Ribeiro',
    roles: ['tecnico'],
    cliente: detail.cliente,
    ...{ zonas: [zonaId] },
  });
  const supervisor = { login: unique('sup').replace(' ', '-'), nome: 'Sara Lima' };
  await createUser(admin, {
    login: supervisor.login,
    password: SUPERVISOR_PASSWORD,
    firstName: 'Sara',
    lastName: 'Lima',
    roles: ['supervisor'],
    cliente: detail.cliente,
  });

  const outroCliente = await createCliente(admin, unique('Cliente Outro'));
  const outroProjeto = unique('Projeto Outro');
  const created = await admin.post('/api/projeto', {
    form: {
      nome: outroProjeto,
      cliente: outroCliente,
      fluxos: 'hc',
      fuso: '22',
      disponivelInterpres: 'false',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const outroSupervisor = {
    login: unique('sup-outro').replace(' ', '-'),
    nome: 'Otávio Souza',
    projetoNome: outroProjeto,
  };
  await createUser(admin, {
    login: outroSupervisor.login,
    password: SUPERVISOR_PASSWORD,
    firstName: 'Otávio',
    lastName: 'Souza',
    roles: ['supervisor'],
    cliente: outroCliente,
  });

  const paula = await apiAs(world.tecnico.login, TECNICO_PASSWORD);
  const alvaro = await apiAs(tecnico2.login, TECNICO_PASSWORD);
  try {
    const registros: [APIRequestContext, Registro][] = [
      [
        paula,
        {
          apiPath: 'unidade',
          dataHora: at(DIA_1, 9, 10),
          fields: unidade('101', OBSERVACAO_ACENTOS),
          fotos: 2,
          precisao: 4,
        },
      ],
      [
        paula,
        {
          apiPath: 'unidade',
          dataHora: at(DIA_1, 9, 40),
          fields: unidade('102', OBSERVACAO_FORMULA),
          fotos: 1,
          precisao: 6,
        },
      ],
      [
        paula,
        {
          apiPath: 'poste',
          dataHora: at(DIA_1, 10, 5),
          fields: poste('Poste inclinado'),
          fotos: 1,
          precisao: 5,
        },
      ],
      [paula, { apiPath: 'arvore', dataHora: at(DIA_1, 16, 30), fields: arvore('Ipê-amarelo'), fotos: 0 }],
      [
        paula,
        {
          apiPath: 'unidade',
          dataHora: at(DIA_2, 8, 15),
          fields: unidade('103', 'Portão azul'),
          fotos: 1,
          precisao: 3,
        },
      ],
      [paula, { apiPath: 'poste', dataHora: at(DIA_2, 11, 0), fields: poste(''), fotos: 0 }],
      [paula, { apiPath: 'arvore', dataHora: at(DIA_2, 14, 45), fields: arvore('Araucária'), fotos: 1 }],
      [
        alvaro,
        { apiPath: 'unidade', dataHora: at(DIA_2, 10, 0), fields: unidade('201', ''), fotos: 1, precisao: 8 },
      ],
      [alvaro, { apiPath: 'poste', dataHora: at(DIA_2, 10, 20), fields: poste(''), fotos: 0 }],
    ];
    for (const [tecnico, registro] of registros) await uploadRecord(tecnico, projetoId, registro);
  } finally {
    await paula.dispose();
    await alvaro.dispose();
  }
  return { ...world, tecnico2, supervisor, outroSupervisor };
}
