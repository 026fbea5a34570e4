// `npm run fotos:verificar` (novus fotos verificar): reads back every photo records refer to (current and earlier
// revisions) and hashes it, lists the records whose photo is missing or whose bytes no longer match their SHA-256,
// then lists the files no record refers to; `--remover-orfas` removes those stored longer ago than the grace period
// (PHOTO_SWEEP_GRACE_MINUTES), as the server's sweep does. Safe beside a running server on PostgreSQL: it only reads,
// and removes only what the sweep would. Exits 1 when a photo is missing or damaged, 2 when it could not verify.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { FLOWS } from '@novus/domain/flows/registry';
import { loadConfig } from '../config.ts';
import { type Database, openPglite, openPostgres } from '../db/database.ts';
import {
  countReferencedHashes,
  type FotoDeRegistro,
  fotosDeRegistros,
  referencedHashes,
  referencedHashesAfter,
} from '../modules/registros/queries.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { openPhotoStore } from '../storage/s3-blob-store.ts';

/** A photo records refer to that the store does not hold as it should, with the records' slots holding it. */
export interface FotoComProblema {
  hash: string;
  registros: FotoDeRegistro[];
  /** A damaged photo: the SHA-256 of the bytes the store holds. */
  lido?: string;
}

export interface FotoOrfa {
  hash: string;
  size: number;
  modifiedAt: number;
  /** Stored within the grace period: perhaps an upload in flight on the server. */
  recente: boolean;
  removida: boolean;
}

export interface Verificacao {
  /** Photos records refer to, read back and hashed. */
  verificadas: number;
  ausentes: FotoComProblema[];
  danificadas: FotoComProblema[];
  orfas: FotoOrfa[];
}

export interface VerificacaoOptions {
  /** How long a photo no record refers to is left alone after it was stored (the server's grace period). */
  graceMs: number;
  removerOrfas?: boolean;
  /** The time (ms since the epoch), moved by tests. */
  clock?: () => number;
  /** One line per thing worth telling: progress every `every` photos, each problem, the summary. */
  log?: (line: string) => void;
  every?: number;
}

/** Photos read and hashed at once: a remote store answers each after a round trip. */
const READS_AT_ONCE = 4;
const PAGE = 1000;

/** True when the verification found a photo missing or damaged (the command's exit 1). */
export const comProblemas = (verificacao: Verificacao) =>
  verificacao.ausentes.length > 0 || verificacao.danificadas.length > 0;

