import { expect, type Locator, type Page } from '@playwright/test';
import { ListPage } from './list-page';

export class ProjetoListPage extends ListPage {
  constructor(page: Page) {
    super(page, {
      path: '/backoffice/projeto',
      title: 'Lista de Projetos',
      confirmText: 'Isso irá remover o projeto',
    });
  }
}

/** 'Adicionar Projeto' / 'Alterar Projeto': the form and its map. */
export class ProjetoFormPage {
  readonly nome: Locator;
  readonly cliente: Locator;
  readonly fuso: Locator;
  readonly interpres: Locator;
  readonly gravar: Locator;
  readonly map: Locator;
  /** Leaflet draws every shape as an SVG path in the overlay pane; the class says which layer. */
  readonly zonas: Locator;
  readonly pontosIp: Locator;
  readonly pontosBdgd: Locator;
  readonly pontosFiscalizacao: Locator;

  constructor(private readonly page: Page) {
    this.nome = page.getByRole('textbox', { name: 'Nome', exact: true });
    this.cliente = page.getByRole('combobox', { name: 'Cliente' });
    this.fuso = page.getByRole('combobox', { name: 'Fuso' });
    this.interpres = page.getByRole('checkbox', { name: 'Disponibilizar no Interpres' });
    this.gravar = page.getByRole('button', { name: 'Gravar' });
    this.map = page.getByRole('region', { name: 'Mapa do projeto' });
    this.zonas = this.map.locator('.leaflet-overlay-pane path.mapa-zona');
    this.pontosIp = this.map.locator('.leaflet-overlay-pane path.mapa-ponto-ip');
    this.pontosBdgd = this.map.locator('.leaflet-overlay-pane path.mapa-ponto-bdgd');
    this.pontosFiscalizacao = this.map.locator('.leaflet-overlay-pane path.mapa-ponto-fiscalizacao');
  }

  heading(text: 'Adicionar Projeto' | 'Alterar Projeto'): Locator {
    return this.page.getByRole('heading', { name: text });
  }

  /** The upload group of a flow ('Pontos BDGD', 'Pontos Fiscalização', ...). */
  upload(fluxoLabel: string): Locator {
    return this.page.getByRole('group', { name: `Pontos ${fluxoLabel}` });
  }

  fluxo(label: string): Locator {
    return this.page.getByRole('checkbox', { name: label, exact: true });
  }

  /** The hidden file input behind a 'Escolher arquivo …' button. */
  fileInput(
    label:
      | 'Arquivo KML'
      | 'Arquivo de pontos IP'
      | 'Arquivo BDGD'
      | 'Arquivo de fiscalização'
      | 'Arquivo LPT Agiltec',
  ): Locator {
    return this.page.locator(`input[type="file"][aria-label="${label}"]`);
  }

  async choose(select: Locator, option: string): Promise<void> {
    await select.click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
    await expect(select).toHaveText(option);
  }

  text(text: string | RegExp): Locator {
    return this.page.getByText(text);
  }

  message(text: string): Locator {
    return this.page.getByText(text, { exact: true });
  }
}
