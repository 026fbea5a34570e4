import { expect, type Locator, type Page } from '@playwright/test';

/** A back-office list (Clientes, Projetos, Usuários): heading, 'Novo', grid, delete dialog. */
export class ListPage {
  readonly heading: Locator;
  readonly novo: Locator;
  readonly grid: Locator;
  readonly dialog: Locator;

  constructor(
    protected readonly page: Page,
    private readonly options: { path: string; title: string; confirmText: string },
  ) {
    this.heading = page.getByRole('heading', { name: options.title });
    this.novo = page.getByRole('link', { name: 'Novo' });
    this.grid = page.getByRole('grid');
    this.dialog = page.getByRole('dialog', { name: 'Tem certeza?' });
  }

  async goto(): Promise<void> {
    await this.page.goto(this.options.path);
    await expect(this.heading).toBeVisible();
  }

  row(text: string): Locator {
    return this.grid
      .getByRole('row')
      .filter({ has: this.page.getByRole('gridcell', { name: text, exact: true }) });
  }

  async edit(text: string): Promise<void> {
    await this.row(text)
      .getByRole('menuitem', { name: 'Editar' })
      .or(this.row(text).getByRole('button', { name: 'Editar' }))
      .click();
  }

  async askDelete(text: string): Promise<void> {
    await this.row(text)
      .getByRole('menuitem', { name: 'Excluir' })
      .or(this.row(text).getByRole('button', { name: 'Excluir' }))
      .click();
    await expect(this.dialog).toBeVisible();
    await expect(this.dialog).toContainText(this.options.confirmText);
  }

  message(text: string): Locator {
    return this.page.getByText(text, { exact: true });
  }
}
