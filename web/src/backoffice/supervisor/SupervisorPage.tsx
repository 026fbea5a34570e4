// 'Supervisão de Projetos': one of the user's projects on a map with all its layers, filtered by technician and
// period, with per-flow statistics, kept live as the devices send records (SPEC.md section 2 'Supervisor').
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, LinearProgress, MenuItem, Stack, TextField } from '@mui/material';
import { getEstatistica, getMapa } from '@novus/domain/api/mapa';
import { listProjetos } from '@novus/domain/api/projetos';
import { getConfig } from '@novus/domain/api/sistema';
import { FLUXOS, type Fluxo } from '@novus/domain/flows/keys';
import type { MapaProjeto } from '@novus/domain/mapa/api';
import { useBackofficeApi } from '../backoffice-api';
import { LOAD_FAILURE } from '../extrator/messages';
import { ProjetoPageHead } from '../extrator/ProjetoPageHead';
import { useApiLoad, useScopedChoice } from '../extrator/use-api-load';
import { ClusterClient } from './cluster-client';
import { GradeClient } from './grade-client';
import type { PontosSource } from './pontos-source';
import { PontosStore, soSinalizados } from './compact-points';
import { mapaFiltros, tecnicoOptions, TODOS_FILTROS, type FiltrosEscolhidos } from './filtros';
import { LayerPanel } from './LayerPanel';
import { allVisible, maskOf } from './layers';
import { SUPERVISOR_FAILURE, SUPERVISOR_TEXT } from './messages';
import { SupervisorMap } from './SupervisorMap';
import { useMapaBase } from './use-mapa-base';
import { useReload } from './use-reload';

const SEM_ZONAS: MapaProjeto['zonas'] = [];

/** What the map draws: a store and where its clusters come from (the worker, or the server's grid). */
interface Shown {
  store: PontosStore;
  source: PontosSource | null;
  grade: (NonNullable<MapaProjeto['grade']> & { client: GradeClient }) | null;
}
/** The layers' counts while a project's points load. */
const SEM_PONTOS = Object.fromEntries(FLUXOS.map((fluxo) => [fluxo, 0])) as Record<Fluxo, number>; // every Fluxo

/** Live events ask for fresh statistics at most this often. */
const ESTATISTICA_REFRESH_MS = 500;
const TODOS = 'todos';

