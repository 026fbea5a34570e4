// The supervisor's Leaflet map: street tiles (or the project's basemap package), the project's zones in red, and every point on one canvas fed by
// the cluster worker (pontos-controller.ts). Live points arrive as Server-Sent Events while the map is open.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { Box } from '@mui/material';
import type { Popup as LeafletPopup } from 'leaflet';
import { MapContainer, Polygon, Popup, useMap } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import { isFluxo, type Fluxo } from '@novus/domain/flows/keys';
import type { MapaBase } from '@novus/domain/api/mapa-base';
import { STATUS, type MapaProjeto } from '@novus/domain/mapa/api';
import { watchPontos } from '../../api/mapa';
import { BRAZIL, boundsOf, type Bounds } from '../../map/bounds';
import { BaseLayers } from './BaseLayers';
import type { PontoRef, PontosStore } from './compact-points';
import { eventoPassa, type FiltrosEscolhidos } from './filtros';
import type { Colorir } from './layers';
import { SUPERVISOR_TEXT } from './messages';
import { PontoPopup } from './PontoPopup';
import { PontosController, type DrawStats } from './pontos-controller';
import type { PontosSource } from './pontos-source';

/** SPEC.md section 9: the supervisor map starts at zoom 13; fitting the points never zooms in further. */
export const START_ZOOM = 13;
const MAX_ZOOM = 19;
const ZONA_COLOR = 'red';

/**
 * The e2e's way to click a point drawn on the canvas, where no DOM node stands for it: `pointPixel` gives the
 * container pixel of the `index`-th point of layer `fluxo` (its place in MapaProjeto's compact layer), or null
 * when that point is not drawn on its own right now (layer unticked, inside a cluster, out of view); a click
 * there opens its popup. `pointId` gives the record's uuid; `clusterPixels` the clusters drawn now (a click on
 * one zooms in). Pixels are relative to the element with data-testid="supervisor-map". Kept in production
 * builds: it only reads.
 */
export interface SupervisorTestHook {
  pointPixel: (fluxo: string, index: number) => { x: number; y: number } | null;
  pointId: (fluxo: string, index: number) => string | null;
  clusterPixels: () => { fluxo: Fluxo; count: number; x: number; y: number }[];
  /** The single points drawn now (on screen or just beyond its edges), by layer and place. */
  pointPixels: () => { fluxo: Fluxo; index: number; x: number; y: number }[];
}

declare global {
  interface Window {
    __novusSupervisor?: SupervisorTestHook;
  }
}

interface Props {
  projetoId: string;
  zonas: MapaProjeto['zonas'];
  /** Null while the project's points load: the map is drawn already, empty, so their arrival only fills it. */
  store: PontosStore | null;
  /** The page's cluster worker, already holding the store's points (or about to), or the server's grid. */
  client: PontosSource;
  /** The box of a project whose points the server clusters (the store holds only those seen so far). */
  limites?: Bounds | null;
  tileUrl: string | undefined;
  /** The project's basemap package (issue 23), offered beside the street tiles; null when it has none. */
  mapaBase: MapaBase | null;
  mask: number;
  clusterizar: boolean;
  /** Points coloured by layer, or by review state (issue 24). */
  colorir: Colorir;
  /** Only flagged points are drawn: a live point without flags is not added. */
  somenteSinalizados: boolean;
  filtros: FiltrosEscolhidos;
  /** A live event changed the points: their counts per layer now. */
  onPontosChanged: (counts: Record<Fluxo, number>) => void;
}

/** Where the map starts before the first points come; nothing is drawn there (no tiles until then). */
const START_BOUNDS = BRAZIL;

interface Selecionado {
  store: PontosStore;
  key: string;
  ref: PontoRef;
  id: string;
  position: [number, number];
}

