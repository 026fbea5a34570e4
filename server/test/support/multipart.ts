// Multipart bodies and photo bytes for tests and benchmarks (no test-runner imports, so bench/ can use it).
import crypto from 'node:crypto';

export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body as a browser's FormData would send it. */
export function multipart(fields: Record<string, string>, files: MultipartFile[] = []) {
  const boundary = `----novus${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * A JPEG's structure around unique random image data (content-addressed storage must not flatter a test): start
 * of image, JFIF, a 16×16 frame header, start of scan, the data (no FF byte, so no marker inside), end of image.
 * Enough for the server's photo check, not for a decoder.
 */
export function fakeJpeg(size = 2048, dimensions = { width: 16, height: 16 }): Buffer {
  const { width, height } = dimensions;
  const head = Buffer.from([
    ...[0xff, 0xd8],
    ...[
      0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
      0x00,
    ],
    ...[0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03],
    ...[0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01],
    ...[0xff, 0xda, 0x00, 0x0c, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3f, 0x00],
  ]);
  const data = crypto
    .randomBytes(Math.max(1, size - head.length - 2))
    .map((byte) => (byte === 0xff ? 0xfe : byte));
  return Buffer.concat([head, data, Buffer.from([0xff, 0xd9])]);
}
