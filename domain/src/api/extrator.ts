// The Extrator (SPEC.md 2 'Extractor', 7 'KML / zip downloads', 9 'CSV exports'): a project's days, what it offers
// for a period, and each file (a CSV, the photos' zip, a flow's KML or BDGD zip), streamed by the route.
import { decimalSchema } from '../export/decimal.ts';
import type { Arquivo, DataItem, Extracao } from '../export/api.ts';
import { periodoSchema } from '../export/periodo.ts';
import { revisaoExportSchema } from '../export/revisao.ts';
import type { FlowDefinition } from '../flows/flow.ts';
import { z } from '../zod.ts';
import { endpoint, uuid, uuidParam } from './contract.ts';

/** Who extracts. */
const extractors = ['administrador', 'supervisor'] as const;

/** The project of the path, by id. */
const projetoParams = z.object({ projeto: uuidParam('Identificador de projeto') });

/**
 * What the Extrator's and the Relatórios' endpoints of a project share: who extracts, the project by id, and the
 * query parsed by the route once the project is found and allowed.
 */
export const deProjeto = {
  tag: 'exportação',
  allow: extractors,
  params: projetoParams,
  readByRoute: ['query'],
} as const;

/**
 * A file's query with the decimal separator of the CSV it writes. Documentation only (`readByRoute`): the route
 * parses the period, and the separator only when it writes a CSV.
 */
export const comDecimal = (query: z.ZodObject) => z.object({ ...query.shape, ...decimalSchema.shape });

/**
 * A query with the review's choice (issue 24: `revisao`, `estado`, `flag`), which every file of a project and the
 * Extrator's list take. Documentation only, as comDecimal: the route parses each part.
 */
export const comRevisaoExport = <Shape extends z.ZodRawShape>(query: z.ZodObject<Shape>) =>
  z.object({ ...query.shape, ...revisaoExportSchema.shape });

const dia = z.object({ ano: z.number().int(), mes: z.number().int(), dia: z.number().int() });

const arquivo = z.object({
  id: z.string(),
  label: z.string(),
  url: z.string().describe('Caminho sob /api, com a consulta.'),
  nome: z.string().describe('Nome do arquivo ao salvar.'),
  registros: z.number().int(),
}) satisfies z.ZodType<Arquivo>;

export const listDatas = endpoint({
  method: 'GET',
  path: '/api/projeto/:id/datas',
  tag: 'exportação',
  summary: 'Os dias com registros no projeto.',
  allow: extractors,
  params: z.object({ id: uuidParam('Identificador de projeto') }),
  ok: {
    status: 200,
    description: 'As datas.',
    answer: z.array(dia.extend({ data: dia }) satisfies z.ZodType<DataItem>),
  },
});

export const getExtracao = endpoint({
  method: 'GET',
  path: '/api/extrator/:projeto',
  summary: 'Os arquivos de exportação que o Extrator oferece para o projeto num período.',
  ...deProjeto,
  query: comRevisaoExport(periodoSchema),
  ok: {
    status: 200,
    description:
      'Os arquivos KML, CSV, de fotos, GeoPackage e XLSX, com seus endereços (que levam a escolha da revisão).',
    answer: z.object({
      projeto: z.object({ id: uuid, nome: z.string(), fuso: z.number().int().nullable() }),
      kml: z.array(arquivo),
      csv: z.array(arquivo),
      fotos: arquivo.nullable(),
      geopackage: arquivo
        .nullable()
        .optional()
        .describe('Os registros do período num GeoPackage: uma camada por fluxo.'),
      xlsx: arquivo
        .nullable()
        .optional()
        .describe('Os arquivos CSV do período numa planilha XLSX: uma aba por arquivo.'),
      erro: z.string().nullable(),
    }) satisfies z.ZodType<Extracao>,
  },
});

/** A file of the project, by name, streamed by the route: the Extrator's, the Relatórios'. */
export function arquivoEndpoint(arquivo: {
  path: string;
  summary: string;
  query: z.ZodType;
  description: string;
}) {
  return endpoint({
    method: 'GET',
    path: arquivo.path,
    summary: arquivo.summary,
    ...deProjeto,
    params: projetoParams.extend({ arquivo: z.string() }),
    query: arquivo.query,
    ok: { status: 200, description: arquivo.description, produces: 'application/octet-stream' },
  });
}

export const getArquivo = arquivoEndpoint({
  path: '/api/extrator/:projeto/:arquivo',
  summary: 'Um arquivo de exportação do projeto num período.',
  query: comRevisaoExport(comDecimal(periodoSchema)),
  description: 'O arquivo (CSV, ZIP de fotos, registros.gpkg: GeoPackage, planilha.xlsx: XLSX).',
});

/** A flow's KML (the BDGD's: a zip with the KML and its CSV), the project by id or by name (SPEC.md 7 '{nome}'). */
export function kmlEndpoint(flow: FlowDefinition) {
  const { zip } = flow.exports.kml;
  return endpoint({
    method: 'GET',
    path: `/api/${flow.apiPath}/:projeto/kml`,
    summary: `O KML de ${flow.labels.record} do projeto num período (ZIP com o CSV para a BDGD).`,
    ...deProjeto,
    params: z.object({ projeto: z.string() }),
    query: zip ? comRevisaoExport(comDecimal(periodoSchema)) : comRevisaoExport(periodoSchema),
    ok: {
      status: 200,
      description: zip ? 'O arquivo ZIP.' : 'O arquivo KML.',
      produces: zip ? 'application/zip' : 'application/vnd.google-earth.kml+xml',
    },
  });
}