export async function verificarFotos(
  db: Database,
  blobs: BlobStore,
  {
    graceMs,
    removerOrfas = false,
    clock = Date.now,
    log = () => undefined,
    every = 1000,
  }: VerificacaoOptions,
): Promise<Verificacao> {
  const verificacao: Verificacao = { verificadas: 0, ausentes: [], danificadas: [], orfas: [] };
  const total = await countReferencedHashes(db);
  log(`${total} foto(s) referenciada(s) por registros: lendo cada uma e conferindo seu SHA-256.`);
  const problemas: FotoComProblema[] = [];
  let after = '';
  for (;;) {
    const hashes = await referencedHashesAfter(db, after, PAGE);
    if (hashes.length === 0) break;
    after = hashes[hashes.length - 1] ?? after;
    for (let start = 0; start < hashes.length; start += READS_AT_ONCE) {
      const lidos = await Promise.all(
        hashes.slice(start, start + READS_AT_ONCE).map((hash) => readBack(blobs, hash)),
      );
      for (const { hash, lido } of lidos) {
        verificacao.verificadas += 1;
        if (lido !== hash) problemas.push({ hash, registros: [], ...(lido ? { lido } : {}) });
        if (verificacao.verificadas % every === 0)
          log(`${verificacao.verificadas}/${total} foto(s) verificada(s), ${problemas.length} com problema.`);
      }
    }
  }
  // Told with the records that refer to them now: one deleted meanwhile (and its photo swept) is no problem.
  const slots = new Map<string, FotoDeRegistro[]>();
  for (let start = 0; start < problemas.length; start += PAGE) {
    const hashes = problemas.slice(start, start + PAGE).map(({ hash }) => hash);
    for (const slot of await fotosDeRegistros(db, hashes))
      slots.set(slot.hash, [...(slots.get(slot.hash) ?? []), slot]);
  }
  for (const problema of problemas) {
    problema.registros = slots.get(problema.hash) ?? [];
    if (problema.registros.length === 0) continue;
    if (problema.lido) verificacao.danificadas.push(problema);
    else verificacao.ausentes.push(problema);
    for (const slot of problema.registros) {
      const onde = `registro ${slot.registro} (${fluxoNome(slot.fluxo)}), foto ${slot.slot}${slot.versao === null ? '' : ` da versão ${slot.versao}`}`;
      log(
        problema.lido
          ? `DANIFICADA ${problema.hash}: ${onde}; os bytes guardados têm SHA-256 ${problema.lido}`
          : `AUSENTE ${problema.hash}: ${onde}`,
      );
    }
  }

  log('Procurando arquivos que nenhum registro referencia…');
  const before = clock() - graceMs;
  let listadas = 0;
  for await (const batch of blobs.listPhotos()) {
    const referenced = await referencedHashes(
      db,
      batch.map((photo) => photo.hash),
    );
    for (const photo of batch) {
      listadas += 1;
      if (listadas % every === 0)
        log(`${listadas} arquivo(s) de foto listado(s), ${verificacao.orfas.length} órfão(s).`);
      if (referenced.has(photo.hash)) continue;
      verificacao.orfas.push({ ...photo, recente: photo.modifiedAt >= before, removida: false });
    }
  }
  for (const orfa of verificacao.orfas) {
    const idade = `gravada há ${duracao(clock() - orfa.modifiedAt)}`;
    log(
      `ÓRFÃ ${orfa.hash} (${kb(orfa.size)}, ${idade}${orfa.recente ? ': recente, pode ser de um envio em andamento' : ''})`,
    );
  }
  if (removerOrfas) await removerAntigas(db, blobs, verificacao.orfas, before, graceMs, log);

  const removidas = verificacao.orfas.filter((orfa) => orfa.removida).length;
  log(
    `Resumo: ${verificacao.verificadas} foto(s) verificada(s); ${verificacao.ausentes.length} ausente(s), ` +
      `${verificacao.danificadas.length} danificada(s); ${verificacao.orfas.length} órfã(s)` +
      (removerOrfas ? `, ${removidas} removida(s).` : '.'),
  );
  return verificacao;
}

/** Removes the orphans older than the grace period, asking the rows once more just before (a record saved since). */
async function removerAntigas(
  db: Database,
  blobs: BlobStore,
  orfas: FotoOrfa[],
  before: number,
  graceMs: number,
  log: (line: string) => void,
): Promise<void> {
  const antigas = orfas.filter((orfa) => !orfa.recente);
  const recentes = orfas.length - antigas.length;
  if (recentes > 0)
    log(
      `${recentes} órfã(s) gravada(s) há menos de ${duracao(graceMs)} (PHOTO_SWEEP_GRACE_MINUTES) mantida(s): ` +
        'um envio em andamento pode estar para referenciá-las.',
    );
  for (let start = 0; start < antigas.length; start += PAGE) {
    const lote = antigas.slice(start, start + PAGE);
    const referenced = await referencedHashes(
      db,
      lote.map((orfa) => orfa.hash),
    );
    for (const orfa of lote) {
      if (referenced.has(orfa.hash)) continue;
      orfa.removida = await blobs.removeIfOlder(orfa.hash, before);
      log(orfa.removida ? `REMOVIDA ${orfa.hash}` : `MANTIDA ${orfa.hash}: gravada de novo desde a listagem`);
    }
  }
}

