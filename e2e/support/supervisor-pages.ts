// The supervisor's map, 'Supervisão de Projetos' (SPEC.md 2 'Supervisor'): its page model, the canvas pixels
// of its points, and a project with points in every layer (units, poles, IP preloaded and collected, Grupo A,
// BDGD preloaded) uploaded through the API as a technician.
import crypto from 'node:crypto';
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { createUser, unique } from './api';
import { type CollectWorld, makeJpeg, setUpWorld, TECNICO_PASSWORD } from './collect-setup';
import { apiAs, SUPERVISOR_PASSWORD } from './extrator-pages';

// ——— page model ———

export type Fluxo = 'hc' | 'poste' | 'ip' | 'grupoA' | 'bdgd';

/** The layers' colours (web/src/backoffice/supervisor/layers.ts) as RGB. */
export const LAYER_RGB: Record<Fluxo, [number, number, number]> = {
  hc: [0x15, 0x65, 0xc0],
  poste: [0xc6, 0x28, 0x28],
  ip: [0x2e, 0x7d, 0x32],
  grupoA: [0x6a, 0x1b, 0x9a],
  bdgd: [0x00, 0xbc, 0xd4],
};

/** A filled point is its colour at the centre; a hollow one is a ring of radius 5.5 (2.5 px wide), clear inside. */
export const RING_OFFSET = 5.5;

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** window.__novusSupervisor (web/src/backoffice/supervisor/SupervisorMap.tsx). */
interface TestHook {
  pointPixel: (fluxo: string, index: number) => { x: number; y: number } | null;
  pointId: (fluxo: string, index: number) => string | null;
  clusterPixels: () => { fluxo: string; count: number; x: number; y: number }[];
  pointPixels: () => { fluxo: string; index: number; x: number; y: number }[];
}

export class SupervisorScreen {
  readonly heading: Locator;
  readonly projeto: Locator;
  readonly map: Locator;
  readonly clusterizar: Locator;
  readonly estatistica: Locator;
  readonly popup: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Supervisão de Projetos', level: 1 });
    this.projeto = page.getByRole('combobox', { name: /^Projeto/ });
    this.map = page.getByRole('region', { name: 'Mapa de supervisão' });
    this.clusterizar = page.getByRole('checkbox', { name: 'Clusterizar' });
    this.estatistica = page.getByRole('table', { name: 'Estatística' });
    this.popup = page.getByTestId('supervisor-popup');
  }

  async chooseProjeto(nome: string): Promise<void> {
    await this.projeto.click();
    await this.page.getByRole('option', { name: nome, exact: true }).click();
    await expect(this.page.getByRole('listbox')).toBeHidden();
    await expect(this.projeto).toContainText(nome);
  }

  layer(label: string): Locator {
    return this.page.getByRole('checkbox', { name: label, exact: true });
  }

  /** data-pontos / data-clusters of the last draw (-1 before the first). */
  async drawn(): Promise<{ pontos: number; clusters: number }> {
    return this.map.evaluate((box: HTMLElement) => ({
      pontos: Number(box.dataset.pontos ?? -1),
      clusters: Number(box.dataset.clusters ?? -1),
    }));
  }

  async pointPixel(fluxo: Fluxo, index: number): Promise<{ x: number; y: number } | null> {
    return this.page.evaluate(
      ({ fluxo, index }) =>
        (window as unknown as { __novusSupervisor?: TestHook }).__novusSupervisor?.pointPixel(fluxo, index) ??
        null,
      { fluxo, index },
    );
  }

  async clusterPixels(): Promise<{ fluxo: string; count: number; x: number; y: number }[]> {
    return this.page.evaluate(
      () => (window as unknown as { __novusSupervisor?: TestHook }).__novusSupervisor?.clusterPixels() ?? [],
    );
  }

  /** The single points drawn now (on screen or just past its edges), by layer and place in the page's store. */
  async pointPixels(): Promise<{ fluxo: string; index: number; x: number; y: number }[]> {
    return this.page.evaluate(
      () => (window as unknown as { __novusSupervisor?: TestHook }).__novusSupervisor?.pointPixels() ?? [],
    );
  }

  async pointId(fluxo: Fluxo, index: number): Promise<string | null> {
    return this.page.evaluate(
      ({ fluxo, index }) =>
        (window as unknown as { __novusSupervisor?: TestHook }).__novusSupervisor?.pointId(fluxo, index) ??
        null,
      { fluxo, index },
    );
  }

  /** The index of the point of layer `fluxo` whose record is `id` (layers hold at most a few points here). */
  async indexOf(fluxo: Fluxo, id: string, upTo = 50): Promise<number> {
    for (let index = 0; index < upTo; index += 1) {
      const found = await this.pointId(fluxo, index);
      if (found === null) break;
      if (found === id) return index;
    }
    return -1;
  }

  /** Waits for point `id` of `fluxo` to be drawn on its own and gives its container pixel. */
  async waitForPoint(fluxo: Fluxo, id: string, timeout = 10_000): Promise<{ x: number; y: number }> {
    let pixel: { x: number; y: number } | null = null;
    await expect
      .poll(
        async () => {
          const index = await this.indexOf(fluxo, id);
          pixel = index < 0 ? null : await this.pointPixel(fluxo, index);
          return pixel;
        },
        { timeout, message: `point ${fluxo} ${id} drawn` },
      )
      .not.toBeNull();
    if (pixel === null) throw new Error('unreachable');
    return pixel;
  }

  /** The colour the points' canvas holds at a container pixel (transparent where nothing is drawn). */
  async canvasPixel(x: number, y: number): Promise<Rgba> {
    return this.map.evaluate(
      (box: HTMLElement, { x, y }) => {
        const canvas = box.querySelector<HTMLCanvasElement>('.leaflet-supervisor-pontos-pane canvas');
        if (canvas === null) throw new Error('no points canvas');
        const context = canvas.getContext('2d');
        if (context === null) throw new Error('no 2d context');
        // the canvas sits at the container's top-left corner, scaled by the device pixel ratio
        const ratio = canvas.width / canvas.getBoundingClientRect().width;
        const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(
          Math.round(x * ratio),
          Math.round(y * ratio),
          1,
          1,
        ).data;
        return { r, g, b, a };
      },
      { x, y },
    );
  }

  /** Clicks the map at a container pixel. */
  async clickAt(pixel: { x: number; y: number }): Promise<void> {
    await this.map.click({ position: { x: Math.round(pixel.x), y: Math.round(pixel.y) } });
  }

  /** The statistics table as [id, fluxo, total] rows. */
  async estatisticaRows(): Promise<string[][]> {
    const rows = this.estatistica.getByRole('row');
    const texts: string[][] = [];
    for (const row of await rows.all()) {
      const cells = await row.getByRole('cell').allInnerTexts();
      if (cells.length > 0) texts.push(cells.map((cell) => cell.trim()));
    }
    return texts;
  }
}

