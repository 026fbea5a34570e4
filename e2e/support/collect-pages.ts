// Page models of the technician's collection screens.
import { type BrowserContext, expect, type Locator, type Page } from '@playwright/test';
import { makeJpeg } from './collect-setup';
import { LoginPage } from './login-page';

export class TechnicianHome {
  readonly compactar: Locator;
  readonly sincronizar: Locator;
  readonly status: Locator;

  constructor(private readonly page: Page) {
    this.compactar = page.getByRole('button', { name: 'Compactar Imagens' });
    this.sincronizar = page.getByRole('button', { name: 'Sincronizar' });
    this.status = page.getByTestId('status-sincronizacao');
  }

  pendentes(label: string, count: number): Locator {
    return this.page.getByText(`${label} pendentes: ${count}`, { exact: true });
  }

  async sync(): Promise<void> {
    await this.sincronizar.click();
  }

  async expectSynced(): Promise<void> {
    await expect(this.status).toHaveText('Sincronizacao concluida', { timeout: 30_000 });
    await expect(this.sincronizar).toBeEnabled();
  }
}

/** Accepts every alert and confirm, remembering their texts. */
export function acceptDialogs(page: Page): string[] {
  const messages: string[] = [];
  page.on('dialog', (dialog) => {
    messages.push(dialog.message());
    void dialog.accept();
  });
  return messages;
}

export class WizardPage {
  readonly gravarCoordenadas: Locator;
  readonly gravar: Locator;
  readonly limpar: Locator;
  readonly voltar: Locator;
  readonly map: Locator;
  readonly minhaLocalizacao: Locator;

  constructor(readonly page: Page) {
    this.gravarCoordenadas = page.getByRole('button', { name: 'Gravar Coordenadas' });
    this.gravar = page.getByRole('button', { name: 'Gravar', exact: true });
    this.limpar = page.getByRole('button', { name: 'Limpar' });
    this.voltar = page.getByRole('button', { name: 'Voltar' });
    this.map = page.locator('.leaflet-container');
    this.minhaLocalizacao = page.getByRole('button', { name: 'Usar minha localização' });
  }

  step(text: string): Locator {
    return this.page.getByText(text);
  }

  /** Taps the map at a spot away from the centre, where no marker sits. */
  async tapMap(): Promise<void> {
    const box = await this.map.boundingBox();
    if (!box) throw new Error('map not visible');
    await this.map.click({ position: { x: box.width * 0.3, y: box.height * 0.7 } });
  }

  async addPhotos(count: number, prefix: string): Promise<void> {
    for (let slot = 1; slot <= count; slot += 1) {
      const buffer = await makeJpeg(this.page, `${prefix} ${slot}`);
      await this.page.getByLabel(`Foto ${slot}`, { exact: true }).setInputFiles({
        name: `camera-${slot}.jpg`,
        mimeType: 'image/jpeg',
        buffer,
      });
      await expect(this.page.getByRole('img', { name: `Miniatura da Foto ${slot}` })).toBeVisible();
    }
  }

  select(label: string): Locator {
    return this.page.getByLabel(label, { exact: false });
  }
}

/**
 * Online, the technician logs in and syncs (projects and the records of their zones come down); the app shell is
 * then in the service worker, which controls the page.
 */
export async function signInSynced(
  page: Page,
  tecnico: { login: string; password: string },
): Promise<TechnicianHome> {
  const home = new TechnicianHome(page);
  await new LoginPage(page).goto();
  await new LoginPage(page).signIn(tecnico.login, tecnico.password);
  await home.sync();
  await home.expectSynced();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  return home;
}

/** The start of an offline day: signed in and synced (signInSynced), and then the network goes. */
export async function startOfflineDay(
  page: Page,
  context: BrowserContext,
  tecnico: { login: string; password: string },
): Promise<TechnicianHome> {
  const home = await signInSynced(page, tecnico);
  await context.setOffline(true);
  return home;
}

/** Iniciar → the project: its menu of flows. */
export async function openProjetoMenu(page: Page, projetoNome: string): Promise<Locator> {
  await page.getByRole('link', { name: 'Iniciar' }).click();
  await page.getByRole('link', { name: projetoNome }).click();
  return page.getByRole('navigation', { name: 'Fluxos do projeto' });
}

/** One unit through the wizard up to its last step (type, a point on the map, the number, photos); not saved yet. */
export async function fillUnidade(
  page: Page,
  projetoId: string,
  numero: string,
  photos: number,
): Promise<WizardPage> {
  const wizard = new WizardPage(page);
  await page.goto(`/projeto/${projetoId}/addUnidades`);
  await page.getByRole('button', { name: 'SDU (casa)' }).click();
  await wizard.tapMap();
  await wizard.gravarCoordenadas.click();
  await expect(wizard.step('Passo 3 de 3: Dados da unidade')).toBeVisible();
  await page.getByRole('textbox', { name: 'Número', exact: true }).fill(numero);
  await wizard.addPhotos(photos, `Unidade ${numero}`);
  return wizard;
}
