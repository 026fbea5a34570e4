// Page models and API steps of the corrections journey (issue 24): the home's 'Correções' banner, the list of
// rejected records, a record opened to be fixed, and the reviewer's side through the API.
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';

/** Screenshots of this journey, to be looked at (not compared). */
export const CORRECOES_SHOTS = '/tmp/corr-shots';

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${CORRECOES_SHOTS}/${name}.png`, fullPage: true });
}

export class CorrecoesList {
  readonly items: Locator;

  constructor(private readonly page: Page) {
    this.items = page.getByRole('list', { name: 'Registros reprovados' }).getByRole('link');
  }

  heading(): Locator {
    return this.page.getByRole('heading', { name: 'Correções' });
  }
}

export class CorrecaoRecord {
  readonly pedida: Locator;
  readonly gravar: Locator;

  constructor(private readonly page: Page) {
    this.pedida = page.getByTestId('correcao-pedida');
    this.gravar = page.getByRole('button', { name: 'Gravar', exact: true });
  }

  field(label: string): Locator {
    return this.page.getByRole('textbox', { name: label, exact: true });
  }
}

export interface ItemRevisao {
  id: string;
  dados: Record<string, unknown>;
  fotos: string[];
  revisao: { estado: string; versao: number; comentario: string | null };
}

/** The reviewer's list of the project (GET /api/revisao?projeto=), every page's records of the first. */
export async function revisaoList(api: APIRequestContext, projeto: string): Promise<ItemRevisao[]> {
  const response = await api.get(`/api/revisao?projeto=${encodeURIComponent(projeto)}`);
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { registros: ItemRevisao[] }).registros;
}

/** A reviewer's decision on one record (POST /api/revisao/:id). */
export async function decidir(
  api: APIRequestContext,
  id: string,
  body: {
    estado: 'aprovado' | 'reprovado' | 'pendente';
    versao: number;
    comentario?: string;
    campos?: Record<string, string>;
  },
): Promise<ItemRevisao> {
  const response = await api.post(`/api/revisao/${id}`, { data: body });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as ItemRevisao;
}
