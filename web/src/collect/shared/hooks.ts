// What the collection screens read: the project on the device, its records, and 'a wizard is open'.
import { useCallback, useEffect, useState } from 'react';
import { FLOWS } from '@novus/domain/flows/registry';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { useReportFailure, useServices } from '../../shared/services';
import { DEVICE_FAILURE } from '../../offline/device-log';
import type { LocalProjeto } from '../../offline/db';
import type { LocalColeta } from '../../offline/records';

export function useProjeto(projetoId: string | undefined): { projeto: LocalProjeto | null; loaded: boolean } {
  const { localStore } = useServices();
  const reportFailure = useReportFailure();
  const [state, setState] = useState<{ projeto: LocalProjeto | null; loaded: boolean }>({
    projeto: null,
    loaded: false,
  });
  useEffect(() => {
    let active = true;
    if (projetoId === undefined) return;
    localStore.getProjeto(projetoId).then(
      (projeto) => active && setState({ projeto: projeto ?? null, loaded: true }),
      (error: unknown) => {
        reportFailure(DEVICE_FAILURE.read('Projeto'), error);
        if (active) setState({ projeto: null, loaded: true });
      },
    );
    return () => {
      active = false;
    };
  }, [localStore, projetoId, reportFailure]);
  return state;
}

/** The project's records of a flow on this device (pending and downloaded), with a reload after a save. */
export function useFlowRecords(
  flow: FlowDefinition,
  projetoId: string | undefined,
): { records: LocalColeta[]; reload: () => void } {
  const { records: store } = useServices();
  const reportFailure = useReportFailure();
  const [records, setRecords] = useState<LocalColeta[]>([]);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let active = true;
    store.getAll(flow).then(
      (all) => active && setRecords(all.filter((record) => record.projeto === projetoId)),
      (error: unknown) => reportFailure(DEVICE_FAILURE.read(flow.labels.record), error),
    );
    return () => {
      active = false;
    };
  }, [store, flow, projetoId, version, reportFailure]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { records, reload };
}

/**
 * Items of every flow of the registry, read from the device (the pending list, the corrections), sorted; read again
 * after every write to the device's database, in this tab or another (issue 25). null while the first read runs; a
 * failed read is logged under `screen` and shows as none. `read` and `order` must be stable (useCallback, module functions).
 */
export function useEveryFlow<T>(
  read: (flow: FlowDefinition) => Promise<T[]>,
  order: (a: T, b: T) => number,
  screen: string,
): T[] | null {
  const { localStore } = useServices();
  const reportFailure = useReportFailure();
  const [items, setItems] = useState<T[] | null>(null);
  const [changes, setChanges] = useState(0);
  useEffect(() => localStore.onChange(() => setChanges((count) => count + 1)), [localStore]);
  useEffect(() => {
    let active = true;
    Promise.all(FLOWS.map(read)).then(
      (lists) => active && setItems(lists.flat().sort(order)),
      (error: unknown) => {
        reportFailure(DEVICE_FAILURE.read(screen), error);
        if (active) setItems([]);
      },
    );
    return () => {
      active = false;
    };
  }, [read, order, screen, reportFailure, changes]);
  return items;
}

/** While mounted, an app update waits (UpdatePrompt stays hidden). */
export function useWorkInProgress(kind: string): void {
  const { work } = useServices();
  useEffect(() => work.begin(kind), [work, kind]);
}
