// The extraction and report endpoints the back office reads (SPEC.md sections 2 'Extractor' and 'Reports
// screen', 7); their answers are typed once in domain/export/api.ts. Downloads are plain links, never fetched
// here: the files can be hundreds of MB and the browser streams them to disk with the session cookie.
import { z } from 'zod';
import type { Arquivo, DataItem, Extracao, Produtividade, RelatorioTecnico } from '@novus/domain/export/api';
import { FLUXOS } from '@novus/domain/flows/keys';
import type { ApiClient } from './client';

const dataSchema = z.object({ ano: z.number().int(), mes: z.number().int(), dia: z.number().int() });

const dataItemSchema: z.ZodType<DataItem> = dataSchema.extend({ data: dataSchema });

const arquivoSchema: z.ZodType<Arquivo> = z.object({
  id: z.string(),
  label: z.string(),
  url: z.string(),
  nome: z.string(),
  registros: z.number(),
});

const extracaoSchema: z.ZodType<Extracao> = z.object({
  projeto: z.object({ id: z.string(), nome: z.string(), fuso: z.number().nullable() }),
  kml: z.array(arquivoSchema),
  csv: z.array(arquivoSchema),
  fotos: arquivoSchema.nullable(),
  erro: z.string().nullable(),
});

const tecnicoSchema = z.object({ id: z.string(), nome: z.string() });
const contagensSchema = z.partialRecord(z.enum(FLUXOS), z.number());

const relatorioTecnicoSchema: z.ZodType<RelatorioTecnico> = z.object({
  tecnico: tecnicoSchema,
  contagens: contagensSchema,
  total: z.number(),
  csv: z.string(),
  kml: z.string(),
});

const produtividadeSchema: z.ZodType<Produtividade> = z.object({
  tecnico: tecnicoSchema,
  data: z.string(),
  contagens: contagensSchema,
  total: z.number(),
  primeiro: z.number(),
  ultimo: z.number(),
  precisaoMediana: z.number().nullable(),
  fotosCompletas: z.number(),
});

/** A date range as the routes take it: YYYY-MM-DD days, either end optional, the end day included. */
export interface Periodo {
  dataInicio?: string;
  dataFim?: string;
}

const id = (projetoId: string) => encodeURIComponent(projetoId);

function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value);
  const text = search.toString();
  return text.length > 0 ? `?${text}` : '';
}

/** The days with records of a project, ascending. */
export function listDatas(api: ApiClient, projetoId: string): Promise<DataItem[]> {
  return api.json('GET', `/api/projeto/${id(projetoId)}/datas`, z.array(dataItemSchema));
}

/** What the Extrator offers for a project and date range. */
export function getExtracao(api: ApiClient, projetoId: string, periodo: Periodo): Promise<Extracao> {
  return api.json('GET', `/api/extrator/${id(projetoId)}${query({ ...periodo })}`, extracaoSchema);
}

/** One row per technician who collected on that day (YYYY-MM-DD). */
export function listRelatorio(api: ApiClient, projetoId: string, data: string): Promise<RelatorioTecnico[]> {
  return api.json(
    'GET',
    `/api/relatorio/${id(projetoId)}${query({ data })}`,
    z.array(relatorioTecnicoSchema),
  );
}

export function listProdutividade(
  api: ApiClient,
  projetoId: string,
  periodo: Periodo,
): Promise<Produtividade[]> {
  return api.json('GET', produtividadePath(projetoId, periodo, ''), z.array(produtividadeSchema));
}

/** The productivity table as a CSV file, for a download link. */
export function produtividadeCsvUrl(projetoId: string, periodo: Periodo): string {
  return produtividadePath(projetoId, periodo, '.csv');
}

function produtividadePath(projetoId: string, periodo: Periodo, extension: '' | '.csv'): string {
  return `/api/relatorio/${id(projetoId)}/produtividade${extension}${query({ ...periodo })}`;
}
