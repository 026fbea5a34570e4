// The web side of the flow registry: each flow's UI parts, keyed by flow so a flow without its UI does not compile.
import type { Fluxo } from '@novus/domain/flows/keys';
import type { FlowUi } from './flow-ui';
import { arvoreUi } from './arvore/arvore-ui';
import { bdgdUi } from './bdgd/bdgd-ui';
import { fiscalizacaoUi } from './fiscalizacao/fiscalizacao-ui';
import { grupoAUi } from './grupo-a/grupo-a-ui';
import { ipUi } from './ip/ip-ui';
import { lptUi } from './lpt/lpt-ui';
import { lptAgiltecUi } from './lptv2/lptv2-ui';
import { posteUi } from './poste/poste-ui';
import { unidadeUi } from './unidade/unidade-ui';

export const FLOW_UI: Record<Fluxo, FlowUi> = {
  hc: unidadeUi,
  poste: posteUi,
  ip: ipUi,
  arvore: arvoreUi,
  lpt: lptUi,
  grupoA: grupoAUi,
  bdgd: bdgdUi,
  fiscalizacao: fiscalizacaoUi,
  lpt2: lptAgiltecUi,
};
