// Issue 26's bench for 'Repetir último': the taps and keystrokes of a second pole's fields with it (one tap, one
// field changed) against without (every field by hand), counted as the test performs them, on the built app at
// 390x844. Numbers go to stdout and bench/results/repetir.json.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { acceptDialogs, signInSynced } from '../support/collect-pages';
import { setUpWorld, TECHNICIAN_PHONE, TECNICO_PASSWORD } from '../support/collect-setup';
import {
  fillPosteByHand,
  formFields,
  openPosteForm,
  RepetirUltimo,
  TapCounter,
} from '../support/repetir-pages';

test.use(TECHNICIAN_PHONE);

test("a second pole's fields with and without 'Repetir último'", async ({ page }) => {
  const world = await setUpWorld();
  acceptDialogs(page);
  await signInSynced(page, { login: world.tecnico.login, password: TECNICO_PASSWORD });
  const { select } = formFields(page);

  // Without: the first pole, every field the second would need, by hand.
  let wizard = await openPosteForm(page, world.projetoId, 0.3, 0.7);
  const semRepetir = new TapCounter();
  await fillPosteByHand(page, semRepetir);
  await wizard.gravar.click();
  await expect(page.getByText('Poste gravado no aparelho.')).toBeVisible();

  // With: one tap, and the height that differs.
  wizard = await openPosteForm(page, world.projetoId, 0.7, 0.3);
  const comRepetir = new TapCounter();
  await comRepetir.tap(new RepetirUltimo(page).button);
  await comRepetir.choose(select('Altura'), '12');
  await expect(select('Carga')).toHaveValue('300');
  await wizard.gravar.click();
  await expect(page.getByText('Poste gravado no aparelho.')).toBeVisible();
  await world.admin.dispose();

  const result = {
    date: new Date().toISOString(),
    segundoPoste: {
      semRepetir: { toques: semRepetir.taps, acoes: semRepetir.actions },
      comRepetir: { toques: comRepetir.taps, acoes: comRepetir.actions },
    },
    contagem:
      'um toque por clique ou caixa; dois por lista nativa (abrir, escolher); digitar: um toque + um por letra',
  };
  console.log(JSON.stringify(result, null, 2));
  const out = path.resolve(import.meta.dirname, '../../bench/results');
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'repetir.json'), `${JSON.stringify(result, null, 2)}\n`);
});
