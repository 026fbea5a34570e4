// 'Exportar pendentes' read back (issue 12): an administrador uploads the zip a phone wrote, and each record and
// photo goes the way a sync upload goes — the upload envelope and the flow's schema, photos checked and stored
// content-addressed by the BlobStore, saveColeta's one transaction keyed by the device's id, the PhotoSweeper —
// so importing a file twice, or a file whose records the phone also synced, stores nothing twice.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { unzipSync, type Unzipped } from 'fflate';
import { importarPendentes, type ImportSummary } from '@novus/domain/api/pendentes';
import { uploadEnvelopeSchema } from '@novus/domain/flows/flow';
import { flowOf } from '@novus/domain/flows/registry';
import {
  type Pendente,
  PENDENTES_MANIFEST,
  type PendentesManifest,
  pendentesManifestSchema,
} from '@novus/domain/pendentes';
import type { Access } from '../../auth/access.ts';
import { route } from '../../contract.ts';
import type { Database } from '../../db/database.ts';
import { AppError, badRequest, parseInput, tooLarge } from '../../errors.ts';
import { type BlobStore, NotAnImageError } from '../../storage/blob-store.ts';
import { recordAuditoria } from '../auditoria/queries.ts';
import { findUserByLogin } from '../usuarios/queries.ts';
import { qualidadeDe, sinalizacoesLigadas } from '../revisao/flags.ts';
import { saveColeta } from './coleta.ts';
import { getProjetoZonas, type NewFoto } from './queries.ts';
import { FOTO_GRANDE_DEMAIS, MAX_PHOTO_BYTES, newFoto, type PhotoSweeper } from './upload.ts';

/** A day of a crew's photos, stored uncompressed in the zip. */
const MAX_ZIP_BYTES = 300 * 1024 * 1024;

export const IMPORT_TEXTS = {
  notZip: 'O arquivo não é um zip válido de pendentes do Novus.',
  noManifest: `O zip não contém ${PENDENTES_MANIFEST}: não é uma exportação de pendentes do Novus.`,
  badManifest: `O ${PENDENTES_MANIFEST} do zip é inválido.`,
  noFile: 'Envie o arquivo de pendentes (.zip) no campo arquivo.',
  tooLarge: `O arquivo excede o tamanho máximo de ${MAX_ZIP_BYTES / 1024 / 1024} MB.`,
  noTecnico: 'O arquivo não diz quem coletou: informe o login do técnico.',
  tecnicoNotFound: (login: string) => `Técnico não encontrado: ${login}.`,
  notUploader: (login: string) => `O usuário ${login} não é técnico nem administrador.`,
  projetoNotFound: 'Projeto não encontrado.',
  fotoMissing: (arquivo: string) => `A foto ${arquivo} não está no zip.`,
  badSlot: 'Posição de foto inválida para este fluxo.',
  clash: 'Já existe outro registro com esse identificador.',
} as const;

function readZip(bytes: Uint8Array, names: (name: string) => boolean): Unzipped {
  try {
    return unzipSync(bytes, { filter: (file) => names(file.name) });
  } catch {
    throw badRequest(IMPORT_TEXTS.notZip);
  }
}

function readManifest(zip: Uint8Array): PendentesManifest {
  const entry = readZip(zip, (name) => name === PENDENTES_MANIFEST)[PENDENTES_MANIFEST];
  if (!entry) throw badRequest(IMPORT_TEXTS.noManifest);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(entry));
  } catch {
    throw badRequest(IMPORT_TEXTS.badManifest);
  }
  const parsed = pendentesManifestSchema.safeParse(json);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) => issue.message);
    throw badRequest(`${IMPORT_TEXTS.badManifest} ${messages.slice(0, 3).join(' | ')}`, [
      { msg: IMPORT_TEXTS.badManifest },
      ...messages.map((msg) => ({ msg })),
    ]);
  }
  return parsed.data;
}