/** Whether `actual` is `expected` within a few units per channel, fully opaque. */
export function isColour(actual: Rgba, [r, g, b]: [number, number, number], tolerance = 8): boolean {
  return (
    actual.a === 255 &&
    Math.abs(actual.r - r) <= tolerance &&
    Math.abs(actual.g - g) <= tolerance &&
    Math.abs(actual.b - b) <= tolerance
  );
}

// ——— the world ———

/** A grid of places inside Zona Centro (lat −25.44..−25.43, lng −49.28..−49.27), far enough apart at zoom 13. */
export function lugar(linha: number, coluna: number): { lat: number; lng: number } {
  return { lat: -25.4325 - 0.0035 * linha, lng: -49.2775 + 0.0035 * coluna };
}

/** `count` places spread evenly at random over `area`, the same for the same seed (6 decimals, as a device sends). */
export function randomPlaces(
  area: { south: number; north: number; west: number; east: number },
  count: number,
  seed: number,
): { lat: number; lng: number }[] {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  return Array.from({ length: count }, () => ({
    lat: Number((area.south + random() * (area.north - area.south)).toFixed(6)),
    lng: Number((area.west + random() * (area.east - area.west)).toFixed(6)),
  }));
}

export async function realJpeg(page: Page): Promise<Buffer> {
  return makeJpeg(page, 'Supervisor', 640, 480);
}

