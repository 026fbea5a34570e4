// The supervisor's downloads (SPEC.md 2 'Extractor' and 'Reports screen', 7, 9): two technicians upload units,
// poles and trees with photos over two days; the supervisor extracts KML, CSV and the photos' zip of a range
// of days from the Extrator and opens each file (csv-parse, GDAL's ogrinfo, unzip); on Relatórios reads one
// day per technician with their CSV and KML, and the productivity as a chart, a table and a CSV. A supervisor of
// another client never sees the project. The range also comes as a GeoPackage (GDAL) and an XLSX (exceljs), issue 27.
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expectAccessible } from '../support/axe';
import { BackofficeShell } from '../support/backoffice-page';
import {
  DIA_1,
  DIA_2,
  download,
  type ExtratorWorld,
  ExtratorScreen,
  OBSERVACAO_ACENTOS,
  OBSERVACAO_FORMULA,
  ogrLayers,
  readCsv,
  RelatorioScreen,
  setUpExtratorWorld,
  SUPERVISOR_PASSWORD,
  zipEntries,
} from '../support/extrator-pages';
import { LoginPage } from '../support/login-page';
import { DESKTOP, screenshot } from '../support/screens';

test.use({ viewport: DESKTOP });
test.describe.configure({ mode: 'serial' });

let world: ExtratorWorld;

test.beforeAll(async () => {
  world = await setUpExtratorWorld();
});
test.afterAll(async () => {
  await world.admin.dispose();
});

async function signIn(page: Page, login: string): Promise<BackofficeShell> {
  const loginPage = new LoginPage(page);
  await loginPage.goto('backoffice');
  await loginPage.signIn(login, SUPERVISOR_PASSWORD);
  await expect(page).toHaveURL('/backoffice');
  return new BackofficeShell(page);
}

/** SIRGAS 2000 / UTM 22S around Curitiba's centre (lat −25.435, lng −49.275), with a decimal comma (pt-BR). */
function expectUtmCuritiba(row: Record<string, string>): void {
  expect(row.UTM_E).toMatch(/^\d+,\d{2}$/);
  expect(row.UTM_N).toMatch(/^\d+,\d{2}$/);
  const [easting, northing] = [row.UTM_E, row.UTM_N].map((value) => Number(value?.replace(',', '.')));
  expect(easting).toBeGreaterThan(670_000);
  expect(easting).toBeLessThan(680_000);
  expect(northing).toBeGreaterThan(7_180_000);
  expect(northing).toBeLessThan(7_190_000);
}

