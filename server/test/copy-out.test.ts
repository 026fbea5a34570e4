// CopyOut reads COPY's messages off the connection's socket: here a fake connection is fed the protocol's bytes
// (as PostgreSQL 15 sends them) cut at every size, and what comes out, and what pg gets back, is checked.
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Connection } from 'pg';
import { describe, expect, it } from 'vitest';
import { CopyOut } from '../src/db/copy-out.ts';

const MB = 1024 * 1024;

function message(code: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(code, 0, 'latin1');
  head.writeUInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const int16 = (value: number) => {
  const buffer = Buffer.alloc(2);
  buffer.writeInt16BE(value);
  return buffer;
};
const int32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
};

/** A row of one column in binary format: its count, its length (-1: NULL) and its bytes. */
const row = (value: string | null) =>
  value === null
    ? Buffer.concat([int16(1), int32(-1)])
    : Buffer.concat([int16(1), int32(Buffer.byteLength(value)), Buffer.from(value)]);

const FILE_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), int32(0), int32(0)]);
const COPY_OUT_RESPONSE = message('H', Buffer.from([1, 0, 1, 0, 1]));
/** What follows a COPY's data, which pg reads: CommandComplete and ReadyForQuery. */
const AFTER = Buffer.concat([message('C', Buffer.from('COPY 3\0')), message('Z', Buffer.from('I'))]);

/** The messages of a binary COPY of these values, as PostgreSQL sends them: the header with the first row. */
function binaryCopy(values: (string | null)[]): Buffer {
  const rows = values.map(row);
  const first = Buffer.concat([FILE_HEADER, rows[0] ?? int16(-1)]);
  return Buffer.concat([
    COPY_OUT_RESPONSE,
    message('d', first),
    ...rows.slice(1).map((body) => message('d', body)),
    ...(rows.length > 0 ? [message('d', int16(-1))] : []),
    message('c', Buffer.alloc(0)),
    AFTER,
  ]);
}

/** A connection whose socket is fed by hand; pg's own reader collects what is handed back. */
function connection() {
  const socket = new PassThrough();
  const handedBack: Buffer[] = [];
  socket.on('data', (data: Buffer) => handedBack.push(data));
  const sent: string[] = [];
  const fake = { stream: socket, query: (text: string) => sent.push(text) };
  return { socket, handedBack, sent, connection: fake as unknown as Connection };
}

/** Writes the bytes in pieces, each read on its own (a socket read). */
async function feed(socket: PassThrough, bytes: Buffer, piece: number) {
  for (let at = 0; at < bytes.length; at += piece) {
    socket.write(bytes.subarray(at, at + piece));
    await new Promise(setImmediate);
  }
}

async function read(copy: CopyOut): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of copy) chunks.push(chunk as Buffer);
  return chunks;
}

