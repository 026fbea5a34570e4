// The home's storage panel: pending records and photos per flow, the oldest one's age, and when to warn.
import { describe, expect, it } from 'vitest';
import { ipFlow } from '@novus/domain/flows/ip';
import { posteFlow } from '@novus/domain/flows/poste';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import type { LocalColeta } from '../src/offline/records';
import {
  formatAge,
  oldestPendingText,
  pendingFlowText,
  persistText,
  STORAGE_TEXTS,
  storageWarnings,
  summarizePending,
} from '../src/offline/storage-panel';

const NOW = 1_790_000_000_000;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const GB = 1024 ** 3;
const foto = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });

let next = 0;
function coleta(changes: Partial<LocalColeta> = {}): LocalColeta {
  next += 1;
  return {
    id: `0190a1b2-c3d4-7e5f-8a9b-${String(next).padStart(12, '0')}`,
    projeto: 'p1',
    dataHora: NOW - HOUR,
    coordenadas: { lat: -25.435, lng: -49.275 },
    fotos: [],
    imagensCompactadas: true,
    dados: {},
    ...changes,
  };
}

describe('pending records per flow', () => {
  it('counts pending records and their photos, leaving out synchronised ones and uncollected points', () => {
    const summary = summarizePending([
      {
        flow: unidadeFlow,
        records: [
          coleta({ fotos: [foto, null, foto], dataHora: NOW - 2 * DAY }),
          coleta({ fotos: [foto] }),
          coleta({ fotos: [foto, foto], sincronizadoEm: NOW - DAY }),
        ],
      },
      { flow: posteFlow, records: [] },
      {
        flow: ipFlow,
        records: [
          coleta({ coletado: false, adicionadoApp: true, dataHora: NOW - 10 * DAY }),
          coleta({ coletado: true, fotos: [foto], dataHora: NOW - 5 * HOUR }),
          coleta({ coletado: true, fotos: [foto], sincronizadoEm: NOW }),
        ],
      },
    ]);
    expect(summary.flows).toEqual([
      { fluxo: 'hc', label: 'Unidades', records: 2, fotos: 3, oldest: NOW - 2 * DAY },
      { fluxo: 'ip', label: 'Uso Mútuo / IP', records: 1, fotos: 1, oldest: NOW - 5 * HOUR },
    ]);
    expect(summary.records).toBe(3);
    expect(summary.fotos).toBe(4);
    // the uncollected point drawn ten days ago is not pending, so it is not the oldest
    expect(summary.oldest).toBe(NOW - 2 * DAY);
  });

  it('has no oldest record when nothing is pending', () => {
    const summary = summarizePending([{ flow: posteFlow, records: [coleta({ sincronizadoEm: NOW })] }]);
    expect(summary).toEqual({ flows: [], records: 0, fotos: 0, oldest: null });
    expect(oldestPendingText(summary.oldest, NOW)).toBe('Nenhum registro pendente');
  });

  it('reads as the technician sees it', () => {
    expect(pendingFlowText({ fluxo: 'hc', label: 'Unidades', records: 1, fotos: 0, oldest: NOW })).toBe(
      'Unidades: 1 registro, 0 fotos',
    );
    expect(pendingFlowText({ fluxo: 'poste', label: 'Postes', records: 3, fotos: 1, oldest: NOW })).toBe(
      'Postes: 3 registros, 1 foto',
    );
    expect(oldestPendingText(NOW - 3 * DAY - HOUR, NOW)).toBe('Pendente mais antigo: há 3 dias');
  });
});

describe('ages', () => {
  it('says minutes, hours and days', () => {
    expect(formatAge(30_000)).toBe('há menos de 1 minuto');
    expect(formatAge(60_000)).toBe('há 1 minuto');
    expect(formatAge(59 * 60_000)).toBe('há 59 minutos');
    expect(formatAge(HOUR)).toBe('há 1 hora');
    expect(formatAge(23 * HOUR + 59 * 60_000)).toBe('há 23 horas');
    expect(formatAge(DAY)).toBe('há 1 dia');
    expect(formatAge(4 * DAY + 2 * HOUR)).toBe('há 4 dias');
    // a phone clock set back never shows a negative age
    expect(formatAge(-5 * HOUR)).toBe('há menos de 1 minuto');
  });
});

describe('warnings', () => {
  it('warns above 80 % of the quota, not at 80 %', () => {
    expect(storageWarnings({ usedBytes: 8 * GB, quotaBytes: 10 * GB }, null, NOW)).toEqual([]);
    expect(storageWarnings({ usedBytes: 8.5 * GB, quotaBytes: 10 * GB }, null, NOW)).toEqual([
      STORAGE_TEXTS.fullWarning('85'),
    ]);
    expect(STORAGE_TEXTS.fullWarning('85')).toBe(
      'O armazenamento passou de 80% (85%): sincronize e exporte os pendentes para liberar espaço.',
    );
  });

  it('warns when a record has waited more than 3 days', () => {
    expect(storageWarnings(null, NOW - 3 * DAY, NOW)).toEqual([]);
    expect(storageWarnings(null, NOW - 3 * DAY - 60_000, NOW)).toEqual([
      'Há registro pendente há 3 dias: sincronize assim que tiver conexão.',
    ]);
  });

  it('gives both warnings at once, and none for an unknown quota', () => {
    expect(storageWarnings({ usedBytes: 95, quotaBytes: 100 }, NOW - 7 * DAY, NOW)).toHaveLength(2);
    expect(storageWarnings({ usedBytes: 5, quotaBytes: 0 }, null, NOW)).toEqual([]);
  });
});

describe('persistent storage', () => {
  it('shows the browser answer', () => {
    expect(persistText(true)).toBe('Armazenamento persistente: concedido');
    expect(persistText(false)).toBe(
      'Armazenamento persistente: negado (o navegador pode apagar dados se faltar espaço)',
    );
    expect(persistText(null)).toBe('Armazenamento persistente: indisponível neste navegador');
    expect(persistText(undefined)).toBe('Armazenamento persistente: verificando…');
  });
});
