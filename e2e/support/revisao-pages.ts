// The back office's 'Revisão' (issue 24): its page model, and a project available to Interpres with a technician's
// records uploaded through the API, some with a GPS accuracy worse than the project's 15 m (flagged).
import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { createCliente, createUser, unique } from './api';
import { adminApi, TECNICO_PASSWORD } from './collect-setup';
import { apiAs, SUPERVISOR_PASSWORD } from './extrator-pages';
import { enviar, lugar, POSTE, UNIDADE } from './supervisor-pages';

const KML = fs.readFileSync(
  path.resolve(import.meta.dirname, '../../docs/samples/zoneamento-curitiba.kml'),
  'utf8',
);

export const FLAG_PRECISAO = 'Precisão do GPS acima do limite';

export class RevisaoScreen {
  readonly heading: Locator;
  readonly projeto: Locator;
  readonly registro: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Revisão', level: 1 });
    this.projeto = page.getByRole('combobox', { name: /^Projeto/ });
    this.registro = page.getByTestId('revisao-registro');
    this.dialog = page.getByRole('dialog');
  }

  async choose(select: Locator, option: string): Promise<void> {
    await select.click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
    await expect(this.page.getByRole('listbox')).toBeHidden();
  }

  async chooseProjeto(nome: string): Promise<void> {
    await this.choose(this.projeto, nome);
    await expect(this.projeto).toContainText(nome);
  }

  filtro(label: 'Fluxo' | 'Técnico' | 'Sinalização' | 'Estado'): Locator {
    // the name carries the choice after the label ('Estado Todos')
    return this.page.getByRole('combobox', { name: new RegExp(`^${label}`) });
  }

  rows(): Locator {
    return this.page.getByRole('table', { name: 'Registros para revisão' }).locator('tbody tr');
  }

  row(id: string): Locator {
    return this.page.locator(`tr[data-registro="${id}"]`);
  }

  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }
}

export interface RevisaoWorld {
  admin: APIRequestContext;
  projetoId: string;
  projetoNome: string;
  supervisor: { login: string };
  externo: { login: string };
  /** Paula, the technician. */
  tecnico: { login: string };
  /** Paula's records: four flagged by accuracy (a..d), one not (ok). */
  ids: { a: string; b: string; c: string; d: string; ok: string };
}

/** A project with Interpres on, Paula (technician, Zona Centro), a supervisor and an externo, and five records. */
export async function setUpRevisaoWorld(jpeg: Buffer): Promise<RevisaoWorld> {
  const admin = await adminApi();
  const cliente = await createCliente(admin, unique('Cliente Revisão'));
  const projetoNome = unique('Projeto Revisão');
  const created = await admin.post('/api/projeto', {
    form: {
      nome: projetoNome,
      cliente,
      fluxos: 'hc,poste',
      kml: KML,
      fuso: '22',
      disponivelInterpres: 'true',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { _id: projetoId } = (await created.json()) as { _id: string };
  const detail = (await (await admin.get(`/api/projeto/${projetoId}`)).json()) as {
    zonas: { _id: string; label: string }[];
  };
  const centro = detail.zonas.find((zona) => zona.label === 'Zona Centro');
  if (!centro) throw new Error('the sample KML has no Zona Centro');

  const tecnico = unique('rev-campo').replace(' ', '-');
  await createUser(admin, {
    login: tecnico,
    password: TECNICO_PASSWORD,
    firstName: 'Paula',
    lastName: 'Campos',
    roles: ['tecnico'],
    cliente,
    ...{ zonas: [centro._id] },
  });
  const supervisor = { login: unique('rev-sup').replace(' ', '-') };
  await createUser(admin, {
    login: supervisor.login,
    password: SUPERVISOR_PASSWORD,
    firstName: 'Sara',
    lastName: 'Lima',
    roles: ['supervisor'],
    cliente,
  });
  const externo = { login: unique('rev-ext').replace(' ', '-') };
  await createUser(admin, {
    login: externo.login,
    password: SUPERVISOR_PASSWORD,
    firstName: 'Ernesto',
    lastName: 'Externo',
    roles: ['externo'],
    cliente,
  });

  const paula = await apiAs(tecnico, TECNICO_PASSWORD);
  // ten minutes apart, so no pace flag; accuracy over 15 m flags the first four
  const quando = (i: number) => String(Date.parse('2026-11-20T09:00:00-03:00') + i * 10 * 60_000);
  // every place inside Zona Centro, some 390 m apart
  const unidade = (i: number, onde: { lat: number; lng: number }, precisao: string, numero: string) =>
    enviar(paula, 'unidade', projetoId, onde, { ...UNIDADE, numero, precisao, dataHora: quando(i) }, [jpeg]);
  const ids = {
    a: await unidade(0, lugar(0, 0), '40', '321'),
    b: await unidade(1, lugar(0, 1), '30', '322'),
    c: await enviar(
      paula,
      'poste',
      projetoId,
      lugar(1, 0),
      { ...POSTE, precisao: '25', dataHora: quando(2) },
      [jpeg],
    ),
    d: await unidade(3, lugar(1, 1), '50', '324'),
    ok: await unidade(4, lugar(2, 1), '5', '325'),
  };
  await paula.dispose();
  return { admin, projetoId, projetoNome, supervisor, externo, tecnico: { login: tecnico }, ids };
}
