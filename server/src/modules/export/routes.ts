// The extraction and report routes (SPEC.md 2 'Extractor' and 'Reports screen', 7 'KML / zip downloads', 9 'CSV
// exports'): each file is streamed from one query through a writer into the response, at any size.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Arquivo, DataItem, Extracao, Produtividade, RelatorioTecnico } from '@novus/domain/export/api';
import type { Coluna, CsvExport } from '@novus/domain/export/columns';
import { COLUNAS_BASE, FORMULA_START, FUSO_HORARIO, PRODUCAO_HEADERS } from '@novus/domain/export/columns';
import { stringify } from 'csv-stringify/sync';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { Fluxo } from '@novus/domain/flows/keys';
import { FLOW_BY_KEY, FLOWS } from '@novus/domain/flows/registry';
import { daySchema, type Periodo, periodoSchema } from '@novus/domain/export/periodo';
import { decimalSchema, SEPARADORES_DECIMAIS, type SeparadorDecimal } from '@novus/domain/export/decimal';
import { z } from '@novus/domain/zod';
import { type Access, ensure, policies } from '../../auth/access.ts';
import type { Database } from '../../db/database.ts';
import { AppError, notFound, parseId, parseInput } from '../../errors.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import {
  contagens,
  datas,
  type Filtro,
  findProjetoExport,
  fotosQuery,
  placemarksQuery,
  producaoQuery,
  type ProjetoExport,
  registrosPorTecnicoDia,
  registrosQuery,
  resumoPorTecnicoDia,
} from './queries.ts';
import { csvStream, type KmlLayer, kmlStream, zipStream } from './writers.ts';

const SEM_FUSO =
  'O projeto não tem fuso definido: defina o fuso no cadastro do projeto para extrair as coordenadas em UTM.';

