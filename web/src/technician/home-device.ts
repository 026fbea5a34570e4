// What the home reads from the device's database and caches: its banners' counts, what is pending, the copies kept
// and whether the phone is ready for offline use. Read with IndexedDB itself (offline/local-reader.ts) and the flows'
// names (domain/flows/meta.ts), so the home needs neither Dexie nor the registry, and zod only for the server's answer
// about maps when a project on the device would download from it (issue 41). Loaded beside the home, which draws
// whole before this arrives (issue 13).
import { FLOW_METAS, type FlowMeta } from '@novus/domain/flows/meta';
import type { ApiClient } from '../api/client';
import type { CopiasResumo } from '../offline/copias';
import type { LocalProjeto } from '../offline/db';
import { type LocalReader, readCopiasResumo } from '../offline/local-reader';
import { type MapaBaixado, readMapas, removerMapa } from '../offline/mapas';
import {
  appShellCached,
  cachedTiles,
  projetosMissingTiles,
  summarizeReadiness,
  supportsOfflineApp,
  waitForAppShell,
  type ReadinessSummary,
} from '../offline/readiness';
import { isPending } from '../offline/pending';
import type { LocalColeta } from '../offline/records';
import { summarizePending, type PendingSummary } from '../offline/storage-panel';

/** Whether this server offers 'Download do Mapa', remembered for the days without signal. */
const TILE_DOWNLOAD_KEY = 'novus.tileDownload';

/** What the server said last time; never asked yet (or offline since), assume the map can be downloaded. */
function rememberedTileDownload(): boolean {
  return window.localStorage.getItem(TILE_DOWNLOAD_KEY) !== 'nao';
}

/**
 * Asks the server (when it answers) and remembers; null when it cannot say. The declaration (with its zod schema)
 * loads with the question, which the home asks only when the answer matters (readReadiness).
 */
async function askTileDownload(api: ApiClient): Promise<boolean | null> {
  try {
    const { getConfig } = await import('@novus/domain/api/sistema');
    const { download } = (await api.call(getConfig, {})).tiles;
    window.localStorage.setItem(TILE_DOWNLOAD_KEY, download === null ? 'nao' : 'sim');
    return download !== null;
  } catch {
    return null;
  }
}

/** The device's projects, by name; none before the first sync. */
async function readProjetos(reader: LocalReader): Promise<LocalProjeto[]> {
  const found = await reader.getAll(['projeto']);
  if (!found.exists) return [];
  // the store holds what SyncEngine.downloadProjetos wrote (db.ts LocalProjeto)
  const projetos = (found.value.get('projeto') ?? []) as LocalProjeto[];
  // IndexedDB's order of the 'nome' index, as Dexie's orderBy('nome') read it
  return projetos.sort((a, b) => (a.nome < b.nome ? -1 : a.nome > b.nome ? 1 : 0));
}

interface Coletas {
  projetos: LocalProjeto[];
  flows: { flow: FlowMeta; records: LocalColeta[] }[];
}

/** A read asked for and not begun yet: who asks before it begins shares it. */
let asked: { reader: LocalReader; read: Promise<Coletas> } | null = null;

/**
 * Each flow's records with the projects, read once for everyone who asks in the same turn: the banners and the
 * storage panel ask together as the home opens and after a sync or compression, and with a zone's 50,000 points
 * each read took a phone (CPU slowed 4×) about a second (issue 41). A read is shared only before it begins, so
 * nobody gets records older than their question.
 */
function readColetasTogether(reader: LocalReader): Promise<Coletas> {
  if (asked?.reader === reader) return asked.read;
  const read = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
    asked = null;
    return readColetas(reader);
  });
  asked = { reader, read };
  return read;
}

/** Each flow's records with the projects, in one read; none before the first sync. */
async function readColetas(reader: LocalReader): Promise<Coletas> {
  const found = await reader.getAll(['projeto', ...FLOW_METAS.map((flow) => flow.store)]);
  if (!found.exists) return { projetos: [], flows: FLOW_METAS.map((flow) => ({ flow, records: [] })) };
  const stores = found.value;
  return {
    // as written by RecordStore and SyncEngine (records.ts LocalColeta, db.ts LocalProjeto); photos may be stored as
    // their bytes (photo-encoding.ts), which the home only counts
    projetos: (stores.get('projeto') ?? []) as LocalProjeto[],
    flows: FLOW_METAS.map((flow) => ({ flow, records: (stores.get(flow.store) ?? []) as LocalColeta[] })),
  };
}