test('the supervisor extracts the KML, CSV and photos of a range of days and opens them', async ({
  page,
}, testInfo) => {
  const saveTo = (name: string) => testInfo.outputPath(name);
  const shell = await signIn(page, world.supervisor.login);
  await expect(shell.nav.getByRole('link')).toHaveText([
    'Home',
    'Extrator',
    'Relatórios',
    'Supervisao',
    'Revisão',
  ]);

  await shell.menuLink('Extrator').click();
  await expect(page).toHaveURL('/backoffice/extrator');
  const extrator = new ExtratorScreen(page);
  await expect(extrator.heading).toBeVisible();
  // only the projects of the supervisor's client
  expect(await extrator.optionsOf(extrator.projeto)).toEqual([world.projetoNome]);
  await extrator.chooseProjeto(world.projetoNome);

  // the project's days, the whole range by default
  await expect(extrator.dataInicial).toContainText(DIA_1.tela);
  await expect(extrator.dataFinal).toContainText(DIA_2.tela);
  expect(await extrator.optionsOf(extrator.dataInicial)).toEqual([DIA_1.tela, DIA_2.tela]);
  expect(await extrator.optionsOf(extrator.dataFinal)).toEqual([DIA_1.tela, DIA_2.tela]);
  await extrator.choose(extrator.dataInicial, DIA_1.tela);
  await extrator.choose(extrator.dataFinal, DIA_2.tela);

  await expect(extrator.kml.getByRole('link')).toHaveText([
    'Unidades (4)',
    'Postes (3)',
    'Uso Mútuo/IP (0)',
    'Vegetação (2)',
  ]);
  await expect(extrator.csv.getByRole('link')).toHaveText([
    'Unidades (4)',
    'Postes (3)',
    'Postes simplificado (3)',
    'Vegetação (coleta) (2)',
    'Vegetação (produção) (2)',
  ]);
  await expect(extrator.fotos.getByRole('link')).toHaveText(['Fotos (zip) (7)']);
  await expectAccessible(page, 'extrator');
  await screenshot(page, 'backoffice-extrator');

  // Unidades CSV: BOM, ';', fixed headers, accents kept, a typed formula neutralised
  const csv = await download(page, extrator.arquivo(extrator.csv, 'Unidades', 4), saveTo);
  expect(csv.download.suggestedFilename()).toBe(`${world.projetoNome} - Unidades.csv`);
  const unidades = readCsv(csv.file);
  expect(unidades.bom).toBe(true);
  expect(unidades.headers).toEqual([
    'ID',
    'TECNICO',
    'DATA',
    'UTM_E',
    'UTM_N',
    'TIPO_UNIDADE',
    'TIPO_EDIFICACAO',
    'TIPO_IMOVEL',
    'NUMERO',
    'COMPLEMENTO_NUMERO',
    'COMPLEMENTO1',
    'COMPLEMENTO2',
    'COMPLEMENTO3',
    'QUANTIDADE',
    'NOME_EDIFICIO',
    'NOME_BLOCO',
    'TOTAL_ANDARES',
    'APTOS_POR_ANDAR',
    'POSTE',
    'OBSERVACAO',
    'FOTOS',
  ]);
  expect(unidades.rows.map((row) => row.NUMERO).sort()).toEqual(['101', '102', '103', '201']);
  const porNumero = Object.fromEntries(unidades.rows.map((row) => [row.NUMERO, row]));
  expect(porNumero['101']).toMatchObject({
    TECNICO: world.tecnico.nome,
    DATA: `${DIA_1.tela} 09:10:00`,
    TIPO_UNIDADE: 'SDU',
    OBSERVACAO: OBSERVACAO_ACENTOS,
    FOTOS: '2',
  });
  expect(porNumero['102']).toMatchObject({ OBSERVACAO: `'${OBSERVACAO_FORMULA}`, FOTOS: '1' });
  expect(porNumero['201']).toMatchObject({ TECNICO: world.tecnico2.nome, DATA: `${DIA_2.tela} 10:00:00` });
  for (const row of unidades.rows) expectUtmCuritiba(row);

  // Unidades KML: one GDAL layer with the four units
  const kml = await download(page, extrator.arquivo(extrator.kml, 'Unidades', 4), saveTo);
  expect(kml.download.suggestedFilename()).toBe(`${world.projetoNome} - Unidades.kml`);
  expect(ogrLayers(kml.file)).toEqual({ Unidades: 4 });

  // the photos of the range: one entry per photo, under the flow and the record
  const zip = await download(page, extrator.arquivo(extrator.fotos, 'Fotos (zip)', 7), saveTo);
  expect(zip.download.suggestedFilename()).toBe(`${world.projetoNome} - Fotos.zip`);
  const entries = zipEntries(zip.file);
  expect(entries).toHaveLength(7);
  const porPasta = (pasta: string) => entries.filter((entry) => entry.startsWith(`${pasta}/`)).length;
  expect([porPasta('Unidade'), porPasta('Poste'), porPasta('Vegetação')]).toEqual([5, 1, 1]);
  for (const entry of entries) expect(entry).toMatch(/^[^/]+\/[0-9a-f-]{36}\/\d+\.jpg$/);

  // one day only: the counts follow, and so do the files
  await extrator.choose(extrator.dataInicial, DIA_2.tela);
  await expect(extrator.dataFinal).toContainText(DIA_2.tela);
  await expect(extrator.kml.getByRole('link')).toHaveText([
    'Unidades (2)',
    'Postes (2)',
    'Uso Mútuo/IP (0)',
    'Vegetação (1)',
  ]);
  await expect(extrator.csv.getByRole('link')).toHaveText([
    'Unidades (2)',
    'Postes (2)',
    'Postes simplificado (2)',
    'Vegetação (coleta) (1)',
    'Vegetação (produção) (1)',
  ]);
  await expect(extrator.fotos.getByRole('link')).toHaveText(['Fotos (zip) (3)']);
  const dia2 = readCsv((await download(page, extrator.arquivo(extrator.csv, 'Unidades', 2), saveTo)).file);
  expect(dia2.rows.map((row) => row.NUMERO).sort()).toEqual(['103', '201']);
  for (const row of dia2.rows) expect(row.DATA.startsWith(DIA_2.tela)).toBe(true);
  const postesDia2 = await download(page, extrator.arquivo(extrator.kml, 'Postes', 2), saveTo);
  expect(ogrLayers(postesDia2.file)).toEqual({ Postes: 2 });
});

