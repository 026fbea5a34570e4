import { expect, type Locator, type Page } from '@playwright/test';

export class HomePage {
  readonly version: Locator;
  readonly databaseVersion: Locator;
  readonly storage: Locator;
  readonly iniciar: Locator;
  readonly logOff: Locator;

  constructor(private readonly page: Page) {
    this.version = page.getByText('Versão 1.22.4');
    this.databaseVersion = page.getByTestId('db-version');
    this.storage = page.getByTestId('storage-usage');
    this.iniciar = page.getByRole('link', { name: 'Iniciar' });
    this.logOff = page.getByRole('button', { name: 'Log off' });
  }

  greeting(nome: string): Locator {
    return this.page.getByRole('heading', { name: `Olá, ${nome}` });
  }

  async expectLoaded(nome: string): Promise<void> {
    await expect(this.greeting(nome)).toBeVisible();
    await expect(this.version).toBeVisible();
    await expect(this.databaseVersion).toHaveText('Banco de dados local: versão 21');
  }
}
