// The Relatórios (SPEC.md 2 'Reports screen'): one row per technician of a day with their CSV and KML (and, issue 27,
// GeoPackage and XLSX), and the productivity of a period, as a table or a CSV (domain/src/api/relatorios.ts).
import type { FastifyInstance } from 'fastify';
import * as api from '@novus/domain/api/relatorios';
import type { Produtividade, RelatorioTecnico } from '@novus/domain/export/api';
import type { Coluna } from '@novus/domain/export/columns';
import { COLUNAS_BASE, FORMULA_START, FUSO_HORARIO } from '@novus/domain/export/columns';
import { nomesDePlanilha, tipoColuna } from '@novus/domain/export/celulas';
import { SEPARADORES_DECIMAIS, type SeparadorDecimal } from '@novus/domain/export/decimal';
import { type Periodo, periodoSchema } from '@novus/domain/export/periodo';
import { revisaoParams } from '@novus/domain/export/revisao';
import { FLOWS } from '@novus/domain/flows/registry';
import { stringify } from 'csv-stringify/sync';
import { route, SENT } from '../../contract.ts';
import type { Database } from '../../db/database.ts';
import { notFound, parseId, parseInput } from '../../errors.ts';
import {
  attachment,
  decimalOf,
  type ExportDeps,
  colunasCom,
  filtro,
  filtroRevisao,
  flowsOf,
  geoPackageLayer,
  kmlLayer,
  readableProjeto,
  requireFuso,
  revisaoOf,
} from './files.ts';
import {
  contagens,
  type ProjetoExport,
  registrosPorTecnicoDia,
  registrosQuery,
  resumoPorTecnicoDia,
} from './queries.ts';
import { geoPackageStream } from './geopackage.ts';
import { type Aba, xlsxStream } from './planilha.ts';
import { csvStream, kmlStream } from './writers.ts';

export async function relatorioRoutes(app: FastifyInstance, deps: ExportDeps) {
  const { db, access } = deps;
  const { diaSchema } = api;

  route(app, access, api.listRelatorio, async ({ params, request }) => {
    const projeto = await readableProjeto(deps, request, params.projeto);
    const { data } = parseInput(diaSchema, request.query);
    const revisao = revisaoOf(request);
    const rows = await registrosPorTecnicoDia(
      db,
      filtro(projeto, { dataInicio: data, dataFim: data, ...filtroRevisao(revisao) }),
    );
    // The files carry the review's choice, as the Extrator's do.
    const query = new URLSearchParams([['data', data], ...revisaoParams(revisao)]).toString();
    const byTecnico = new Map<string, RelatorioTecnico>();
    for (const row of rows) {
      if (row.tecnico === null) continue;
      const entry = byTecnico.get(row.tecnico) ?? {
        tecnico: { id: row.tecnico, nome: row.tecnico_nome ?? '' },
        contagens: {},
        total: 0,
        csv: `/api/relatorio/${projeto.id}/${row.tecnico}.csv?${query}`,
        kml: `/api/relatorio/${projeto.id}/${row.tecnico}.kml?${query}`,
      };
      entry.contagens[row.fluxo] = row.registros;
      entry.total += row.registros;
      byTecnico.set(row.tecnico, entry);
    }
    return [...byTecnico.values()];
  });

  route(app, access, api.listProdutividade, async ({ params, request }) => {
    const projeto = await readableProjeto(deps, request, params.projeto);
    return produtividade(db, projeto, parseInput(periodoSchema, request.query));
  });

  route(app, access, api.getRelatorioArquivo, async ({ params, request, reply }) => {
    const projeto = await readableProjeto(deps, request, params.projeto);
    const { arquivo } = params;
    if (arquivo === 'produtividade.csv') {
      const rows = await produtividade(db, projeto, parseInput(periodoSchema, request.query));
      void attachment(reply, `${projeto.nome} - Produtividade`, 'csv').send(
        produtividadeCsv(rows, decimalOf(request)),
      );
      return SENT;
    }
    const found = /^([0-9a-f-]{36})\.(csv|kml|gpkg|xlsx)$/i.exec(arquivo);
    if (!found) throw notFound('Arquivo de relatório não encontrado.');
    const tecnico = parseId(found[1], 'Identificador do técnico');
    const { data } = parseInput(diaSchema, request.query);
    const revisao = revisaoOf(request);
    const periodo = { dataInicio: data, dataFim: data, tecnico };
    // Which flows and whose name: of the whole day, the review's filter applies to the file's rows.
    const counts = await contagens(db, filtro(projeto, periodo));
    // The flows the technician collected that day too: a flow unticked after collecting keeps its records.
    const flows = flowsOf(projeto, counts);
    const who = counts[0]?.tecnico_nome ?? tecnico;
    if (found[2] === 'kml') {
      void attachment(reply, `${projeto.nome} - ${data} - ${who}`, 'kml').send(
        kmlStream(
          db,
          `${projeto.nome} - ${data}`,
          flows.map((flow) => kmlLayer(projeto, flow, periodo, revisao, request)),
        ),
      );
      return SENT;
    }
    if (found[2] === 'gpkg') {
      void attachment(reply, `${projeto.nome} - ${data} - ${who}`, 'gpkg').send(
        geoPackageStream(
          db,
          flows.map((flow) => geoPackageLayer(projeto, flow, periodo, revisao)),
        ),
      );
      return SENT;
    }
    requireFuso(projeto);
    // The day of a technician across flows: which flow, then the columns every record has.
    const colunas = colunasCom(
      [{ header: 'FLUXO', valor: { registro: 'fluxo' } }, ...COLUNAS_BASE] satisfies Coluna[],
      revisao,
    );
    const records = filtro(
      projeto,
      { ...periodo, ...filtroRevisao(revisao) },
      flows.map((flow) => flow.key),
    );
    if (found[2] === 'xlsx') {
      // The CSV's one file as one sheet, named after the day (a sheet name holds no '/').
      const aba: Aba = {
        nome: nomesDePlanilha([`${who} ${data}`])[0] ?? data,
        colunas: colunas.map((coluna) => ({ header: coluna.header, tipo: tipoColuna(coluna) })),
        query: registrosQuery(colunas, records, 'ponto'),
      };
      void attachment(reply, `${projeto.nome} - ${data} - ${who}`, 'xlsx').send(xlsxStream(db, [aba]));
      return SENT;
    }
    void attachment(reply, `${projeto.nome} - ${data} - ${who}`, 'csv').send(
      csvStream(
        db,
        registrosQuery(colunas, records, decimalOf(request)),
        colunas.map((c) => c.header),
      ),
    );
    return SENT;
  });
}

async function produtividade(
  db: Database,
  projeto: ProjetoExport,
  periodo: Periodo,
): Promise<Produtividade[]> {
  const records = filtro(projeto, periodo);
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