test('the supervisor reads a day per technician and the productivity, and downloads their files', async ({
  page,
}, testInfo) => {
  const saveTo = (name: string) => testInfo.outputPath(name);
  const shell = await signIn(page, world.supervisor.login);
  await shell.menuLink('Relatórios').click();
  await expect(page).toHaveURL('/backoffice/relatorio');
  const relatorio = new RelatorioScreen(page);
  await expect(relatorio.heading).toBeVisible();
  expect(await relatorio.optionsOf(relatorio.projeto)).toEqual([world.projetoNome]);
  await relatorio.chooseProjeto(world.projetoNome);

  // the last day by default; the first day: one technician
  await expect(relatorio.data).toContainText(DIA_2.tela);
  expect(await relatorio.optionsOf(relatorio.data)).toEqual([DIA_1.tela, DIA_2.tela]);
  await relatorio.choose(relatorio.data, DIA_1.tela);
  const dia1 = relatorio.tecnicosTable(DIA_1.tela);
  await expect(dia1.getByRole('columnheader')).toHaveText([
    'Técnico',
    'Unidade',
    'Poste',
    'Vegetação',
    'Total',
    'Arquivos',
  ]);
  await expect(dia1.getByRole('rowheader')).toHaveText([world.tecnico.nome]);
  await expect(relatorio.row(dia1, world.tecnico.nome).getByRole('cell')).toHaveText([
    '2',
    '1',
    '1',
    '4',
    /CSV\s*KML/,
  ]);

  // the second day: one row per technician
  await relatorio.choose(relatorio.data, DIA_2.tela);
  const dia2 = relatorio.tecnicosTable(DIA_2.tela);
  await expect(dia2.getByRole('rowheader')).toHaveCount(2);
  await expect(relatorio.row(dia2, world.tecnico.nome).getByRole('cell')).toHaveText([
    '1',
    '1',
    '1',
    '3',
    /CSV\s*KML/,
  ]);
  await expect(relatorio.row(dia2, world.tecnico2.nome).getByRole('cell')).toHaveText([
    '1',
    '1',
    '0',
    '2',
    /CSV\s*KML/,
  ]);

  // the productivity of the whole range: a chart, a table, a CSV
  await expect(relatorio.produtividadeInicial).toContainText(DIA_1.tela);
  await expect(relatorio.produtividadeFinal).toContainText(DIA_2.tela);
  await expect(relatorio.chart).toBeVisible();
  await expect(relatorio.chart).toHaveAccessibleName(
    `Registros por dia e por técnico, de ${DIA_1.tela} a ${DIA_2.tela}`,
  );
  await expect(relatorio.chart.locator('rect')).toHaveCount(3);
  await expect(relatorio.legenda.getByRole('listitem')).toHaveText([world.tecnico2.nome, world.tecnico.nome]);
  const produtividade = relatorio.produtividadeTable;
  await expect(produtividade.getByRole('rowheader')).toHaveCount(3);
  const linha = (nome: string, dia: string) =>
    produtividade
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: nome, exact: true }) })
      .filter({ hasText: dia });
  await expect(linha(world.tecnico.nome, DIA_1.tela).getByRole('cell')).toHaveText([
    DIA_1.tela,
    '4',
    '09:10',
    '16:30',
    '5,0',
    /^\d+%$/,
  ]);
  await expect(linha(world.tecnico.nome, DIA_2.tela).getByRole('cell')).toHaveText([
    DIA_2.tela,
    '3',
    '08:15',
    '14:45',
    '3,0',
    /^\d+%$/,
  ]);
  await expect(linha(world.tecnico2.nome, DIA_2.tela).getByRole('cell')).toHaveText([
    DIA_2.tela,
    '2',
    '10:00',
    '10:20',
    '8,0',
    /^\d+%$/,
  ]);
  await expectAccessible(page, 'relatorio');
  await screenshot(page, 'backoffice-relatorio');

  // a technician's day: every flow in one CSV, one KML layer per flow of the project
  const csv = await download(page, dia2.getByRole('link', { name: `CSV de ${world.tecnico.nome}` }), saveTo);
  const dia = readCsv(csv.file);
  expect(dia.bom).toBe(true);
  expect(dia.headers).toEqual(['FLUXO', 'ID', 'TECNICO', 'DATA', 'UTM_E', 'UTM_N']);
  expect(dia.rows.map((row) => row.FLUXO).sort()).toEqual(['Poste', 'Unidade', 'Vegetação']);
  for (const row of dia.rows) {
    expect(row.TECNICO).toBe(world.tecnico.nome);
    expect(row.DATA.startsWith(DIA_2.tela)).toBe(true);
    expectUtmCuritiba(row);
  }
  const kml = await download(page, dia2.getByRole('link', { name: `KML de ${world.tecnico.nome}` }), saveTo);
  expect(kml.download.suggestedFilename()).toMatch(/\.kml$/);
  const camadas = ogrLayers(kml.file);
  expect(camadas).toMatchObject({ Unidades: 1, Postes: 1, Vegetação: 1 });
  expect(Object.values(camadas).reduce((sum, count) => sum + count, 0)).toBe(3);
  const kml2 = await download(
    page,
    dia2.getByRole('link', { name: `KML de ${world.tecnico2.nome}` }),
    saveTo,
  );
  const camadas2 = ogrLayers(kml2.file);
  expect(camadas2).toMatchObject({ Unidades: 1, Postes: 1 });
  expect(Object.values(camadas2).reduce((sum, count) => sum + count, 0)).toBe(2);
  const csv2 = readCsv(
    (await download(page, dia2.getByRole('link', { name: `CSV de ${world.tecnico2.nome}` }), saveTo)).file,
  );
  expect(csv2.rows.map((row) => [row.FLUXO, row.TECNICO]).sort()).toEqual([
    ['Poste', world.tecnico2.nome],
    ['Unidade', world.tecnico2.nome],
  ]);

  // the productivity as CSV
  const baixado = await download(page, relatorio.baixarCsv, saveTo);
  expect(baixado.download.suggestedFilename()).toBe(`${world.projetoNome} - Produtividade.csv`);
  const tabela = readCsv(baixado.file);
  expect(tabela.bom).toBe(true);
  expect(tabela.headers.slice(0, 2)).toEqual(['TECNICO', 'DATA']);
  expect(tabela.headers).toEqual(expect.arrayContaining(['UNIDADE', 'POSTE', 'VEGETAÇÃO', 'TOTAL']));
  expect(tabela.rows).toHaveLength(3);
  const alvaro = tabela.rows.find((row) => row.TECNICO === world.tecnico2.nome);
  expect(alvaro).toMatchObject({
    DATA: DIA_2.tela,
    UNIDADE: '1',
    POSTE: '1',
    VEGETAÇÃO: '0',
    TOTAL: '2',
    PRIMEIRO: '10:00',
    ULTIMO: '10:20',
    PRECISAO_MEDIANA_M: '8,0',
  });
  expect(
    tabela.rows
      .filter((row) => row.TECNICO === world.tecnico.nome)
      .map((row) => [row.DATA, row.TOTAL])
      .sort(),
  ).toEqual([
    [DIA_1.tela, '4'],
    [DIA_2.tela, '3'],
  ]);
});