export async function importPendentesRoutes(
  app: FastifyInstance,
  { db, access, blobs, sweeper }: { db: Database; access: Access; blobs: BlobStore; sweeper: PhotoSweeper },
) {
  const sinalizacoes = sinalizacoesLigadas();
  /** One record as an upload of the sync: refused records are reported, never stop the others. */
  async function importOne(
    zip: Uint8Array,
    pendente: Pendente,
    tecnico: string,
    stored: (hash: string) => void,
  ): Promise<{ kind: 'created' | 'collected' | 'replay' | 'competing'; fotos: number }> {
    const flow = flowOf(pendente.fluxo);
    const { campos } = pendente;
    const envelope = parseInput(uploadEnvelopeSchema, campos);
    const zonas = await getProjetoZonas(db, envelope.projeto);
    if (!zonas) throw badRequest(IMPORT_TEXTS.projetoNotFound);
    const dados = {
      ...parseInput(flow.dados, campos),
      ...(envelope.precisao === undefined ? {} : { precisao: envelope.precisao }),
    };
    const slots = new Set(pendente.fotos.map((foto) => foto.slot));
    if (slots.size !== pendente.fotos.length || [...slots].some((slot) => slot >= flow.photoSlots)) {
      throw badRequest(IMPORT_TEXTS.badSlot);
    }
    const fotos: NewFoto[] = [];
    for (const { slot, arquivo } of pendente.fotos) {
      const bytes = readZip(zip, (name) => name === arquivo)[arquivo];
      if (!bytes) throw badRequest(IMPORT_TEXTS.fotoMissing(arquivo));
      if (bytes.byteLength > MAX_PHOTO_BYTES) throw tooLarge(FOTO_GRANDE_DEMAIS);
      const blob = await blobs.putImage(Readable.from([Buffer.from(bytes)])).catch((error: unknown) => {
        if (error instanceof NotAnImageError) throw badRequest(error.message);
        throw error;
      });
      stored(blob.hash);
      fotos.push(newFoto(slot, blob));
    }
    const outcome = await saveColeta(db, flow, {
      id: envelope.id,
      coletaId: envelope.coletaId ?? envelope.id,
      projeto: envelope.projeto,
      tecnico,
      lat: envelope.coordenadas.lat,
      lng: envelope.coordenadas.lng,
      dataHora: envelope.dataHora,
      dados,
      named: new Set(Object.keys(campos)),
      fotos,
      versao: envelope.versao ?? 1,
      // The file says who collected, not in which zones: no zone flag on an import.
      qualidade: sinalizacoes ? qualidadeDe(envelope.precisao, fotos, null) : null,
    });
    if (outcome.kind === 'clash') throw badRequest(IMPORT_TEXTS.clash);
    // A correction read back from a file changed its record, as a collection does.
    const kind = outcome.kind === 'revised' ? 'collected' : outcome.kind;
    return { kind, fotos: outcome.kind === 'replay' ? 0 : fotos.length };
  }

  route(app, access, importarPendentes, async ({ request }) => {
    if (!request.isMultipart()) throw badRequest(IMPORT_TEXTS.noFile);
    let login: string | undefined;
    let zip: Uint8Array | undefined;
    for await (const part of request.parts({ limits: { fileSize: MAX_ZIP_BYTES, files: 1, fields: 5 } })) {
      if (part.type === 'field') {
        if (part.fieldname === 'tecnico' && typeof part.value === 'string' && part.value.trim() !== '') {
          login = part.value.trim();
        }
        continue;
      }
      if (part.fieldname !== 'arquivo') {
        part.file.resume();
        continue;
      }
      const buffer = await part.toBuffer().catch((error: unknown) => {
        if (part.file.truncated) throw tooLarge(IMPORT_TEXTS.tooLarge);
        throw error;
      });
      if (part.file.truncated) throw tooLarge(IMPORT_TEXTS.tooLarge);
      zip = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    }
    if (!zip || zip.byteLength === 0) throw badRequest(IMPORT_TEXTS.noFile);

    const manifest = readManifest(zip);
    const who = login ?? manifest.tecnico.login;
    if (!who) throw badRequest(IMPORT_TEXTS.noTecnico);
    const user = await findUserByLogin(db, who);
    if (!user) throw badRequest(IMPORT_TEXTS.tecnicoNotFound(who));
    if (!user.roles.includes('tecnico') && !user.roles.includes('administrador')) {
      throw badRequest(IMPORT_TEXTS.notUploader(who));
    }

    const summary: ImportSummary = {
      tecnico: user.login,
      registros: manifest.registros.length,
      criados: 0,
      coletados: 0,
      jaExistentes: 0,
      concorrentes: 0,
      fotos: 0,
      recusados: [],
    };
    const count = {
      created: 'criados',
      collected: 'coletados',
      replay: 'jaExistentes',
      competing: 'concorrentes',
    } as const;
    // In collection order, as the sync sends them.
    const ordered = [...manifest.registros].sort(
      (a, b) => Number(a.campos.dataHora ?? 0) - Number(b.campos.dataHora ?? 0),
    );
    for (const pendente of ordered) {
      const photos = sweeper.request();
      try {
        const result = await importOne(zip, pendente, user.id, photos.stored);
        summary[count[result.kind]] += 1;
        summary.fotos += result.fotos;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        summary.recusados.push({
          id: pendente.campos.id ?? null,
          fluxo: pendente.fluxo,
          motivo: error.message,
        });
      } finally {
        await photos
          .sweep()
          .catch((error: unknown) => request.log.error({ err: error }, 'photo sweep failed'));
      }
    }
    // The records are the technician's, each stored in its own transaction as a sync stores it; the import is
    // the administrador's act, in the audit log with what it did.
    await recordAuditoria(db, {
      usuario: access.actor(request).id,
      entidade: 'pendentes',
      entidadeId: user.login,
      acao: 'importar',
      antes: null,
      depois: { ...summary, recusados: summary.recusados.length },
    });
    return summary;
  });
}
