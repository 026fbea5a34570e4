import { expect, type Locator, type Page } from '@playwright/test';

export class ClienteListPage {
  readonly heading: Locator;
  readonly novo: Locator;
  readonly grid: Locator;
  readonly dialog: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Lista de Clientes' });
    this.novo = page.getByRole('link', { name: 'Novo' });
    this.grid = page.getByRole('grid');
    this.dialog = page.getByRole('dialog', { name: 'Tem certeza?' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/backoffice/cliente');
    await expect(this.heading).toBeVisible();
  }

  row(nome: string): Locator {
    return this.grid
      .getByRole('row')
      .filter({ has: this.page.getByRole('gridcell', { name: nome, exact: true }) });
  }

  async edit(nome: string): Promise<void> {
    await this.row(nome)
      .getByRole('menuitem', { name: 'Editar' })
      .or(this.row(nome).getByRole('button', { name: 'Editar' }))
      .click();
  }

  async askDelete(nome: string): Promise<void> {
    await this.row(nome)
      .getByRole('menuitem', { name: 'Excluir' })
      .or(this.row(nome).getByRole('button', { name: 'Excluir' }))
      .click();
    await expect(this.dialog).toBeVisible();
    await expect(this.dialog).toContainText('Isso irá remover o cliente');
  }

  message(text: string): Locator {
    return this.page.getByText(text, { exact: true });
  }
}

export class ClienteFormPage {
  readonly nome: Locator;
  readonly gravar: Locator;

  constructor(private readonly page: Page) {
    this.nome = page.getByLabel('Nome');
    this.gravar = page.getByRole('button', { name: 'Gravar' });
  }

  heading(text: 'Adicionar Cliente' | 'Alterar Cliente'): Locator {
    return this.page.getByRole('heading', { name: text });
  }

  async save(nome: string): Promise<void> {
    await this.nome.fill(nome);
    await this.gravar.click();
  }

  message(text: string): Locator {
    return this.page.getByText(text, { exact: true });
  }
}
