// What each flow is called and where the device keeps it, apart from its schemas: the technician's home reads its
// banners and counts from this without zod or the rest of the registry (issue 41). Each flow's declaration takes
// these fields from here, so they are written once.
import type { FlowLabels, Lifecycle } from './flow.ts';
import type { Fluxo } from './keys.ts';

export interface FlowMeta {
  key: Fluxo;
  labels: FlowLabels;
  /** IndexedDB store on the device (SPEC.md section 3). */
  store: string;
  lifecycle: Lifecycle;
}

/** Keyed by flow, so a flow without its entry (or under the wrong key) does not compile. */
export const FLOW_META = {
  hc: {
    key: 'hc',
    labels: { menu: 'Unidade', form: 'Unidade', banner: 'Unidades', record: 'Unidade' },
    store: 'unidade',
    lifecycle: 'coleta',
  },
  poste: {
    key: 'poste',
    labels: { menu: 'Poste', form: 'Poste', banner: 'Postes', record: 'Poste' },
    store: 'poste',
    lifecycle: 'coleta',
  },
  ip: {
    key: 'ip',
    labels: {
      menu: 'Uso Mútuo / IP',
      form: 'Uso Mútuo / IP',
      banner: 'Uso Mútuo / IP',
      record: 'Uso Mútuo / IP',
    },
    store: 'ip',
    lifecycle: 'ponto',
  },
  arvore: {
    key: 'arvore',
    labels: { menu: 'Vegetação', form: 'Árvore', banner: 'Vegetação', record: 'Vegetação' },
    store: 'arvore',
    lifecycle: 'coleta',
  },
  lpt: {
    key: 'lpt',
    labels: { menu: 'LPT', form: 'LPT', banner: 'LPT', record: 'LPT' },
    store: 'lpt',
    lifecycle: 'ponto',
  },
  grupoA: {
    key: 'grupoA',
    labels: { menu: 'Grupo A', form: 'Grupo A', banner: 'Grupo A', record: 'Grupo A' },
    store: 'grupoA',
    lifecycle: 'coleta',
  },
  bdgd: {
    key: 'bdgd',
    labels: { menu: 'BDGD', form: 'BDGD', banner: 'BDGD', record: 'BDGD' },
    store: 'bdgd',
    lifecycle: 'ponto',
  },
  fiscalizacao: {
    key: 'fiscalizacao',
    labels: { menu: 'Fiscalização', form: 'Fiscalização', banner: 'Fiscalização', record: 'Fiscalização' },
    store: 'fiscalizacao',
    lifecycle: 'ponto',
  },
  lpt2: {
    key: 'lpt2',
    labels: { menu: 'LPT Agiltec', form: 'LPT Agiltec', banner: 'LPT Agiltec', record: 'LPT Agiltec' },
    store: 'lptv2',
    lifecycle: 'lista',
  },
} as const satisfies { [K in Fluxo]: FlowMeta & { key: K } };

/**
 * In sync and menu order, as FLOWS (registry.ts): FLOW_META is written in FLUXOS' order (web/test/local-reader.test.ts
 * checks it), so the home's chunk needs not even the keys' module.
 */
export const FLOW_METAS: readonly FlowMeta[] = Object.values(FLOW_META);