/** POST /api/{apiPath} as a device sends a record, at a chosen place; its id. */
export async function enviar(
  tecnico: APIRequestContext,
  apiPath: 'unidade' | 'poste' | 'ip' | 'grupoa' | 'bdgd',
  projeto: string,
  onde: { lat: number; lng: number },
  fields: Record<string, string>,
  fotos: Buffer[] = [],
): Promise<string> {
  const id = fields.id ?? crypto.randomUUID();
  const form = new FormData();
  const all: Record<string, string> = {
    projeto,
    coordenadas: JSON.stringify(onde),
    dataHora: String(Date.now()),
    precisao: '5',
    ...fields,
    id,
  };
  for (const [name, value] of Object.entries(all)) form.append(name, value);
  fotos.forEach((foto, slot) =>
    form.append('fotos', new Blob([new Uint8Array(foto)], { type: 'image/jpeg' }), `${slot}.jpg`),
  );
  const response = await tecnico.post(`/api/${apiPath}`, { multipart: form });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return id;
}

export const UNIDADE = {
  tipoUnidade: 'SDU',
  tipoEdificacao: 'Residencial',
  tipoImovel: 'RESIDENCIAL',
  numero: '321',
  quantidade: '1',
  observacao: '',
};
export const POSTE = {
  tipo: 'CONCRETO DUPLO T',
  altura: '10',
  carga: '300',
  tipoRedeEletrica: 'MISTA',
  aterramento: 'true',
  equipamentoRedeEnergia: 'NAO POSSUI',
  observacao: '',
};

export interface SupervisorWorld extends CollectWorld {
  supervisor: { login: string };
  /** The technician's API session, for records uploaded while the map is open. */
  paula: APIRequestContext;
  ids: {
    unidade: string;
    poste: string;
    ipLivre: string;
    ipColetado: string;
    grupoA: string;
    bdgd: string;
  };
}

/**
 * The collection world with flows hc, poste, ip, grupoA and bdgd, two preloaded IP points and one BDGD point, a
 * supervisor of the client, and Paula's records: a unit with a real photo, a pole, the second IP point
 * collected, a Grupo A. One point per place of `lugar`, so none hides another at zoom 13.
 */
export async function setUpSupervisorWorld(jpeg: Buffer): Promise<SupervisorWorld> {
  const ip = (onde: { lat: number; lng: number }, idConcessionaria: string) => ({
    coordenadas: [onde.lat, onde.lng],
    idConcessionaria,
    idCircuito: 'C-1',
  });
  const world = await setUpWorld({
    fluxos: 'hc,poste,ip,grupoA,bdgd',
    pontos: {
      pontosIP: [ip(lugar(0, 2), 'IP-LIVRE'), ip(lugar(1, 0), 'IP-COLETADO')],
      pontosBDGD: [
        {
          coordenadas: [lugar(1, 2).lat, lugar(1, 2).lng],
          idConcessionaria: 'B-1',
          ativo: 'Poste',
          sequencial: 1,
        },
      ],
    },
  });
  const { admin, projetoId } = world;
  const detail = (await (await admin.get(`/api/projeto/${projetoId}`)).json()) as {
    cliente: string;
    pontosIP?: { _id: string; idConcessionaria: string }[];
    pontosBDGD?: { _id: string; idConcessionaria: string }[];
  };
  const preloaded = (lista: { _id: string; idConcessionaria: string }[] | undefined, nome: string) => {
    const id = lista?.find((ponto) => ponto.idConcessionaria === nome)?._id;
    if (id === undefined) throw new Error(`no preloaded point ${nome} in ${JSON.stringify(detail)}`);
    return id;
  };
  const supervisor = { login: unique('sup-mapa').replace(' ', '-') };
  await createUser(admin, {
    login: supervisor.login,
    password: SUPERVISOR_PASSWORD,
    firstName: 'Sara',
    lastName: 'Lima',
    roles: ['supervisor'],
    cliente: detail.cliente,
  });

  const paula = await apiAs(world.tecnico.login, TECNICO_PASSWORD);
  const ipColetado = preloaded(detail.pontosIP, 'IP-COLETADO');
  const ids = {
    unidade: await enviar(paula, 'unidade', projetoId, lugar(0, 0), UNIDADE, [jpeg]),
    poste: await enviar(paula, 'poste', projetoId, lugar(0, 1), POSTE),
    ipLivre: preloaded(detail.pontosIP, 'IP-LIVRE'),
    ipColetado: await enviar(paula, 'ip', projetoId, lugar(1, 0), {
      id: ipColetado,
      coletaId: crypto.randomUUID(),
      possuiIP: 'true',
    }),
    grupoA: await enviar(paula, 'grupoa', projetoId, lugar(1, 1), { uc: 'UC-1', medidor: 'M-1' }),
    bdgd: preloaded(detail.pontosBDGD, 'B-1'),
  };
  return { ...world, supervisor, paula, ids };
}