export function SupervisorMap({
  projetoId,
  zonas,
  store,
  client,
  limites,
  tileUrl,
  mapaBase,
  mask,
  clusterizar,
  colorir,
  somenteSinalizados,
  filtros,
  onPontosChanged,
}: Props) {
  const boxRef = useRef<HTMLDivElement>(null);
  const controllerRef = useRef<PontosController | null>(null);
  const popupRef = useRef<LeafletPopup>(null);
  const [selecionado, setSelecionado] = useState<Selecionado | null>(null);
  const bounds = useMemo(
    () => (store === null ? null : viewBounds(store, zonas, limites)),
    [store, zonas, limites],
  );

  // Counted on the container after each draw, for tests and for whoever inspects the page.
  const onDrawn = useCallback((stats: DrawStats) => {
    const box = boxRef.current;
    if (box === null) return;
    box.dataset.pontos = String(stats.pontos);
    box.dataset.clusters = String(stats.clusters);
  }, []);

  // What a draw counted belongs to the points drawn: none while the next ones load.
  useEffect(() => {
    const box = boxRef.current;
    if (store !== null || box === null) return;
    delete box.dataset.pontos;
    delete box.dataset.clusters;
  }, [store]);

  const onSelect = useCallback(
    (ref: PontoRef) => {
      if (store === null) return;
      const key = `${ref.fluxo}:${ref.index}`;
      setSelecionado((current) =>
        current !== null && current.key === key && current.store === store
          ? current
          : { store, key, ref, id: store.uuidAt(ref), position: store.latLngAt(ref) },
      );
    },
    [store],
  );
  const updatePopup = useCallback(() => popupRef.current?.update(), []);

  useLivePontos(projetoId, store, filtros, somenteSinalizados, controllerRef, onPontosChanged);
  useTestHook(store, controllerRef);

  const [[south, west], [north, east]] = bounds ?? START_BOUNDS;
  return (
    <Box
      ref={boxRef}
      role="region"
      aria-label={SUPERVISOR_TEXT.mapLabel}
      data-testid="supervisor-map"
      sx={{
        height: { xs: 420, md: 'calc(100dvh - 240px)' },
        minHeight: 420,
        width: '100%',
        // Leaflet's attribution links are told apart by colour only (axe: link-in-text-block).
        '& .leaflet-control-attribution a': { textDecoration: 'underline' },
      }}
    >
      <MapContainer
        center={[(south + north) / 2, (west + east) / 2]}
        zoom={START_ZOOM}
        maxZoom={MAX_ZOOM}
        style={{ height: '100%', width: '100%' }}
        scrollWheelZoom
      >
        {store !== null && (
          <BaseLayers projetoId={projetoId} tileUrl={tileUrl} mapaBase={mapaBase} maxZoom={MAX_ZOOM} />
        )}
        {zonas.map((zona) => (
          <Polygon
            key={zona._id}
            positions={zona.poligono.map((vertice): [number, number] => [vertice.lat, vertice.lng])}
            // a faint fill: zoomed inside a zone, the basemap under it (a project's package) stays readable
            pathOptions={{ color: ZONA_COLOR, fillOpacity: 0.05 }}
            // clicks pass through to the map, which finds the point under them
            interactive={false}
          />
        ))}
        <FitView bounds={bounds} />
        <PontosLayer
          store={store}
          client={client}
          mask={mask}
          clusterizar={clusterizar}
          colorir={colorir}
          controllerRef={controllerRef}
          onDrawn={onDrawn}
          onSelect={onSelect}
        />
        {selecionado !== null && selecionado.store === store && (
          <Popup
            key={selecionado.key}
            ref={popupRef}
            position={selecionado.position}
            minWidth={220}
            maxWidth={320}
            eventHandlers={{
              remove: () => setSelecionado((current) => (current?.key === selecionado.key ? null : current)),
            }}
          >
            <PontoPopup
              fluxo={selecionado.ref.fluxo}
              id={selecionado.id}
              status={selecionado.store.statusAt(selecionado.ref)}
              onResize={updatePopup}
            />
          </Popup>
        )}
      </MapContainer>
    </Box>
  );
}

/** The points' box (the server's, for a project it clusters), else the zones', else Brazil. */
function viewBounds(store: PontosStore, zonas: MapaProjeto['zonas'], limites?: Bounds | null): Bounds {
  const pontos = limites === undefined ? store.bounds() : limites;
  if (pontos !== null) return pontos;
  const vertices = zonas.flatMap((zona) => zona.poligono.map((v): [number, number] => [v.lat, v.lng]));
  return vertices.length > 0 ? boundsOf(vertices) : BRAZIL;
}

