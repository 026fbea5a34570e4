// The home's storage panel: what the device keeps that the server has not got yet, how full the browser's
// share of the disk is, and when to worry (pure, so the rules are tested without a browser).
import type { FlowMeta } from '@novus/domain/flows/meta';
import type { CopiasResumo } from './copias';
import type { MapaBaixado } from './mapas';
import { isPending } from './pending';
import type { LocalColeta } from './records';
import type { StorageUsage } from './storage';
import { formatBytes, formatCount } from './tiles';

export const STORAGE_WARN_RATIO = 0.8;
export const PENDING_WARN_MS = 3 * 24 * 60 * 60 * 1000;

export interface PendingFlow {
  fluxo: string;
  label: string;
  records: number;
  fotos: number;
  /** dataHora of the oldest pending record of the flow. */
  oldest: number | null;
}

export interface PendingSummary {
  flows: PendingFlow[];
  records: number;
  fotos: number;
  oldest: number | null;
}

/** Pending records and their photos per flow; flows with nothing pending are left out. */
export function summarizePending(
  entries: readonly { flow: FlowMeta; records: readonly LocalColeta[] }[],
): PendingSummary {
  const flows: PendingFlow[] = [];
  for (const { flow, records } of entries) {
    const pending = records.filter((record) => isPending(flow, record));
    if (pending.length === 0) continue;
    flows.push({
      fluxo: flow.key,
      label: flow.labels.banner,
      records: pending.length,
      fotos: pending.reduce((sum, record) => sum + record.fotos.filter((foto) => foto !== null).length, 0),
      oldest: Math.min(...pending.map((record) => record.dataHora)),
    });
  }
  const oldests = flows.flatMap((flow) => (flow.oldest === null ? [] : [flow.oldest]));
  return {
    flows,
    records: flows.reduce((sum, flow) => sum + flow.records, 0),
    fotos: flows.reduce((sum, flow) => sum + flow.fotos, 0),
    oldest: oldests.length > 0 ? Math.min(...oldests) : null,
  };
}

export const STORAGE_TEXTS = {
  persisted: 'Armazenamento persistente: concedido',
  notPersisted: 'Armazenamento persistente: negado (o navegador pode apagar dados se faltar espaço)',
  persistUnknown: 'Armazenamento persistente: indisponível neste navegador',
  persistReading: 'Armazenamento persistente: verificando…',
  noPending: 'Nenhum registro pendente',
  fullWarning: (percent: string) =>
    `O armazenamento passou de 80% (${percent}%): sincronize e exporte os pendentes para liberar espaço.`,
  oldWarning: (age: string) => `Há registro pendente ${age}: sincronize assim que tiver conexão.`,
} as const;

/** `undefined` while the browser has not answered yet; `null` when it cannot say. */
export function persistText(persisted: boolean | null | undefined): string {
  if (persisted === undefined) return STORAGE_TEXTS.persistReading;
  if (persisted === null) return STORAGE_TEXTS.persistUnknown;
  return persisted ? STORAGE_TEXTS.persisted : STORAGE_TEXTS.notPersisted;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** 'Unidades: 3 registros, 5 fotos'. */
export function pendingFlowText({ label, records, fotos }: PendingFlow): string {
  return `${label}: ${plural(records, 'registro', 'registros')}, ${plural(fotos, 'foto', 'fotos')}`;
}

const MB = 1024 * 1024;

/**
 * 'Cópias de segurança: 12 registros, 3,4 MB': what the device keeps of what it sent (issue 39), always in MB as the
 * issue words it (a copy under 0,1 MB shows as 0,1).
 */
export function copiasText({ registros, bytes }: CopiasResumo): string {
  const mb = bytes > 0 ? Math.max(0.1, bytes / MB) : 0;
  const size = mb.toLocaleString('pt-BR', { maximumFractionDigits: mb < 10 ? 1 : 0 });
  return `Cópias de segurança: ${plural(registros, 'registro', 'registros')}, ${size} MB`;
}

/** 'há 3 dias', 'há 5 horas', 'há 12 minutos', 'há menos de 1 minuto'. */
export function formatAge(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'há menos de 1 minuto';
  if (minutes < 60) return `há ${plural(minutes, 'minuto', 'minutos')}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `há ${plural(hours, 'hora', 'horas')}`;
  return `há ${plural(Math.floor(hours / 24), 'dia', 'dias')}`;
}

export function oldestPendingText(oldest: number | null, now: number): string {
  return oldest === null ? STORAGE_TEXTS.noPending : `Pendente mais antigo: ${formatAge(now - oldest)}`;
}

export function storageWarnings(usage: StorageUsage | null, oldest: number | null, now: number): string[] {
  const warnings: string[] = [];
  if (usage !== null && usage.quotaBytes > 0 && usage.usedBytes / usage.quotaBytes > STORAGE_WARN_RATIO) {
    const percent = ((usage.usedBytes / usage.quotaBytes) * 100).toLocaleString('pt-BR', {
      maximumFractionDigits: 1,
    });
    warnings.push(STORAGE_TEXTS.fullWarning(percent));
  }
  if (oldest !== null && now - oldest > PENDING_WARN_MS) {
    warnings.push(STORAGE_TEXTS.oldWarning(formatAge(now - oldest)));
  }
  return warnings;
}

export const MAPA_TEXTS = {
  title: 'Mapas baixados',
  none: 'Nenhum mapa baixado (Download do Mapa, no passo do mapa).',
  remove: (nome: string) => `Remover o mapa de ${nome}`,
  confirm: (nome: string) =>
    `Remover o mapa de ${nome} do aparelho? Sem internet ele não poderá ser baixado de novo.`,
  removed: (nome: string) => `Mapa de ${nome} removido do aparelho.`,
  failed: 'Não foi possível remover o mapa',
} as const;

/** 'Projeto X: 1.234 blocos, 12 MB' (and 'incompleto' when a download was cut). */
export function mapaText({ nome, blocos, bytes, completo }: MapaBaixado): string {
  const size = `${nome}: ${formatCount(blocos)} ${blocos === 1 ? 'bloco' : 'blocos'}, ${formatBytes(bytes)}`;
  return completo ? size : `${size} (incompleto)`;
}

/** 'Total: 3 mapas, 40 MB'. */
export function mapasTotalText(mapas: readonly MapaBaixado[]): string {
  const bytes = mapas.reduce((sum, mapa) => sum + mapa.bytes, 0);
  return `Total: ${plural(mapas.length, 'mapa', 'mapas')}, ${formatBytes(bytes)}`;
}
