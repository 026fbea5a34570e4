// SQL of the change feed (issue 27): a page of a project's changes past a cursor, each with its record as the
// record endpoints read it. The rows are written by the trigger of migration 0015, never here.
import type { Evento } from '@novus/domain/api/alteracoes';
import type { Queryable } from '../../db/database.ts';
import { userName } from '../../db/fragments.ts';
import type { RegistroRow } from '../registros/queries.ts';

export interface AlteracaoRow {
  /** The change's id (bigint, as text): the feed's order and its cursor. */
  id: string;
  evento: Evento;
  em: Date;
  /** The revision the change wrote (the record's `versao` is its current one). */
  versao: number | null;
  /** The record as it is now; null when it was removed since (the change still moves the cursor on). */
  registro: RegistroRow | null;
}

/** A row of the page's statement: the change's columns, then the record's (all null when it is gone). */
type Flat = Omit<RegistroRow, 'id'> & {
  id: string | null;
  alteracao: string;
  evento: Evento;
  em: Date;
  alteracao_versao: number | null;
};

/**
 * The oldest transaction the statement's snapshot sees running that may still write a change, or the snapshot's
 * end when there is none. pg_snapshot_xmin would do, but it counts the transactions of every database of the
 * cluster (another database's long import would hold the feed back): those pg_stat_activity shows in another
 * database are left out, as they cannot write here. One that ended before pg_stat_activity was read is not listed,
 * so it still counts: a wait of one call, never a change skipped. Without pg_stat_activity's xids (PGlite, no
 * rights to see them) nothing is left out: pg_snapshot_xmin exactly.
 */
const HORIZONTE = `(SELECT COALESCE(min(x.xid), pg_snapshot_xmax(pg_current_snapshot()))
   FROM pg_snapshot_xip(pg_current_snapshot()) AS x(xid)
   WHERE NOT EXISTS (
     SELECT 1 FROM pg_stat_activity o
     WHERE o.datid <> (SELECT oid FROM pg_database WHERE datname = current_database())
       AND o.backend_xid::text = (x.xid::text::numeric % 4294967296)::text))`;

/**
 * Up to `limite` changes of a project after the change `desde`, oldest first, each with its record (RegistroRow,
 * as getRegistro reads one; the photos' slots from the column the fotos trigger keeps).
 *
 * Only changes whose transaction is older than every transaction still running (HORIZONTE): ids are taken when a
 * row is written but transactions commit in any order, so a change with a smaller id may still be on its way while
 * a larger one is readable. Serving a change only once no transaction older than its own is running means none can
 * later appear behind a cursor already given. The horizon and the rows come from one statement's snapshot: a
 * change older than the horizon has ended, so the same snapshot sees it if it committed.
 */
export async function listAlteracoes(
  db: Queryable,
  projeto: string,
  desde: string,
  limite: number,
): Promise<AlteracaoRow[]> {
  const rows = await db.query<Flat>(
    `SELECT a.id::text AS alteracao, a.evento, a.em, a.versao AS alteracao_versao,
       r.id, r.fluxo, r.projeto, p.nome AS projeto_nome, p.cliente, r.zona, r.tecnico,
       ${userName('u')} AS tecnico_nome, r.lat, r.lng, r.data_hora, r.sincronizado_em, r.coletado,
       r.adicionado_app, r.carregado_backoffice, r.conflito_de, r.dados, r.fotos_slots::int[] AS fotos, r.versao,
       r.revisao, r.flags, p.disponivel_interpres
     FROM (
       SELECT id, registro, evento, em, versao FROM alteracoes
       WHERE projeto = $1 AND id > $2::bigint AND xid < ${HORIZONTE}
       ORDER BY id LIMIT $3
     ) a
     LEFT JOIN registros r ON r.id = a.registro
     LEFT JOIN projetos p ON p.id = r.projeto
     LEFT JOIN usuarios u ON u.id = r.tecnico
     ORDER BY a.id`,
    [projeto, desde, limite],
  );
  return rows.map(({ alteracao, evento, em, alteracao_versao, ...registro }) => ({
    id: alteracao,
    evento,
    em,
    versao: alteracao_versao,
    // a record's columns are all there when its id is (the LEFT JOIN found its row)
    registro: registro.id === null ? null : (registro as RegistroRow),
  }));
}