export function SupervisorPage() {
  const projetos = useApiLoad('projetos', (api) => api.call(listProjetos, {}), LOAD_FAILURE.projetos);
  const [projetoId, setProjetoId] = useState('');
  const [filtros, setFiltros] = useScopedChoice<FiltrosEscolhidos>(projetoId, TODOS_FILTROS);
  const [clusterizar, setClusterizar] = useState(true);
  // issue 24: off by default, so the layers keep their colours and every point shows
  const [colorirRevisao, setColorirRevisao] = useState(false);
  const [somenteSinalizados, setSomenteSinalizados] = useState(false);
  const [visible, setVisible] = useState(allVisible);
  const tileUrl = useStreetTiles();
  const nomeProjeto =
    projetos.status === 'done'
      ? projetos.value.find((projeto) => projeto._id === projetoId)?.nome
      : undefined;
  const scope = projetoId === '' ? null : projetoId;
  const mapaBase = useMapaBase(scope);
  const filtrosApi = mapaFiltros(filtros);

  const client = useClusterClient();
  const mask = maskOf(visible);
  // The layers are decoded as part of the load, so an answer that breaks the compact form fails like a bad answer.
  // The worker gets them there and then, so it builds the clusters (≈ 0.3 s at 100,000 points) while React puts
  // the answer on the page, not after.
  const mapa = useReload(
    scope,
    JSON.stringify([projetoId, filtrosApi]),
    async (api, superseded) => {
      const value = await api.call(getMapa, { params: { id: projetoId }, query: filtrosApi });
      const store = new PontosStore(value.camadas);
      // a city-sized project's points stay on the server, which clusters them (value.grade)
      if (!superseded.aborted && value.grade === undefined) client?.load(store, clusterizar ? mask : 0);
      return { value, store, projetoId, filtros: filtrosApi };
    },
    SUPERVISOR_FAILURE.mapa,
  );

  const [refresh, setRefresh] = useState(0);
  const estatistica = useReload(
    nomeProjeto === undefined ? null : projetoId,
    JSON.stringify([projetoId, filtrosApi, refresh]),
    (api) => api.call(getEstatistica, { params: { nome: nomeProjeto ?? '' }, query: filtrosApi }),
    SUPERVISOR_FAILURE.estatistica,
  );

  // Counts per layer as live events change them; the loaded store's own counts until then. 'Somente sinalizados'
  // draws a store of the flagged points of the same answer.
  const loaded = mapa.value ?? null;
  const { api } = useBackofficeApi();
  const shown = useMemo((): Shown | null => {
    if (loaded === null) return null;
    const grade = loaded.value.grade;
    if (grade !== undefined) {
      // the store fills with the single points the server's tiles bring
      const gradeClient = new GradeClient(api, loaded.projetoId, loaded.filtros, somenteSinalizados);
      return { store: new PontosStore([]), source: gradeClient, grade: { ...grade, client: gradeClient } };
    }
    const store = somenteSinalizados ? new PontosStore(soSinalizados(loaded.value.camadas)) : loaded.store;
    return { store, source: client, grade: null };
  }, [api, loaded, somenteSinalizados, client]);
  const store = shown?.store ?? null;
  const [live, setLive] = useState<{ store: PontosStore; counts: Record<Fluxo, number> } | null>(null);
  useEffect(() => {
    if (shown === null || shown.grade === null) return;
    const { grade, store: filled } = shown;
    grade.client.onContagens = (contagens) => setLive({ store: filled, counts: { ...SEM_PONTOS, ...contagens } });
    return () => {
      grade.client.onContagens = null;
    };
  }, [shown]);
  const counts =
    live !== null && live.store === store
      ? live.counts
      : shown?.grade != null
        ? { ...SEM_PONTOS, ...shown.grade.contagens }
        : store?.counts();
  const total = counts === undefined ? 0 : Object.values(counts).reduce((sum, count) => sum + count, 0);

  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (refreshTimer.current !== null) clearTimeout(refreshTimer.current);
      refreshTimer.current = null;
    },
    [projetoId],
  );
  const onPontosChanged = useCallback(
    (next: Record<Fluxo, number>) => {
      // the server's grid tells its counts with its tiles: the store holds only the points seen
      if (store !== null && shown?.grade === null) setLive({ store, counts: next });
      if (refreshTimer.current !== null) return;
      refreshTimer.current = setTimeout(() => {
        refreshTimer.current = null;
        setRefresh((value) => value + 1);
      }, ESTATISTICA_REFRESH_MS);
    },
    [store, shown],
  );

  const tecnicos = tecnicoOptions(mapa.value?.value.tecnicos ?? [], filtros.tecnico);

  return (
    <Stack spacing={2}>
      <ProjetoPageHead
        title={SUPERVISOR_TEXT.title}
        id="supervisor-projeto"
        projetos={projetos}
        projetoId={projetoId}
        onProjeto={setProjetoId}
      >
        {scope !== null && (
          <>
            <TextField
              select
              id="supervisor-tecnico"
              label="Técnico"
              value={filtros.tecnico?.id ?? TODOS}
              onChange={(event) =>
                setFiltros({
                  ...filtros,
                  tecnico: tecnicos.find((tecnico) => tecnico.id === event.target.value) ?? null,
                })
              }
              sx={{ minWidth: 220 }}
            >
              <MenuItem value={TODOS}>Todos</MenuItem>
              {tecnicos.map((tecnico) => (
                <MenuItem key={tecnico.id} value={tecnico.id}>
                  {tecnico.nome}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              id="supervisor-data-inicio"
              type="date"
              label="Data inicial"
              value={filtros.dataInicio}
              onChange={(event) => setFiltros({ ...filtros, dataInicio: event.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
            />
            <TextField
              id="supervisor-data-fim"
              type="date"
              label="Data final"
              value={filtros.dataFim}
              onChange={(event) => setFiltros({ ...filtros, dataFim: event.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </>
        )}
      </ProjetoPageHead>
      {mapa.loading && <LinearProgress aria-label="Carregando" />}
      {mapa.error !== null && (
        <Alert severity="error" role="alert">
          {mapa.error}
        </Alert>
      )}
      {/* Drawn from the moment a project is chosen, so the points' arrival only fills it (the map and the panel
          take ≈ 0.25 s to draw at first, which the server's answer would otherwise wait for). */}
      {scope !== null && mapa.error === null && client !== null && (
        <>
          {store !== null && total === 0 && <Alert severity="info">{SUPERVISOR_TEXT.noData}</Alert>}
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'stretch' }}>
            <Box sx={{ flexGrow: 1, minWidth: 0 }}>
              <SupervisorMap
                projetoId={projetoId}
                zonas={mapa.value?.value.zonas ?? SEM_ZONAS}
                store={store}
                client={shown?.source ?? client}
                limites={shown?.grade == null ? undefined : shown.grade.limites}
                tileUrl={tileUrl}
                mapaBase={mapaBase}
                mask={mask}
                clusterizar={clusterizar}
                colorir={colorirRevisao ? 'revisao' : 'fluxo'}
                somenteSinalizados={somenteSinalizados}
                filtros={filtros}
                onPontosChanged={onPontosChanged}
              />
            </Box>
            <LayerPanel
              clusterizar={clusterizar}
              onClusterizar={setClusterizar}
              colorirRevisao={colorirRevisao}
              onColorirRevisao={setColorirRevisao}
              somenteSinalizados={somenteSinalizados}
              onSomenteSinalizados={setSomenteSinalizados}
              visible={visible}
              onVisible={(fluxo, checked) => setVisible((current) => ({ ...current, [fluxo]: checked }))}
              counts={counts ?? SEM_PONTOS}
              estatistica={estatistica}
            />
          </Stack>
        </>
      )}
    </Stack>
  );
}

/** One cluster worker for the page's life, started before a project is chosen so its start-up is out of the way. */
function useClusterClient(): ClusterClient | null {
  const [client, setClient] = useState<ClusterClient | null>(null);
  useEffect(() => {
    const created = new ClusterClient();
    setClient(created);
    return () => created.terminate();
  }, []);
  return client;
}

/** The configured street tile URL (GET /api/config); the map shows only its shapes until it comes. */
function useStreetTiles(): string | undefined {
  const { api, log } = useBackofficeApi();
  const [tileUrl, setTileUrl] = useState<string>();
  useEffect(() => {
    let active = true;
    api.call(getConfig, {}).then(
      ({ tiles }) => active && setTileUrl(tiles.street),
      (error: unknown) => log(SUPERVISOR_FAILURE.tiles.log, error),
    );
    return () => {
      active = false;
    };
  }, [api, log]);
  return tileUrl;
}
