// What a photo must be before it is stored: a known image format (by its first bytes), whole (its format's end is
// there: a photo cut off by a dropped connection or a full phone is refused, not kept broken), and of a size a
// camera takes. Read on the way through the stream, without holding the photo: the first bytes, the last ones,
// and where the last JPEG end-of-image marker was.
import { imageSize } from 'image-size';
import { type PhotoExif, readPhotoExif } from './photo-exif.ts';

/** More pixels than any phone camera's default (a 50 MP sensor is 8160×6120): a decompression bomb, not a photo. */
export const MAX_PHOTO_PIXELS = 64_000_000;

/** Enough for the markers before a JPEG's image data (EXIF with its thumbnail, XMP) and any other format's header. */
const HEAD_BYTES = 1024 * 1024;
const TAIL_BYTES = 16;
/** Enough of the start to tell the formats apart (sniffImage). */
const SNIFF_BYTES = 64;

const JPEG_EOI = Buffer.from([0xff, 0xd9]);
const PNG_IEND = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/** A photo refused, with the Portuguese reason the technician reads. */
export class NotAnImageError extends Error {}

export interface CheckedImage {
  mediaType: string;
  width: number;
  height: number;
  /** A JPEG's EXIF time and position, when it keeps them (issue 24's photo-evidence flags). */
  exif?: PhotoExif;
}

/** Image formats a phone camera produces, told apart by their first bytes (never by name or declared type). */
export function sniffImage(head: Buffer): string | undefined {
  const starts = (bytes: number[], offset = 0) => bytes.every((byte, i) => head[offset + i] === byte);
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  if (['GIF87a', 'GIF89a'].includes(head.subarray(0, 6).toString('latin1'))) return 'image/gif';
  const brand = head.subarray(4, 12).toString('latin1');
  if (['ftypheic', 'ftypheix', 'ftypmif1', 'ftypmsf1'].includes(brand)) return 'image/heic';
  return undefined;
}

export class ImageCheck {
  /** The first HEAD_BYTES, as the chunks came (joined once, when asked): no copy per chunk. */
  private headChunks: Buffer[] = [];
  private headLength = 0;
  private tail = Buffer.alloc(0);
  private size = 0;
  /** Absolute offset of the last FF D9 seen. */
  private lastEoi = -1;

  update(chunk: Buffer): void {
    if (this.headLength < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headLength);
      this.headChunks.push(part);
      this.headLength += part.length;
    }
    const at = chunk.lastIndexOf(JPEG_EOI);
    if (at >= 0) this.lastEoi = this.size + at;
    else if (this.tail.at(-1) === 0xff && chunk[0] === 0xd9) this.lastEoi = this.size - 1;
    // Only the last TAIL_BYTES are kept: a copy of those, never of the chunk.
    this.tail =
      chunk.length >= TAIL_BYTES
        ? Buffer.from(chunk.subarray(-TAIL_BYTES))
        : Buffer.concat([this.tail, chunk]).subarray(-TAIL_BYTES);
    this.size += chunk.length;
  }

  /** The first `n` bytes of the head, joined (a JPEG's up to its image data, not the whole photo). */
  private prefix(n: number): Buffer {
    const length = Math.min(n, this.headLength);
    const parts: Buffer[] = [];
    let taken = 0;
    for (const chunk of this.headChunks) {
      if (taken >= length) break;
      const part = chunk.subarray(0, length - taken);
      parts.push(part);
      taken += part.length;
    }
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, length);
  }

  /** The head's byte at `offset`, read across its chunks; undefined past it. */
  private byteAt(offset: number): number | undefined {
    let start = 0;
    for (const chunk of this.headChunks) {
      if (offset < start + chunk.length) return chunk[offset - start];
      start += chunk.length;
    }
    return undefined;
  }

  /** The checked image, or NotAnImageError saying what is wrong. */
  result(): CheckedImage {
    const mediaType = sniffImage(this.prefix(SNIFF_BYTES));
    if (!mediaType) throw new NotAnImageError('O arquivo enviado não é uma imagem.');
    // A JPEG's size is in its frame header, before its image data: only that much is joined.
    const sos = mediaType === 'image/jpeg' ? jpegImageDataStart((offset) => this.byteAt(offset)) : -1;
    const head = this.prefix(mediaType === 'image/jpeg' ? sos + 4 : HEAD_BYTES);
    if (!this.whole(mediaType, head, sos)) {
      throw new NotAnImageError('A foto está incompleta ou corrompida: tire ou envie a foto de novo.');
    }
    let width: number;
    let height: number;
    try {
      ({ width, height } = imageSize(head));
    } catch {
      throw new NotAnImageError('A foto está incompleta ou corrompida: tire ou envie a foto de novo.');
    }
    if (width * height > MAX_PHOTO_PIXELS) {
      throw new NotAnImageError(
        `A foto tem ${width}×${height} pixels: o máximo é ${MAX_PHOTO_PIXELS / 1_000_000} megapixels.`,
      );
    }
    const exif = mediaType === 'image/jpeg' ? readPhotoExif(head) : undefined;
    return { mediaType, width, height, ...(exif ? { exif } : {}) };
  }

  /** Whether the format's end is there. HEIC is taken as it comes (its boxes are not walked). */
  private whole(mediaType: string, head: Buffer, sos: number): boolean {
    switch (mediaType) {
      case 'image/jpeg':
        // The image data starts at the first SOS marker; its end-of-image marker must come after it (an EXIF
        // thumbnail's own FF D9 lies before it; nothing but an end of image is FF D9 inside the image data).
        return sos >= 0 && this.lastEoi > sos;
      case 'image/png':
        return this.tail.subarray(-PNG_IEND.length).equals(PNG_IEND);
      case 'image/webp':
        return head.length >= 8 && head.readUInt32LE(4) + 8 === this.size;
      case 'image/gif':
        return this.tail.at(-1) === 0x3b;
      default:
        return true;
    }
  }
}

/**
 * Offset of a JPEG's first SOS marker, walking its segments from the start through `at` (a byte of the head, or
 * undefined past it); -1 when the head does not reach it.
 */
function jpegImageDataStart(at: (offset: number) => number | undefined): number {
  let offset = 2;
  for (;;) {
    const [ff, marker, high, low] = [at(offset), at(offset + 1), at(offset + 2), at(offset + 3)];
    if (ff === undefined || marker === undefined || high === undefined || low === undefined) return -1;
    if (ff !== 0xff) return -1;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xda) return offset;
    offset += 2 + ((high << 8) | low);
  }
}
