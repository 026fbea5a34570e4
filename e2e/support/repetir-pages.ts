// 'Repetir último' on the wizards' forms (issue 26): the button, its marks, and the technician's taps counted.
import { expect, type Locator, type Page } from '@playwright/test';
import { WizardPage } from './collect-pages';

export const REPETIDO = 'Repetido do último registro';

/**
 * The taps and keystrokes of filling a form on a phone, counted as the test performs them: a tap is one, a native
 * select is two (open the phone's picker, choose), typing is a tap on the field plus one per character.
 */
export class TapCounter {
  actions = 0;
  taps = 0;

  async tap(locator: Locator): Promise<void> {
    await locator.click();
    this.count(1);
  }

  async check(locator: Locator): Promise<void> {
    await locator.check();
    this.count(1);
  }

  async choose(select: Locator, value: string): Promise<void> {
    await select.selectOption(value);
    this.count(2);
  }

  async type(field: Locator, text: string): Promise<void> {
    await field.fill(text);
    this.count(1 + text.length);
  }

  private count(taps: number): void {
    this.actions += 1;
    this.taps += taps;
  }
}

export class RepetirUltimo {
  readonly button: Locator;
  readonly marks: Locator;

  constructor(readonly page: Page) {
    this.button = page.getByRole('button', { name: 'Repetir último' });
    this.marks = page.getByText(REPETIDO, { exact: true });
  }

  /** The field says it was repeated, in words tied to it (its accessible description), not by colour. */
  async expectMarked(field: Locator): Promise<void> {
    await expect(field).toHaveAccessibleDescription(REPETIDO);
  }

  async expectNotMarked(field: Locator): Promise<void> {
    await expect(field).not.toHaveAccessibleDescription(REPETIDO);
  }
}

/** Taps the map at a fraction of its size (away from the markers already there). */
export async function tapMapAt(map: Locator, x: number, y: number): Promise<void> {
  const box = await map.boundingBox();
  if (!box) throw new Error('map not visible');
  await map.click({ position: { x: box.width * x, y: box.height * y } });
}

/** The form's fields by their labels: native selects are comboboxes, the rest textboxes. */
export function formFields(page: Page) {
  return {
    select: (label: string) => page.getByRole('combobox', { name: label, exact: true }),
    text: (label: string) => page.getByRole('textbox', { name: label, exact: true }),
    checkbox: (label: string) => page.getByRole('checkbox', { name: label, exact: true }),
  };
}

/** The pole wizard from its map: a point at (x, y) of the map, then the form. */
export async function openPosteForm(
  page: Page,
  projetoId: string,
  x: number,
  y: number,
): Promise<WizardPage> {
  const wizard = new WizardPage(page);
  await page.goto(`/projeto/${projetoId}/addPostes`);
  await expect(wizard.step('Passo 1 de 2: Coordenadas')).toBeVisible();
  await tapMapAt(wizard.map, x, y);
  await wizard.gravarCoordenadas.click();
  await expect(wizard.step('Passo 2 de 2: Dados do poste')).toBeVisible();
  return wizard;
}

/** A pole's fields that 'Repetir último' repeats, as a technician fills them by hand (the defaults changed too). */
export const POSTE_A_MAO = {
  Tipo: 'MADEIRA',
  Altura: '11',
  Carga: '300',
  'Tipo de rede elétrica': 'MISTA',
  'Equipamento de rede de energia': 'TRANSFORMADOR',
} as const;

export async function fillPosteByHand(page: Page, counter: TapCounter): Promise<void> {
  const { select, checkbox } = formFields(page);
  for (const [label, value] of Object.entries(POSTE_A_MAO)) await counter.choose(select(label), value);
  await counter.check(checkbox('Aterramento'));
}
