// Configuration from the environment (documented in the README).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MAPA_BASE_MAX_BYTES } from '@novus/domain/api/mapa-base';
import type { TileConfig } from '@novus/domain/api/sistema';
import { DEFAULT_TOKEN_DAYS } from '@novus/domain/constants';
import { parseS3Url, type S3Location } from './storage/s3-blob-store.ts';
import { type OidcConfig, oidcConfig } from './auth/oidc.ts';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  adminLogin: string;
  adminPassword: string | undefined;
  authSecret: string;
  tokenDays: number;
  webDist: string;
  tiles: TileConfig;
  /** A folder of {z}/{x}/{y}.png tiles served at /tiles, for self-hosting and tests. */
  tilesDir: string | undefined;
  /** PEM files to serve HTTPS directly, without a reverse proxy. */
  tls: { key: Buffer; cert: Buffer } | undefined;
  /** PHOTO_STORE=s3://bucket/prefix: photos in S3-compatible storage; undefined: the folder DATA_DIR/fotos. */
  photoStore: S3Location | undefined;
  /**
   * PHOTO_SWEEP_GRACE_MINUTES (default 60), in ms: how long a photo no record refers to stays after it was stored,
   * and how often the store is swept (PhotoSweeper); temporary files older than it go too.
   */
  photoGraceMs: number;
  /** Sign-in with the company's account (OIDC_ISSUER, OIDC_CLIENT_ID, …, PUBLIC_URL); undefined when not set. */
  oidc: OidcConfig | undefined;
}

/** The projects' basemap packages (issue 23). */
export interface MapaBaseConfig {
  /** MAPA_BASE_MAX_BYTES: the largest archive an upload may send (default 8 GiB). */
  maxBytes: number;
  /** MAPA_BASE_ALLOW_PRIVATE=1: a package's URL may name a loopback or private address (tests, a LAN server). */
  allowPrivate: boolean;
}

export function mapaBaseConfig(env: NodeJS.ProcessEnv = process.env): MapaBaseConfig {
  const raw = env.MAPA_BASE_MAX_BYTES?.trim();
  const maxBytes = raw ? Number(raw) : MAPA_BASE_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new Error(`MAPA_BASE_MAX_BYTES inválido: "${raw}". Informe o tamanho máximo em bytes.`);
  }
  return { maxBytes, allowPrivate: env.MAPA_BASE_ALLOW_PRIVATE === '1' };
}

/** The webhooks (issue 27). */
export interface WebhooksConfig {
  /** WEBHOOKS_ALLOW_PRIVATE=1: webhooks may call loopback and private addresses (tests, a receiver on the LAN). */
  allowPrivate: boolean;
}

export function webhooksConfig(env: NodeJS.ProcessEnv = process.env): WebhooksConfig {
  return { allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === '1' };
}

/**
 * The supervisor map sends a project's points to the browser, which clusters them in a worker, up to this many
 * (measured at 100,000: on screen in 0.8–1.4 s); past it the server clusters them tile by tile (issue 41,
 * bench/README.md). MAPA_PONTOS_NO_NAVEGADOR changes it (the e2e lower it to reach the server's grid with few points).
 */
export const PONTOS_NO_NAVEGADOR = readPontosNoNavegador(process.env.MAPA_PONTOS_NO_NAVEGADOR);

function readPontosNoNavegador(value: string | undefined): number {
  const raw = value?.trim();
  if (!raw) return 150_000;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 0) {
    throw new Error(
      `MAPA_PONTOS_NO_NAVEGADOR inválido: "${raw}". Informe quantos pontos o navegador agrupa (um inteiro, 0 ou mais).`,
    );
  }
  return count;
}

/** The map's tile sources, as GET /api/config declares them. */
export type { TileConfig };

/** The public OpenStreetMap servers are for viewing only. */
export const DEFAULT_TILES: TileConfig = {
  street: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  satellite: 'https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}',
  // The public OpenStreetMap servers forbid bulk downloads: there is no default download source.
  download: null,
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  fs.mkdirSync(dataDir, { recursive: true });
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    adminLogin: env.ADMIN_LOGIN ?? 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    authSecret: env.AUTH_SECRET || readOrCreateSecret(dataDir),
    tokenDays: Number(env.AUTH_TOKEN_DAYS ?? DEFAULT_TOKEN_DAYS),
    webDist: path.resolve(env.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    tiles: {
      street: env.TILE_URL_STREET || DEFAULT_TILES.street,
      satellite: env.TILE_URL_SATELLITE || DEFAULT_TILES.satellite,
      download: env.TILE_URL_DOWNLOAD || (env.TILES_DIR ? '/tiles/{z}/{x}/{y}.png' : DEFAULT_TILES.download),
    },
    tilesDir: env.TILES_DIR ? path.resolve(env.TILES_DIR) : undefined,
    tls: readTls(env.TLS_KEY_FILE, env.TLS_CERT_FILE),
    photoStore: readPhotoStore(env.PHOTO_STORE),
    photoGraceMs: readPhotoGrace(env.PHOTO_SWEEP_GRACE_MINUTES),
    oidc: oidcConfig(env),
  };
}

/** An hour: uploads in flight on other processes have long committed (or failed) by then. */
const PHOTO_GRACE_MINUTES = 60;

function readPhotoGrace(value: string | undefined): number {
  const raw = value?.trim();
  const minutes = raw ? Number(raw) : PHOTO_GRACE_MINUTES;
  if (!Number.isFinite(minutes) || minutes <= 0) {
    throw new Error(
      `PHOTO_SWEEP_GRACE_MINUTES inválido: "${raw}". Informe os minutos (maior que zero) que uma foto sem registro espera antes de ser removida.`,
    );
  }
  return minutes * 60 * 1000;
}

function readTls(keyFile: string | undefined, certFile: string | undefined): Config['tls'] {
  if (!keyFile && !certFile) return undefined;
  if (!keyFile || !certFile) throw new Error('TLS_KEY_FILE e TLS_CERT_FILE devem ser informados juntos.');
  return { key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) };
}

function readPhotoStore(value: string | undefined): S3Location | undefined {
  if (!value) return undefined;
  const location = parseS3Url(value);
  if (!location)
    throw new Error(
      `PHOTO_STORE inválido: "${value}". Use s3://bucket/prefixo (ou deixe vazio para a pasta local).`,
    );
  return location;
}

/** The token secret outlives restarts (or every technician would be logged out) but is never committed. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
