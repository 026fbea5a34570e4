// Technician-side failures for the server's log (SPEC.md 8): kept on the device while offline, sent once, in order.
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from './support/memory-storage';
import {
  DEVICE_FAILURE,
  DEVICE_LOG_KEY,
  DEVICE_LOG_LIMIT,
  DeviceLog,
  type SendLog,
} from '../src/offline/device-log';

/** A server that answers while `online`, recording what arrived. */
function server() {
  const received: Parameters<SendLog>[0][] = [];
  const state = { online: false };
  const send: SendLog = async (entry) => {
    if (!state.online) throw new TypeError('Failed to fetch');
    received.push(entry);
  };
  return { received, state, send };
}

const NOW = Date.UTC(2026, 10, 25, 14);

describe('the device log', () => {
  it('keeps a failure while offline and sends it, with the technician and the error, once the network is back', async () => {
    const storage = new MemoryStorage();
    const { received, state, send } = server();
    const log = new DeviceLog(storage, send, () => NOW);
    await log.report({
      message: DEVICE_FAILURE.save('Poste'),
      tecnico: 'Paula Campos',
      error: new DOMException('O banco recusou.', 'UnknownError'),
      url: '/projeto/p1/addPostes',
    });
    expect(received).toEqual([]);
    expect(log.pending()).toHaveLength(1);
    // a new page (a reload) finds it too
    expect(new DeviceLog(storage, send).pending()).toHaveLength(1);

    state.online = true;
    await log.flush();
    expect(received).toEqual([
      {
        severity: 'ERROR',
        message: 'FALHA AO GRAVAR NO APARELHO: Poste',
        extras: expect.objectContaining({
          tecnico: 'Paula Campos',
          erro: 'O banco recusou.',
          url: '/projeto/p1/addPostes',
          em: NOW,
        }),
      },
    ]);
    expect(storage.getItem(DEVICE_LOG_KEY)).toBeNull();
    await log.flush();
    expect(received).toHaveLength(1);
  });

  it('sends at once when online, oldest first, and never twice when flushes overlap', async () => {
    const storage = new MemoryStorage();
    const { received, state, send } = server();
    const log = new DeviceLog(storage, send);
    await log.report({ message: DEVICE_FAILURE.read('LPT'), error: 'um' });
    await log.report({ message: DEVICE_FAILURE.remove('LPT'), error: 'dois' });
    state.online = true;
    await Promise.all([log.flush(), log.flush(), log.report({ message: 'TRES', error: 'três' })]);
    expect(received.map((entry) => [entry.message, entry.extras.erro, entry.extras.tecnico])).toEqual([
      ['FALHA AO LER DO APARELHO: LPT', 'um', ''],
      ['FALHA AO EXCLUIR DO APARELHO: LPT', 'dois', ''],
      ['TRES', 'três', ''],
    ]);
  });

  it('keeps at most the latest entries, and sends directly when the storage itself refuses', async () => {
    const storage = new MemoryStorage();
    const { received, state, send } = server();
    const log = new DeviceLog(storage, send);
    for (let i = 0; i < DEVICE_LOG_LIMIT + 5; i += 1) await log.report({ message: `F${i}`, error: i });
    expect(log.pending()).toHaveLength(DEVICE_LOG_LIMIT);
    expect(log.pending()[0]?.message).toBe('F5');

    storage.refuse = true;
    state.online = true;
    await log.report({ message: 'SEM ESPAÇO', error: new Error('cheio') });
    expect(received.map((entry) => entry.message)).toContain('SEM ESPAÇO');
  });
});
