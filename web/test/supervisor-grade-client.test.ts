// The server's grid as the supervisor map's source (issue 41): which tiles a view asks for, what it keeps, how a
// layer's tick filters without a request, and how a live point has its tiles asked for again.
import { describe, expect, it } from 'vitest';
import type { GradeTile } from '@novus/domain/api/mapa';
import type { ApiClient } from '../src/api/client';
import { compactFromUuid, PontosStore } from '../src/backoffice/supervisor/compact-points';
import { GradeClient } from '../src/backoffice/supervisor/grade-client';
import { layerOf } from '../src/backoffice/supervisor/layers';
import { worldX, worldY } from '../src/backoffice/supervisor/view-frame';

const UUID = '0b7c3e0c-6f2e-4f55-9d7e-1f2a3b4c5d6e';
const ALL = (1 << layerOf('ip')) | (1 << layerOf('hc'));

interface Call {
  z: number;
  tiles: string;
  modo?: string;
}

/** An ApiClient whose grid has, in every tile, one IP cluster of 12 at the tile's corner and one hc point. */
function fakeApi(calls: Call[]): ApiClient {
  const api = {
    call: (_endpoint: unknown, input: { query: Call }) => {
      calls.push(input.query);
      const tiles: GradeTile[] = input.query.tiles.split(',').map((pair) => {
        const [x = 0, y = 0] = pair.split(':').map(Number);
        return {
          x,
          y,
          clusters: [layerOf('ip'), -25_435_000, -49_275_000, 12],
          pontos: [layerOf('hc'), -25_436_000 - x, -49_276_000 - y, 1],
          ids: compactFromUuid(UUID.replace(/^.{4}/, String(1000 + x + y).slice(-4))),
        };
      });
      return Promise.resolve({ versao: '7', contagens: { ip: 12, hc: 1 }, tiles });
    },
  };
  return api as unknown as ApiClient; // only call() is used
}

/** A box of about one tile at zoom 14 around Curitiba. */
const VIEW = { bbox: [-49.28, -25.44, -49.27, -25.43] as [number, number, number, number], zoom: 14 };

describe('GradeClient', () => {
  it('asks for the tiles of the view once, and answers the next query from what it kept', async () => {
    const calls: Call[] = [];
    const client = new GradeClient(fakeApi(calls), 'p1', {}, false);
    const store = new PontosStore([]);
    client.load(store);
    const counts: unknown[] = [];
    client.onContagens = (contagens) => counts.push(contagens);

    const first = await client.query({ ...VIEW, clusterizar: true, mask: ALL });
    expect(calls).toHaveLength(1);
    const x0 = Math.floor(worldX(-49.28, 14) / 256);
    const y0 = Math.floor(worldY(-25.43, 14) / 256);
    expect(calls[0]?.tiles.split(',')).toContain(`${x0}:${y0}`);
    expect(calls[0]?.modo).toBe('clusters');
    const tiles = calls[0]?.tiles.split(',').length ?? 0;
    expect(first.clusterCount).toEqual(new Uint32Array(tiles).fill(12));
    expect(first.pointIndex).toHaveLength(tiles);
    // the single points joined the store, with their ids
    expect(store.count('hc')).toBe(tiles);
    expect(counts).toEqual([{ ip: 12, hc: 1 }]);

    const again = await client.query({ ...VIEW, clusterizar: true, mask: ALL });
    expect(calls).toHaveLength(1);
    expect(again.pointIndex).toEqual(first.pointIndex);
  });

  it('leaves out the unticked layers without a request', async () => {
    const calls: Call[] = [];
    const client = new GradeClient(fakeApi(calls), 'p1', {}, false);
    client.load(new PontosStore([]));
    await client.query({ ...VIEW, clusterizar: true, mask: ALL });
    const semIp = await client.query({ ...VIEW, clusterizar: true, mask: 1 << layerOf('hc') });
    expect(calls).toHaveLength(1);
    expect(semIp.clusterCount).toHaveLength(0);
    expect(semIp.pointIndex.length).toBeGreaterThan(0);
  });

  it("asks again for the tiles under a live point, and for 'pontos' apart from 'clusters'", async () => {
    const calls: Call[] = [];
    const client = new GradeClient(fakeApi(calls), 'p1', {}, false);
    const store = new PontosStore([]);
    client.load(store);
    await client.query({ ...VIEW, clusterizar: true, mask: ALL });
    const asked = calls[0]?.tiles.split(',').length ?? 0;

    const { ref } = store.upsert({
      fluxo: 'hc',
      id: UUID,
      lat: -25.435,
      lng: -49.275,
      status: 1,
      tecnico: null,
      dataHora: null,
    });
    client.upsert(store, ref);
    await client.query({ ...VIEW, clusterizar: true, mask: ALL });
    expect(calls).toHaveLength(2);
    const tx = Math.floor(worldX(-49.275, 14) / 256);
    const ty = Math.floor(worldY(-25.435, 14) / 256);
    expect(calls[1]?.tiles).toBe(`${tx}:${ty}`);

    await client.query({ ...VIEW, clusterizar: false, mask: ALL });
    expect(calls).toHaveLength(3);
    expect(calls[2]?.modo).toBe('pontos');
    expect(calls[2]?.tiles.split(',')).toHaveLength(asked);
  });

  it('answers about one store only', () => {
    const client = new GradeClient(fakeApi([]), 'p1', {}, false);
    const store = new PontosStore([]);
    client.load(store);
    expect(client.holds(store)).toBe(true);
    expect(client.holds(new PontosStore([]))).toBe(false);
  });
});
