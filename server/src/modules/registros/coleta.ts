// What an upload does to the stored records, decided in one transaction (DESIGN.md 'Sync protocol'): a new
// record, a preloaded point becoming collected, a replay, or a competing collection kept beside the point.
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { Database, Queryable } from '../../db/database.ts';
import { conflict } from '../../errors.ts';
import type { Qualidade } from '../revisao/flags.ts';
import {
  collectPonto,
  insertFotos,
  insertRegistro,
  insertRegistroComFotos,
  lockProjeto,
  lockRegistro,
  type NewFoto,
  type NewRegistro,
  nextSequencial,
  type RegistroRow,
  reviseRegistro,
  type StoredRegistro,
} from './queries.ts';

export interface ColetaUpload {
  /** The record's id: made on the device for a new record, the server's for a preloaded point. */
  id: string;
  /** This collection's id, made on the device when it was saved (the record's id when the device sent none). */
  coletaId: string;
  projeto: string;
  tecnico: string;
  lat: number;
  lng: number;
  dataHora: number;
  /** The flow's fields as validated. */
  dados: Record<string, unknown>;
  /** The names of the fields the request carried: only those replace a preloaded point's values. */
  named: ReadonlySet<string>;
  fotos: NewFoto[];
  /** The revision sent (issue 24): 1 as first collected, the rejected one + 1 for a correction. */
  versao: number;
  /** What the quality flags need; null when they are not computed (SINALIZACOES=0). */
  qualidade: Qualidade | null;
}

export type ColetaOutcome =
  /** A record the server did not have (201); with the stored row when the one statement wrote it. */
  | { kind: 'created'; id: string; row?: RegistroRow }
  /** A preloaded point, now collected with this upload. */
  | { kind: 'collected'; id: string }
  /** This collection was stored before (a retry after a lost response): nothing changes. */
  | { kind: 'replay'; id: string }
  /** The point was already collected by another collection: this one is kept beside it, flagging a conflict. */
  | { kind: 'competing'; id: string }
  /** A correction (issue 24): the record's next revision, stored; the one before kept in its history. */
  | { kind: 'revised'; id: string }
  /** The id belongs to another flow, project or technician. */
  | { kind: 'clash' };

/** Points drawn on the map within this distance (degrees, ~1 cm) of the preloaded position have not moved. */
const SAME_POSITION = 1e-7;

export async function saveColeta(
  db: Database,
  flow: FlowDefinition,
  upload: ColetaUpload,
): Promise<ColetaOutcome> {
  // The usual upload, a record the server does not have: one statement writes it with its photos and answers the
  // row. Numbered flows take turns (below), and a stored id is decided in the transaction.
  if (!flow.numbered && upload.versao === 1) {
    const row = await insertRegistroComFotos(
      db,
      registroOf(flow, upload, { id: upload.id, dados: upload.dados }),
      upload.fotos,
    );
    if (row) return { kind: 'created', id: row.id, row };
  }
  return db.transaction(async (tx) => {
    // BDGD and IP number their points on the server, so two devices never get the same sequencial (SPEC.md 3, 9):
    // their uploads to one project take turns from here to the commit.
    const { numbered } = flow;
    if (numbered) await lockProjeto(tx, upload.projeto);
    let stored = await lockRegistro(tx, upload.id);
    if (!stored) {
      const dados = numbered
        ? { ...upload.dados, sequencial: await nextSequencial(tx, upload.projeto, flow.key) }
        : upload.dados;
      if (await insertNew(tx, flow, upload, { id: upload.id, dados })) {
        return { kind: 'created', id: upload.id };
      }
      // Another request inserted this id after our read and has committed: decide against its row.
      stored = await lockRegistro(tx, upload.id);
      if (!stored) throw new Error(`registro ${upload.id} neither inserted nor found`);
    }
    if (stored.fluxo !== flow.key || stored.projeto !== upload.projeto || stored.conflito_de !== null) {
      return { kind: 'clash' };
    }
    const replay = { kind: 'replay', id: stored.id } as const;
    // Only a correction goes this way: a list's record corrected once is still collected again as before.
    if (upload.versao > 1) return revise(tx, stored, upload);
    if (flow.lifecycle === 'coleta') return stored.tecnico === upload.tecnico ? replay : { kind: 'clash' };
    if (!stored.coletado) {
      await collect(tx, stored, upload);
      return { kind: 'collected', id: stored.id };
    }
    if (stored.coleta === upload.coletaId) {
      return stored.tecnico === upload.tecnico ? replay : { kind: 'clash' };
    }
    // First write wins: the point keeps the collection that reached the server first, and this one is kept
    // as its own row under the id the device made for it, so a retry finds it and nothing is lost.
    const competing = await lockRegistro(tx, upload.coletaId);
    if (competing) {
      return competing.conflito_de === stored.id && competing.tecnico === upload.tecnico
        ? replay
        : { kind: 'clash' };
    }
    const inserted = await insertNew(tx, flow, upload, {
      id: upload.coletaId,
      dados: upload.dados,
      conflitoDe: stored.id,
    });
    return inserted ? { kind: 'competing', id: stored.id } : { kind: 'clash' };
  });
}

