// The Extrator (SPEC.md 2 'Extractor', 7 'KML / zip downloads', 9 'CSV exports'): what a project offers for a
// period, and each file streamed from one query through a writer into the response, at any size
// (domain/src/api/extrator.ts).
import type { FastifyInstance } from 'fastify';
import * as api from '@novus/domain/api/extrator';
import type { Arquivo } from '@novus/domain/export/api';
import type { CsvExport } from '@novus/domain/export/columns';
import { PRODUCAO_HEADERS } from '@novus/domain/export/columns';
import { nomesDePlanilha, TIPOS_PRODUCAO, tipoColuna, type TipoColuna } from '@novus/domain/export/celulas';
import type { SeparadorDecimal } from '@novus/domain/export/decimal';
import { type Periodo, periodoSchema } from '@novus/domain/export/periodo';
import { type RevisaoExport, revisaoParams } from '@novus/domain/export/revisao';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { Fluxo } from '@novus/domain/flows/keys';
import { FLOW_BY_KEY, FLOWS } from '@novus/domain/flows/registry';
import { route, SENT } from '../../contract.ts';
import type { Database } from '../../db/database.ts';
import { notFound, parseInput } from '../../errors.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import {
  attachment,
  colunasCom,
  decimalOf,
  type ExportDeps,
  fileName,
  filtro,
  filtroRevisao,
  flowsOf,
  geoPackageLayer,
  kmlLayer,
  readableProjeto,
  readableProjetoByKey,
  requireFuso,
  revisaoOf,
  SEM_FUSO,
} from './files.ts';
import {
  type Contagem,
  contagens,
  datas,
  type Partes,
  producaoQuery,
  type ProjetoExport,
  type Query,
  registrosQuery,
  streamFotos,
} from './queries.ts';
import { geoPackageStream } from './geopackage.ts';
import { type Aba, xlsxStream } from './planilha.ts';
import { csvStream, kmlStream, zipStream } from './writers.ts';

/** The Extrator's GeoPackage (a layer per flow) and XLSX (a sheet per file of the CSV section), by name. */
const GEOPACKAGE = 'registros.gpkg';
const PLANILHA = 'planilha.xlsx';
const SEM_PLANILHA = 'Nenhum arquivo CSV com registros no período: não há planilha a gerar.';

/** The CSV files of all flows, found by their id ('unidades', 'postes-simplificado'). */
const CSV_EXPORTS = new Map<string, { flow: FlowDefinition; csv: CsvExport }>(
  FLOWS.flatMap((flow) => flow.exports.csv.map((csv) => [csv.id, { flow, csv }] as const)),
);

