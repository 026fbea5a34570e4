import type { Locator, Page } from '@playwright/test';

export class BackofficeShell {
  readonly userMenu: Locator;
  readonly logout: Locator;
  readonly nav: Locator;

  constructor(private readonly page: Page) {
    this.userMenu = page.getByRole('button', { name: 'Menu do usuário' });
    this.logout = page.getByRole('menuitem', { name: 'Logout' });
    this.nav = page.getByRole('navigation', { name: 'Menu principal' });
  }

  menuLink(label: string): Locator {
    return this.nav.getByRole('link', { name: label, exact: true });
  }

  async signOut(): Promise<void> {
    await this.userMenu.click();
    await this.logout.click();
  }
}
