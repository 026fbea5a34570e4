// The GeoPackage and XLSX exports (issue 27) read back by tools nobody here wrote: GDAL's ogrinfo opens the
// GeoPackage, lists a layer per flow with its features and attributes, which are the CSV's; LibreOffice headless
// turns each sheet of the XLSX into a CSV that is the CSV export's; exceljs reads dates as dates and numbers as
// numbers. And both stop, giving their cursor back, when the download is cut off.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOWS } from '@novus/domain/flows/registry';
import { arquivoDoDia, type Extracao, type RelatorioTecnico } from '@novus/domain/export/api';
import {
  createScratch,
  ogrFeatures,
  ogrLayers,
  parseCsv,
  type ParsedCsv,
  type Scratch,
  sofficePath,
} from './support/files.ts';
import {
  createAdminCliente,
  createCookie,
  createFieldProject,
  createProjeto,
  createTestContext,
  type FieldProject,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

const CENTRO = { lat: -25.435, lng: -49.275 };

/** America/Sao_Paulo has been UTC−3 all year since 2019: a local time of November 2026 as an instant. */
const local = (dia: number, hora: number, minuto = 0) => Date.UTC(2026, 10, dia, hora + 3, minuto);

const LABEL = Object.fromEntries(FLOWS.map((flow) => [flow.key, flow.exports.kml.label]));

// Locally the test needs LibreOffice; on CI (.ci/run installs it) a missing soffice fails it.
const semPlanilha = sofficePath() === undefined && process.env.CI !== 'true';

/**
 * Every sheet of an xlsx as LibreOffice Calc saves it as CSV (`;`, `"`, UTF-8, cells as shown), by sheet name:
 * soffice writes `<file>-<sheet>.csv` for each sheet when asked for all (-1).
 */
function sheetsAsCsv(xlsx: string, sheets: readonly string[]): Record<string, ParsedCsv> {
  const soffice = sofficePath();
  if (!soffice) throw new Error('soffice not found: install libreoffice-calc-nogui (.ci/run does)');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-soffice-'));
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-xlsx-csv-'));
  try {
    execFileSync(
      soffice,
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        '--convert-to',
        'csv:Text - txt - csv (StarCalc):59,34,76,1,,0,false,true,true,false,false,-1',
        '--outdir',
        outDir,
        xlsx,
      ],
      {
        env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', HOME: profile },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 180_000,
      },
    );
    const base = path.basename(xlsx, '.xlsx');
    return Object.fromEntries(
      sheets.map((sheet) => [sheet, parseCsv(fs.readFileSync(path.join(outDir, `${base}-${sheet}.csv`)))]),
    );
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

describe('GeoPackage and XLSX exports', () => {
  let ctx: TestContext;
  let scratch: Scratch;
  let campo: FieldProject;
  /** Record ids by the name this file gives them. */
  const ids: Record<string, string> = {};
  const posicoes = new Map<string, { lat: number; lng: number }>();

  async function download(url: string, cookie = campo.admin) {
    const response = await ctx.app.inject({ method: 'GET', url, headers: { cookie } });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response;
  }

  beforeAll(async () => {
    ctx = await createTestContext();
    scratch = createScratch();
    campo = await createFieldProject(ctx.app, ctx.db, {
      nome: 'Arquivos',
      fluxos: ['hc', 'poste', 'arvore'],
      firstName: 'João',
    });
    let n = 0;
    const enviar = async (nome: string, apiPath: string, at: number, fields: Record<string, string>) => {
      const id = crypto.randomUUID();
      n += 1;
      const posicao = { lat: CENTRO.lat + n * 1e-4, lng: CENTRO.lng - n * 1e-4 };
      const response = await uploadRecord(
        ctx.app,
        apiPath,
        { id, projeto: campo.projeto, coordenadas: JSON.stringify(posicao), dataHora: String(at), ...fields },
        { cookie: campo.tecnicoCookie },
      );
      expect(response.statusCode, `${nome}: ${response.body}`).toBe(201);
      ids[nome] = id;
      posicoes.set(id, posicao);
    };
    const poste = {
      tipo: 'CONCRETO CIRCULAR',
      carga: '600',
      tipoRedeEletrica: 'MISTA',
      aterramento: 'true',
      equipamentoRedeEnergia: 'TRANSFORMADOR',
    };
    await enviar('poste1', 'poste', local(21, 8), { ...poste, altura: '10.5' });
    // A height that is not a number stays the CSV's text; an observation with a ';', quotes and a formula.
    await enviar('poste2', 'poste', local(21, 8, 30), {
      ...poste,
      altura: 'OUTROS',
      observacao: '=1+1; "alto" demais',
    });
    await enviar('unidade1', 'unidade', local(21, 9), {
      tipoUnidade: 'SDU',
      tipoEdificacao: 'Residencial',
      tipoImovel: 'RESIDENCIAL',
      quantidade: '1',
      numero: '10',
      complemento1: '1.2.3',
      complemento2: '007',
      drop: ids.poste1 ?? '',
    });
    await enviar('arvore1', 'arvore', local(21, 10), {
      contatoRede: JSON.stringify(['Baixa Tensão']),
      projecaoRede: JSON.stringify([]),
      distanciaRedeBT: '0.8',
      diametroTronco: '35,5',
      fenotipo: 'Ipê-amarelo',
      altura: '4.5',
    });
    await enviar('arvore2', 'arvore', local(22, 7, 45), {
      contatoRede: JSON.stringify([]),
      projecaoRede: JSON.stringify([]),
      altura: '12',
    });
  }, 120_000);
  afterAll(async () => {
    scratch?.remove();
    await ctx?.close();
  });

  const csvOf = async (url: string) => parseCsv((await download(url)).rawPayload);

  it('the Extrator offers a GeoPackage of every record and an XLSX of the CSV files with rows', async () => {
    const extracao = (await download(`/api/extrator/${campo.projeto}?revisao=1`)).json<Extracao>();
    expect(extracao.geopackage).toEqual({
      id: 'geopackage',
      label: 'GeoPackage',
      url: `/api/extrator/${campo.projeto}/registros.gpkg?revisao=1`,
      nome: 'Arquivos.gpkg',
      registros: 5,
    });
    // unidades 1, postes 2, postes simplificado 2, vegetação 2, its production 2 technician-days.
    expect(extracao.xlsx).toMatchObject({ label: 'XLSX', nome: 'Arquivos.xlsx', registros: 9 });
    expect(extracao.xlsx?.url).toBe(`/api/extrator/${campo.projeto}/planilha.xlsx?revisao=1`);
  });

  it('GDAL opens the GeoPackage: a point layer per flow in EPSG:4326 with the CSV’s columns and values', async () => {
    const response = await download(`/api/extrator/${campo.projeto}/registros.gpkg`);
    expect(response.headers['content-type']).toBe('application/geopackage+sqlite3');
    expect(response.headers['content-disposition']).toContain('filename="Arquivos.gpkg"');
    const file = scratch.write('extrator.gpkg', response.rawPayload);
    expect(ogrLayers(file)).toEqual([
      { name: LABEL.hc, features: 1 },
      { name: LABEL.poste, features: 2 },
      { name: LABEL.arvore, features: 2 },
    ]);
    const summary = execFileSync('/usr/bin/ogrinfo', ['-ro', '-so', file, LABEL.poste ?? ''], {
      encoding: 'utf8',
    });
    expect(summary).toContain('Geometry: Point');
    expect(summary).toMatch(/ID\["EPSG",4326\]/);
    expect(summary).toMatch(/^UTM_E: Real/m);
    expect(summary).toMatch(/^QTD_DROP: Integer/m);
    expect(summary).toMatch(/^ALTURA: String/m);

    for (const [fluxo, csv] of [
      ['hc', 'unidades'],
      ['poste', 'postes'],
      ['arvore', 'vegetacao'],
    ] as const) {
      const expected = await csvOf(`/api/extrator/${campo.projeto}/${csv}.csv?decimal=ponto`);
      const features = ogrFeatures(file, LABEL[fluxo] ?? '');
      expect(features.length, fluxo).toBe(expected.rows.length);
      const attributes = Object.keys(features[0] ?? {}).filter((name) => name !== 'POINT' && name !== 'fid');
      expect(attributes, fluxo).toEqual(expected.headers);
      for (const row of expected.rows) {
        const feature = features.find((candidate) => candidate.ID === row.ID);
        expect(feature, `${fluxo} ${row.ID}`).toBeDefined();
        for (const header of expected.headers) {
          const value = feature?.[header];
          const csvValue = row[header] ?? '';
          // ogrinfo writes a null as (null) and a Real as %.15g: 674123.4 for the CSV's 674123.40.
          if (csvValue === '') expect(value, `${fluxo} ${header}`).toBe('(null)');
          else if (/^UTM_/.test(header)) expect(Number(value), header).toBe(Number(csvValue));
          else expect(value, `${fluxo} ${header}`).toBe(csvValue);
        }
        const posicao = posicoes.get(row.ID ?? '');
        const [lng, lat] = (feature?.POINT ?? '').split(' ').map(Number);
        expect(lng).toBeCloseTo(posicao?.lng ?? Number.NaN, 9);
        expect(lat).toBeCloseTo(posicao?.lat ?? Number.NaN, 9);
      }
    }
    expect(ogrFeatures(file, LABEL.poste ?? '').find((f) => f.ID === ids.poste2)).toMatchObject({
      ALTURA: 'OUTROS',
      OBSERVACAO: `'=1+1; "alto" demais`,
    });
  });

  it.skipIf(semPlanilha)(
    'LibreOffice turns each sheet of the XLSX into the CSV the Extrator exports',
    async () => {
      const response = await download(`/api/extrator/${campo.projeto}/planilha.xlsx?revisao=1`);
      expect(response.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      const file = scratch.write('planilha.xlsx', response.rawPayload);
      const files = {
        Unidades: 'unidades',
        Postes: 'postes',
        'Postes simplificado': 'postes-simplificado',
        'Vegetação (coleta)': 'vegetacao',
        'Vegetação (produção)': 'vegetacao-producao',
      };
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(file);
      const labels = (await download(`/api/extrator/${campo.projeto}`))
        .json<Extracao>()
        .csv.map((arquivo) => arquivo.label);
      expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(labels);
      const sheets = sheetsAsCsv(file, labels);
      for (const label of labels) {
        const id = files[label as keyof typeof files];
        expect(id, label).toBeDefined();
        const expected = await csvOf(`/api/extrator/${campo.projeto}/${id}.csv?decimal=ponto&revisao=1`);
        expect(sheets[label]?.headers, label).toEqual(expected.headers);
        expect(sheets[label]?.rows, label).toEqual(expected.rows);
      }
    },
    240_000,
  );

  it('exceljs reads the XLSX’s dates as dates, numbers as numbers, text as the CSV’s', async () => {
    const response = await download(`/api/extrator/${campo.projeto}/planilha.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(scratch.write('tipos.xlsx', response.rawPayload));
    const sheet = (name: string) => {
      const found = workbook.getWorksheet(name);
      if (!found) throw new Error(`no sheet ${name}`);
      const headers: string[] = [];
      found.getRow(1).eachCell((cell, column) => {
        headers[column] = String(cell.value);
      });
      const rows: Record<string, ExcelJS.CellValue>[] = [];
      found.eachRow((row, number) => {
        if (number === 1) return;
        const record: Record<string, ExcelJS.CellValue> = {};
        row.eachCell((cell, column) => {
          record[headers[column] ?? ''] = cell.value;
        });
        rows.push(record);
      });
      return rows;
    };
    const byId = (rows: Record<string, ExcelJS.CellValue>[], nome: string) =>
      rows.find((row) => row.ID === ids[nome]);
    const stored = await ctx.db.query<{ id: string; utm_e: string; utm_n: string }>(
      'SELECT id::text, utm_e::text, utm_n::text FROM registros WHERE projeto = $1',
      [campo.projeto],
    );
    const postes = sheet('Postes');
    // The spreadsheet's local date and time, as exceljs gives it: in UTC.
    expect(byId(postes, 'poste1')).toMatchObject({
      DATA: new Date(Date.UTC(2026, 10, 21, 8, 0)),
      ALTURA: 10.5,
      CARGA: 600,
      QTD_DROP: 1,
      TIPO: 'CONCRETO CIRCULAR',
      ATERRAMENTO: 'SIM',
      FOTOS: 0,
    });
    expect(byId(postes, 'poste2')).toMatchObject({ ALTURA: 'OUTROS', OBSERVACAO: `'=1+1; "alto" demais` });
    for (const row of [...postes, ...sheet('Unidades'), ...sheet('Vegetação (coleta)')]) {
      const record = stored.find((candidate) => candidate.id === row.ID);
      expect(row.UTM_E).toBe(Number(record?.utm_e));
      expect(row.UTM_N).toBe(Number(record?.utm_n));
      expect(row.DATA).toBeInstanceOf(Date);
    }
    expect(byId(sheet('Unidades'), 'unidade1')).toMatchObject({
      NUMERO: 10,
      QUANTIDADE: 1,
      COMPLEMENTO1: '1.2.3',
      COMPLEMENTO2: '007',
      TECNICO: 'João de Tal',
    });
    expect(byId(sheet('Vegetação (coleta)'), 'arvore1')).toMatchObject({
      DISTANCIA_REDE_BT: 0.8,
      DIAMETRO_TRONCO: 35.5,
      ALTURA: 4.5,
      FENOTIPO: 'Ipê-amarelo',
    });
    expect(sheet('Vegetação (produção)').map((row) => [row.DATA, row.QUANTIDADE])).toEqual([
      [new Date(Date.UTC(2026, 10, 21)), 1],
      [new Date(Date.UTC(2026, 10, 22)), 1],
    ]);
  });

  it('the Relatórios give a technician’s day as a GeoPackage and an XLSX', async () => {
    const [linha] = (await download(`/api/relatorio/${campo.projeto}?data=2026-11-21`)).json<
      RelatorioTecnico[]
    >();
    const gpkgUrl = arquivoDoDia(linha?.csv ?? '', 'gpkg');
    const xlsxUrl = arquivoDoDia(linha?.csv ?? '', 'xlsx');
    expect(gpkgUrl).toBe(`/api/relatorio/${campo.projeto}/${campo.tecnico.id}.gpkg?data=2026-11-21`);
    expect(xlsxUrl).toBe(`/api/relatorio/${campo.projeto}/${campo.tecnico.id}.xlsx?data=2026-11-21`);
    const gpkg = scratch.write('dia.gpkg', (await download(gpkgUrl)).rawPayload);
    expect(ogrLayers(gpkg)).toEqual([
      { name: LABEL.hc, features: 1 },
      { name: LABEL.poste, features: 2 },
      { name: LABEL.arvore, features: 1 },
    ]);
    const xlsx = scratch.write('dia.xlsx', (await download(xlsxUrl)).rawPayload);
    const csv = await csvOf((linha?.csv ?? '').concat('&decimal=ponto'));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(xlsx);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['João de Tal 2026-11-21']);
    const sheet = workbook.worksheets[0];
    expect(sheet?.getRow(1).values).toEqual([undefined, ...csv.headers]);
    expect(sheet?.rowCount).toBe(csv.rows.length + 1);
    // The first of the day: poste1 at 8:00.
    expect(sheet?.getRow(2).getCell(1).value).toBe('Poste');
  });

  it('refuses both to a supervisor of another client, and an XLSX with nothing in it', async () => {
    const { cliente } = await createAdminCliente(ctx.app, ctx.db, 'Outro cliente');
    const outro = await createCookie(ctx.app, ctx.db, { roles: ['supervisor'], cliente });
    for (const arquivo of ['registros.gpkg', 'planilha.xlsx']) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/extrator/${campo.projeto}/${arquivo}`,
        headers: { cookie: outro },
      });
      expect(response.statusCode, arquivo).toBe(403);
    }
    const vazio = await ctx.app.inject({
      method: 'GET',
      url: `/api/extrator/${campo.projeto}/planilha.xlsx?dataInicio=2026-01-01&dataFim=2026-01-02`,
      headers: { cookie: campo.admin },
    });
    expect(vazio.statusCode).toBe(404);
    expect(vazio.json().message).toMatch(/Nenhum arquivo CSV com registros/);
  });
});

const ROWS = 20_000;

describe('a GeoPackage or XLSX cut off half-way', () => {
  let ctx: TestContext;
  let base: string;
  let supervisor: string;
  let projeto: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    const { admin, cliente } = await createAdminCliente(ctx.app, ctx.db, 'Copel');
    ({ _id: projeto } = await createProjeto(ctx.app, admin, { nome: 'Grande', cliente, fluxos: ['hc'] }));
    supervisor = await createCookie(ctx.app, ctx.db, { roles: ['supervisor'], cliente });
    await ctx.db.query(
      `INSERT INTO registros (id, fluxo, projeto, lat, lng, geom, data_hora, coletado, dados)
       SELECT gen_random_uuid(), 'hc', $1, -25.435 + i * 1e-7, -49.275, ST_SetSRID(ST_MakePoint(-49.275, -25.435 + i * 1e-7), 4326),
         now() - i * interval '1 second', true,
         jsonb_build_object('numero', i::text, 'observacao', repeat('texto longo ', 20))
       FROM generate_series(1, ${ROWS}) i`,
      [projeto],
    );
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const address = ctx.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    ctx.app.server.closeAllConnections();
    await ctx.close();
  });

  const tempFiles = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('novus-gpkg-'));

  it.each([
    ['XLSX, once its first bytes arrived', 'planilha.xlsx', true],
    ['GeoPackage, while its file is being written', 'registros.gpkg', false],
  ])('%s: the server answers the next request at once', async (_, arquivo, firstBytes) => {
    const before = new Set(tempFiles());
    const controller = new AbortController();
    const response = fetch(`${base}/api/extrator/${projeto}/${arquivo}`, {
      headers: { cookie: supervisor },
      signal: controller.signal,
    });
    if (firstBytes) {
      const reader = (await response).body?.getReader();
      const first = await reader?.read();
      expect(first?.value?.length ?? 0).toBeGreaterThan(0);
      controller.abort();
      await reader?.cancel().catch(() => undefined);
    } else {
      // The GeoPackage is being written: its file exists before any byte is sent.
      await expect.poll(() => tempFiles().filter((name) => !before.has(name)).length).toBeGreaterThan(0);
      controller.abort();
      await response.catch(() => undefined);
    }
    const next = await fetch(`${base}/api/projeto/${projeto}/datas`, { headers: { cookie: supervisor } });
    expect(next.status).toBe(200);
    expect(await next.json()).not.toHaveLength(0);
    // The GeoPackage's temporary file is deleted once it stopped.
    await expect.poll(() => tempFiles().filter((name) => !before.has(name)), { timeout: 20_000 }).toEqual([]);
  });
});
