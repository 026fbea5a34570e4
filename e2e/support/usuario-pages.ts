import { expect, type Locator, type Page } from '@playwright/test';
import { ListPage } from './list-page';

export class UsuarioListPage extends ListPage {
  constructor(page: Page) {
    super(page, {
      path: '/backoffice/usuario',
      title: 'Lista de Usuários',
      confirmText: 'Isso irá remover o usuário',
    });
  }

  /** The grid's cell of `column` ('Perfis', 'Cliente', ...) in the row of `login`. */
  cell(login: string, column: string): Locator {
    return this.row(login).locator(`[role="gridcell"][data-field="${column}"]`);
  }
}

export interface UsuarioFormInput {
  login: string;
  firstName: string;
  lastName: string;
  password: string;
  cliente?: string;
  perfis: string[];
  /** Labels as shown: 'Projeto X [Zona Centro]'. */
  zonas?: string[];
}

export class UsuarioFormPage {
  readonly login: Locator;
  readonly firstName: Locator;
  readonly lastName: Locator;
  readonly password: Locator;
  readonly passwordConfirmation: Locator;
  readonly cliente: Locator;
  readonly gravar: Locator;

  constructor(private readonly page: Page) {
    this.login = page.getByRole('textbox', { name: 'Login' });
    this.firstName = page.getByRole('textbox', { name: 'Primeiro Nome' });
    this.lastName = page.getByRole('textbox', { name: 'Sobrenome' });
    this.password = page.getByLabel('Senha', { exact: true });
    this.passwordConfirmation = page.getByLabel('Redigite a Senha', { exact: true });
    this.cliente = page.getByRole('combobox', { name: 'Cliente' });
    this.gravar = page.getByRole('button', { name: 'Gravar' });
  }

  heading(text: 'Adicionar Usuário' | 'Alterar Usuário'): Locator {
    return this.page.getByRole('heading', { name: text });
  }

  checkbox(label: string): Locator {
    return this.page.getByRole('checkbox', { name: label, exact: true });
  }

  async chooseCliente(nome: string): Promise<void> {
    await this.cliente.click();
    await this.page.getByRole('option', { name: nome, exact: true }).click();
    await expect(this.cliente).toHaveText(nome);
  }

  async fill(input: UsuarioFormInput): Promise<void> {
    await this.login.fill(input.login);
    await this.firstName.fill(input.firstName);
    await this.lastName.fill(input.lastName);
    await this.password.fill(input.password);
    await this.passwordConfirmation.fill(input.password);
    if (input.cliente !== undefined) await this.chooseCliente(input.cliente);
    for (const perfil of input.perfis) await this.checkbox(perfil).check();
    for (const zona of input.zonas ?? []) await this.checkbox(zona).check();
  }

  message(text: string): Locator {
    return this.page.getByText(text, { exact: true });
  }
}
