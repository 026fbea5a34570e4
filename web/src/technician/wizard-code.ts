// The code of a flow's wizard (the wizard with its map step and Leaflet, and the flows' forms): loaded by the route
// when a wizard opens, and fetched ahead by the project's menu, whose every button opens one (issue 41: on a phone,
// fetching it after the tap was a third of the wait for the map's first draw).
export const loadFlowWizard = () => import('../collect/shared/FlowWizard').then((m) => m.FlowWizard);
export const loadFlowUis = () => import('../collect/flows').then((m) => m.FLOW_UI);

export function prefetchFlowWizard(): void {
  // a failed fetch is the route's to report, when a wizard opens
  Promise.all([loadFlowWizard(), loadFlowUis()]).catch(() => undefined);
}
