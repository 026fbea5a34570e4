// The nine flow keys as stored (SPEC.md section 1); each flow's declaration is in its own file (registry.ts).
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

export function isFluxo(value: string): value is Fluxo {
  return (FLUXOS as readonly string[]).includes(value);
}