export const diaSchema = z.object({ data: daySchema('Data') });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A file name every system accepts: no path separators or characters Windows refuses. */
const fileName = (name: string) => name.replace(/[/\\:*?"<>|]+/g, '-');

function attachment(reply: FastifyReply, name: string, type: string) {
  const ascii = name
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/"/g, '');
  return reply
    .type(type)
    .header('cache-control', 'no-store')
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
}

function query(periodo: Periodo): string {
  const params = new URLSearchParams();
  if (periodo.dataInicio) params.set('dataInicio', periodo.dataInicio);
  if (periodo.dataFim) params.set('dataFim', periodo.dataFim);
  if (periodo.tecnico) params.set('tecnico', periodo.tecnico);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The CSV files of all flows, found by their id ('unidades', 'postes-simplificado'). */
const CSV_EXPORTS = new Map<string, { flow: FlowDefinition; csv: CsvExport }>(
  FLOWS.flatMap((flow) => flow.exports.csv.map((csv) => [csv.id, { flow, csv }] as const)),
);

/** The project's flows, and any other flow that has records in it (a flow unticked after collecting). */
function flowsOf(projeto: ProjetoExport, counted: Iterable<Fluxo>): FlowDefinition[] {
  const keys = new Set<Fluxo>([...projeto.fluxos, ...counted]);
  return FLOWS.filter((flow) => keys.has(flow.key));
}

export async function exportRoutes(
  app: FastifyInstance,
  { db, access, blobs }: { db: Database; access: Access; blobs: BlobStore },
) {
  const extractors = { preHandler: access.allow('administrador', 'supervisor') };

  /** The project named in the path (id or name), once the caller may read it. */
  async function readableProjeto(request: FastifyRequest, key: string): Promise<ProjetoExport> {
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

  const filtro = (projeto: ProjetoExport, fluxos: readonly Fluxo[], periodo: Periodo): Filtro => ({
    projeto: projeto.id,
    fluxos,
    ...periodo,
  });

  function requireFuso(projeto: ProjetoExport): void {
    if (projeto.fuso === null) throw new AppError(422, SEM_FUSO, [{ msg: SEM_FUSO }]);
  }

  function csvOf(
    projeto: ProjetoExport,
    flow: FlowDefinition,
    csv: CsvExport,
    periodo: Periodo,
    decimal: SeparadorDecimal,
  ) {
    const records = filtro(projeto, [flow.key], periodo);
    if (csv.kind === 'producao') return csvStream(db, producaoQuery(records), PRODUCAO_HEADERS);
    requireFuso(projeto);
    return csvStream(
      db,
      registrosQuery(csv.colunas, records, decimal),
      csv.colunas.map((coluna) => coluna.header),
    );
  }

  /** The decimal separator a CSV is asked for: a comma unless `?decimal=ponto`. */
  const decimalOf = (request: FastifyRequest) => parseInput(decimalSchema, request.query).decimal;

  function kmlLayer(
    projeto: ProjetoExport,
    flow: FlowDefinition,
    periodo: Periodo,
    origin: string,
  ): KmlLayer {
    const { kml, colunas } = flow.exports;
    const estilo = `s-${flow.key}`;
    return {
      label: kml.label,
      cor: kml.cor,
      estilo,
      query: placemarksQuery(colunas, filtro(projeto, [flow.key], periodo), {
        nome: kml.nome,
        estilo,
        origin,
      }),
    };
  }

  const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

  app.get<{ Params: { id: string } }>('/api/projeto/:id/datas', extractors, async (request) => {
    const projeto = await readableProjeto(request, parseId(request.params.id, 'Identificador de projeto'));
    return (await datas(db, projeto.id)).map((data): DataItem => ({ ...data, data }));
  });

  app.get<{ Params: { projeto: string }; Querystring: unknown }>(
    '/api/extrator/:projeto',
    extractors,
    async (request): Promise<Extracao> => {
      const projeto = await readableProjeto(
        request,
        parseId(request.params.projeto, 'Identificador de projeto'),
      );
      const periodo = parseInput(periodoSchema, request.query);
      const counts = await contagens(
        db,
        filtro(
          projeto,
          FLOWS.map((flow) => flow.key),
          periodo,
        ),
      );
      const flows = flowsOf(
        projeto,
        counts.map((count) => count.fluxo),
      );
      const total = (fluxo: Fluxo, of: (count: (typeof counts)[number]) => number) =>
        counts.filter((count) => count.fluxo === fluxo).reduce((sum, count) => sum + of(count), 0);
      const registros = (fluxo: Fluxo) => total(fluxo, (count) => count.registros);
      const dias = (fluxo: Fluxo) => total(fluxo, (count) => count.dias);
      const base = `${projeto.nome} - `;
      const kml = flows.map((flow): Arquivo => ({
        id: flow.apiPath,
        label: flow.exports.kml.label,
        url: `/api/${flow.apiPath}/${projeto.id}/kml${query(periodo)}`,
        nome: fileName(
          `${flow.exports.kml.zip ? projeto.nome : base + flow.exports.kml.label}${flow.exports.kml.zip ? '.zip' : '.kml'}`,
        ),
        registros: registros(flow.key),
      }));
      const csv = flows.flatMap((flow) =>
        flow.exports.csv.flatMap((file): Arquivo[] => {
          const path = `/api/extrator/${projeto.id}/${file.id}.csv`;
          if (file.kind === 'registros' && file.porTecnico) {
            return counts
              .filter((count) => count.fluxo === flow.key && count.tecnico !== null)
              .map((count) => ({
                id: file.id,
                label: `${file.label} - ${count.tecnico_nome ?? 'Sem nome'}`,
                url: `${path}${query({ ...periodo, tecnico: count.tecnico ?? undefined })}`,
                nome: fileName(`${base}${file.label} - ${count.tecnico_nome ?? count.tecnico}.csv`),
                registros: count.registros,
              }));
          }
          return [
            {
              id: file.id,
              label: file.label,
              url: `${path}${query(periodo)}`,
              nome: fileName(`${base}${file.label}.csv`),
              // A production file has a row per technician and day.
              registros: file.kind === 'producao' ? dias(flow.key) : registros(flow.key),
            },
          ];
        }),
      );
      const fotos = counts.reduce((sum, count) => sum + count.fotos, 0);
      return {
        projeto: { id: projeto.id, nome: projeto.nome, fuso: projeto.fuso },
        kml,
        csv: projeto.fuso === null ? csv.filter((file) => file.id === 'vegetacao-producao') : csv,
        fotos:
          fotos === 0
            ? null
            : {
                id: 'fotos',
                label: 'Fotos (zip)',
                url: `/api/extrator/${projeto.id}/fotos.zip${query(periodo)}`,
                nome: fileName(`${base}Fotos.zip`),
                registros: fotos,
              },
        erro: projeto.fuso === null ? SEM_FUSO : null,
      };
    },
  );

  app.get<{ Params: { projeto: string; arquivo: string }; Querystring: unknown }>(
    '/api/extrator/:projeto/:arquivo',
    extractors,
    async (request, reply) => {
      const projeto = await readableProjeto(
        request,
        parseId(request.params.projeto, 'Identificador de projeto'),
      );
      const periodo = parseInput(periodoSchema, request.query);
      const { arquivo } = request.params;
      if (arquivo === 'fotos.zip') {
        const photos = fotosQuery(
          filtro(
            projeto,
            FLOWS.map((flow) => flow.key),
            periodo,
          ),
        );
        const entries = (async function* () {
          for await (const rows of db.stream<{
            registro: string;
            fluxo: Fluxo;
            slot: number;
            hash: string;
            media_type: string;
          }>(photos.sql, photos.params)) {
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
        return attachment(reply, fileName(`${projeto.nome} - Fotos.zip`), 'application/zip').send(
          zipStream(entries),
        );
      }
      const found = /^(.+)\.csv$/.exec(arquivo);
      const entry = found ? CSV_EXPORTS.get(found[1] ?? '') : undefined;
      if (!entry) throw notFound('Arquivo de exportação não encontrado.');
      const stream = csvOf(projeto, entry.flow, entry.csv, periodo, decimalOf(request));
      return attachment(
        reply,
        fileName(`${projeto.nome} - ${entry.csv.label}.csv`),
        'text/csv; charset=utf-8',
      ).send(stream);
    },
  );

  for (const flow of FLOWS) {
    app.get<{ Params: { projeto: string }; Querystring: unknown }>(
      `/api/${flow.apiPath}/:projeto/kml`,
      extractors,
      async (request, reply) => {
        const projeto = await readableProjeto(request, request.params.projeto);
        const periodo = parseInput(periodoSchema, request.query);
        const kml = () =>
          kmlStream(db, `${projeto.nome} - ${flow.exports.kml.label}`, [
            kmlLayer(projeto, flow, periodo, origin(request)),
          ]);
        if (!flow.exports.kml.zip) {
          return attachment(
            reply,
            fileName(`${projeto.nome} - ${flow.exports.kml.label}.kml`),
            'application/vnd.google-earth.kml+xml',
          ).send(kml());
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
                  open: () => csvOf(projeto, flow, csv, periodo, decimal),
                },
              ]
            : []),
        ];
        return attachment(reply, fileName(`${projeto.nome}.zip`), 'application/zip').send(
          zipStream(
            (async function* () {
              yield* entries;
            })(),
          ),
        );
      },
    );
  }

  // Reports: one row per technician of a day, and the productivity of a range (SPEC.md 2 'Reports screen').
  app.get<{ Params: { projeto: string }; Querystring: unknown }>(
    '/api/relatorio/:projeto',
    extractors,
    async (request): Promise<RelatorioTecnico[]> => {
      const projeto = await readableProjeto(
        request,
        parseId(request.params.projeto, 'Identificador de projeto'),
      );
      const { data } = parseInput(diaSchema, request.query);
      const rows = await registrosPorTecnicoDia(
        db,
        filtro(
          projeto,
          FLOWS.map((flow) => flow.key),
          { dataInicio: data, dataFim: data },
        ),
      );
      const byTecnico = new Map<string, RelatorioTecnico>();
      for (const row of rows) {
        if (row.tecnico === null) continue;
        const entry = byTecnico.get(row.tecnico) ?? {
          tecnico: { id: row.tecnico, nome: row.tecnico_nome ?? '' },
          contagens: {},
          total: 0,
          csv: `/api/relatorio/${projeto.id}/${row.tecnico}.csv?data=${data}`,
          kml: `/api/relatorio/${projeto.id}/${row.tecnico}.kml?data=${data}`,
        };
        entry.contagens[row.fluxo] = row.registros;
        entry.total += row.registros;
        byTecnico.set(row.tecnico, entry);
      }
      return [...byTecnico.values()];
    },
  );

  async function produtividade(projeto: ProjetoExport, periodo: Periodo): Promise<Produtividade[]> {
    const records = filtro(
      projeto,
      FLOWS.map((flow) => flow.key),
      periodo,
    );
    const [porFluxo, resumo] = await Promise.all([
      registrosPorTecnicoDia(db, records),
      resumoPorTecnicoDia(db, records),
    ]);
    return resumo
      .filter((row) => row.tecnico !== null)
      .map((row) => {
        const contagens: Produtividade['contagens'] = {};
        for (const count of porFluxo) {
          if (count.tecnico === row.tecnico && count.data === row.data)
            contagens[count.fluxo] = count.registros;
        }
        return {
          tecnico: { id: row.tecnico ?? '', nome: row.tecnico_nome ?? '' },
          data: row.data,
          contagens,
          total: row.registros,
          primeiro: new Date(row.primeiro).getTime(),
          ultimo: new Date(row.ultimo).getTime(),
          precisaoMediana: row.precisao_mediana === null ? null : Number(row.precisao_mediana),
          fotosCompletas: row.registros === 0 ? 0 : row.com_fotos / row.registros,
        };
      });
  }

  app.get<{ Params: { projeto: string }; Querystring: unknown }>(
    '/api/relatorio/:projeto/produtividade',
    extractors,
    async (request) => {
      const projeto = await readableProjeto(
        request,
        parseId(request.params.projeto, 'Identificador de projeto'),
      );
      return produtividade(projeto, parseInput(periodoSchema, request.query));
    },
  );

  app.get<{ Params: { projeto: string; arquivo: string }; Querystring: unknown }>(
    '/api/relatorio/:projeto/:arquivo',
    extractors,
    async (request, reply) => {
      const projeto = await readableProjeto(
        request,
        parseId(request.params.projeto, 'Identificador de projeto'),
      );
      const { arquivo } = request.params;
      if (arquivo === 'produtividade.csv') {
        const rows = await produtividade(projeto, parseInput(periodoSchema, request.query));
        return attachment(
          reply,
          fileName(`${projeto.nome} - Produtividade.csv`),
          'text/csv; charset=utf-8',
        ).send(produtividadeCsv(rows, decimalOf(request)));
      }
      const found = /^([0-9a-f-]{36})\.(csv|kml)$/i.exec(arquivo);
      if (!found) throw notFound('Arquivo de relatório não encontrado.');
      const tecnico = parseId(found[1], 'Identificador do técnico');
      const { data } = parseInput(diaSchema, request.query);
      const periodo = { dataInicio: data, dataFim: data, tecnico };
      const counts = await contagens(
        db,
        filtro(
          projeto,
          FLOWS.map((flow) => flow.key),
          periodo,
        ),
      );
      // The flows the technician collected that day too: a flow unticked after collecting keeps its records.
      const flows = flowsOf(
        projeto,
        counts.map((count) => count.fluxo),
      );
      const who = fileName(counts[0]?.tecnico_nome ?? tecnico);
      if (found[2] === 'kml') {
        return attachment(
          reply,
          fileName(`${projeto.nome} - ${data} - ${who}.kml`),
          'application/vnd.google-earth.kml+xml',
        ).send(
          kmlStream(
            db,
            `${projeto.nome} - ${data}`,
            flows.map((flow) => kmlLayer(projeto, flow, periodo, origin(request))),
          ),
        );
      }
      const decimal = decimalOf(request);
      requireFuso(projeto);
      // The day of a technician across flows: which flow, then the columns every record has.
      const colunas: Coluna[] = [{ header: 'FLUXO', valor: { registro: 'fluxo' } }, ...COLUNAS_BASE];
      return attachment(
        reply,
        fileName(`${projeto.nome} - ${data} - ${who}.csv`),
        'text/csv; charset=utf-8',
      ).send(
        csvStream(
          db,
          registrosQuery(
            colunas,
            filtro(
              projeto,
              flows.map((flow) => flow.key),
              periodo,
            ),
            decimal,
          ),
          colunas.map((c) => c.header),
        ),
      );
    },
  );
}

/** The productivity table as CSV (one row per technician and day: small, written at once). */
function produtividadeCsv(rows: Produtividade[], decimal: SeparadorDecimal): string {
  const hora = (epoch: number) =>
    new Date(epoch).toLocaleTimeString('pt-BR', {
      timeZone: FUSO_HORARIO,
      hour: '2-digit',
      minute: '2-digit',
    });
  const header = [
    'TECNICO',
    'DATA',
    ...FLOWS.map((flow) => flow.labels.menu.toUpperCase()),
    'TOTAL',
    'PRIMEIRO',
    'ULTIMO',
    'PRECISAO_MEDIANA_M',
    'FOTOS_COMPLETAS_PCT',
  ];
  const body = rows.map((row) => [
    csvSafe(row.tecnico.nome),
    row.data.split('-').reverse().join('/'),
    ...FLOWS.map((flow) => String(row.contagens[flow.key] ?? 0)),
    String(row.total),
    hora(row.primeiro),
    hora(row.ultimo),
    row.precisaoMediana === null
      ? ''
      : row.precisaoMediana.toFixed(1).replace('.', SEPARADORES_DECIMAIS[decimal]),
    (row.fotosCompletas * 100).toFixed(0),
  ]);
  return `\uFEFF${stringify([header, ...body], { delimiter: ';' })}`;
}

/** The same neutralisation as novus_csv_safe, for the few values written from Node. */
const csvSafe = (value: string) => (FORMULA_START.test(value) ? `'${value}` : value);
