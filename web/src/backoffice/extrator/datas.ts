// How the Extrator and Relatórios screens write days, times and counts (pt-BR).
import type { Data } from '@novus/domain/export/api';
// The server groups records by day in this time zone: times are shown in it too.
import { FUSO_HORARIO } from '@novus/domain/export/columns';

const pad = (value: number) => String(value).padStart(2, '0');

/** A day of GET /api/projeto/{id}/datas as the routes take it: YYYY-MM-DD. */
export function isoDate(data: Data): string {
  return `${String(data.ano).padStart(4, '0')}-${pad(data.mes)}-${pad(data.dia)}`;
}

/** YYYY-MM-DD as DD/MM/YYYY. */
export function formatDia(iso: string): string {
  const [ano, mes, dia] = iso.split('-');
  return `${dia}/${mes}/${ano}`;
}

const HORA = new Intl.DateTimeFormat('pt-BR', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: FUSO_HORARIO,
});

/** Epoch ms as HH:mm. */
export function formatHora(epochMs: number): string {
  return HORA.format(epochMs);
}

const NUMERO = new Intl.NumberFormat('pt-BR');

/** 1234 as '1.234'. */
export function formatNumero(value: number): string {
  return NUMERO.format(value);
}