test('a supervisor of another client does not see the project', async ({ page }) => {
  const shell = await signIn(page, world.outroSupervisor.login);
  await shell.menuLink('Extrator').click();
  const extrator = new ExtratorScreen(page);
  await expect(extrator.heading).toBeVisible();
  const projetos = await extrator.optionsOf(extrator.projeto);
  expect(projetos).toEqual([world.outroSupervisor.projetoNome]);
  expect(projetos).not.toContain(world.projetoNome);
  // their own project has no records yet
  await extrator.chooseProjeto(world.outroSupervisor.projetoNome);
  await expect(extrator.noData).toBeVisible();

  await shell.menuLink('Relatórios').click();
  const relatorio = new RelatorioScreen(page);
  await expect(relatorio.heading).toBeVisible();
  expect(await relatorio.optionsOf(relatorio.projeto)).toEqual([world.outroSupervisor.projetoNome]);

  // nor can they ask the server for it
  for (const url of [
    `/api/projeto/${world.projetoId}/datas`,
    `/api/extrator/${world.projetoId}`,
    `/api/extrator/${world.projetoId}/unidades.csv`,
    `/api/relatorio/${world.projetoId}?data=${DIA_2.iso}`,
  ]) {
    const response = await page.request.get(url);
    expect(response.status(), url).toBe(403);
  }
});

