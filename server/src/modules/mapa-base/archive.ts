// A PMTiles v3 archive judged and read by ranges (issue 23): the check an upload passes on its way into the blob
// store (the magic on the first bytes, then the header, every directory and the metadata read back from the
// temporary file with the `pmtiles` reader), the same inspection of an archive at a URL, and the range Sources the
// tile route reads through (a stored archive, a local file).
import fs from 'node:fs';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import {
  bytesToHeader,
  Compression,
  type Entry,
  type Header,
  PMTiles,
  type RangeResponse,
  ResolvedValueCache,
  type Source,
  TileType,
} from 'pmtiles';
import type { MapaBaseTipo } from '@novus/domain/api/mapa-base';
import { AppError } from '../../errors.ts';
import { type BlobCheck, type BlobStore, readAt } from '../../storage/blob-store.ts';

export const HEADER_BYTES = 127;
const MAGIC = 'PMTiles';

/** An archive refused, with the Portuguese reason the administrador reads (422). */
export class MapaBaseInvalido extends AppError {
  constructor(message: string) {
    super(422, message, [{ msg: message }]);
  }
}

export const NAO_PMTILES = 'O arquivo enviado não é um mapa PMTiles (o formato do Mapa offline).';
export const TRUNCADO =
  'O arquivo PMTiles está incompleto ou corrompido (termina antes dos seus diretórios ou blocos): envie-o de novo.';
export const SEM_BLOCOS = 'O arquivo PMTiles não tem nenhum bloco de mapa.';
const TIPO_NAO_SUPORTADO =
  'O arquivo PMTiles tem blocos de um tipo não suportado: use PNG, JPEG, WebP, AVIF ou vetoriais (MVT).';
const COMPRESSAO_NAO_SUPORTADA =
  'O arquivo PMTiles usa uma compressão não suportada (zstd): gere-o com gzip ou sem compressão.';
/** What nodeDecompress reads. */
const READABLE = new Set([Compression.Unknown, Compression.None, Compression.Gzip, Compression.Brotli]);
const METADADOS_INVALIDOS = 'Os metadados do arquivo PMTiles são ilegíveis: o arquivo está corrompido.';

const gunzip = promisify(zlib.gunzip);
const brotli = promisify(zlib.brotliDecompress);

const exactBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** The `pmtiles` reader's decompression, with Node's zlib (gzip and brotli; zstd is refused as unreadable). */
export async function nodeDecompress(buf: ArrayBuffer, compression: Compression): Promise<ArrayBuffer> {
  if (compression === Compression.None || compression === Compression.Unknown) return buf;
  if (compression === Compression.Gzip) return exactBuffer(await gunzip(new Uint8Array(buf)));
  if (compression === Compression.Brotli) return exactBuffer(await brotli(new Uint8Array(buf)));
  throw new Error(`compression ${compression} not supported`);
}

const TIPOS: Partial<Record<TileType, MapaBaseTipo>> = {
  [TileType.Mvt]: 'mvt',
  [TileType.Png]: 'png',
  [TileType.Jpeg]: 'jpg',
  [TileType.Webp]: 'webp',
  [TileType.Avif]: 'avif',
};

/** What the form and the device need to know of an archive, read from its header, directories and metadata. */
export interface ArchiveFacts {
  tipo: MapaBaseTipo;
  minZoom: number;
  maxZoom: number;
  limites: { oeste: number; sul: number; leste: number; norte: number };
  /** The tiles the archive addresses. */
  blocos: number;
  atribuicao: string | null;
  camadas: string[];
}

/** The first bytes must be 'PMTiles' and version 3: anything else is refused before the rest is read. */
export function checkMagic(head: Uint8Array): void {
  if (head.length < 8 || Buffer.from(head.subarray(0, 7)).toString('latin1') !== MAGIC) {
    throw new MapaBaseInvalido(NAO_PMTILES);
  }
  if (head[7] !== 3) {
    throw new MapaBaseInvalido(`O arquivo é um PMTiles da versão ${head[7]}: envie um PMTiles v3.`);
  }
}

/**
 * Reads an archive as the tile route will, through the `pmtiles` reader over `source`: header, metadata, and the
 * directories — all of them (`walk: 'all'`, an upload on this server's disk: every entry must lie inside the file)
 * or down to the first tile (`'first'`, an archive at a URL, where every leaf would be a request). `size` is the
 * archive's length when known: a section past it is a truncated archive.
 */
