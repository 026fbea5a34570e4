// The review state and flags in the Extrator's and the Relatórios' files (issue 24): `?revisao=1` appends
// 'Revisão', 'Versão' and 'Sinalizações' after the spec's columns (CSV, and KML read by GDAL's ogrinfo);
// `?estado=` and `?flag=` keep some records, and the Extrator's counts and links follow; bad values are refused in
// Portuguese; without them every file is what it was, byte for byte.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Extracao, RelatorioTecnico } from '@novus/domain/export/api';
import { flagText } from '@novus/domain/export/revisao';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';
import type { Flag } from '@novus/domain/revisao';
import { registrosQuery } from '../src/modules/export/queries.ts';
import { csvStream } from '../src/modules/export/writers.ts';
import { createScratch, ogrFeatures, ogrLayers, parseCsv, type Scratch } from './support/files.ts';
import {
  createFieldProject,
  createTestContext,
  type FieldProject,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

const CENTRO = { lat: -25.435, lng: -49.275 };

/** America/Sao_Paulo has been UTC−3 all year since 2019: a local time of November 2026 as an instant. */
const local = (dia: number, hora: number, minuto = 0) => Date.UTC(2026, 10, dia, hora + 3, minuto);

/** SPEC.md 9's header of the units' CSV: with or without the review, these come first and in this order. */
const UNIDADES = [
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
];
const REVISAO = ['Revisão', 'Versão', 'Sinalizações'];

/** What each record is given by the review (set here with SQL: the upload's flags are the lead's part). */
const REVISOES: Record<string, { flags: Flag[]; revisao: string; versao: number }> = {
  u1: {
    flags: [
      { codigo: 'precisao_baixa', valor: 23.5 },
      { codigo: 'duplicata', valor: 1.2 },
    ],
    revisao: 'aprovado',
    versao: 2,
  },
  u2: { flags: [{ codigo: 'fora_da_zona', valor: null }], revisao: 'reprovado', versao: 1 },
  u3: { flags: [], revisao: 'pendente', versao: 1 },
  p1: { flags: [{ codigo: 'poucas_fotos', valor: 0 }], revisao: 'pendente', versao: 1 },
};

describe('review state and flags in the exports', () => {
  let ctx: TestContext;
  let scratch: Scratch;
  let campo: FieldProject;
  const ids: Record<string, string> = {};
  /** The files as they were before any record had a review: what a file without the parameters must still be. */
  const antes: Record<string, Buffer> = {};

  const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie: campo.admin } });

  async function download(url: string): Promise<Buffer> {
    const response = await get(url);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.rawPayload;
  }

  const extrator = (arquivo: string) => `/api/extrator/${campo.projeto}/${arquivo}`;
  const kml = (apiPath: string, query = '') => `/api/${apiPath}/${campo.projeto}/kml${query}`;
  const tecnicoDia = (query = '') =>
    `/api/relatorio/${campo.projeto}/${campo.tecnico.id}.csv?data=2026-11-21${query}`;
  const tecnicoDiaKml = (query = '') =>
    `/api/relatorio/${campo.projeto}/${campo.tecnico.id}.kml?data=2026-11-21${query}`;

  /** The records (by this file's names) a CSV holds, in its order. */
  const nomes = (csv: Buffer) =>
    parseCsv(csv).rows.map((row) => Object.keys(ids).find((nome) => ids[nome] === row.ID));

  const SEM_PARAMETROS = () => ({
    unidades: extrator('unidades.csv'),
    postes: extrator('postes.csv'),
    'vegetacao-producao': extrator('vegetacao-producao.csv'),
    'unidade-kml': kml('unidade'),
    'poste-kml': kml('poste'),
    'tecnico-dia': tecnicoDia(),
    'tecnico-dia-kml': tecnicoDiaKml(),
  });

  beforeAll(async () => {
    ctx = await createTestContext();
    scratch = createScratch();
    campo = await createFieldProject(ctx.app, ctx.db, {
      nome: 'Revisão',
      fluxos: ['hc', 'poste', 'arvore'],
      firstName: 'João',
    });
    let n = 0;
    const enviar = async (nome: string, apiPath: string, at: number, fields: Record<string, string>) => {
      const id = crypto.randomUUID();
      n += 1;
      const response = await uploadRecord(
        ctx.app,
        apiPath,
        {
          id,
          projeto: campo.projeto,
          coordenadas: JSON.stringify({ lat: CENTRO.lat + n * 1e-4, lng: CENTRO.lng - n * 1e-4 }),
          dataHora: String(at),
          precisao: '5',
          ...fields,
        },
        { cookie: campo.tecnicoCookie },
      );
      expect(response.statusCode, `${nome}: ${response.body}`).toBe(201);
      ids[nome] = id;
    };
    const unidade = (numero: string) => ({
      tipoUnidade: 'SDU',
      tipoEdificacao: 'Residencial',
      tipoImovel: 'RESIDENCIAL',
      quantidade: '1',
      numero,
    });
    await enviar('p1', 'poste', local(21, 8), {
      tipo: 'CONCRETO CIRCULAR',
      carga: '600',
      tipoRedeEletrica: 'MISTA',
      aterramento: 'true',
      equipamentoRedeEnergia: 'TRANSFORMADOR',
      altura: '10.5',
    });
    await enviar('u1', 'unidade', local(21, 9), unidade('101'));
    await enviar('u2', 'unidade', local(21, 10), unidade('102'));
    await enviar('u3', 'unidade', local(21, 11), unidade('103'));
    await enviar('a1', 'arvore', local(21, 12), {
      contatoRede: JSON.stringify([]),
      projecaoRede: JSON.stringify([]),
      altura: '4.5',
    });
    // Whatever the upload set, the records start with no review, as every record before issue 24.
    await ctx.db.query(
      `UPDATE registros SET flags = '[]', revisao = 'pendente', versao = 1 WHERE projeto = $1`,
      [campo.projeto],
    );
    for (const [nome, url] of Object.entries(SEM_PARAMETROS())) antes[nome] = await download(url);
    for (const [nome, { flags, revisao, versao }] of Object.entries(REVISOES)) {
      await ctx.db.query('UPDATE registros SET flags = $2::jsonb, revisao = $3, versao = $4 WHERE id = $1', [
        ids[nome],
        JSON.stringify(flags),
        revisao,
        versao,
      ]);
    }
  }, 120_000);
  afterAll(async () => {
    scratch?.remove();
    await ctx?.close();
  });

  it('leaves every file as it was without the parameters, the spec’s header first', async () => {
    for (const [nome, url] of Object.entries(SEM_PARAMETROS())) {
      expect((await download(url)).equals(antes[nome] ?? Buffer.alloc(0)), nome).toBe(true);
    }
    expect(
      (await download(`${extrator('unidades.csv')}?revisao=0`)).equals(antes.unidades ?? Buffer.alloc(0)),
    ).toBe(true);
    expect(parseCsv(antes.unidades ?? Buffer.alloc(0)).headers).toEqual(UNIDADES);
    // The query of a file without the review reads nothing of it.
    const { sql } = registrosQuery(FLOW_BY_KEY.hc.exports.colunas, {
      projeto: campo.projeto,
      fluxos: ['hc'],
    });
    expect(sql).not.toMatch(/revisao|flags|versao/);
  });

  it('appends Revisão, Versão and Sinalizações after the spec’s columns, which stay as they were', async () => {
    const csv = await download(`${extrator('unidades.csv')}?revisao=1`);
    const { bom, headers, rows } = parseCsv(csv);
    expect(bom).toBe(true);
    expect(headers).toEqual([...UNIDADES, ...REVISAO]);
    const sem = parseCsv(antes.unidades ?? Buffer.alloc(0)).rows;
    expect(rows.map((row) => Object.fromEntries(UNIDADES.map((header) => [header, row[header]])))).toEqual(
      sem,
    );
    const porId = Object.fromEntries(rows.map((row) => [row.ID, row]));
    expect(porId[ids.u1 ?? '']).toMatchObject({
      Revisão: 'Aprovado',
      Versão: '2',
      Sinalizações: 'Precisão do GPS acima do limite (23,5 m); Possível duplicata (1,2 m)',
    });
    expect(porId[ids.u2 ?? '']).toMatchObject({
      Revisão: 'Reprovado',
      Versão: '1',
      Sinalizações: 'Fora das zonas do técnico',
    });
    expect(porId[ids.u3 ?? '']).toMatchObject({ Revisão: 'Pendente', Versão: '1', Sinalizações: '' });
    // The database writes a flag as the domain's flagText does.
    expect(porId[ids.u1 ?? '']?.Sinalizações).toBe(REVISOES.u1?.flags.map(flagText).join('; '));

    const postes = parseCsv(await download(`${extrator('postes.csv')}?revisao=1&decimal=ponto`));
    expect(postes.headers.slice(-3)).toEqual(REVISAO);
    expect(postes.rows[0]).toMatchObject({ ALTURA: '10.5', Sinalizações: 'Fotos a menos (0 fotos)' });
    // A production file counts records: it has no review of its own.
    const producao = parseCsv(await download(`${extrator('vegetacao-producao.csv')}?revisao=1`));
    expect(producao.headers).toEqual(['TECNICO', 'DATA', 'QUANTIDADE']);
  });

  it('keeps the records of a review state or flag', async () => {
    const unidades = (query: string) => download(`${extrator('unidades.csv')}?${query}`);
    expect(nomes(await unidades('estado=aprovado'))).toEqual(['u1']);
    expect(nomes(await unidades('estado=reprovado'))).toEqual(['u2']);
    expect(nomes(await unidades('estado=pendente'))).toEqual(['u3']);
    expect(nomes(await unidades('flag=duplicata'))).toEqual(['u1']);
    expect(nomes(await unidades('flag=fora_da_zona'))).toEqual(['u2']);
    expect(nomes(await unidades('flag=ritmo'))).toEqual([]);
    expect(nomes(await unidades('flag=qualquer'))).toEqual(['u1', 'u2']);
    expect(nomes(await unidades('flag=nenhuma'))).toEqual(['u3']);
    expect(nomes(await unidades('estado=pendente&flag=qualquer'))).toEqual([]);
    expect(nomes(await unidades('estado=reprovado&flag=qualquer&revisao=1'))).toEqual(['u2']);
    // A filtered file without the columns has the spec's header.
    expect(parseCsv(await unidades('flag=qualquer')).headers).toEqual(UNIDADES);

    const producao = parseCsv(await download(`${extrator('vegetacao-producao.csv')}?flag=qualquer`));
    expect(producao.rows).toEqual([]);

    const dia = parseCsv(await download(tecnicoDia('&revisao=1&flag=qualquer')));
    expect(dia.headers).toEqual(['FLUXO', 'ID', 'TECNICO', 'DATA', 'UTM_E', 'UTM_N', ...REVISAO]);
    expect(dia.rows.map((row) => [row.FLUXO, row.Revisão])).toEqual([
      ['Poste', 'Pendente'],
      ['Unidade', 'Aprovado'],
      ['Unidade', 'Reprovado'],
    ]);
  });

  it('writes a filtered file in parts as it writes it whole', async () => {
    const [unidades] = FLOW_BY_KEY.hc.exports.csv;
    const colunas = [
      ...(unidades?.kind === 'registros' ? unidades.colunas : []),
      { header: 'Sinalizações', valor: { registro: 'sinalizacoes' } } as const,
    ];
    const write = async (parte: number) => {
      const query = registrosQuery(colunas, { projeto: campo.projeto, fluxos: ['hc'], flag: 'qualquer' });
      const chunks: Buffer[] = [];
      const headers = colunas.map((coluna) => coluna.header);
      for await (const chunk of csvStream(ctx.db, query, headers, parte))
        chunks.push(Buffer.from(chunk as string));
      return Buffer.concat(chunks);
    };
    const whole = await write(1_000_000);
    expect(nomes(whole)).toEqual(['u1', 'u2']);
    expect((await write(1)).equals(whole)).toBe(true);
  });

  it('declares the review’s fields in the KML, which GDAL reads, and filters its placemarks', async () => {
    const file = scratch.write('unidades.kml', await download(kml('unidade', '?revisao=1')));
    expect(ogrLayers(file)).toEqual([{ name: 'Unidades', features: 3 }]);
    const features = ogrFeatures(file, 'Unidades');
    // A unit's placemark is named by its number.
    const porNumero = Object.fromEntries(features.map((feature) => [feature.NUMERO, feature]));
    expect(porNumero['101']).toMatchObject({
      Revisão: 'Aprovado',
      Versão: '2',
      Sinalizações: 'Precisão do GPS acima do limite (23,5 m); Possível duplicata (1,2 m)',
    });
    expect(porNumero['102']).toMatchObject({
      Revisão: 'Reprovado',
      Sinalizações: 'Fora das zonas do técnico',
    });
    expect(porNumero['103']).toMatchObject({ Revisão: 'Pendente', Versão: '1' });
    const text = (await download(kml('unidade', '?revisao=1'))).toString('utf8');
    expect(text).toContain(
      '<SimpleField name="Revisão" type="string"/><SimpleField name="Versão" type="string"/><SimpleField name="Sinalizações" type="string"/></Schema>',
    );

    const reprovados = scratch.write('reprovados.kml', await download(kml('unidade', '?estado=reprovado')));
    expect(ogrLayers(reprovados)).toEqual([{ name: 'Unidades', features: 1 }]);
    expect(Object.keys(ogrFeatures(reprovados, 'Unidades')[0] ?? {})).not.toContain('Revisão');

    const dia = scratch.write('dia.kml', await download(tecnicoDiaKml('&revisao=1&flag=qualquer')));
    const camadas = Object.fromEntries(ogrLayers(dia).map((layer) => [layer.name, layer.features]));
    expect(camadas).toMatchObject({ Unidades: 2, Postes: 1, Vegetação: 0 });
    expect(ogrFeatures(dia, 'Postes')[0]).toMatchObject({ Sinalizações: 'Fotos a menos (0 fotos)' });
  });

  it('counts and links the Extrator’s files with the review’s choice', async () => {
    const extracao = async (query: string) => {
      const response = await get(`/api/extrator/${campo.projeto}?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Extracao>();
    };
    const todos = await extracao('');
    const registros = (answer: Extracao) =>
      Object.fromEntries(answer.csv.map((arquivo) => [arquivo.id, arquivo.registros]));
    expect(registros(todos)).toMatchObject({ unidades: 3, postes: 1, vegetacao: 1 });
    for (const arquivo of [...todos.kml, ...todos.csv])
      expect(arquivo.url).not.toMatch(/revisao|estado|flag/);

    const reprovados = await extracao('revisao=1&estado=reprovado&flag=qualquer');
    expect(registros(reprovados)).toMatchObject({ unidades: 1, postes: 0, vegetacao: 0 });
    expect(reprovados.kml.map((arquivo) => [arquivo.id, arquivo.registros])).toEqual(
      expect.arrayContaining([
        ['unidade', 1],
        ['poste', 0],
      ]),
    );
    for (const arquivo of [...reprovados.kml, ...reprovados.csv]) {
      expect(arquivo.url, arquivo.id).toMatch(/[?&]revisao=1&estado=reprovado&flag=qualquer$/);
    }
    // The link is the file of the choice.
    const unidades = reprovados.csv.find((arquivo) => arquivo.id === 'unidades');
    const csv = parseCsv(await download(unidades?.url ?? ''));
    expect(csv.headers.slice(-3)).toEqual(REVISAO);
    expect(csv.rows.map((row) => row.ID)).toEqual([ids.u2]);
  });

  it('counts and links a technician’s day in the Relatórios with the review’s choice', async () => {
    const relatorio = async (query: string) => {
      const response = await get(`/api/relatorio/${campo.projeto}?data=2026-11-21${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<RelatorioTecnico[]>();
    };
    const [todos] = await relatorio('');
    expect(todos).toMatchObject({ contagens: { hc: 3, poste: 1, arvore: 1 }, total: 5 });
    expect(todos?.csv).toBe(tecnicoDia());
    const [sinalizados] = await relatorio('&revisao=1&flag=qualquer');
    expect(sinalizados).toMatchObject({ contagens: { hc: 2, poste: 1 }, total: 3 });
    expect(sinalizados?.csv).toBe(tecnicoDia('&revisao=1&flag=qualquer'));
    expect(sinalizados?.kml).toBe(tecnicoDiaKml('&revisao=1&flag=qualquer'));
    expect(await relatorio('&estado=reprovado&flag=nenhuma')).toEqual([]);
  });

  it('refuses a review choice it does not know, in Portuguese', async () => {
    const cases: [string, RegExp][] = [
      [`${extrator('unidades.csv')}?revisao=sim`, /Parâmetro revisao inválido/],
      [`${extrator('unidades.csv')}?estado=revisado`, /Estado da revisão inválido/],
      [`${extrator('unidades.csv')}?flag=gps`, /Sinalização inválida/],
      [`${extrator('fotos.zip')}?flag=gps`, /Sinalização inválida/],
      [kml('unidade', '?estado=ok'), /Estado da revisão inválido/],
      [`/api/extrator/${campo.projeto}?flag=todas`, /Sinalização inválida/],
      [`/api/relatorio/${campo.projeto}?data=2026-11-21&estado=todos`, /Estado da revisão inválido/],
      [tecnicoDia('&revisao=2'), /Parâmetro revisao inválido/],
      [tecnicoDiaKml('&estado=APROVADO'), /Estado da revisão inválido/],
    ];
    for (const [url, message] of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(message);
    }
  });
});
