import { expect, type Locator, type Page } from '@playwright/test';
import { ADMIN } from './env';

export class LoginPage {
  readonly login: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly error: Locator;

  constructor(private readonly page: Page) {
    this.login = page.getByLabel('Login');
    this.password = page.getByLabel('Senha');
    this.submit = page.getByRole('button', { name: 'Entrar' });
    this.error = page.getByRole('alert');
  }

  async goto(target?: string): Promise<void> {
    await this.page.goto(target === undefined ? '/login' : `/login?target=${target}`);
    await expect(this.submit).toBeVisible();
  }

  async signIn(login: string, password: string): Promise<void> {
    await this.login.fill(login);
    await this.password.fill(password);
    await this.submit.click();
  }

  async signInAsAdmin(target?: string): Promise<void> {
    await this.goto(target);
    await this.signIn(ADMIN.login, ADMIN.password);
    await expect(this.page).not.toHaveURL(/\/login/);
  }
}