interface NewRow {
  id: string;
  dados: Record<string, unknown>;
  conflitoDe?: string;
}

function registroOf(flow: FlowDefinition, upload: ColetaUpload, row: NewRow): NewRegistro {
  return {
    id: row.id,
    fluxo: flow.key,
    projeto: upload.projeto,
    tecnico: upload.tecnico,
    lat: upload.lat,
    lng: upload.lng,
    dataHora: upload.dataHora,
    coleta: upload.coletaId,
    ...(row.conflitoDe ? { conflitoDe: row.conflitoDe } : {}),
    dados: row.dados,
    qualidade: upload.qualidade,
  };
}

async function insertNew(
  tx: Queryable,
  flow: FlowDefinition,
  upload: ColetaUpload,
  row: NewRow,
): Promise<boolean> {
  const inserted = await insertRegistro(tx, registroOf(flow, upload, row));
  if (inserted) await insertFotos(tx, row.id, upload.fotos);
  return inserted;
}

/** A preloaded point keeps its original values (idConcessionaria, the fiscalização originals) unless sent. */
async function collect(tx: Queryable, stored: StoredRegistro, upload: ColetaUpload): Promise<void> {
  const sent: Record<string, unknown> = {};
  const defaults: Record<string, unknown> = {};
  for (const [campo, value] of Object.entries(upload.dados)) {
    (upload.named.has(campo) ? sent : defaults)[campo] = value;
  }
  const moved =
    stored.lat !== null &&
    stored.lng !== null &&
    (Math.abs(stored.lat - upload.lat) > SAME_POSITION || Math.abs(stored.lng - upload.lng) > SAME_POSITION);
  if (moved) sent.coordenadasOriginais = [stored.lat, stored.lng];
  await collectPonto(
    tx,
    stored.id,
    {
      tecnico: upload.tecnico,
      lat: upload.lat,
      lng: upload.lng,
      dataHora: upload.dataHora,
      coleta: upload.coletaId,
      dados: sent,
      defaults,
    },
    upload.qualidade,
  );
  await insertFotos(tx, stored.id, upload.fotos);
}

export const VERSAO_FORA_DE_ORDEM =
  'Esta correção não segue a última versão do registro no servidor: sincronize de novo para receber a versão atual.';

/**
 * An upload of a record whose revisions have begun (issue 24): a revision already stored is a replay (its answer
 * lost), the next one is stored as a new revision by the record's own technician, anything else is refused.
 */
async function revise(tx: Queryable, stored: StoredRegistro, upload: ColetaUpload): Promise<ColetaOutcome> {
  if (stored.tecnico !== upload.tecnico) return { kind: 'clash' };
  if (upload.versao <= stored.versao) return { kind: 'replay', id: stored.id };
  if (upload.versao !== stored.versao + 1) throw conflict(VERSAO_FORA_DE_ORDEM);
  // The fields sent replace the stored ones; a point keeps what the correction did not name (its originals).
  const dados = Object.fromEntries(Object.entries(upload.dados).filter(([campo]) => upload.named.has(campo)));
  await reviseRegistro(tx, {
    id: stored.id,
    versao: upload.versao,
    tecnico: upload.tecnico,
    lat: upload.lat,
    lng: upload.lng,
    dataHora: upload.dataHora,
    coleta: upload.coletaId,
    dados,
    fotos: upload.fotos,
    qualidade: upload.qualidade,
  });
  return { kind: 'revised', id: stored.id };
}
