// The project as the back office's form reads it (domain/src/api/projetos.ts declares the endpoints): the preloaded
// points of each flow regrouped by flow key, from the answer's form-field names (pontosIP, ...).
import type { PontoAnswer, ProjetoAnswer } from '@novus/domain/api/projetos';
import { PRELOADED_FLOWS, type PreloadedFluxo } from '@novus/domain/flows/registry';

/** Preloaded points: the map needs only where they are (LPT Agiltec records have no coordinates). */
export interface PontoPreloaded {
  _id: string;
  coordenadas?: [number, number];
}

export interface ProjetoDetail extends Pick<
  ProjetoAnswer,
  | '_id'
  | 'nome'
  | 'cliente'
  | 'fluxos'
  | 'fuso'
  | 'disponivelInterpres'
  | 'carimboFotos'
  | 'retencaoCopiasDias'
> {
  zonas: Pick<ProjetoAnswer['zonas'][number], '_id' | 'label' | 'poligono'>[];
  pontos: Record<PreloadedFluxo, PontoPreloaded[]>;
}

function pontoPreloaded({ _id, coordenadas: [lat, lng] = [] }: PontoAnswer): PontoPreloaded {
  return lat === undefined || lng === undefined ? { _id } : { _id, coordenadas: [lat, lng] };
}

/** getProjeto's, createProjeto's or updateProjeto's answer as the form reads it. */
export function projetoDetail(answer: ProjetoAnswer): ProjetoDetail {
  const { _id, nome, cliente, fluxos, fuso, disponivelInterpres, carimboFotos, retencaoCopiasDias, zonas } =
    answer;
  const fields: Readonly<Record<string, unknown>> = answer;
  // parsed by the declared answer, whose shape holds every preloaded flow's points under its formField
  const pontosOf = (field: string) => (fields[field] as PontoAnswer[]).map(pontoPreloaded);
  return {
    _id,
    nome,
    cliente,
    fluxos,
    fuso,
    disponivelInterpres,
    carimboFotos,
    retencaoCopiasDias,
    zonas,
    pontos: Object.fromEntries(
      PRELOADED_FLOWS.map((flow) => [flow.key, pontosOf(flow.preload.formField)]),
    ) as Record<PreloadedFluxo, PontoPreloaded[]>, // one entry per preloaded flow
  };
}
