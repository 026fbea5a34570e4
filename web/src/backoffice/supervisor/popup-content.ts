// What a point's popup shows (SPEC.md section 2 'Supervisor'): per flow the fields the spec names, the competing
// collections of a point collected on more than one device, and where its photos are.
import type { AnswerOf } from '@novus/domain/api/contract';
import type { getRegistro } from '@novus/domain/api/registros';
import type { Fluxo } from '@novus/domain/flows/keys';
import { FLOW_BY_KEY } from '@novus/domain/flows/registry';

/** A record of any flow, as GET /api/registro/{id} answers it. */
export type Registro = AnswerOf<typeof getRegistro>;

/** Who collected and when: the record's own collection, or one listed under it. */
type Coleta = Pick<NonNullable<Registro['coletas']>[number], '_id' | 'tecnico' | 'dataHora'>;

export const SEM_VALOR = '—';

export interface Campo {
  label: string;
  value: string;
}

function texto(value: unknown): string {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return SEM_VALOR;
}

export function dataHoraTexto(epochMs: number | null | undefined): string {
  return typeof epochMs === 'number' ? new Date(epochMs).toLocaleString('pt-BR') : SEM_VALOR;
}

/** Units: type, property type and number; poles: the collector; IP: id, sequential and collector; others: collector and date. */
export function popupCampos(fluxo: Fluxo, registro: Registro): Campo[] {
  const tecnico = { label: 'Técnico', value: texto(registro.tecnico) };
  switch (fluxo) {
    case 'hc':
      return [
        { label: 'Tipo de unidade', value: texto(registro['tipoUnidade']) },
        { label: 'Tipo de imóvel', value: texto(registro['tipoImovel']) },
        { label: 'Número', value: texto(registro['numero']) },
      ];
    case 'poste':
      return [tecnico];
    case 'ip':
      return [
        { label: 'Id', value: registro._id },
        { label: 'Sequencial', value: texto(registro['sequencial']) },
        tecnico,
      ];
    default:
      return [tecnico, { label: 'Data', value: dataHoraTexto(registro.dataHora) }];
  }
}

export interface ColetaLinha {
  key: string;
  tecnico: string;
  dataHora: string;
}

/**
 * Every collection of a point in conflict: the one the record shows, then the competing ones. A list's record
 * (LPT Agiltec) already lists its own collection among them, so ids are not repeated.
 */
export function popupColetas(registro: Registro): ColetaLinha[] {
  const todas: Coleta[] = [registro, ...(registro.coletas ?? [])];
  const seen = new Set<string>();
  const linhas: ColetaLinha[] = [];
  for (const coleta of todas) {
    if (seen.has(coleta._id)) continue;
    seen.add(coleta._id);
    linhas.push({
      key: coleta._id,
      tecnico: texto(coleta.tecnico),
      dataHora: dataHoraTexto(coleta.dataHora),
    });
  }
  return linhas;
}

/** The record's gallery, /{recordPath}/{id}/fotos. */
export function fotosPath(fluxo: Fluxo, id: string): string {
  return `/${FLOW_BY_KEY[fluxo].recordPath}/${encodeURIComponent(id)}/fotos`;
}