export async function inspectArchive(
  source: Source,
  size: number | undefined,
  walk: 'all' | 'first',
): Promise<ArchiveFacts> {
  const head = new Uint8Array((await source.getBytes(0, HEADER_BYTES)).data);
  checkMagic(head);
  if (head.length < HEADER_BYTES) throw new MapaBaseInvalido(TRUNCADO);
  const header = bytesToHeader(exactBuffer(head));
  const tipo = TIPOS[header.tileType];
  if (!tipo) throw new MapaBaseInvalido(TIPO_NAO_SUPORTADO);
  if (!READABLE.has(header.internalCompression) || !READABLE.has(header.tileCompression)) {
    throw new MapaBaseInvalido(COMPRESSAO_NAO_SUPORTADA);
  }
  const end = size ?? Infinity;
  const sections: [number, number | undefined][] = [
    [header.rootDirectoryOffset, header.rootDirectoryLength],
    [header.jsonMetadataOffset, header.jsonMetadataLength],
    [header.leafDirectoryOffset, header.leafDirectoryLength],
    [header.tileDataOffset, header.tileDataLength],
  ];
  for (const [offset, length = 0] of sections) {
    if (offset + length > end) throw new MapaBaseInvalido(TRUNCADO);
  }
  if (header.rootDirectoryLength === 0) throw new MapaBaseInvalido(SEM_BLOCOS);

  const cache = new ResolvedValueCache(64, false, nodeDecompress);
  const reader = new PMTiles(source, cache, nodeDecompress);
  let blocos = 0;
  const directory = async (offset: number, length: number): Promise<Entry[]> => {
    try {
      return await cache.getDirectory(source, offset, length, header);
    } catch (error) {
      // The reader refuses a directory of no entries: an archive of no tiles, whole but empty.
      if (error instanceof Error && /empty directory/i.test(error.message))
        throw new MapaBaseInvalido(SEM_BLOCOS);
      throw new MapaBaseInvalido(TRUNCADO);
    }
  };
  const tileDataLength = header.tileDataLength ?? end - header.tileDataOffset;
  const leafEnd =
    header.leafDirectoryOffset + (header.leafDirectoryLength ?? end - header.leafDirectoryOffset);
  // Depth-first; a leaf pointing deeper than the spec's levels (or at itself) is a broken archive.
  const visit = async (entries: Entry[], depth: number): Promise<boolean> => {
    if (depth > 4) throw new MapaBaseInvalido(TRUNCADO);
    for (const entry of entries) {
      if (entry.runLength > 0) {
        if (entry.offset + entry.length > tileDataLength) throw new MapaBaseInvalido(TRUNCADO);
        blocos += entry.runLength;
        if (walk === 'first') return true;
      } else {
        const offset = header.leafDirectoryOffset + entry.offset;
        if (offset + entry.length > leafEnd) throw new MapaBaseInvalido(TRUNCADO);
        const found = await visit(await directory(offset, entry.length), depth + 1);
        if (found && walk === 'first') return true;
      }
    }
    return false;
  };
  await visit(await directory(header.rootDirectoryOffset, header.rootDirectoryLength), 0);
  if (blocos === 0) throw new MapaBaseInvalido(SEM_BLOCOS);

  const metadata = await readMetadata(reader, header);
  return {
    tipo,
    minZoom: header.minZoom,
    maxZoom: header.maxZoom,
    limites: { oeste: header.minLon, sul: header.minLat, leste: header.maxLon, norte: header.maxLat },
    blocos: walk === 'all' ? blocos : Math.max(header.numAddressedTiles, blocos),
    atribuicao:
      typeof metadata.attribution === 'string' && metadata.attribution ? metadata.attribution : null,
    camadas: Array.isArray(metadata.vector_layers)
      ? metadata.vector_layers.flatMap((layer: unknown) =>
          typeof (layer as { id?: unknown }).id === 'string' ? [(layer as { id: string }).id] : [],
        )
      : [],
  };
}

async function readMetadata(reader: PMTiles, header: Header): Promise<Record<string, unknown>> {
  if (header.jsonMetadataLength === 0) return {};
  try {
    const metadata = await reader.getMetadata();
    return typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : {};
  } catch {
    throw new MapaBaseInvalido(METADADOS_INVALIDOS);
  }
}

/** A file on this server's disk, read by ranges. */
export class FileRangeSource implements Source {
  constructor(
    private readonly file: fs.promises.FileHandle,
    private readonly key: string,
  ) {}

  getKey(): string {
    return this.key;
  }

  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const bytes = await readAt(this.file, offset, length);
    return { data: exactBuffer(bytes) };
  }
}

/** An archive in the blob store, read by ranges (a local file read at an offset, or S3 GetObject with Range). */
export class StoredArchiveSource implements Source {
  constructor(
    private readonly blobs: BlobStore,
    private readonly hash: string,
  ) {}

  getKey(): string {
    return `arquivo:${this.hash}`;
  }

  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    return { data: exactBuffer(await this.blobs.readArchive(this.hash, offset, length)) };
  }
}

/**
 * The check of an upload: the magic on the first bytes as they arrive (a photo or a zip is refused before the
 * rest of its bytes are read), then the whole archive once written (inspectArchive over the temporary file).
 */
export class PmtilesCheck implements BlobCheck<ArchiveFacts> {
  private head = Buffer.alloc(0);

  update(chunk: Buffer): void {
    if (this.head.length >= 8) return;
    this.head = Buffer.concat([this.head, chunk.subarray(0, 8 - this.head.length)]);
    if (this.head.length >= 8) checkMagic(this.head);
  }

  async finish(file: string, size: number): Promise<ArchiveFacts> {
    if (size < 8) throw new MapaBaseInvalido(NAO_PMTILES);
    const handle = await fs.promises.open(file, 'r');
    try {
      return await inspectArchive(new FileRangeSource(handle, file), size, 'all');
    } finally {
      await handle.close();
    }
  }
}
