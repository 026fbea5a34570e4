// What the server says of the records a phone kept after sending them (issue 39, DESIGN.md 'Sync protocol'): held,
// lacking (a restored backup: the phone sends it again as an ordinary upload), deleted on purpose in the back office,
// or someone else's. A record held is never overwritten by the phone's older copy: it is re-sent only when the
// server holds no collection of the caller's under that id.
import type { EstadoConferido } from '@novus/domain/api/registros';
import type { Fluxo } from '@novus/domain/flows/keys';
import { flowOf } from '@novus/domain/flows/registry';
import { type Actor, policies } from '../../auth/access.ts';
import type { Queryable } from '../../db/database.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import {
  findRegistrosConferidos,
  findRegistrosExcluidos,
  type RegistroConferido,
  type RegistroExcluido,
} from './queries.ts';
import { missingPhotos } from './upload.ts';

export interface Pergunta {
  id: string;
  fluxo: Fluxo;
  /** The upload's coletaId, when it had one. */
  coleta?: string | undefined;
  fotos: string[];
}

export interface Resposta {
  id: string;
  estado: EstadoConferido;
  fotosFaltando: string[];
}

/** What is known of one id: its row, the competing collections of that point, the deletions of it or its collection. */
interface Encontrado {
  registro: RegistroConferido | undefined;
  coletas: RegistroConferido[];
  excluidos: RegistroExcluido[];
}

type Decisao =
  { estado: Exclude<EstadoConferido, 'guardado'> } | { estado: 'guardado'; row: RegistroConferido };

/**
 * The caller's own collection of a row: theirs (or any, for an administrador), collected, and the same collection
 * when the phone named it.
 */
const suaColeta = (actor: Actor, pergunta: Pergunta, row: RegistroConferido, coletaId: string) =>
  row.coletado &&
  policies.ownRegistro(actor, row) &&
  (pergunta.coleta === undefined || coletaId === pergunta.coleta);

export function decidir(
  actor: Actor,
  pergunta: Pergunta,
  { registro, coletas, excluidos }: Encontrado,
): Decisao {
  if (registro) {
    if (registro.fluxo !== pergunta.fluxo) return { estado: 'alheio' };
    if (suaColeta(actor, pergunta, registro, registro.coleta ?? registro.id)) {
      return { estado: 'guardado', row: registro };
    }
    // A point (or a list's record) is shared by the zone's technicians: the caller's collection may be kept beside
    // the one that won, or be missing while the point stays (preloaded, or collected by another).
    if (flowOf(registro.fluxo).lifecycle !== 'coleta') {
      const sua = coletas.find((coleta) => suaColeta(actor, pergunta, coleta, coleta.coleta ?? coleta.id));
      if (sua) return { estado: 'guardado', row: sua };
      if (policies.readRegistro(actor, registro)) return { estado: 'faltando' };
    }
    return { estado: 'alheio' };
  }
  if (excluidos.length > 0) {
    // Told only to whoever sent it (a deleted user's, or a point never collected: nobody's).
    const seu = excluidos.some(
      (excluido) =>
        excluido.fluxo === pergunta.fluxo &&
        (excluido.tecnico === null || policies.ownRegistro(actor, excluido)),
    );
    return { estado: seu ? 'excluido' : 'alheio' };
  }
  return { estado: 'faltando' };
}

/** The answer for each record asked about, in the order asked. */
export async function conferir(
  db: Queryable,
  blobs: BlobStore,
  actor: Actor,
  perguntas: readonly Pergunta[],
): Promise<Resposta[]> {
  const ids = [...new Set(perguntas.flatMap((p) => (p.coleta ? [p.id, p.coleta] : [p.id])))];
  const [rows, excluidos] = await Promise.all([
    findRegistrosConferidos(db, ids),
    findRegistrosExcluidos(db, ids),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const coletasDe = new Map<string, RegistroConferido[]>();
  for (const row of rows) {
    if (row.conflito_de !== null)
      coletasDe.set(row.conflito_de, [...(coletasDe.get(row.conflito_de) ?? []), row]);
  }
  const decididas = perguntas.map((pergunta) => {
    const decisao = decidir(actor, pergunta, {
      registro: byId.get(pergunta.id),
      coletas: coletasDe.get(pergunta.id) ?? [],
      excluidos: excluidos.filter((e) => e.id === pergunta.id || e.id === pergunta.coleta),
    });
    // The photos asked about that the held record refers to.
    const hashes = new Set(decisao.estado === 'guardado' ? decisao.row.hashes : []);
    return {
      pergunta,
      estado: decisao.estado,
      referidas: [...new Set(pergunta.fotos)].filter((h) => hashes.has(h)),
    };
  });
  // Each looked for in the store once.
  const missing = await missingPhotos(
    blobs,
    decididas.flatMap((d) => d.referidas),
  );
  return decididas.map(({ pergunta, estado, referidas }) => ({
    id: pergunta.id,
    estado,
    fotosFaltando: referidas.filter((hash) => missing.has(hash)),
  }));
}
