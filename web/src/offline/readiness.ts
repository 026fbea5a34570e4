// 'Pronto para uso offline': what a phone needs before the network goes — the app shell in the service
// worker's cache, the projects on the device, and each project's map tiles ('Download do Mapa').
import { mapaBaseTileTemplate } from '@novus/domain/mapa/base';
import type { LocalProjeto } from './db';
import { type MapaBaixado, readMapas } from './mapas';
import { planDownload, planMapaBase, TILE_CACHE, tileUrl } from './tiles';

export interface Readiness {
  /** The service worker is active and its cache holds the page and the bundles it loads. */
  app: boolean;
  /** At least one project on the device (the first sync brought them). */
  projetos: boolean;
  /** Names of the projects whose downloadable map is not all in the tile cache. */
  mapas: string[];
}

export const READINESS_TEXTS = {
  ready: 'Pronto para uso offline',
  notReady: 'Ainda não está pronto para uso offline',
  app: 'o aplicativo (mantenha a conexão até ele ser salvo)',
  projetos: 'os projetos (Sincronizar)',
  mapa: (nome: string) => `o mapa de ${nome} (Download do Mapa)`,
  waitingApp: 'Salvando o aplicativo para uso offline...',
  appNotSaved:
    'O aplicativo ainda não foi salvo para uso offline: mantenha a conexão e sincronize de novo antes de sair.',
} as const;

export interface ReadinessSummary {
  ready: boolean;
  title: string;
  /** What is still missing, each as the technician reads it. */
  missing: string[];
}

export function summarizeReadiness({ app, projetos, mapas }: Readiness): ReadinessSummary {
  const missing = [
    ...(app ? [] : [READINESS_TEXTS.app]),
    ...(projetos ? [] : [READINESS_TEXTS.projetos]),
    ...mapas.map(READINESS_TEXTS.mapa),
  ];
  return {
    ready: missing.length === 0,
    title: missing.length === 0 ? READINESS_TEXTS.ready : READINESS_TEXTS.notReady,
    missing,
  };
}

const TAG = /<(script|link)\b[^>]*>/gi;
const attribute = (tag: string, name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1];

/** The scripts, module preloads and styles an HTML page loads (Vite writes them as plain tags in index.html). */
export function htmlAssets(html: string): string[] {
  const assets: string[] = [];
  for (const [tag, name] of html.matchAll(TAG)) {
    if (name?.toLowerCase() === 'script') {
      const src = attribute(tag, 'src');
      if (src) assets.push(src);
      continue;
    }
    const rel = attribute(tag, 'rel')?.toLowerCase();
    const href = attribute(tag, 'href');
    if (href && (rel === 'stylesheet' || rel === 'modulepreload')) assets.push(href);
  }
  return assets;
}

/** The URLs the page needs to start again offline: the document and its own scripts and styles. */
export function appShellUrls(assets: readonly string[], origin: string): string[] {
  const urls = new Set<string>([new URL('/index.html', origin).href]);
  for (const asset of assets) {
    const url = new URL(asset, origin);
    if (url.origin === origin) urls.add(url.href);
  }
  return [...urls];
}

export interface AppShellDeps {
  serviceWorker?: ServiceWorkerContainer | undefined;
  cacheStorage?: CacheStorage | undefined;
  origin?: string;
}

/**
 * The app opens offline only once the service worker is active (its install precached the shell) and the
 * cache holds the page it will serve and every script and style that page loads. The cached page is read, not
 * this document: after an update on the server they differ, and the cached one is what opens offline. Workbox
 * keys the page by revision, so the search is ignored.
 */
export async function appShellCached({
  serviceWorker = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker,
  cacheStorage = typeof caches === 'undefined' ? undefined : caches,
  origin = location.origin,
}: AppShellDeps = {}): Promise<boolean> {
  if (!serviceWorker || !cacheStorage) return false;
  const registration = await serviceWorker.getRegistration();
  if (!registration?.active) return false;
  const page = await cacheStorage.match(new URL('/index.html', origin).href, { ignoreSearch: true });
  if (!page) return false;
  for (const url of appShellUrls(htmlAssets(await page.text()), origin)) {
    if (!(await cacheStorage.match(url, { ignoreSearch: true }))) return false;
  }
  return true;
}

export function supportsOfflineApp(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof caches !== 'undefined';
}

/** Polls until the app shell is cached or the time runs out (a busy phone may take a while to install). */
export async function waitForAppShell(
  timeoutMs = 60_000,
  check: () => Promise<boolean> = () => appShellCached(),
  intervalMs = 250,
  cancelled: () => boolean = () => false,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return true;
    if (Date.now() >= deadline || cancelled()) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

const TILE_PATH = /\/(\d+)\/(\d+)\/(\d+)(@2x)?(\.(png|jpe?g|webp))?$/;

/** 'z/x/y' of a cached tile URL, or null; the host and template are configuration, the path is not. */
export function tileKeyOf(url: string): string | null {
  const match = TILE_PATH.exec(new URL(url, 'http://localhost').pathname);
  return match ? `${match[1]}/${match[2]}/${match[3]}` : null;
}

/** What the tile cache holds: the server source's tiles by 'z/x/y', every URL, and the maps' records. */
export interface CachedTiles {
  keys: ReadonlySet<string>;
  urls: ReadonlySet<string>;
  mapas: readonly MapaBaixado[];
}

/** A project's package is downloaded when each tile of its plan is cached or known absent from the archive. */
function packageMissing(projeto: LocalProjeto, cached: CachedTiles, origin: string): boolean {
  const mapa = projeto.mapaBase;
  if (!mapa) return false;
  const plan = planMapaBase(projeto.zonas, mapa, projeto.limiteDownload);
  if (plan.error !== undefined) return false;
  const template = mapaBaseTileTemplate(projeto.id, mapa);
  const record = cached.mapas.find((m) => m.projeto === projeto.id && m.template === template);
  const absent = new Set(record?.ausentes ?? []);
  return plan.tiles.some(
    (tile) =>
      !absent.has(`${tile.z}/${tile.x}/${tile.y}`) &&
      !cached.urls.has(new URL(tileUrl(template, tile), origin).href),
  );
}

/**
 * Projects whose downloadable tiles are not all cached: from their package when they have one, else from the
 * server's source when it has one (`configured`); a project with no zones or above its limit cannot be.
 */
export function projetosMissingTiles(
  projetos: readonly LocalProjeto[],
  cached: CachedTiles,
  { configured, origin }: { configured: boolean; origin: string },
): string[] {
  return projetos
    .filter((projeto) => {
      if (projeto.mapaBase) return packageMissing(projeto, cached, origin);
      if (!configured) return false;
      const plan = planDownload(projeto.zonas, '{z}/{x}/{y}', projeto.limiteDownload);
      if (plan.error !== undefined) return false;
      return plan.tiles.some(({ z, x, y }) => !cached.keys.has(`${z}/${x}/${y}`));
    })
    .map((projeto) => projeto.nome);
}

export async function cachedTiles(
  cacheStorage: CacheStorage | undefined = typeof caches === 'undefined' ? undefined : caches,
): Promise<CachedTiles> {
  if (!cacheStorage || !(await cacheStorage.has(TILE_CACHE)))
    return { keys: new Set(), urls: new Set(), mapas: [] };
  const cache = await cacheStorage.open(TILE_CACHE);
  const urls = (await cache.keys()).map((request) => request.url);
  return {
    keys: new Set(urls.map(tileKeyOf).filter((key) => key !== null)),
    urls: new Set(urls),
    mapas: await readMapas(cacheStorage),
  };
}
