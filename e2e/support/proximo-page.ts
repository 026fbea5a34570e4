// Page model of the map step's 'Próximo ponto' and 'Buscar ponto' (issue 26).
import { expect, type Locator, type Page } from '@playwright/test';

export class ProximoPontoPanel {
  readonly botao: Locator;
  readonly painel: Locator;
  readonly rumo: Locator;
  readonly abrir: Locator;
  readonly busca: Locator;
  readonly encontrados: Locator;
  /** The marker of the point chosen (drawn larger, on top). */
  readonly marcado: Locator;

  constructor(private readonly page: Page) {
    this.botao = page.getByRole('button', { name: 'Próximo ponto' });
    this.painel = page.getByTestId('proximo-ponto');
    this.rumo = page.getByTestId('proximo-ponto-rumo');
    this.abrir = page.getByRole('button', { name: 'Abrir ponto' });
    this.busca = page.getByRole('searchbox', { name: 'Buscar ponto' });
    this.encontrados = page.getByRole('list', { name: 'Pontos encontrados' });
    this.marcado = page.locator('path.mapa-selecionado');
  }

  /** Waits until the chosen point's marker sits in the middle of the map (Leaflet pans to it). */
  async expectCentred(): Promise<void> {
    const map = this.page.locator('.leaflet-container');
    await expect
      .poll(
        async () => {
          const [mapBox, markerBox] = await Promise.all([map.boundingBox(), this.marcado.boundingBox()]);
          if (!mapBox || !markerBox) return Number.POSITIVE_INFINITY;
          const dx = markerBox.x + markerBox.width / 2 - (mapBox.x + mapBox.width / 2);
          const dy = markerBox.y + markerBox.height / 2 - (mapBox.y + mapBox.height / 2);
          return Math.hypot(dx, dy);
        },
        { message: 'the chosen point is in the middle of the map' },
      )
      .toBeLessThan(3);
  }
}
