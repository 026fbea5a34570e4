// The Relatórios (SPEC.md 2 'Reports screen'): one row per technician of a day with their CSV and KML, and the
// productivity of a period, as a table or a CSV.
import type { Produtividade, RelatorioTecnico } from '../export/api.ts';
import { daySchema, periodoSchema } from '../export/periodo.ts';
import { FLUXOS } from '../flows/keys.ts';
import { z } from '../zod.ts';
import { endpoint, uuid } from './contract.ts';
import { arquivoEndpoint, comDecimal, comRevisaoExport, deProjeto } from './extrator.ts';

export const diaSchema = z.object({ data: daySchema('Data') });

const tecnico = z.object({ id: uuid, nome: z.string() });
const contagens = z
  .object(Object.fromEntries(FLUXOS.map((key) => [key, z.number().int().optional()])))
  .describe('Registros por fluxo (fluxos sem registros ficam de fora).');

export const listRelatorio = endpoint({
  method: 'GET',
  path: '/api/relatorio/:projeto',
  summary: 'O relatório diário do projeto.',
  ...deProjeto,
  query: comRevisaoExport(diaSchema),
  ok: {
    status: 200,
    description: 'O relatório do dia: uma linha por técnico.',
    answer: z.array(
      z.object({
        tecnico,
        contagens,
        total: z.number().int(),
        csv: z.string(),
        kml: z.string(),
      }) satisfies z.ZodType<RelatorioTecnico>,
    ),
  },
});

export const listProdutividade = endpoint({
  method: 'GET',
  path: '/api/relatorio/:projeto/produtividade',
  summary: 'A produtividade dos técnicos no período.',
  ...deProjeto,
  query: periodoSchema,
  ok: {
    status: 200,
    description: 'Uma linha por técnico e dia.',
    answer: z.array(
      z.object({
        tecnico,
        data: z.string().describe('AAAA-MM-DD'),
        contagens,
        total: z.number().int(),
        primeiro: z.number(),
        ultimo: z.number(),
        precisaoMediana: z.number().nullable(),
        fotosCompletas: z.number().min(0).max(1),
      }) satisfies z.ZodType<Produtividade>,
    ),
  },
});

/**
 * 'produtividade.csv' takes the period; '{tecnico}.csv', '.kml', '.gpkg' and '.xlsx' a day and the review's choice.
 */
export const getRelatorioArquivo = arquivoEndpoint({
  path: '/api/relatorio/:projeto/:arquivo',
  summary: 'Um relatório do projeto como arquivo.',
  query: comRevisaoExport(comDecimal(diaSchema)),
  description: 'O arquivo (CSV, KML, GeoPackage ou XLSX).',
});
