import { describe, expect, it } from 'vitest';
import type { CamadaCompacta } from '@novus/domain/mapa/api';
import { STATUS, uuidFromCompact } from '@novus/domain/mapa/api';
import {
  compactFromUuid,
  CompactFormError,
  decodeCamada,
  PontosStore,
} from '../src/backoffice/supervisor/compact-points';

const UUIDS = [
  '0190a6c2-7b3e-7c1d-9f00-0123456789ab',
  '0190a6c2-7b3e-7c1d-9f00-ffffffffffff',
  'ffffffff-0000-4000-8000-000000000001',
];

/** A layer as the server sends it: a unit in Curitiba's Zona Centro, one nearby, one in Brasília. */
function poles(): CamadaCompacta {
  return {
    fluxo: 'poste',
    ids: UUIDS.map(compactFromUuid).join(''),
    coords: [-25_429_600, -49_271_300, -25_430_000, -49_270_000, -15_793_889, -47_882_778],
    status: '154',
  };
}

describe('compact ids', () => {
  it('turns a uuid into the 22 base64url characters the layers carry, and back', () => {
    for (const uuid of UUIDS) {
      const compact = compactFromUuid(uuid);
      expect(compact).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(uuidFromCompact(compact)).toBe(uuid);
    }
  });
});

describe('decodeCamada', () => {
  it('reads coordinates in millionths of a degree and one status digit per point', () => {
    const camada = decodeCamada(poles());
    expect(camada.count).toBe(3);
    expect(Array.from(camada.coords.subarray(0, 2))).toEqual([-25_429_600, -49_271_300]);
    expect(Array.from(camada.status)).toEqual([1, 5, 4]);
  });

  it('refuses a layer whose ids, coordinates and status disagree on how many points there are', () => {
    expect(() => decodeCamada({ ...poles(), status: '15' })).toThrow(CompactFormError);
    expect(() => decodeCamada({ ...poles(), coords: [1, 2, 3] })).toThrow(CompactFormError);
    expect(() => decodeCamada({ ...poles(), status: '19!' })).toThrow(CompactFormError);
    expect(() => decodeCamada({ ...poles(), status: '1 4' })).toThrow(CompactFormError);
  });

  it('reads the review bits of issue 24 from letters: flagged and rejected, approved, everything', () => {
    // 1 + 8 + 32 = 41 is 'f', 1 + 16 = 17 is 'H', 63 is '_'
    const camada = decodeCamada({ ...poles(), status: 'fH_' });
    expect(Array.from(camada.status)).toEqual([
      STATUS.coletado | STATUS.sinalizado | STATUS.reprovado,
      STATUS.coletado | STATUS.aprovado,
      63,
    ]);
  });
});

describe('PontosStore', () => {
  it('holds all nine layers, empty where the answer had none, and finds each point by index', () => {
    const store = new PontosStore([poles()]);
    expect(store.count('poste')).toBe(3);
    expect(store.count('hc')).toBe(0);
    expect(store.total()).toBe(3);
    expect(store.uuidAt({ fluxo: 'poste', index: 1 })).toBe(UUIDS[1]);
    expect(store.latLngAt({ fluxo: 'poste', index: 2 })).toEqual([-15.793889, -47.882778]);
    expect(store.statusAt({ fluxo: 'poste', index: 1 }) & STATUS.conflito).toBe(STATUS.conflito);
  });

  it('fits the view around every point, or says there is none', () => {
    expect(new PontosStore([poles()]).bounds()).toEqual([
      [-25.43, -49.2713],
      [-15.793889, -47.882778],
    ]);
    expect(new PontosStore([]).bounds()).toBeNull();
  });

  it('updates a point a live event names, and appends one it does not know', () => {
    const store = new PontosStore([poles()]);
    const moved = store.upsert({
      fluxo: 'poste',
      id: UUIDS[0] ?? '',
      lat: -25.5,
      lng: -49.3,
      status: STATUS.coletado | STATUS.conflito,
      tecnico: 'Ana',
      dataHora: 1,
    });
    expect(moved).toEqual({ ref: { fluxo: 'poste', index: 0 }, created: false });
    expect(store.latLngAt(moved.ref)).toEqual([-25.5, -49.3]);
    expect(store.statusAt(moved.ref)).toBe(5);
    expect(store.count('poste')).toBe(3);

    const novo = '0190a6c2-7b3e-7c1d-9f00-000000000042';
    for (let i = 0; i < 40; i += 1) {
      const added = store.upsert({
        fluxo: 'hc',
        id: `${novo.slice(0, -2)}${String(i).padStart(2, '0')}`,
        lat: -25 - i / 1000,
        lng: -49,
        status: 1,
        tecnico: null,
        dataHora: null,
      });
      expect(added).toEqual({ ref: { fluxo: 'hc', index: i }, created: true });
    }
    expect(store.count('hc')).toBe(40);
    expect(store.uuidAt({ fluxo: 'hc', index: 39 })).toBe(`${novo.slice(0, -2)}39`);
    expect(store.latLngAt({ fluxo: 'hc', index: 39 })).toEqual([-25.039, -49]);
    expect(store.has({ fluxo: 'hc', id: `${novo.slice(0, -2)}07` })).toBe(true);
    expect(store.has({ fluxo: 'poste', id: `${novo.slice(0, -2)}07` })).toBe(false);
  });
});
