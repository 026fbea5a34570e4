// The flows the generic machinery serves, in sync order (SPEC.md section 4: projects, units, poles, points, ...).
// The other seven flows join as declarations in their own files.
import type { FlowDefinition } from './flow.ts';
import { posteFlow } from './poste.ts';
import { unidadeFlow } from './unidade.ts';

export const FLOWS: readonly FlowDefinition[] = [unidadeFlow, posteFlow];

export function flowByApiPath(apiPath: string): FlowDefinition | undefined {
  return FLOWS.find((flow) => flow.apiPath === apiPath);
}
