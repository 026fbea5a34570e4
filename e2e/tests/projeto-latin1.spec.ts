import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createCliente, unique } from '../support/api';
import { expectAccessible } from '../support/axe';
import { LoginPage } from '../support/login-page';
import { ProjetoFormPage } from '../support/projeto-pages';
import { DESKTOP } from '../support/screens';

const KML = path.resolve(import.meta.dirname, '../../docs/samples/zoneamento-curitiba.kml');

test.use({ viewport: DESKTOP });

test.beforeEach(async ({ page }) => {
  await new LoginPage(page).signInAsAdmin('backoffice');
  await expect(page).toHaveURL('/backoffice');
});

test('a point file saved by a Brazilian spreadsheet (Windows-1252) keeps its accents; a binary one is refused', async ({
  page,
}) => {
  const clienteNome = unique('Cliente Latin-1');
  await createCliente(page.request, clienteNome);
  const nome = unique('Projeto Latin-1');
  const form = new ProjetoFormPage(page);
  await page.goto('/backoffice/projeto/add');
  await expect(form.heading('Adicionar Projeto')).toBeVisible();
  await form.nome.fill(nome);
  await form.choose(form.cliente, clienteNome);
  await form.fluxo('Uso Mútuo / IP').check();
  await form.fileInput('Arquivo KML').setInputFiles(KML);
  await expect(form.message('3 zonas')).toBeVisible();

  // Bytes as Excel writes them in Windows-1252: ã is E3, ç E7, the curly quotes 93 and 94.
  const excel = Buffer.from(
    '-49.275;-25.435;S\u00e3o Jo\u00e3o;Circuito \u0093A\u0094\n-49.265;-25.435;A\u00e7\u00e3o;B\n',
    'latin1',
  );
  // A binary file under a text name: refused in the browser with its message, nothing kept.
  await form.fileInput('Arquivo de pontos IP').setInputFiles({
    name: 'foto.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]),
  });
  await expect(page.getByRole('alert')).toHaveText(
    'foto.txt: O arquivo não é um arquivo de texto (parece um arquivo binário).',
  );
  await expectAccessible(page, 'projeto add, binary point file refused');
  await form.fileInput('Arquivo de pontos IP').setInputFiles({
    name: 'pontos-excel.txt',
    mimeType: 'text/plain',
    buffer: excel,
  });
  await expect(form.message('2 pontos')).toBeVisible();
  await expect(form.pontosIp).toHaveCount(2);
  await form.gravar.click();
  await expect(form.message('Projeto adicionado com sucesso.')).toBeVisible();

  const projetos = (await (await page.request.get('/api/projeto')).json()) as { _id: string; nome: string }[];
  const id = projetos.find((projeto) => projeto.nome === nome)?._id ?? '';
  const saved = (await (await page.request.get(`/api/projeto/${id}`)).json()) as {
    pontosIP: { idConcessionaria: string; idCircuito: string }[];
  };
  expect(saved.pontosIP.map((ponto) => [ponto.idConcessionaria, ponto.idCircuito]).sort()).toEqual([
    ['Ação', 'B'],
    ['São João', 'Circuito “A”'],
  ]);
});