/** A file's query string: its period, then the review asked (issue 24), so every link carries the choice. */
function query(periodo: Periodo, revisao: RevisaoExport): string {
  const params = new URLSearchParams();
  if (periodo.dataInicio) params.set('dataInicio', periodo.dataInicio);
  if (periodo.dataFim) params.set('dataFim', periodo.dataFim);
  if (periodo.tecnico) params.set('tecnico', periodo.tecnico);
  for (const [name, value] of revisaoParams(revisao)) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A CSV file's query and its columns with their types, which the CSV writes as text and the XLSX typed. */
function csvQuery(
  projeto: ProjetoExport,
  flow: FlowDefinition,
  csv: CsvExport,
  periodo: Periodo,
  revisao: RevisaoExport,
  decimal: SeparadorDecimal,
): { query: Query & { partes?: Partes }; colunas: { header: string; tipo: TipoColuna }[] } {
  const records = filtro(projeto, { ...periodo, ...filtroRevisao(revisao) }, [flow.key]);
  // A technician's day has no review of its own: the production counts the records the filter keeps.
  if (csv.kind === 'producao') {
    return {
      query: producaoQuery(records),
      colunas: PRODUCAO_HEADERS.map((header) => ({ header, tipo: TIPOS_PRODUCAO[header] })),
    };
  }
  requireFuso(projeto);
  const colunas = colunasCom(csv.colunas, revisao);
  return {
    query: registrosQuery(colunas, records, decimal),
    colunas: colunas.map((coluna) => ({ header: coluna.header, tipo: tipoColuna(coluna) })),
  };
}

function csvOf(
  db: Database,
  projeto: ProjetoExport,
  flow: FlowDefinition,
  csv: CsvExport,
  periodo: Periodo,
  revisao: RevisaoExport,
  decimal: SeparadorDecimal,
) {
  const { query: csvRows, colunas } = csvQuery(projeto, flow, csv, periodo, revisao, decimal);
  return csvStream(
    db,
    csvRows,
    colunas.map((coluna) => coluna.header),
  );
}

/** A file of the CSV section: its button, and what writes it (a technician's IP file has its period's tecnico). */
interface CsvArquivo {
  arquivo: Arquivo;
  flow: FlowDefinition;
  csv: CsvExport;
  periodo: Periodo;
}

/**
 * The CSV section of a period: a file per CSV of each flow (per technician where the flow says so), with the
 * records (a production file: the technician-days) it holds; without a fuso only the production, which has no UTM.
 */
function csvSection(
  projeto: ProjetoExport,
  counts: readonly Contagem[],
  periodo: Periodo,
  revisao: RevisaoExport,
): CsvArquivo[] {
  const base = `${projeto.nome} - `;
  const total = (fluxo: Fluxo, of: (count: Contagem) => number) =>
    counts.filter((count) => count.fluxo === fluxo).reduce((sum, count) => sum + of(count), 0);
  const files = flowsOf(projeto, counts).flatMap((flow) =>
    flow.exports.csv.flatMap((csv): CsvArquivo[] => {
      const path = `/api/extrator/${projeto.id}/${csv.id}.csv`;
      if (csv.kind === 'registros' && csv.porTecnico) {
        return counts
          .filter((count) => count.fluxo === flow.key && count.tecnico !== null)
          .map((count) => {
            const doTecnico = { ...periodo, tecnico: count.tecnico ?? undefined };
            return {
              arquivo: {
                id: csv.id,
                label: `${csv.label} - ${count.tecnico_nome ?? 'Sem nome'}`,
                url: `${path}${query(doTecnico, revisao)}`,
                nome: fileName(`${base}${csv.label} - ${count.tecnico_nome ?? count.tecnico}.csv`),
                registros: count.registros,
              },
              flow,
              csv,
              periodo: doTecnico,
            };
          });
      }
      return [
        {
          arquivo: {
            id: csv.id,
            label: csv.label,
            url: `${path}${query(periodo, revisao)}`,
            nome: fileName(`${base}${csv.label}.csv`),
            // A production file has a row per technician and day.
            registros: total(flow.key, (count) => (csv.kind === 'producao' ? count.dias : count.registros)),
          },
          flow,
          csv,
          periodo,
        },
      ];
    }),
  );
  return projeto.fuso === null ? files.filter((file) => file.csv.kind === 'producao') : files;
}

/** The XLSX's sheets: the CSV section's files with rows, each typed, decimals with a point for celula to read. */
function planilhaAbas(
  projeto: ProjetoExport,
  counts: readonly Contagem[],
  periodo: Periodo,
  revisao: RevisaoExport,
): Aba[] {
  const files = csvSection(projeto, counts, periodo, revisao).filter((file) => file.arquivo.registros > 0);
  const nomes = nomesDePlanilha(files.map((file) => file.arquivo.label));
  return files.map((file, index) => ({
    nome: nomes[index] ?? file.arquivo.label,
    ...csvQuery(projeto, file.flow, file.csv, file.periodo, revisao, 'ponto'),
  }));
}

export async function extratorRoutes(
  app: FastifyInstance,
  { blobs, ...deps }: ExportDeps & { blobs: BlobStore },
) {
  const { db, access } = deps;

  route(app, access, api.listDatas, async ({ params, request }) => {
    const projeto = await readableProjeto(deps, request, params.id);
    return (await datas(db, projeto.id)).map((data) => ({ ...data, data }));
  });

  route(app, access, api.getExtracao, async ({ params, request }) => {
    const projeto = await readableProjeto(deps, request, params.projeto);
    const periodo = parseInput(periodoSchema, request.query);
    const revisao = revisaoOf(request);
    const counts = await contagens(db, filtro(projeto, { ...periodo, ...filtroRevisao(revisao) }));
    const flows = flowsOf(projeto, counts);
    const registros = (fluxo: Fluxo) =>
      counts.filter((count) => count.fluxo === fluxo).reduce((sum, count) => sum + count.registros, 0);
    const base = `${projeto.nome} - `;
    const kml = flows.map((flow): Arquivo => ({
      id: flow.apiPath,
      label: flow.exports.kml.label,
      url: `/api/${flow.apiPath}/${projeto.id}/kml${query(periodo, revisao)}`,
      nome: fileName(
        `${flow.exports.kml.zip ? projeto.nome : base + flow.exports.kml.label}${flow.exports.kml.zip ? '.zip' : '.kml'}`,
      ),
      registros: registros(flow.key),
    }));
    const csv = csvSection(projeto, counts, periodo, revisao).map((file) => file.arquivo);
    const fotos = counts.reduce((sum, count) => sum + count.fotos, 0);
    const todos = counts.reduce((sum, count) => sum + count.registros, 0);
    const linhas = csv.reduce((sum, file) => sum + file.registros, 0);
    return {
      projeto: { id: projeto.id, nome: projeto.nome, fuso: projeto.fuso },
      kml,
      csv,
      fotos:
        fotos === 0
          ? null
          : {
              id: 'fotos',
              label: 'Fotos (zip)',
              url: `/api/extrator/${projeto.id}/fotos.zip${query(periodo, revisao)}`,
              nome: fileName(`${base}Fotos.zip`),
              registros: fotos,
            },
      geopackage:
        todos === 0
          ? null
          : {
              id: 'geopackage',
              label: 'GeoPackage',
              url: `/api/extrator/${projeto.id}/${GEOPACKAGE}${query(periodo, revisao)}`,
              nome: fileName(`${projeto.nome}.gpkg`),
              registros: todos,
            },
      xlsx:
        linhas === 0
          ? null
          : {
              id: 'xlsx',
              label: 'XLSX',
              url: `/api/extrator/${projeto.id}/${PLANILHA}${query(periodo, revisao)}`,
              nome: fileName(`${projeto.nome}.xlsx`),
              registros: linhas,
            },
      erro: projeto.fuso === null ? SEM_FUSO : null,
    };
  });

  route(app, access, api.getArquivo, async ({ params, request, reply }) => {
    const projeto = await readableProjeto(deps, request, params.projeto);
    const periodo = parseInput(periodoSchema, request.query);
    const revisao = revisaoOf(request);
    const { arquivo } = params;
    if (arquivo === 'fotos.zip') {
      const entries = (async function* () {
        for await (const rows of streamFotos(
          db,
          filtro(projeto, { ...periodo, ...filtroRevisao(revisao) }),
        )) {
          for (const row of rows) {
            const extension = row.media_type.split('/')[1] ?? 'bin';
            yield {
              name: `${fileName(FLOW_BY_KEY[row.fluxo].labels.record)}/${row.registro}/${row.slot + 1}.${extension === 'jpeg' ? 'jpg' : extension}`,
              open: () => blobs.open(row.hash),
              store: true,
            };
          }
        }
      })();
      void attachment(reply, `${projeto.nome} - Fotos`, 'zip').send(zipStream(entries));
      return SENT;
    }
    if (arquivo === GEOPACKAGE || arquivo === PLANILHA) {
      const counts = await contagens(db, filtro(projeto, { ...periodo, ...filtroRevisao(revisao) }));
      if (arquivo === GEOPACKAGE) {
        const layers = flowsOf(projeto, counts).map((flow) =>
          geoPackageLayer(projeto, flow, periodo, revisao),
        );
        void attachment(reply, projeto.nome, 'gpkg').send(geoPackageStream(db, layers));
        return SENT;
      }
      const abas = planilhaAbas(projeto, counts, periodo, revisao);
      if (abas.length === 0) throw notFound(SEM_PLANILHA);
      void attachment(reply, projeto.nome, 'xlsx').send(xlsxStream(db, abas));
      return SENT;
    }
    const found = /^(.+)\.csv$/.exec(arquivo);
    const entry = found ? CSV_EXPORTS.get(found[1] ?? '') : undefined;
    if (!entry) throw notFound('Arquivo de exportação não encontrado.');
    const stream = csvOf(db, projeto, entry.flow, entry.csv, periodo, revisao, decimalOf(request));
    void attachment(reply, `${projeto.nome} - ${entry.csv.label}`, 'csv').send(stream);
    return SENT;
  });

  for (const flow of FLOWS) {
    route(app, access, api.kmlEndpoint(flow), async ({ params, request, reply }) => {
      const projeto = await readableProjetoByKey(deps, request, params.projeto);
      const periodo = parseInput(periodoSchema, request.query);
      const revisao = revisaoOf(request);
      const kml = () =>
        kmlStream(db, `${projeto.nome} - ${flow.exports.kml.label}`, [
          kmlLayer(projeto, flow, periodo, revisao, request),
        ]);
      if (!flow.exports.kml.zip) {
        void attachment(reply, `${projeto.nome} - ${flow.exports.kml.label}`, 'kml').send(kml());
        return SENT;
      }
      // The BDGD zip: the KML and the CSV, named after the project (SPEC.md 2).
      const csv = flow.exports.csv[0];
      const decimal = decimalOf(request);
      const entries = [
        { name: fileName(`${projeto.nome}.kml`), open: kml },
        ...(csv && projeto.fuso !== null
          ? [
              {
                name: fileName(`${projeto.nome}.csv`),
                open: () => csvOf(db, projeto, flow, csv, periodo, revisao, decimal),
              },
            ]
          : []),
      ];
      void attachment(reply, projeto.nome, 'zip').send(
        zipStream(
          (async function* () {
            yield* entries;
          })(),
        ),
      );
      return SENT;
    });
  }
}
