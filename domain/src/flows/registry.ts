// The nine flows, each declared once in its own file, in sync and menu order (SPEC.md sections 1, 2, 4).
// Everything per flow (menu, banners, stores, routes, sync, galleries, project-form files) derives from here.
import { arvoreFlow } from './arvore.ts';
import { bdgdFlow } from './bdgd.ts';
import type { FlowDefinition, Preload } from './flow.ts';
import { fiscalizacaoFlow } from './fiscalizacao.ts';
import { grupoAFlow } from './grupo-a.ts';
import { ipFlow } from './ip.ts';
import { FLUXOS, type Fluxo } from './keys.ts';
import { lptFlow } from './lpt.ts';
import { lptAgiltecFlow } from './lpt-agiltec.ts';
import { posteFlow } from './poste.ts';
import { unidadeFlow } from './unidade.ts';

/** Keyed by flow, so a flow without its declaration (or declared under the wrong key) does not compile. */
export const FLOW_BY_KEY = {
  hc: unidadeFlow,
  poste: posteFlow,
  ip: ipFlow,
  arvore: arvoreFlow,
  lpt: lptFlow,
  grupoA: grupoAFlow,
  bdgd: bdgdFlow,
  fiscalizacao: fiscalizacaoFlow,
  lpt2: lptAgiltecFlow,
} as const satisfies { [K in Fluxo]: FlowDefinition & { key: K } };

/** Sync order: projects, units, poles, points, trees, LPT, Grupo A, BDGD, Fiscalizacao, LPT Agiltec. */
export const FLOWS: readonly FlowDefinition[] = FLUXOS.map((fluxo) => FLOW_BY_KEY[fluxo]);

export function flowOf(fluxo: Fluxo): FlowDefinition {
  return FLOW_BY_KEY[fluxo];
}

export function flowByApiPath(apiPath: string): FlowDefinition | undefined {
  return FLOWS.find((flow) => flow.apiPath === apiPath);
}

/** The flows whose points the project form loads from a file. */
export type PreloadedFluxo = {
  [K in Fluxo]: (typeof FLOW_BY_KEY)[K] extends { preload: Preload } ? K : never;
}[Fluxo];

export type PreloadedFlow = FlowDefinition & { key: PreloadedFluxo; preload: Preload };

export const PRELOADED_FLOWS: readonly PreloadedFlow[] = FLOWS.filter(
  (flow): flow is PreloadedFlow => flow.preload !== undefined,
);
export const PRELOADED_FLUXOS: readonly PreloadedFluxo[] = PRELOADED_FLOWS.map((flow) => flow.key);

/** Labels of the project form's Fluxos checkboxes (SPEC.md section 2, 'Project form'). */
export const FLUXO_FORM_LABELS = Object.fromEntries(
  FLOWS.map((flow) => [flow.key, flow.labels.form]),
) as Record<Fluxo, string>; // one entry per flow of FLOWS, which holds every Fluxo
