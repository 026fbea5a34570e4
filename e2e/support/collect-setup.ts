// Test data for the collection journeys: a client, a project with the sample Curitiba zones, a technician with
// 'Zona Centro', the zoom-19 tiles of that zone on the test tile server, and real JPEGs made in the browser.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { type APIRequestContext, expect, type Page, request } from '@playwright/test';
import { createCliente, createUser, unique } from './api';
import { ADMIN, BASE_URL } from './env';
import { PHONE } from './screens';

const KML = fs.readFileSync(
  path.resolve(import.meta.dirname, '../../docs/samples/zoneamento-curitiba.kml'),
  'utf8',
);
const TILES_DIR = path.resolve(import.meta.dirname, '../fixtures/tiles');

export const TECNICO_PASSWORD = 'tecnico-e2e-senha';
/** Inside Zona Centro (lat -25.44..-25.43, lng -49.28..-49.27). */
export const GPS = { latitude: -25.435, longitude: -49.275, accuracy: 6 } as const;

/** A technician's phone at the GPS fix above, as every collection journey uses it. */
export const TECHNICIAN_PHONE = {
  viewport: PHONE,
  isMobile: true,
  hasTouch: true,
  geolocation: { latitude: GPS.latitude, longitude: GPS.longitude, accuracy: GPS.accuracy },
  permissions: ['geolocation'],
};

export interface CollectWorld {
  admin: APIRequestContext;
  projetoId: string;
  projetoNome: string;
  /** Zona Centro, the technician's zone. */
  zonaId: string;
  tecnico: { login: string; nome: string };
}

/** The project's flows and any preloaded points (pontosIP, pontosBDGD, ... as JSON), as the project form sends. */
export interface WorldOptions {
  fluxos?: string;
  pontos?: Record<string, unknown[]>;
  /** The photo stamp (issue 26), on by default as for any new project. */
  carimboFotos?: boolean;
  /** A server of the spec's own (one on PostgreSQL, say) instead of the run's. */
  baseURL?: string;
}

export async function adminApi(baseURL: string = BASE_URL): Promise<APIRequestContext> {
  const admin = await request.newContext({ baseURL });
  const response = await admin.post('/api/auth/login', {
    data: { login: ADMIN.login, password: ADMIN.password },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return admin;
}

export async function setUpWorld({
  fluxos = 'hc,poste',
  pontos = {},
  carimboFotos = true,
  baseURL = BASE_URL,
}: WorldOptions = {}): Promise<CollectWorld> {
  const admin = await adminApi(baseURL);
  const cliente = await createCliente(admin, unique('Cliente Campo'));
  const projetoNome = unique('Projeto Campo');
  const created = await admin.post('/api/projeto', {
    form: {
      nome: projetoNome,
      cliente,
      fluxos,
      kml: KML,
      ...Object.fromEntries(Object.entries(pontos).map(([field, list]) => [field, JSON.stringify(list)])),
      fuso: '22',
      disponivelInterpres: 'false',
      carimboFotos: String(carimboFotos),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { _id: projetoId } = (await created.json()) as { _id: string };
  const detail = (await (await admin.get(`/api/projeto/${projetoId}`)).json()) as {
    zonas: { _id: string; label: string; poligono: { lat: number; lng: number }[] }[];
  };
  const centro = detail.zonas.find((zona) => zona.label === 'Zona Centro');
  if (!centro) throw new Error('the sample KML has no Zona Centro');
  const login = unique('campo').replace(' ', '-');
  await createUser(admin, {
    login,
    password: TECNICO_PASSWORD,
    firstName: 'Paula',
    lastName: 'Campos',
    roles: ['tecnico'],
    cliente,
    ...{ zonas: [centro._id] },
  });
  writeZoneTiles(centro.poligono);
  return { admin, projetoId, projetoNome, zonaId: centro._id, tecnico: { login, nome: 'Paula Campos' } };
}

/** The zone's zoom-19 tiles as small solid PNGs, so 'Download do Mapa' has something to fetch. */
function writeZoneTiles(ring: { lat: number; lng: number }[]): void {
  const z = 19;
  const n = 2 ** z;
  const x = (lng: number) => Math.floor(((lng + 180) / 360) * n);
  const y = (lat: number) => {
    const rad = (lat * Math.PI) / 180;
    return Math.floor(((1 - Math.asinh(Math.tan(rad)) / Math.PI) / 2) * n);
  };
  const lats = ring.map((p) => p.lat);
  const lngs = ring.map((p) => p.lng);
  const png = solidPng([224, 236, 214]);
  for (let tx = x(Math.min(...lngs)); tx <= x(Math.max(...lngs)); tx += 1) {
    const dir = path.join(TILES_DIR, String(z), String(tx));
    fs.mkdirSync(dir, { recursive: true });
    for (let ty = y(Math.max(...lats)); ty <= y(Math.min(...lats)); ty += 1) {
      const file = path.join(dir, `${ty}.png`);
      if (!fs.existsSync(file)) fs.writeFileSync(file, png);
    }
  }
}

function solidPng([r, g, b]: [number, number, number], size = 256): Buffer {
  const row = Buffer.alloc(1 + size * 3);
  for (let i = 0; i < size; i += 1) row.set([r, g, b], 1 + i * 3);
  // a darker grid line on the tile's edge, so tiles are visible in screenshots
  const raw = Buffer.concat(Array.from({ length: size }, (_, index) => (index === 0 ? darken(row) : row)));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function darken(row: Buffer): Buffer {
  return Buffer.from(row.map((value, index) => (index === 0 ? 0 : Math.floor(value * 0.7))));
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A real JPEG, drawn on a canvas in the page (as a phone camera would hand one over). */
export async function makeJpeg(page: Page, label: string, width = 1200, height = 900): Promise<Buffer> {
  const base64 = await page.evaluate(
    async ({ label, width, height }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d context');
      const gradient = context.createLinearGradient(0, 0, width, height);
      gradient.addColorStop(0, '#1565c0');
      gradient.addColorStop(1, '#ffb300');
      context.fillStyle = gradient;
      context.fillRect(0, 0, width, height);
      context.fillStyle = '#ffffff';
      context.font = `${Math.round(height / 6)}px sans-serif`;
      context.fillText(label, width / 10, height / 2);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.95));
      if (!blob) throw new Error('toBlob gave nothing');
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    },
    { label, width, height },
  );
  return Buffer.from(base64, 'base64');
}