export interface Pending {
  fluxo: string;
  label: string;
  count: number;
  /** dataHora of the flow's oldest pending record (null: none), for 'Há registros não sincronizados há mais de 24 horas'. */
  oldest: number | null;
}

/** The home's banners, and its 'Correções' banner (issue 24), from one read of the device's database. */
export interface Banners {
  /** Each flow of the device's projects with its records waiting for the server. */
  pending: Pending[];
  /** Records the reviewer rejected that the technician has not fixed yet. */
  correcoes: number;
}

export async function readBanners(reader: LocalReader): Promise<Banners> {
  const { projetos, flows } = await readColetasTogether(reader);
  const fluxos = new Set(projetos.flatMap((projeto) => projeto.fluxos));
  const pending: Pending[] = [];
  let correcoes = 0;
  for (const { flow, records } of flows) {
    correcoes += records.filter((record) => record.correcao !== undefined && record.sincronizadoEm).length;
    if (!fluxos.has(flow.key)) continue;
    const waiting = records.filter((record) => isPending(flow, record));
    const oldest = waiting.length > 0 ? Math.min(...waiting.map((record) => record.dataHora)) : null;
    pending.push({ fluxo: flow.key, label: flow.labels.banner, count: waiting.length, oldest });
  }
  return { pending, correcoes };
}

/** Every record the server has not got yet, per flow, with the oldest's age. */
export async function readPending(reader: LocalReader): Promise<PendingSummary> {
  return summarizePending((await readColetasTogether(reader)).flows);
}

/** The copies of what was sent (issue 39), for the storage panel. */
export function readCopias(): Promise<CopiasResumo> {
  return readCopiasResumo();
}

/** The maps downloaded on the device, for the storage panel. */
export function readMapasBaixados(): Promise<MapaBaixado[]> {
  return readMapas();
}

/** Removes a project's downloaded map (its zones, when the project is still on the device, find its server tiles). */
export async function removeMapaBaixado(reader: LocalReader, projeto: string): Promise<void> {
  const local = (await readProjetos(reader)).find((candidate) => candidate.id === projeto);
  await removerMapa(projeto, local?.zonas);
}

/**
 * Ready for the field or what is missing, from what the device holds and what the server said last time about
 * maps; `onChange` hears the corrections: the server's current answer about maps, and when a first visit's
 * service worker has saved the app (`stopped` ends the wait when the home goes away).
 */
export async function readReadiness(
  reader: LocalReader,
  api: ApiClient,
  onChange: (readiness: ReadinessSummary) => void,
  stopped: () => boolean,
): Promise<ReadinessSummary> {
  const projetos = await readProjetos(reader);
  const [cached, tiles] = await Promise.all([
    appShellCached().catch(() => false),
    cachedTiles().catch(() => ({ keys: new Set<string>(), urls: new Set<string>(), mapas: [] })),
  ]);
  let app = cached;
  let configured = rememberedTileDownload();
  const missing = (configured: boolean) =>
    projetosMissingTiles(projetos, tiles, { configured, origin: location.origin });
  const summary = () =>
    summarizeReadiness({ app, projetos: projetos.length > 0, mapas: missing(configured) });
  // Whether the server offers its map source changes nothing while no project would be downloaded from it (none on
  // the device yet, or each with its own package): then the server is not asked.
  if (missing(true).join('\n') !== missing(false).join('\n')) {
    void askTileDownload(api).then((answer) => {
      if (answer === null || answer === configured || stopped()) return;
      configured = answer;
      onChange(summary());
    });
  }
  // On a first visit the service worker is still installing: say so, then say when it is done.
  if (!app && supportsOfflineApp()) {
    void waitForAppShell(120_000, () => appShellCached(), 1000, stopped)
      .then((saved) => {
        if (!saved) return;
        app = true;
        onChange(summary());
      })
      .catch(() => undefined);
  }
  return summary();
}
