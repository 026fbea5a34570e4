// Gravar, for every flow: a new record, a correction of one still on the device, or the collection of a point.
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { LocalProjeto } from '../../offline/db';
import type { FotoServidor, LocalColeta, RecordStore } from '../../offline/records';
import type { ChosenPoint } from './MapStep';
import { browserRepeatMemory, type RepeatMemory, type RepeatScope, repeatScope } from './repetir';

export interface SaveInput {
  records: RecordStore;
  flow: FlowDefinition;
  projeto: Pick<LocalProjeto, 'id'>;
  /** The stored record being corrected or collected; null for a new record. */
  editing: LocalColeta | null;
  point: ChosenPoint;
  fotos: (Blob | null)[];
  tecnico: string | undefined;
  /** A correction's server photos the technician kept (issue 24). */
  fotosServidor?: FotoServidor[];
  /** The form's values, validated by the flow's schema here again. */
  values: unknown;
  now?: () => number;
  /** Where 'Repetir último' remembers the technician's last record (issue 26); the browser's by default. */
  memory?: RepeatMemory;
}

export async function saveRecord(input: SaveInput): Promise<LocalColeta> {
  const { records, flow, editing, point, fotos } = input;
  const dados = flow.dados.parse(input.values);
  const coordenadas = { lat: point.lat, lng: point.lng };
  const precisao = point.precisao !== undefined ? { precisao: point.precisao } : {};
  const tecnico = input.tecnico ? { tecnico: input.tecnico } : {};
  // Photos unchanged since the last compression need none again.
  const unchanged = editing !== null && fotos.every((foto, slot) => foto === (editing.fotos[slot] ?? null));
  const imagensCompactadas = unchanged ? editing.imagensCompactadas : fotos.every((foto) => foto === null);

  // A correction the reviewer asked for (issue 24), for every flow: the rejected revision + 1, pending.
  if (editing?.correcao) {
    return records.correct(flow, editing.id, {
      coordenadas,
      ...precisao,
      fotos,
      imagensCompactadas,
      fotosServidor: input.fotosServidor ?? editing.fotosServidor ?? [],
      ...tecnico,
      dados,
    });
  }
  if (flow.lifecycle !== 'coleta') {
    if (!editing) throw new Error('Escolha ou desenhe o ponto no mapa antes de gravar.');
    return records.collect(flow, editing.id, {
      coordenadas,
      ...precisao,
      fotos,
      imagensCompactadas,
      ...tecnico,
      dados,
    });
  }
  if (editing) {
    if (editing.sincronizadoEm) {
      throw new Error('Este registro já foi sincronizado: corrija-o pelo back office.');
    }
    const record = { ...editing, coordenadas, ...precisao, fotos, imagensCompactadas, dados };
    await records.update(flow, record);
    memoryOf(input).rememberChange(scopeOf(input), { id: record.id, dataHora: record.dataHora, dados });
    return record;
  }
  const record = await records.add(flow, {
    projeto: input.projeto.id,
    dataHora: (input.now ?? Date.now)(),
    coordenadas,
    ...precisao,
    fotos,
    ...tecnico,
    dados,
  });
  // Remembered after the record is stored, and apart from it: a pole or unit leaves the device once synced.
  memoryOf(input).remember(scopeOf(input), { id: record.id, dataHora: record.dataHora, dados });
  return record;
}

const memoryOf = (input: SaveInput): RepeatMemory => input.memory ?? browserRepeatMemory();

const scopeOf = (input: SaveInput): RepeatScope =>
  repeatScope(input.flow.key, input.projeto.id, input.tecnico);

/** The record's photos in as many slots as the flow has. */
export function slotsOf(flow: FlowDefinition, record: LocalColeta | null): (Blob | null)[] {
  return Array.from({ length: flow.photoSlots }, (_, slot) => record?.fotos[slot] ?? null);
}
