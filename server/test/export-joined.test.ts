import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { joined } from '../src/modules/export/writers.ts';

/** A byte stream pushed by hand, as pg-copy-streams pushes COPY's pieces. */
function source() {
  return new Readable({ read() {}, highWaterMark: 16 * 1024 * 1024 });
}

async function all(stream: Readable): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of joined(stream)) chunks.push(chunk);
  return chunks;
}

const piece = (n: number, byte: number) => Buffer.alloc(n, byte);

describe('joined: COPY pieces as the response chunks', () => {
  it('joins 8 KB pieces that are already there into chunks of 1 MB, in order, nothing lost', async () => {
    const stream = source();
    const sent: Buffer[] = [];
    for (let i = 0; i < 300; i++) {
      const next = piece(8192, i % 251);
      sent.push(next);
      stream.push(next);
    }
    stream.push(null);
    const chunks = await all(stream);
    expect(Buffer.concat(chunks).equals(Buffer.concat(sent))).toBe(true);
    // The first chunk is all that was there, at once; none is made of single pieces.
    expect(chunks.length).toBeLessThanOrEqual(3);
  });

  it('sends a slow query’s rows as they come, not held until a megabyte is there', async () => {
    const stream = source();
    const arrivals: number[] = [];
    const started = performance.now();
    void (async () => {
      for (let i = 0; i < 4; i++) {
        await sleep(80);
        stream.push(piece(100, 65 + i));
      }
      stream.push(null);
    })();
    const chunks: Buffer[] = [];
    for await (const chunk of joined(stream)) {
      chunks.push(chunk);
      arrivals.push(performance.now() - started);
    }
    expect(chunks.map((chunk) => chunk.length)).toEqual([100, 100, 100, 100]);
    // Each piece went out when it came (80 ms apart), not all at the end.
    expect(arrivals[0]).toBeLessThan(300);
  });

  it('ends on a stream that ended before it was read, and on an empty one', async () => {
    const ended = source();
    ended.push(piece(784, 1));
    ended.push(null);
    await sleep(10);
    expect((await all(ended)).map((chunk) => chunk.length)).toEqual([784]);
    const empty = source();
    empty.push(null);
    expect(await all(empty)).toEqual([]);
  });

  it('fails with the stream’s error, and closes the stream when the reader stops', async () => {
    const failing = source();
    failing.push(piece(10, 1));
    setTimeout(() => failing.destroy(new Error('connection lost')), 20);
    await expect(all(failing)).rejects.toThrow('connection lost');

    const stream = source();
    stream.push(piece(10, 1));
    for await (const chunk of joined(stream)) {
      expect(chunk.length).toBe(10);
      break;
    }
    expect(stream.destroyed).toBe(true);
  });
});
