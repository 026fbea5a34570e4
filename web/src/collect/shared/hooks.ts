// What the collection screens read: the project on the device, its records, and 'a wizard is open'.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { FLOWS } from '@novus/domain/flows/registry';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import { useReportFailure, useServices } from '../../shared/services';
import type { MapPoint } from '../../map/field/types';
import { DEVICE_FAILURE } from '../../offline/device-log';
import type { LocalProjeto } from '../../offline/db';
import { type PontosDoMapa, registroDoEstado } from '../../offline/pontos-mapa';
import type { LocalColeta } from '../../offline/records';
import type { FlowUi } from '../flow-ui';

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

/**
 * The project's records of a flow on this device (pending and downloaded), with a reload after a save; `loaded` once
 * read. With `enabled` false nothing is read (the map step reads them only when a search needs them).
 */
export function useFlowRecords(
  flow: FlowDefinition,
  projetoId: string | undefined,
  enabled = true,
): { records: LocalColeta[]; loaded: boolean; reload: () => void } {
  const { records: store } = useServices();
  const reportFailure = useReportFailure();
  const [state, setState] = useState<{ records: LocalColeta[]; loaded: boolean }>({
    records: [],
    loaded: false,
  });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!enabled || projetoId === undefined) return;
    let active = true;
    store.byProjeto(flow, projetoId).then(
      (records) => active && setState({ records, loaded: true }),
      (error: unknown) => reportFailure(DEVICE_FAILURE.read(flow.labels.record), error),
    );
    return () => {
      active = false;
    };
  }, [store, flow, projetoId, version, reportFailure, enabled]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { ...state, reload };
}

/** The points of the map's row as the field map draws them, each marked as the flow marks its records. */
export function mapPointsOf(pontos: PontosDoMapa, ui: Pick<FlowUi, 'marker'>, label: string): MapPoint[] {
  const markers = pontos.estados.map((estado) => ui.marker(registroDoEstado(estado)));
  const { ids, lats, lngs, estadoDe } = pontos;
  const points = new Array<MapPoint>(ids.length);
  for (let i = 0; i < ids.length; i += 1) {
    const marker = markers[estadoDe[i] ?? 0];
    points[i] = {
      id: ids[i] ?? '',
      lat: lats[i] ?? NaN,
      lng: lngs[i] ?? NaN,
      label,
      color: marker?.color ?? '',
      kind: marker?.kind ?? '',
      ...(marker?.hollow !== undefined ? { hollow: marker.hollow } : {}),
    };
  }
  return points;
}

/**
 * The flow's points in the project as the map draws them, from their compact row (offline/pontos-mapa.ts): a zone's
 * tens of thousands come in milliseconds, not the seconds their records take. Read again by `reload` (after a save).
 */
export function useMapPoints(
  flow: FlowDefinition,
  ui: Pick<FlowUi, 'marker'>,
  projetoId: string | undefined,
  enabled: boolean,
): { points: MapPoint[]; loaded: boolean; reload: () => void } {
  const { records: store } = useServices();
  const reportFailure = useReportFailure();
  const [pontos, setPontos] = useState<PontosDoMapa | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!enabled || projetoId === undefined) return;
    let active = true;
    store.mapa.ler(flow, projetoId).then(
      (read) => active && setPontos(read),
      (error: unknown) => reportFailure(DEVICE_FAILURE.read(flow.labels.record), error),
    );
    return () => {
      active = false;
    };
  }, [store, flow, projetoId, version, reportFailure, enabled]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const points = useMemo(
    () => (pontos ? mapPointsOf(pontos, ui, flow.labels.record) : []),
    [pontos, ui, flow.labels.record],
  );
  return { points, loaded: pontos !== null, reload };
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
