// What the Extrator and the Relatórios share to answer a file: the project it is read from, the records it holds,
// its name and headers, and a flow's KML layer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { Fluxo } from '@novus/domain/flows/keys';
import { FLOWS } from '@novus/domain/flows/registry';
import type { Coluna } from '@novus/domain/export/columns';
import type { Periodo } from '@novus/domain/export/periodo';
import { decimalSchema } from '@novus/domain/export/decimal';
import {
  COLUNAS_REVISAO,
  comRevisao,
  type FiltroRevisao,
  type RevisaoExport,
  revisaoExportSchema,
} from '@novus/domain/export/revisao';
import { type Access, ensure, policies } from '../../auth/access.ts';
import type { Database } from '../../db/database.ts';
import { AppError, notFound, parseId, parseInput } from '../../errors.ts';
import type { GeoPackageLayer } from './geopackage.ts';
import {
  type Filtro,
  findProjetoExport,
  placemarksQuery,
  type ProjetoExport,
  registrosQuery,
} from './queries.ts';
import type { KmlLayer } from './writers.ts';
import { UUID } from '@novus/domain/ids';

export interface ExportDeps {
  db: Database;
  access: Access;
}

export const SEM_FUSO =
  'O projeto não tem fuso definido: defina o fuso no cadastro do projeto para extrair as coordenadas em UTM.';

/** Every flow, for the files and counts that span them all. */
const TODOS_FLUXOS: readonly Fluxo[] = FLOWS.map((flow) => flow.key);

/** A file name every system accepts: no path separators or characters Windows refuses. */
export const fileName = (name: string) => name.replace(/[/\\:*?"<>|]+/g, '-');

const TYPES = {
  csv: 'text/csv; charset=utf-8',
  kml: 'application/vnd.google-earth.kml+xml',
  zip: 'application/zip',
  gpkg: 'application/geopackage+sqlite3',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The reply as a download of the file `name.extension` (made a file name here), of the extension's type. */
export function attachment(reply: FastifyReply, name: string, extension: keyof typeof TYPES) {
  const file = fileName(`${name}.${extension}`);
  const ascii = file
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/"/g, '');
  return reply
    .type(TYPES[extension])
    .header('cache-control', 'no-store')
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file)}`,
    );
}

/** The project named in the path by id or by name (SPEC.md 7 '{nome}'), once the caller may read it. */
export async function readableProjetoByKey(
  { db, access }: ExportDeps,
  request: FastifyRequest,
  key: string,
): Promise<ProjetoExport> {
  const projeto = await findProjetoExport(db, key, UUID.test(key));
  if (!projeto) throw notFound('Projeto não encontrado.');
  ensure(
    policies.readProjeto(access.actor(request), {
      cliente: projeto.cliente,
      disponivelInterpres: projeto.disponivel_interpres,
    }),
  );
  return projeto;
}

/** The project of the path's id, once the caller may read it. */
export const readableProjeto = (deps: ExportDeps, request: FastifyRequest, id: string) =>
  readableProjetoByKey(deps, request, parseId(id, 'Identificador de projeto'));

/** The project's flows, and any other flow counted with records in it (a flow unticked after collecting). */
export function flowsOf(projeto: ProjetoExport, counts: readonly { fluxo: Fluxo }[]): FlowDefinition[] {
  const keys = new Set<Fluxo>([...projeto.fluxos, ...counts.map((count) => count.fluxo)]);
  return FLOWS.filter((flow) => keys.has(flow.key));
}

/** A file's records: the project's, of a period, a technician, a review state or flag (any given), of some flows. */
export const filtro = (
  projeto: ProjetoExport,
  periodo: Periodo & FiltroRevisao,
  fluxos: readonly Fluxo[] = TODOS_FLUXOS,
): Filtro => ({
  projeto: projeto.id,
  fluxos,
  ...periodo,
});

/** The review asked of a file (`?revisao=1&estado=&flag=`, issue 24), refused in Portuguese as the period is. */
export const revisaoOf = (request: FastifyRequest): RevisaoExport =>
  parseInput(revisaoExportSchema, request.query);

/** Which records the review choice keeps: its state and flag, with nothing else of the query. */
export const filtroRevisao = ({ estado, flag }: RevisaoExport): FiltroRevisao => ({
  ...(estado ? { estado } : {}),
  ...(flag ? { flag } : {}),
});

/** A file's columns, the review's after them when asked: the spec's columns keep their places. */
export const colunasCom = (colunas: readonly Coluna[], revisao: RevisaoExport): readonly Coluna[] =>
  comRevisao(revisao) ? [...colunas, ...COLUNAS_REVISAO] : colunas;

export function requireFuso(projeto: ProjetoExport): void {
  if (projeto.fuso === null) throw new AppError(422, SEM_FUSO, [{ msg: SEM_FUSO }]);
}

/** The decimal separator a CSV is asked for: a comma unless `?decimal=ponto`. */
export const decimalOf = (request: FastifyRequest) => parseInput(decimalSchema, request.query).decimal;

/** A flow's records as a KML layer, its photo links to this server (the KML is opened outside the browser). */
export function kmlLayer(
  projeto: ProjetoExport,
  flow: FlowDefinition,
  periodo: Periodo,
  revisao: RevisaoExport,
  request: FastifyRequest,
): KmlLayer {
  const { kml } = flow.exports;
  const colunas = colunasCom(flow.exports.colunas, revisao);
  const estilo = `s-${flow.key}`;
  const esquema = `c-${flow.key}`;
  return {
    label: kml.label,
    cor: flow.map.color,
    estilo,
    esquema,
    campos: colunas.map((coluna) => coluna.header),
    query: placemarksQuery(colunas, filtro(projeto, { ...periodo, ...filtroRevisao(revisao) }, [flow.key]), {
      nome: kml.nome,
      estilo,
      esquema,
      origin: `${request.protocol}://${request.host}`,
    }),
  };
}

/**
 * A flow's records as a GeoPackage layer named as its KML layer, with the columns of its records' CSV (the first
 * the flow declares: 'Postes', not 'Postes simplificado') and their values, decimals written with a point, as GIS
 * read them (KML keeps the point too).
 */
export function geoPackageLayer(
  projeto: ProjetoExport,
  flow: FlowDefinition,
  periodo: Periodo,
  revisao: RevisaoExport,
): GeoPackageLayer {
  const csv = flow.exports.csv.find((file) => file.kind === 'registros');
  const colunas = colunasCom(csv?.kind === 'registros' ? csv.colunas : flow.exports.colunas, revisao);
  return {
    nome: flow.exports.kml.label,
    colunas,
    query: registrosQuery(
      colunas,
      filtro(projeto, { ...periodo, ...filtroRevisao(revisao) }, [flow.key]),
      'ponto',
      {
        posicao: true,
      },
    ),
  };
}
