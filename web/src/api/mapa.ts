// The supervisor map's endpoints (domain/src/mapa/api.ts): a project's points in compact form, its statistics,
// one record for a popup, and the live stream of points as Server-Sent Events.
import { z } from 'zod';
import { FLUXOS } from '@novus/domain/flows/keys';
import type { EstatisticaItem, MapaProjeto, PontoEvento } from '@novus/domain/mapa/api';
import type { ApiClient } from './client';

/** The screen's filters; '' leaves one out. Dates YYYY-MM-DD (local days, inclusive). */
export interface MapaFiltros {
  /** A technician's id, as MapaProjeto.tecnicos lists them. */
  tecnico: string;
  dataInicio: string;
  dataFim: string;
}

export const SEM_FILTROS: MapaFiltros = { tecnico: '', dataInicio: '', dataFim: '' };

const fluxoSchema = z.enum(FLUXOS);

/**
 * An array of numbers, checked in one loop: z.array(z.number()) parses and copies element by element, ≈ 30 ms for
 * the 200,000 coordinates of 100,000 points.
 */
const numbersSchema = z.custom<number[]>(
  (value) => Array.isArray(value) && value.every((item) => typeof item === 'number'),
  'Esperava uma lista de números',
);

const mapaSchema = z.object({
  projeto: z.object({ id: z.string(), nome: z.string() }),
  zonas: z.array(
    z.object({
      _id: z.string(),
      label: z.string(),
      poligono: z.array(z.object({ lat: z.number(), lng: z.number() })),
    }),
  ),
  camadas: z.array(
    z.object({ fluxo: fluxoSchema, ids: z.string(), coords: numbersSchema, status: z.string() }),
  ),
  tecnicos: z.array(z.object({ id: z.string(), nome: z.string() })),
}) satisfies z.ZodType<MapaProjeto>;

const estatisticaSchema = z.array(z.object({ _id: z.string(), count: z.number() })) satisfies z.ZodType<
  EstatisticaItem[]
>;

const pontoEventoSchema = z.object({
  fluxo: fluxoSchema,
  id: z.string(),
  lat: z.number(),
  lng: z.number(),
  status: z.number().int().min(0),
  tecnico: z.string().nullable(),
  dataHora: z.number().nullable(),
}) satisfies z.ZodType<PontoEvento>;

/** One collection of a point: who and when (the rest of the flow's fields come along, unread here). */
const coletaSchema = z.looseObject({
  _id: z.string(),
  tecnico: z.string().nullable().optional(),
  dataHora: z.number().nullable().optional(),
});

/** GET /api/registro/{id}: the flow's fields at the top level, plus who, when, photos and competing collections. */
const registroSchema = z.looseObject({
  _id: z.string(),
  tecnico: z.string().nullable().optional(),
  dataHora: z.number().nullable().optional(),
  fotos: z.array(z.string()).optional(),
  conflito: z.boolean().optional(),
  coletas: z.array(coletaSchema).optional(),
});
export type RegistroMapa = z.infer<typeof registroSchema>;
export type ColetaMapa = z.infer<typeof coletaSchema>;

function query(filtros: MapaFiltros): string {
  const params = new URLSearchParams();
  if (filtros.tecnico !== '') params.set('tecnico', filtros.tecnico);
  if (filtros.dataInicio !== '') params.set('dataInicio', filtros.dataInicio);
  if (filtros.dataFim !== '') params.set('dataFim', filtros.dataFim);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

const projetoPath = (idOuNome: string) => `/api/projeto/${encodeURIComponent(idOuNome)}`;

export function getMapa(api: ApiClient, projetoId: string, filtros: MapaFiltros): Promise<MapaProjeto> {
  return api.json('GET', `${projetoPath(projetoId)}/mapa${query(filtros)}`, mapaSchema);
}

/** The statistics route finds the project by name (SPEC.md section 7). */
export function getEstatistica(
  api: ApiClient,
  nomeProjeto: string,
  filtros: MapaFiltros,
): Promise<EstatisticaItem[]> {
  return api.json('GET', `${projetoPath(nomeProjeto)}/estatistica${query(filtros)}`, estatisticaSchema);
}

export function getRegistroMapa(api: ApiClient, id: string): Promise<RegistroMapa> {
  return api.json('GET', `/api/registro/${encodeURIComponent(id)}`, registroSchema);
}

/**
 * Listens to the project's `ponto` events until the returned function is called. EventSource reconnects by
 * itself after a network failure; events sent while it was away are not replayed (reloading the screen shows them).
 */
export function watchPontos(projetoId: string, onPonto: (evento: PontoEvento) => void): () => void {
  const source = new EventSource(`${projetoPath(projetoId)}/mapa/eventos`);
  const listener = (event: MessageEvent<string>) => {
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    const parsed = pontoEventoSchema.safeParse(data);
    if (parsed.success) onPonto(parsed.data);
  };
  source.addEventListener('ponto', listener);
  return () => {
    source.removeEventListener('ponto', listener);
    source.close();
  };
}
