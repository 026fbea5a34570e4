// 'Webhooks' (issue 27): the administrador chooses a project, is refused a loopback URL in Portuguese (the e2e server
// runs without WEBHOOKS_ALLOW_PRIVATE), registers a public one with a secret made by the server and shown once, sees
// a technician's upload become a delivery in the log (this machine has no route to the internet, so it waits for
// a retry), queues it again with 'Reenviar', and removes the webhook.
import { expect, test } from '@playwright/test';
import { expectAccessible } from '../support/axe';
import { setUpWorld, TECNICO_PASSWORD } from '../support/collect-setup';
import { apiAs, uploadRecord } from '../support/extrator-pages';
import { LoginPage } from '../support/login-page';
import { DESKTOP, screenshot } from '../support/screens';

test.use({ viewport: DESKTOP });

/** A public address (example.com's), written as an address so no DNS is needed. */
const PUBLICA = 'http://93.184.215.14/novus/webhook';

test('an administrador registers a webhook, reads its delivery log, re-sends and removes it', async ({
  page,
}) => {
  const world = await setUpWorld({ fluxos: 'hc' });
  await new LoginPage(page).signInAsAdmin('backoffice/webhooks');
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await expect(page.getByText('Escolha um projeto para ver e cadastrar os seus webhooks.')).toBeVisible();
  await expectAccessible(page, 'webhooks, no project');

  await page.getByLabel('Projeto').click();
  await page.getByRole('option', { name: world.projetoNome }).click();
  await expect(page.getByText('Nenhum webhook cadastrado neste projeto.')).toBeVisible();
  const novo = page.getByRole('region', { name: 'Novo webhook' });
  for (const evento of ['Registro criado', 'Registro alterado', 'Revisão']) {
    await expect(novo.getByRole('checkbox', { name: evento })).toBeChecked();
  }
  await expectAccessible(page, 'webhooks, empty project');

  // The server's own network is refused.
  await novo.getByLabel('URL').fill('http://127.0.0.1:8080/gancho');
  await novo.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(novo.getByRole('alert')).toHaveText(
    'A URL aponta para um endereço interno (local, de rede privada ou link-local): use um endereço público.',
  );

  // A public address, only new records, the secret left to the server.
  await novo.getByLabel('URL').fill(PUBLICA);
  await novo.getByRole('checkbox', { name: 'Registro alterado' }).uncheck();
  await novo.getByRole('checkbox', { name: 'Revisão' }).uncheck();
  await novo.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(novo.getByText('Webhook cadastrado.')).toBeVisible();
  const segredo = (await novo.getByTestId('webhook-segredo-criado').textContent()) ?? '';
  expect(segredo).toMatch(/^whsec_[\w-]{43}$/);
  const lista = page.getByRole('table', { name: 'Webhooks do projeto' });
  const linha = lista.getByTestId('webhook');
  await expect(linha).toHaveCount(1);
  await expect(linha).toContainText(PUBLICA);
  await expect(linha).toContainText('Registro criado');
  await expect(linha).not.toContainText('Revisão');
  // Shown once: the list has its last four characters only.
  await expect(linha).toContainText(`••••${segredo.slice(-4)}`);
  await expect(lista).not.toContainText(segredo);

  // A technician's upload becomes a delivery; with no route out it fails and waits for its retry.
  const tecnico = await apiAs(world.tecnico.login, TECNICO_PASSWORD);
  const registro = await uploadRecord(tecnico, world.projetoId, {
    apiPath: 'unidade',
    dataHora: Date.now(),
    fields: {
      tipoUnidade: 'SDU',
      tipoEdificacao: 'Residencial',
      tipoImovel: 'RESIDENCIAL',
      numero: '5',
      quantidade: '1',
    },
    fotos: 1,
  });
  await tecnico.dispose();
  await linha.getByRole('button', { name: 'Entregas' }).click();
  const entregas = page.getByRole('region', { name: `Entregas de ${PUBLICA}` });
  const entrega = entregas.getByTestId('entrega');
  // The first attempt ends within the 10 s timeout at most.
  await expect(async () => {
    await entregas.getByRole('button', { name: 'Atualizar' }).click();
    await expect(entrega.getByRole('cell').nth(4)).toHaveText('1', { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(entrega).toContainText('Registro criado');
  await expect(entrega).toContainText(registro.slice(0, 8));
  await expect(entrega.getByRole('cell').first()).toHaveText(/Pendente|Entregue/);
  await expectAccessible(page, 'webhooks, delivery log');
  await screenshot(page, 'backoffice-webhooks');

  await entrega.getByRole('button', { name: /^Reenviar/ }).click();
  await expect(page.getByText('Entrega de volta na fila.')).toBeVisible();
  await expect(entrega.getByRole('cell').first()).toHaveText(/Pendente|Entregue/);

  await linha.getByRole('button', { name: 'Excluir' }).click();
  const dialog = page.getByRole('dialog', { name: 'Tem certeza?' });
  await expectAccessible(page, 'webhooks, delete dialog');
  await dialog.getByRole('button', { name: 'Sim' }).click();
  await expect(page.getByText('Webhook excluído.')).toBeVisible();
  await expect(page.getByText('Nenhum webhook cadastrado neste projeto.')).toBeVisible();
  await expect(entregas).toHaveCount(0);
});