/** Fits the view whenever a load brings other points (a project or filter changed), never on live events. */
function FitView({ bounds }: { bounds: Bounds | null }) {
  const map = useMap();
  useEffect(() => {
    if (bounds !== null) map.fitBounds(bounds, { maxZoom: START_ZOOM, padding: [24, 24], animate: false });
  }, [map, bounds]);
  return null;
}

interface PontosLayerProps {
  store: PontosStore | null;
  client: PontosSource;
  mask: number;
  clusterizar: boolean;
  colorir: Colorir;
  controllerRef: RefObject<PontosController | null>;
  onDrawn: (stats: DrawStats) => void;
  onSelect: (ref: PontoRef) => void;
}

function PontosLayer({
  store,
  client,
  mask,
  clusterizar,
  colorir,
  controllerRef,
  onDrawn,
  onSelect,
}: PontosLayerProps) {
  const map = useMap();
  const events = useRef({ onDrawn, onSelect });
  useLayoutEffect(() => {
    events.current = { onDrawn, onSelect };
  });

  // Effects run in order: the controller exists before it gets the store and the options (StrictMode included).
  useEffect(() => {
    const controller = new PontosController(map, client, {
      onDrawn: (stats) => events.current.onDrawn(stats),
      onSelect: (ref) => events.current.onSelect(ref),
    });
    controllerRef.current = controller;
    return () => {
      controller.destroy();
      if (controllerRef.current === controller) controllerRef.current = null;
    };
  }, [map, client, controllerRef]);
  useEffect(() => {
    controllerRef.current?.setStore(store);
  }, [controllerRef, client, store]);
  useEffect(() => {
    controllerRef.current?.setOptions(mask, clusterizar, colorir);
  }, [controllerRef, mask, clusterizar, colorir]);
  return null;
}

/**
 * Adds or updates the points the project's events announce, while the map is open. A point new to the map is
 * added only if it passes the filters; one it already shows is updated whatever they say.
 */
function useLivePontos(
  projetoId: string,
  store: PontosStore | null,
  filtros: FiltrosEscolhidos,
  somenteSinalizados: boolean,
  controllerRef: RefObject<PontosController | null>,
  onPontosChanged: (counts: Record<Fluxo, number>) => void,
) {
  const latest = useRef({ store, filtros, somenteSinalizados, onPontosChanged });
  useLayoutEffect(() => {
    latest.current = { store, filtros, somenteSinalizados, onPontosChanged };
  });
  // Listening from the first load on, as when the map appeared only with it.
  const loaded = store !== null;
  useEffect(() => {
    if (!loaded) return;
    return watchPontos(projetoId, (evento) => {
      const current = latest.current;
      if (current.store === null) return;
      if (!current.store.has(evento)) {
        if (!eventoPassa(evento, current.filtros)) return;
        if (current.somenteSinalizados && (evento.status & STATUS.sinalizado) === 0) return;
      }
      const { ref } = current.store.upsert(evento);
      controllerRef.current?.pontoChanged(ref);
      current.onPontosChanged(current.store.counts());
    });
  }, [projetoId, loaded, controllerRef]);
}

function useTestHook(store: PontosStore | null, controllerRef: RefObject<PontosController | null>) {
  useEffect(() => {
    if (store === null) return;
    const inRange = (fluxo: string, index: number): PontoRef | null =>
      isFluxo(fluxo) && Number.isInteger(index) && index >= 0 && index < store.count(fluxo)
        ? { fluxo, index }
        : null;
    const hook: SupervisorTestHook = {
      pointPixel: (fluxo, index) => {
        const ref = inRange(fluxo, index);
        return ref === null ? null : (controllerRef.current?.pointPixel(ref) ?? null);
      },
      pointId: (fluxo, index) => {
        const ref = inRange(fluxo, index);
        return ref === null ? null : store.uuidAt(ref);
      },
      clusterPixels: () => controllerRef.current?.clusterPixels() ?? [],
      pointPixels: () => controllerRef.current?.pointPixels() ?? [],
    };
    window.__novusSupervisor = hook;
    return () => {
      if (window.__novusSupervisor === hook) delete window.__novusSupervisor;
    };
  }, [store, controllerRef]);
}
