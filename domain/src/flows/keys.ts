// The nine flows (SPEC.md section 1): keys as stored, labels as the project form shows them.
export const FLUXOS = [
  'hc',
  'poste',
  'ip',
  'arvore',
  'lpt',
  'grupoA',
  'bdgd',
  'fiscalizacao',
  'lpt2',
] as const;
export type Fluxo = (typeof FLUXOS)[number];

/** Labels of the project form's Fluxos checkboxes (SPEC.md section 2, 'Project form'). */
export const FLUXO_FORM_LABELS: Record<Fluxo, string> = {
  hc: 'Unidade',
  poste: 'Poste',
  ip: 'Uso Mútuo / IP',
  arvore: 'Árvore',
  lpt: 'LPT',
  grupoA: 'Grupo A',
  bdgd: 'BDGD',
  fiscalizacao: 'Fiscalização',
  lpt2: 'LPT Agiltec',
};

export function isFluxo(value: string): value is Fluxo {
  return (FLUXOS as readonly string[]).includes(value);
}

/** Flows whose points can be preloaded from a file on the project form, and the form field that carries them. */
export const PRELOADED_FLUXOS = ['ip', 'bdgd', 'fiscalizacao', 'lpt2'] as const;
export type PreloadedFluxo = (typeof PRELOADED_FLUXOS)[number];

export const PONTOS_FIELD: Record<PreloadedFluxo, string> = {
  ip: 'pontosIP',
  bdgd: 'pontosBDGD',
  fiscalizacao: 'pontosFiscalizacao',
  lpt2: 'pontosLPTv2',
};
