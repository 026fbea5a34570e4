// The photo check on its own: whole images of each format a phone produces pass, cut or swollen ones do not,
// however the stream is chunked.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkImage } from './support/image-check.ts';
import { fakeJpeg } from './support/multipart.ts';

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real 4×3 grey PNG: signature, IHDR, IDAT, IEND. */
function png(): Buffer {
  const ihdr = Buffer.from([0, 0, 0, 4, 0, 0, 0, 3, 8, 0, 0, 0, 0]);
  const rows = Buffer.concat(Array.from({ length: 3 }, () => Buffer.from([0, ...crypto.randomBytes(4)])));
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('ImageCheck', () => {
  it.each([1, 7, 4096, 1 << 20])('takes whole JPEG and PNG files, read in chunks of %i bytes', (chunk) => {
    expect(checkImage(fakeJpeg(10_000, { width: 4000, height: 3000 }), chunk)).toBe('image/jpeg 4000x3000');
    expect(checkImage(png(), chunk)).toBe('image/png 4x3');
  });

  it('takes a JPEG with bytes after its end (a phone’s motion photo) and an EXIF thumbnail before its image', () => {
    const jpeg = fakeJpeg(5000);
    expect(checkImage(Buffer.concat([jpeg, crypto.randomBytes(3000)]), 1000)).toBe('image/jpeg 16x16');
    // An APP1 segment holding a thumbnail's own end-of-image marker, before the frame: cut after it, refused.
    const thumbnail = Buffer.concat([
      Buffer.from([0xff, 0xe1, 0x00, 0x08]),
      Buffer.from('Ex'),
      Buffer.from([0xff, 0xd9, 0, 0]),
    ]);
    const withThumbnail = Buffer.concat([jpeg.subarray(0, 2), thumbnail, jpeg.subarray(2)]);
    expect(checkImage(withThumbnail, 512)).toBe('image/jpeg 16x16');
    expect(checkImage(withThumbnail.subarray(0, 3000), 512)).toMatch(/incompleta/);
  });

  it('refuses what is cut, swollen or not an image', () => {
    expect(checkImage(fakeJpeg(10_000).subarray(0, 5000), 100)).toMatch(/incompleta/);
    expect(checkImage(png().subarray(0, 40), 100)).toMatch(/incompleta/);
    expect(checkImage(fakeJpeg(2000, { width: 12_000, height: 9_000 }), 100)).toBe(
      'A foto tem 12000×9000 pixels: o máximo é 64 megapixels.',
    );
    expect(checkImage(Buffer.from('GIF89a'), 100)).toMatch(/incompleta/);
    expect(checkImage(Buffer.from('<svg onload="alert(1)"/>'), 100)).toBe(
      'O arquivo enviado não é uma imagem.',
    );
  });
});
