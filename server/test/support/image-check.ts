// The photo check fed as the upload route feeds it: chunk by chunk.
import { ImageCheck } from '../../src/storage/image-check.ts';

/** What the photo check says of bytes fed in chunks of the given size: 'image/jpeg 4x3', or its message. */
export function checkImage(bytes: Buffer, chunk: number): string {
  const image = new ImageCheck();
  for (let offset = 0; offset < bytes.length; offset += chunk)
    image.update(bytes.subarray(offset, offset + chunk));
  try {
    const { mediaType, width, height } = image.result();
    return `${mediaType} ${width}x${height}`;
  } catch (error) {
    return (error as Error).message;
  }
}
