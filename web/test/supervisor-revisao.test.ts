// The supervisor map's review view (issue 24): points coloured by review state (pendente grey, aprovado green,
// reprovado red, rejected painted on top), and 'Somente sinalizados' keeping the flagged points of the layers.
import { describe, expect, it } from 'vitest';
import { STATUS } from '@novus/domain/mapa/api';
import type { QueryResult } from '../src/backoffice/supervisor/cluster-engine';
import { compactFromUuid, PontosStore, soSinalizados } from '../src/backoffice/supervisor/compact-points';
import {
  ALL_RANKS,
  colorOfRank,
  estadoDeStatus,
  layerOf,
  PAINT_RANKS,
  paintRank,
  REVISAO_CORES,
  revisaoRank,
} from '../src/backoffice/supervisor/layers';
import { frameOf } from '../src/backoffice/supervisor/view-frame';

const ID = (n: number) => compactFromUuid(`0190a6c2-7b3e-7c1d-9f00-${String(n).padStart(12, '0')}`);

describe('colouring by review', () => {
  it('reads the state from the bits: neither bit is pendente', () => {
    expect(estadoDeStatus(STATUS.coletado)).toBe('pendente');
    expect(estadoDeStatus(STATUS.coletado | STATUS.aprovado)).toBe('aprovado');
    expect(estadoDeStatus(STATUS.sinalizado | STATUS.reprovado)).toBe('reprovado');
  });

  it('gives each state its own ranks after the layers, reprovado last, with its colour', () => {
    const pendente = revisaoRank(false, STATUS.coletado);
    const aprovado = revisaoRank(false, STATUS.coletado | STATUS.aprovado);
    const reprovado = revisaoRank(false, STATUS.coletado | STATUS.reprovado);
    expect(pendente).toBeGreaterThanOrEqual(PAINT_RANKS);
    expect([pendente < aprovado, aprovado < reprovado, reprovado < ALL_RANKS]).toEqual([true, true, true]);
    expect(colorOfRank(pendente)).toEqual({ color: REVISAO_CORES.pendente, hollow: false });
    expect(colorOfRank(aprovado)).toEqual({ color: REVISAO_CORES.aprovado, hollow: false });
    expect(colorOfRank(reprovado)).toEqual({ color: REVISAO_CORES.reprovado, hollow: false });
    expect(colorOfRank(revisaoRank(true, 0))).toEqual({ color: REVISAO_CORES.pendente, hollow: true });
    // the layers' ranks keep their colours
    expect(colorOfRank(paintRank('hc', false))).toEqual({ color: '#1565c0', hollow: false });
  });

  it("ranks a frame's points by layer by default and by state when asked", () => {
    const store = new PontosStore([
      // approved, rejected and flagged, pendente: 'H' = 1 + 16, 'f' = 1 + 8 + 32, '1'
      {
        fluxo: 'hc',
        ids: ID(1) + ID(2) + ID(3),
        coords: [-25_430_000, -49_270_000, -25_431_000, -49_271_000, -25_432_000, -49_272_000],
        status: 'Hf1',
      },
    ]);
    const result: QueryResult = {
      pointLayer: Uint8Array.from([layerOf('hc'), layerOf('hc'), layerOf('hc')]),
      pointIndex: Uint32Array.from([0, 1, 2]),
      clusterLayer: new Uint8Array(0),
      clusterId: new Uint32Array(0),
      clusterLat: new Float64Array(0),
      clusterLng: new Float64Array(0),
      clusterCount: new Uint32Array(0),
    };
    const porFluxo = frameOf(result, store, 16);
    expect(Array.from(porFluxo.pointRank)).toEqual([
      paintRank('hc', false),
      paintRank('hc', false),
      paintRank('hc', false),
    ]);
    const porRevisao = frameOf(result, store, 16, 'revisao');
    expect(Array.from(porRevisao.pointRank).map((rank) => colorOfRank(rank).color)).toEqual([
      REVISAO_CORES.aprovado,
      REVISAO_CORES.reprovado,
      REVISAO_CORES.pendente,
    ]);
  });
});

describe("'Somente sinalizados'", () => {
  it('keeps the flagged points of each layer with their ids, coordinates and status, in order', () => {
    const camadas = soSinalizados([
      { fluxo: 'hc', ids: ID(1) + ID(2) + ID(3), coords: [1, 2, 3, 4, 5, 6], status: '9f1' },
      { fluxo: 'poste', ids: ID(4), coords: [7, 8], status: '1' },
    ]);
    expect(camadas).toEqual([
      { fluxo: 'hc', ids: ID(1) + ID(2), coords: [1, 2, 3, 4], status: '9f' },
      { fluxo: 'poste', ids: '', coords: [], status: '' },
    ]);
    const store = new PontosStore(camadas);
    expect(store.total()).toBe(2);
  });
});
