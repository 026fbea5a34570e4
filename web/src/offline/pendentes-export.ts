// 'Exportar pendentes': every record the server has not got yet, with its photos, in one zip the technician
// keeps or sends, so a broken phone never costs a day of work. The records travel as the sync sends them
// (uploadFields), and the back office imports the file through the same upload path (POST /api/pendentes/importar).
import type { Zippable } from 'fflate';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import {
  PENDENTES_FORMATO,
  PENDENTES_MANIFEST,
  pendenteFotoPath,
  type PendentesManifest,
} from '@novus/domain/pendentes';
import { isPending, type LocalColeta, type RecordStore } from './records';
import { uploadFields } from './sync';

/** The login the technician signed in with on this device: the file says whose records they are. */
const LOGIN_KEY = 'novus.login';

export function rememberLogin(storage: Storage, login: string): void {
  storage.setItem(LOGIN_KEY, login);
}

export function rememberedLogin(storage: Storage): string | undefined {
  return storage.getItem(LOGIN_KEY) ?? undefined;
}

export interface PendingEntry {
  flow: FlowDefinition;
  records: readonly LocalColeta[];
}

export interface PendentesFile {
  manifest: PendentesManifest;
  /** Zip path to photo, for each photo the manifest names. */
  fotos: Map<string, Blob>;
}

/** The manifest and the photos of every pending record, in the sync's order (flow by flow, oldest first). */
export function pendentesFile(
  entries: readonly PendingEntry[],
  tecnico: { login?: string; nome: string },
  now: number,
): PendentesFile {
  const fotos = new Map<string, Blob>();
  const registros: PendentesManifest['registros'] = [];
  for (const { flow, records } of entries) {
    const pending = records
      .filter((record) => isPending(flow, record))
      .sort((a, b) => a.dataHora - b.dataHora);
    for (const record of pending) {
      registros.push({
        fluxo: flow.key,
        campos: uploadFields(record),
        fotos: photosOf(record).flatMap(({ slot, blob }) => {
          const arquivo = pendenteFotoPath(record.id, slot, blob.type);
          fotos.set(arquivo, blob);
          return [{ slot, arquivo }];
        }),
      });
    }
  }
  return {
    manifest: { formato: PENDENTES_FORMATO, versao: 1, exportadoEm: now, tecnico, registros },
    fotos,
  };
}

/**
 * A record's photos by slot: those taken on the device, and a correction's server photos it keeps (issue 24), whose
 * bytes the sync fetched. The file carries bytes, not hashes: it may reach a server by another path.
 */
function photosOf(record: LocalColeta): { slot: number; blob: Blob }[] {
  const taken = record.fotos.flatMap((blob, slot) => (blob ? [{ slot, blob }] : []));
  const kept = (record.fotosServidor ?? []).flatMap(({ slot, blob }) =>
    blob && !record.fotos[slot] ? [{ slot, blob }] : [],
  );
  return [...taken, ...kept].sort((a, b) => a.slot - b.slot);
}

/** The zip: pendentes.json, then the photos stored as they are (JPEGs do not compress). */
export async function zipPendentes({ manifest, fotos }: PendentesFile): Promise<Uint8Array> {
  const files: Zippable = {
    [PENDENTES_MANIFEST]: [new TextEncoder().encode(JSON.stringify(manifest, null, 2)), { level: 6 }],
  };
  for (const [arquivo, blob] of fotos) files[arquivo] = new Uint8Array(await blob.arrayBuffer());
  // fflate only when a technician exports: the login and the home do not carry it.
  const { zipSync } = await import('fflate');
  return zipSync(files, { level: 0 });
}

/** 'pendentes-paula-2026-11-24-1530.zip' */
export function pendentesFileName(who: string, now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const slug =
    who
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'tecnico';
  const day = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return `pendentes-${slug}-${day}-${pad(now.getHours())}${pad(now.getMinutes())}.zip`;
}

/** Reads every flow's pending records from the device and writes the zip. */
export async function exportPendentes(
  records: RecordStore,
  flows: readonly FlowDefinition[],
  tecnico: { login?: string; nome: string },
  now: number,
): Promise<{ zip: Uint8Array; registros: number; fotos: number }> {
  const entries: PendingEntry[] = [];
  for (const flow of flows) entries.push({ flow, records: await records.pending(flow) });
  const file = pendentesFile(entries, tecnico, now);
  return { zip: await zipPendentes(file), registros: file.manifest.registros.length, fotos: file.fotos.size };
}