test('a project with no records yet offers its KML files all the same', async ({ page }, testInfo) => {
  const shell = await signIn(page, world.outroSupervisor.login);
  await shell.menuLink('Extrator').click();
  const extrator = new ExtratorScreen(page);
  await extrator.chooseProjeto(world.outroSupervisor.projetoNome);

  // no days to choose and nothing for the CSV section, but the KML of every flow of the project (SPEC.md 2)
  await expect(extrator.kml.getByRole('link')).toHaveText(['Unidades (0)']);
  await expect(extrator.noData).toBeVisible();
  await expect(extrator.dataInicial).toHaveCount(0);
  await expect(extrator.csv).toHaveCount(0);
  await expectAccessible(page, 'extrator sem registros');

  const kml = await download(page, extrator.arquivo(extrator.kml, 'Unidades', 0), (name) =>
    testInfo.outputPath(name),
  );
  expect(kml.download.suggestedFilename()).toBe(`${world.outroSupervisor.projetoNome} - Unidades.kml`);
});

test('the supervisor includes the review and its flags in the files, and filters by them', async ({
  page,
}, testInfo) => {
  const shell = await signIn(page, world.supervisor.login);
  await shell.menuLink('Extrator').click();
  const extrator = new ExtratorScreen(page);
  await extrator.chooseProjeto(world.projetoNome);
  const revisao = extrator.section('Revisão');
  const incluir = revisao.getByRole('checkbox', { name: 'Incluir revisão e sinalizações' });
  const estado = extrator.combobox('Estado da revisão', '.*', revisao);
  const sinalizacao = extrator.combobox('Sinalização', '.*', revisao);
  await expect(incluir).not.toBeChecked();
  await expect(estado).toContainText('Todos');
  await expect(sinalizacao).toContainText('Todas');
  expect(await extrator.optionsOf(estado)).toEqual(['Todos', 'Pendente', 'Aprovado', 'Reprovado']);
  const sinalizacoes = await extrator.optionsOf(sinalizacao);
  expect(sinalizacoes[0]).toBe('Todas');
  expect(sinalizacoes).toContain('Precisão do GPS acima do limite');
  expect(sinalizacoes.slice(-2)).toEqual(['Qualquer sinalização', 'Sem sinalização']);

  // every record starts pending: the columns come after the spec's, the counts stay
  await incluir.check();
  const unidadesCsv = extrator.arquivo(extrator.csv, 'Unidades', 4);
  await expect(unidadesCsv).toHaveAttribute('href', /[?&]revisao=1(&|$)/);
  for (const link of await page.getByRole('link', { name: /\(\d+\)$/ }).all()) {
    await expect(link).toHaveAttribute('href', /[?&]revisao=1(&|$)/);
  }
  await expectAccessible(page, 'extrator com revisão');
  await page.screenshot({ path: '/tmp/exp-shots/extrator.png', fullPage: true });
  const csv = readCsv((await download(page, unidadesCsv, (name) => testInfo.outputPath(name))).file);
  expect(csv.headers.slice(0, 5)).toEqual(['ID', 'TECNICO', 'DATA', 'UTM_E', 'UTM_N']);
  expect(csv.headers.slice(-4)).toEqual(['FOTOS', 'Revisão', 'Versão', 'Sinalizações']);
  expect(csv.rows).toHaveLength(4);
  for (const row of csv.rows) expect(row).toMatchObject({ Revisão: 'Pendente', Versão: '1' });

  // nothing approved yet: no CSV, and the KML buttons count none
  await extrator.choose(estado, 'Aprovado');
  await expect(extrator.csv.getByText('Nenhum arquivo CSV com registros no período.')).toBeVisible();
  await expect(extrator.arquivo(extrator.kml, 'Unidades', 0)).toHaveAttribute('href', /estado=aprovado/);
  await extrator.choose(estado, 'Todos');
  await expect(extrator.arquivo(extrator.csv, 'Unidades', 4)).toBeVisible();

  // the Relatórios offer the same choice for a technician's day
  await shell.menuLink('Relatórios').click();
  const relatorio = new RelatorioScreen(page);
  await relatorio.chooseProjeto(world.projetoNome);
  const dia2 = relatorio.tecnicosTable(DIA_2.tela);
  await expect(dia2.getByRole('rowheader')).toHaveCount(2);
  await page.getByRole('checkbox', { name: 'Incluir revisão e sinalizações' }).check();
  const csvDoDia = dia2.getByRole('link', { name: `CSV de ${world.tecnico.nome}` });
  await expect(csvDoDia).toHaveAttribute('href', /[?&]revisao=1(&|$)/);
  await expectAccessible(page, 'relatorio com revisão');
  const dia = readCsv((await download(page, csvDoDia, (name) => testInfo.outputPath(name))).file);
  expect(dia.headers).toEqual([
    'FLUXO',
    'ID',
    'TECNICO',
    'DATA',
    'UTM_E',
    'UTM_N',
    'Revisão',
    'Versão',
    'Sinalizações',
  ]);
  await relatorio.choose(relatorio.combobox('Estado da revisão'), 'Reprovado');
  await expect(relatorio.noData).toBeVisible();
});