describe('CopyOut: COPY read off the socket', () => {
  const values = ['a', '', 'ção <&> "x"\ttab\\', null, 'fim'];
  const expected = 'a\n\nção <&> "x"\ttab\\\nfim\n';
  const long = 'z'.repeat(2.5 * MB);

  it('gives each value of a binary COPY as a line, whatever the socket reads cut, and pg the rest', async () => {
    const cases = [
      ...[1, 2, 3, 5, 6, 7, 11, 19, 1000].map((piece) => ({ values, expected, piece })),
      // A value longer than a socket read, cut across reads.
      ...[7001, 64 * 1024, Infinity].map((piece) => ({
        values: [...values, long],
        expected: `${expected}${long}\n`,
        piece,
      })),
    ];
    for (const { values, expected, piece } of cases) {
      const bytes = binaryCopy(values);
      const { socket, handedBack, sent, connection: fake } = connection();
      const copy = new CopyOut('COPY (x) TO STDOUT WITH (FORMAT binary)', true, 16);
      copy.submit(fake);
      const chunks = read(copy);
      await feed(socket, bytes, piece);
      const out = await chunks;
      expect(Buffer.concat(out).toString(), `pieces of ${piece}`).toBe(expected);
      // A piece per socket read, nothing held back.
      expect(out.length).toBeGreaterThanOrEqual(Math.min(bytes.length / piece, 2));
      expect(sent).toEqual(['COPY (x) TO STDOUT WITH (FORMAT binary)']);
      await sleep(0);
      expect(Buffer.concat(handedBack).equals(AFTER), `pieces of ${piece}: what pg reads`).toBe(true);
    }
  });

  it('ends an empty COPY with no line', async () => {
    const { socket, connection: fake } = connection();
    const copy = new CopyOut('COPY', true, 1);
    copy.submit(fake);
    const chunks = read(copy);
    socket.write(binaryCopy([]));
    expect(await chunks).toEqual([]);
  });

  it('passes a CSV COPY’s bytes as they are, a read’s rows in one piece', async () => {
    const rows = Array.from({ length: 5000 }, (_, index) => `${index};"a;b";ção\n`);
    const bytes = Buffer.concat([
      COPY_OUT_RESPONSE,
      ...rows.map((text) => message('d', Buffer.from(text))),
      // A notice may come among the data (protocol 55.2.6): skipped.
      message('N', Buffer.from('SNOTICE\0\0')),
      message('d', Buffer.from('last\n')),
      message('c', Buffer.alloc(0)),
      AFTER,
    ]);
    const { socket, handedBack, connection: fake } = connection();
    const copy = new CopyOut('COPY', false, 16);
    copy.submit(fake);
    const chunks = read(copy);
    socket.write(bytes);
    const out = await chunks;
    expect(Buffer.concat(out).toString()).toBe(`${rows.join('')}last\n`);
    expect(out.length).toBe(1);
    await sleep(0);
    expect(Buffer.concat(handedBack).equals(AFTER)).toBe(true);
  });

  it('sends a slow query’s rows as they come, not held until a megabyte is there', async () => {
    const { socket, connection: fake } = connection();
    const copy = new CopyOut('COPY', true, 16);
    copy.submit(fake);
    const started = performance.now();
    const arrivals: number[] = [];
    const lengths: number[] = [];
    const reading = (async () => {
      for await (const chunk of copy) {
        arrivals.push(performance.now() - started);
        lengths.push((chunk as Buffer).length);
      }
    })();
    socket.write(Buffer.concat([COPY_OUT_RESPONSE, message('d', Buffer.concat([FILE_HEADER, row('0')]))]));
    for (let i = 1; i < 4; i++) {
      await sleep(80);
      socket.write(message('d', row(String(i))));
    }
    socket.write(Buffer.concat([message('d', int16(-1)), message('c', Buffer.alloc(0)), AFTER]));
    await reading;
    expect(lengths).toEqual([2, 2, 2, 2]);
    // Each row went out when it came (80 ms apart), not all at the end.
    expect(arrivals[0]).toBeLessThan(60);
    expect(arrivals[1]).toBeLessThan(250);
  });

  it('stops reading the socket while the reader holds enough (backpressure), and goes on when read', async () => {
    const { socket, connection: fake } = connection();
    const copy = new CopyOut('COPY', false, 1);
    copy.submit(fake);
    const piece = message('d', Buffer.alloc(64 * 1024, 120));
    socket.write(COPY_OUT_RESPONSE);
    // A socket gives each read a Buffer of its own, which CopyOut then writes in.
    for (let i = 0; i < 80; i++) socket.write(Buffer.from(piece));
    await sleep(20);
    // Five megabytes sent, at most a chunk or two taken off the socket.
    expect(copy.readableLength).toBeGreaterThanOrEqual(1);
    expect(copy.readableLength).toBeLessThanOrEqual(2);
    expect(socket.readableLength + socket.writableLength).toBeGreaterThan(2 * MB);
    const chunks = read(copy);
    socket.write(Buffer.concat([message('c', Buffer.alloc(0)), AFTER]));
    expect(Buffer.concat(await chunks).length).toBe(80 * 64 * 1024);
  });

  it('fails with the database’s error, which pg reads, and on data not in the format asked for', async () => {
    const { socket, handedBack, connection: fake } = connection();
    const copy = new CopyOut('COPY', true, 1);
    copy.submit(fake);
    const chunks = read(copy);
    const error = message('E', Buffer.from('SERROR\0Mcanceled\0\0'));
    socket.write(
      Buffer.concat([COPY_OUT_RESPONSE, message('d', Buffer.concat([FILE_HEADER, row('a')])), error]),
    );
    await sleep(0);
    expect(Buffer.concat(handedBack).equals(error)).toBe(true);
    copy.handleError(new Error('canceled'));
    await expect(chunks).rejects.toThrow('canceled');

    const text = connection();
    const wrong = new CopyOut('COPY', true, 1);
    wrong.submit(text.connection);
    const failed = read(wrong);
    text.socket.write(
      Buffer.concat([COPY_OUT_RESPONSE, message('d', Buffer.from('a;b;c;d;e;f;g;h;i;j;k;l\n'))]),
    );
    await expect(failed).rejects.toThrow('not FORMAT binary');

    // A connection read by something else too is not taken: pg hands the error to the query.
    const shared = connection();
    shared.socket.on('data', () => undefined);
    expect(new CopyOut('COPY', true, 1).submit(shared.connection)?.message).toMatch(/single reader/);
    expect(shared.sent).toEqual([]);
  });
});