/** The SHA-256 of the bytes the store holds under hash; no `lido` when it holds none. */
async function readBack(blobs: BlobStore, hash: string): Promise<{ hash: string; lido?: string }> {
  const stream = await blobs.open(hash);
  if (!stream) return { hash };
  try {
    return { hash, lido: await sha256Of(stream) };
  } catch (error) {
    // An unreadable file (EIO, EACCES: a system error's code) is as bad as a damaged one; a store away is not.
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) throw error;
    return { hash, lido: `ilegível (${(error as Error).message})` };
  }
}

async function sha256Of(stream: Readable): Promise<string> {
  const hasher = crypto.createHash('sha256');
  for await (const chunk of stream) hasher.update(chunk as Buffer);
  return hasher.digest('hex');
}

/** A flow as its screens name one record ('Unidade', 'Poste'). */
function fluxoNome(fluxo: string): string {
  return FLOWS.find((flow) => flow.key === fluxo)?.labels.record ?? fluxo;
}

function kb(bytes: number): string {
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function duracao(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.round(ms / 1000))} s`;
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} dias`;
}

/**
 * The process, other than this one, with a file of folder open (Linux's /proc): a server running on that PGlite.
 * Undefined when there is none; null when this system cannot tell.
 */
export function processHolding(folder: string): number | undefined | null {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const inside = fs.realpathSync(folder) + path.sep;
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      // Gone, or another user's: a server run as another user cannot be seen (run this as the server's user).
      continue;
    }
    for (const fd of fds) {
      try {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(inside)) return Number(pid);
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return undefined;
}

/** The database of the configuration, without migrating it (this command only reads); or why it cannot open it. */
async function openForReading(
  config: ReturnType<typeof loadConfig>,
  servidorParado: boolean,
): Promise<{ db: Database; name: string } | { why: string }> {
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    return {
      db: openPostgres({ connectionString: config.databaseUrl }),
      name: `PostgreSQL ${url.host}${url.pathname}`,
    };
  }
  const folder = path.join(config.dataDir, 'pglite');
  if (!fs.existsSync(folder))
    return { why: `Não há banco embutido (PGlite) em ${folder}: confira DATA_DIR.` };
  // PGlite opens a folder another process has open without a word, and two processes on it corrupt it.
  const holder = servidorParado ? undefined : processHolding(folder);
  if (holder === null)
    return {
      why:
        `Não foi possível saber se o servidor está usando o banco embutido em ${folder}. ` +
        'Pare o servidor e rode de novo com --servidor-parado.',
    };
  if (holder !== undefined)
    return {
      why:
        `O banco embutido (PGlite) em ${folder} está aberto por outro processo (pid ${holder}), ` +
        'provavelmente o servidor: só um processo pode abri-lo. Pare o servidor e rode de novo ' +
        '(com PostgreSQL a verificação roda com o servidor no ar).',
    };
  return { db: await openPglite({ dataDir: folder }), name: `PGlite em ${folder}` };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'remover-orfas': { type: 'boolean', default: false },
      'servidor-parado': { type: 'boolean', default: false },
    },
  });
  const config = loadConfig();
  const opened = await openForReading(config, values['servidor-parado']);
  if ('why' in opened) {
    console.error(opened.why);
    return 2;
  }
  const { db, name } = opened;
  const store = config.photoStore
    ? `s3://${config.photoStore.bucket}/${config.photoStore.prefix}`
    : path.join(config.dataDir, 'fotos');
  try {
    console.log(`Verificando as fotos de ${store} com o banco ${name}.`);
    const verificacao = await verificarFotos(db, openPhotoStore(config), {
      graceMs: config.photoGraceMs,
      removerOrfas: values['remover-orfas'],
      log: (line) => console.log(line),
    });
    return comProblemas(verificacao) ? 1 : 0;
  } catch (error) {
    console.error(
      `Não foi possível verificar as fotos: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 2;
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href)
  process.exit(await main());