test('the supervisor downloads the range as a GeoPackage and an XLSX, beside the CSV and KML', async ({
  page,
}, testInfo) => {
  const saveTo = (name: string) => testInfo.outputPath(name);
  const shell = await signIn(page, world.supervisor.login);
  await shell.menuLink('Extrator').click();
  const extrator = new ExtratorScreen(page);
  await extrator.chooseProjeto(world.projetoNome);
  await expect(extrator.dataFinal).toContainText(DIA_2.tela);

  // every record of the range in one GeoPackage; the five CSV files with rows in one XLSX
  const geopackage = extrator.section('GeoPackage');
  const xlsx = extrator.section('XLSX');
  await expect(geopackage.getByRole('link')).toHaveText(['GeoPackage (9)']);
  await expect(xlsx.getByRole('link')).toHaveText(['XLSX (14)']);
  await expectAccessible(page, 'extrator com GeoPackage e XLSX');
  await screenshot(page, 'backoffice-extrator-geopackage-xlsx');

  const gpkg = await download(page, extrator.arquivo(geopackage, 'GeoPackage', 9), saveTo);
  expect(gpkg.download.suggestedFilename()).toBe(`${world.projetoNome}.gpkg`);
  expect(ogrLayers(gpkg.file)).toEqual({ Unidades: 4, Postes: 3, 'Uso Mútuo/IP': 0, Vegetação: 2 });

  const planilha = await download(page, extrator.arquivo(xlsx, 'XLSX', 14), saveTo);
  expect(planilha.download.suggestedFilename()).toBe(`${world.projetoNome}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(planilha.file);
  // a sheet per CSV file, its rows under the CSV's header
  expect(workbook.worksheets.map((sheet) => [sheet.name, sheet.rowCount - 1])).toEqual([
    ['Unidades', 4],
    ['Postes', 3],
    ['Postes simplificado', 3],
    ['Vegetação (coleta)', 2],
    ['Vegetação (produção)', 2],
  ]);
  const unidades = workbook.getWorksheet('Unidades');
  expect(unidades?.getRow(1).getCell(3).value).toBe('DATA');
  expect(unidades?.getRow(2).getCell(3).value).toBeInstanceOf(Date);
  expect(typeof unidades?.getRow(2).getCell(4).value).toBe('number');
});
