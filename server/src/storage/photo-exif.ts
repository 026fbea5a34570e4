// When and where a photo says it was taken (issue 24's photo-evidence flags): a JPEG's EXIF, read from the head the
// image check already holds (the bytes before the image data), parsed by `exif-reader`. Nothing when the photo
// keeps no EXIF (the device drops it for most flows when compressing), or when its EXIF is unreadable.
import exifReader from 'exif-reader';

export interface PhotoExif {
  /** DateTimeOriginal as ms since 1970; a time without offset is taken in America/Sao_Paulo (UTC−3). */
  tomadaEm?: number;
  lat?: number;
  lng?: number;
}

/** Brazil's legal time since 2019 (no daylight saving): what a camera's offset-less clock most likely kept. */
const BRASILIA_OFFSET_MS = -3 * 60 * 60 * 1000;
const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');

/** The APP1 EXIF segment's payload ('Exif\0\0' + TIFF) within a JPEG's head, walking its segments. */
export function jpegExifSegment(head: Buffer): Buffer | undefined {
  let offset = 2;
  while (offset + 4 <= head.length) {
    if (head[offset] !== 0xff) return undefined;
    const marker = head[offset + 1];
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = head.readUInt16BE(offset + 2);
    const start = offset + 4;
    if (marker === 0xe1 && head.subarray(start, start + 6).equals(EXIF_HEADER)) {
      return head.subarray(start, Math.min(offset + 2 + length, head.length));
    }
    offset += 2 + length;
  }
  return undefined;
}

/** An EXIF offset ('-03:00') as ms of local time ahead of UTC. */
function offsetMs(offset: unknown): number | undefined {
  if (typeof offset !== 'string') return undefined;
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(offset.trim());
  if (!match) return undefined;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return (match[1] === '-' ? -1 : 1) * minutes * 60 * 1000;
}

function degrees(value: unknown, ref: unknown, negative: string): number | undefined {
  if (!Array.isArray(value) || value.length !== 3 || !value.every((n) => Number.isFinite(n)))
    return undefined;
  const [d, m, s] = value as [number, number, number];
  const result = d + m / 60 + s / 3600;
  return ref === negative ? -result : result;
}

/** The EXIF time and position of a JPEG head; undefined when it has neither. */
export function readPhotoExif(head: Buffer): PhotoExif | undefined {
  const segment = jpegExifSegment(head);
  if (!segment) return undefined;
  let tags: ReturnType<typeof exifReader>;
  try {
    tags = exifReader(segment);
  } catch {
    return undefined; // a camera's broken EXIF says nothing, it does not refuse the photo
  }
  const result: PhotoExif = {};
  const taken = tags.Photo?.DateTimeOriginal;
  if (taken instanceof Date && Number.isFinite(taken.getTime())) {
    // exif-reader reads the local wall clock as if it were UTC.
    result.tomadaEm = taken.getTime() - (offsetMs(tags.Photo?.OffsetTimeOriginal) ?? BRASILIA_OFFSET_MS);
  }
  const gps = tags.GPSInfo;
  const lat = degrees(gps?.GPSLatitude, gps?.GPSLatitudeRef, 'S');
  const lng = degrees(gps?.GPSLongitude, gps?.GPSLongitudeRef, 'W');
  // 0,0 is a receiver without a fix, not a place in the Gulf of Guinea.
  if (lat !== undefined && lng !== undefined && (lat !== 0 || lng !== 0)) {
    result.lat = lat;
    result.lng = lng;
  }
  return result.tomadaEm === undefined && result.lat === undefined ? undefined : result;
}
