// What the collection screens read: the project on the device, its records, and 'a wizard is open'.
import { useCallback, useEffect, useState } from 'react';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { useServices } from '../../app/services';
import type { LocalProjeto } from '../../offline/db';
import type { LocalColeta } from '../../offline/records';

export function useProjeto(projetoId: string | undefined): { projeto: LocalProjeto | null; loaded: boolean } {
  const { localStore } = useServices();
  const [state, setState] = useState<{ projeto: LocalProjeto | null; loaded: boolean }>({
    projeto: null,
    loaded: false,
  });
  useEffect(() => {
    let active = true;
    if (projetoId === undefined) return;
    localStore.getProjeto(projetoId).then(
      (projeto) => active && setState({ projeto: projeto ?? null, loaded: true }),
      () => active && setState({ projeto: null, loaded: true }),
    );
    return () => {
      active = false;
    };
  }, [localStore, projetoId]);
  return state;
}

/** The project's records of a flow on this device (pending and downloaded), with a reload after a save. */
export function useFlowRecords(
  flow: FlowDefinition,
  projetoId: string | undefined,
): { records: LocalColeta[]; reload: () => void } {
  const { records: store } = useServices();
  const [records, setRecords] = useState<LocalColeta[]>([]);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let active = true;
    store.getAll(flow).then(
      (all) => active && setRecords(all.filter((record) => record.projeto === projetoId)),
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [store, flow, projetoId, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { records, reload };
}

/** While mounted, an app update waits (UpdatePrompt stays hidden). */
export function useWorkInProgress(kind: string): void {
  const { work } = useServices();
  useEffect(() => work.begin(kind), [work, kind]);
}
