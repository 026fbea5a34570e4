// The /api/projeto endpoints the back office uses (SPEC.md section 7). Writes are form-encoded: see
// backoffice/projetos/projeto-form.ts for the body.
import { z } from 'zod';
import { FLUXOS } from '@novus/domain/flows/keys';
import { PRELOADED_FLOWS, type PreloadedFluxo } from '@novus/domain/flows/registry';
import type { ApiClient } from './client';

const idNome = z.object({ _id: z.string(), nome: z.string() });
const fluxos = z.array(z.enum(FLUXOS));
const coordenadas = z.tuple([z.number(), z.number()]);

const projetoSummarySchema = z.object({
  _id: z.string(),
  nome: z.string(),
  cliente: idNome,
  fluxos,
  fuso: z.number().nullable(),
  disponivelInterpres: z.boolean(),
});
export type ProjetoSummary = z.infer<typeof projetoSummarySchema>;

const zonaSchema = z.object({
  _id: z.string(),
  label: z.string(),
  poligono: z.array(z.object({ lat: z.number(), lng: z.number() })),
});
export type Zona = z.infer<typeof zonaSchema>;

/** Preloaded points: the map needs only where they are (LPT Agiltec records have no coordinates). */
const pontoSchema = z.looseObject({ _id: z.string(), coordenadas: coordenadas.optional() });
export type PontoPreloaded = z.infer<typeof pontoSchema>;

const pontosSchema = z.array(pontoSchema).catch([]);

/** The project as the form reads it; the preloaded points of each flow under `pontos`, by flow key. */
const projetoDetailSchema = z
  .looseObject({
    _id: z.string(),
    nome: z.string(),
    cliente: z.string(),
    fluxos,
    fuso: z.number().nullable(),
    disponivelInterpres: z.boolean(),
    zonas: z.array(zonaSchema),
  })
  .transform(({ _id, nome, cliente, fluxos, fuso, disponivelInterpres, zonas, ...rest }) => ({
    _id,
    nome,
    cliente,
    fluxos,
    fuso,
    disponivelInterpres,
    zonas,
    // the answer names each flow's points by its form field (pontosIP, ...), as the registry declares
    pontos: Object.fromEntries(
      PRELOADED_FLOWS.map((flow) => [flow.key, pontosSchema.parse(rest[flow.preload.formField] ?? [])]),
    ) as Record<PreloadedFluxo, PontoPreloaded[]>, // one entry per preloaded flow
  }));
export type ProjetoDetail = z.infer<typeof projetoDetailSchema>;

const projetoByClienteSchema = z.object({
  _id: z.string(),
  nome: z.string(),
  zonas: z.array(z.object({ _id: z.string(), label: z.string() })),
});
export type ProjetoByCliente = z.infer<typeof projetoByClienteSchema>;

const path = (id: string) => `/api/projeto/${encodeURIComponent(id)}`;

export function listProjetos(api: ApiClient): Promise<ProjetoSummary[]> {
  return api.json('GET', '/api/projeto', z.array(projetoSummarySchema));
}

export function getProjeto(api: ApiClient, id: string): Promise<ProjetoDetail> {
  return api.json('GET', path(id), projetoDetailSchema);
}

export function listProjetosByCliente(api: ApiClient, clienteId: string): Promise<ProjetoByCliente[]> {
  return api.json(
    'GET',
    `/api/projeto/getByCliente/${encodeURIComponent(clienteId)}`,
    z.array(projetoByClienteSchema),
  );
}

export function createProjeto(api: ApiClient, form: URLSearchParams): Promise<ProjetoDetail> {
  return api.json('POST', '/api/projeto', projetoDetailSchema, form);
}

export function updateProjeto(api: ApiClient, id: string, form: URLSearchParams): Promise<ProjetoDetail> {
  return api.json('PUT', path(id), projetoDetailSchema, form);
}

export function deleteProjeto(api: ApiClient, id: string): Promise<void> {
  return api.call('DELETE', path(id));
}
