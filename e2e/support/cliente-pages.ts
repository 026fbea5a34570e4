import type { Locator, Page } from '@playwright/test';
import { ListPage } from './list-page';

export class ClienteListPage extends ListPage {
  constructor(page: Page) {
    super(page, {
      path: '/backoffice/cliente',
      title: 'Lista de Clientes',
      confirmText: 'Isso irá remover o cliente',
    });
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
