// COPY ... TO STDOUT read straight off the connection's socket (as pg-copy-streams does), each read's rows moved
// to its front and passed on as they are: no Buffer per row, no Buffer made for the output at all.
import { Readable } from 'node:stream';
import type { Connection, Submittable } from 'pg';

/** What Node reads off a socket at most at a time: the size of the pieces pushed. */
export const PIECE_BYTES = 64 * 1024;

const NEWLINE = Buffer.from('\n');

const ERROR_RESPONSE = 0x45; // E
const COPY_DATA = 0x64; // d
const COPY_DONE = 0x63; // c
/** Messages PostgreSQL may send among a COPY's data (protocol 55.2.6): skipped. */
const INTERSPERSED = new Set([
  0x48, // H CopyOutResponse
  0x41, // A NotificationResponse
  0x4e, // N NoticeResponse
  0x53, // S ParameterStatus
]);

/** What COPY's binary format starts with: signature, flags, header extension length (PostgreSQL writes 0). */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const FILE_HEADER = SIGNATURE.length + 8;
/** A row of one column: its field count (int16) and the value's length (int32). The trailer is a count of -1. */
const ROW_HEADER = 6;
const TRAILER = 2;

/**
 * The rows of `COPY (…) TO STDOUT`, a piece per socket read (objects, so a reader gets each as pushed and
 * `highWaterMark` counts pieces). `lines`: the COPY is `FORMAT binary` of one text column, and each value comes out followed by a line
 * break; PostgreSQL writes binary without looking at each character, where CSV's quoting costs it a sixth of the
 * KML's time. A NULL is no line. Otherwise the COPY's bytes come out as PostgreSQL wrote them.
 */
export class CopyOut extends Readable implements Submittable {
  private connection: Connection | undefined;
  private pgDataHandler: ((data: Buffer) => void) | undefined;
  /**
   * Each socket read as it comes ('data': a read Node made, never joined with others), from before anyone reads: a
   * part read ahead fills `ahead` pieces meanwhile. The socket is paused while the reader has enough.
   */
  private readonly onData = (data: Buffer) => {
    if (!this.parse(data) && !this.done) this.connection?.stream.pause();
  };
  private done = false;

  /** Bytes of a message's start cut off at the end of a socket read, put before the next. */
  private carry: Buffer | undefined;
  /** What is left to read of the current CopyData message, of a message skipped, of the current value. */
  private body = 0;
  private skip = 0;
  private value = 0;
  private started = false;

  /** A line break owed by the last value, whose bytes left no room for it (see parse). */
  private owed = false;

  constructor(
    readonly text: string,
    private readonly lines: boolean,
    /** Pieces held ahead of the reader before the socket is no longer read. */
    ahead: number,
  ) {
    super({ objectMode: true, highWaterMark: Math.max(1, ahead) });
  }

  /** pg's call as the query starts; an error returned is handed to handleError (pg's client). */
  submit(connection: Connection): Error | undefined {
    this.connection = connection;
    const socket = connection.stream;
    const listeners = socket.listeners('data') as ((data: Buffer) => void)[];
    if (listeners.length !== 1) return new Error('COPY: the connection has no single reader');
    this.pgDataHandler = listeners[0];
    socket.removeListener('data', this.pgDataHandler as (data: Buffer) => void);
    socket.on('data', this.onData);
    connection.query(this.text);
    return undefined;
  }

  override _read(): void {
    if (!this.done) this.connection?.stream.resume();
  }

  /**
   * Reads one socket read's messages and pushes what they hold, moved to the front of the same Buffer (a row's
   * headers are dropped, its line break written where they were): no Buffer is made for the output, so the server
   * allocates for a download only what the socket reads. False once the reader has enough for now.
   */
  private parse(data: Buffer): boolean {
    const input = this.carry ? Buffer.concat([this.carry, data]) : data;
    this.carry = undefined;
    const end = input.length;
    let at = 0;
    /** The end of what is kept, at the front of input: never past `at`. */
    let kept = 0;
    const keep = (n: number) => {
      if (kept !== at) input.copyWithin(kept, at, at + n);
      kept += n;
      at += n;
    };
    /** A line break: where headers were dropped, or owed until some are (a value that began in an earlier read). */
    const newline = () => {
      if (kept < at) input[kept++] = 0x0a;
      else this.owed = true;
    };
    const dropped = (n: number) => {
      at += n;
      if (this.owed) {
        this.owed = false;
        input[kept++] = 0x0a;
      }
    };
    while (at < end) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, end - at);
        this.skip -= n;
        dropped(n);
        continue;
      }
      if (this.body === 0) {
        if (end - at < 5) {
          this.carry = input.subarray(at);
          break;
        }
        const code = input[at] as number;
        if (code === ERROR_RESPONSE) {
          // pg reads the error and hands it to handleError.
          this.detach(input.subarray(at));
          return false;
        }
        const length = input.readUInt32BE(at + 1) - 4;
        if (code === COPY_DATA) this.body = length;
        else if (INTERSPERSED.has(code)) this.skip = length;
        else {
          // CopyDone, or anything that ends copy-out mode: pg reads what follows (CommandComplete, ReadyForQuery).
          this.send(input.subarray(0, kept));
          this.detach(input.subarray(code === COPY_DONE ? at + 5 + length : at));
          this.push(null);
          return false;
        }
        dropped(5);
        continue;
      }
      if (!this.lines) {
        const n = Math.min(this.body, end - at);
        keep(n);
        this.body -= n;
        continue;
      }
      if (this.value > 0) {
        const n = Math.min(this.value, this.body, end - at);
        keep(n);
        this.body -= n;
        this.value -= n;
        if (this.value === 0) newline();
        continue;
      }
      const need = !this.started ? FILE_HEADER : this.body === TRAILER ? TRAILER : ROW_HEADER;
      if (this.body < need) return this.fail('a header split between messages');
      if (end - at < need) {
        this.carry = input.subarray(at);
        break;
      }
      let length = -1;
      if (!this.started) {
        if (
          !input.subarray(at, at + SIGNATURE.length).equals(SIGNATURE) ||
          input.readUInt32BE(at + 15) !== 0
        ) {
          return this.fail('not FORMAT binary');
        }
        this.started = true;
      } else {
        const fields = input.readInt16BE(at);
        if (need === TRAILER && fields !== -1) return this.fail('a row too short');
        if (need === ROW_HEADER) {
          if (fields !== 1) return this.fail(`${fields} columns`);
          length = input.readInt32BE(at + 2);
        }
      }
      this.body -= need;
      dropped(need);
      if (length > 0) this.value = length;
      else if (length === 0) newline();
    }
    return this.send(input.subarray(0, kept));
  }

  /** Pushes what a read kept, and a line break it owes; false when the reader has enough for now. */
  private send(kept: Buffer): boolean {
    let wanted = true;
    if (kept.length > 0) wanted = this.push(kept);
    if (this.owed) {
      this.owed = false;
      wanted = this.push(NEWLINE);
    }
    return wanted;
  }

  /** Stops reading and fails: the connection is dropped (a COPY cut off midway leaves it unusable). */
  private fail(what: string): false {
    this.done = true;
    this.destroy(new Error(`COPY's data not as expected: ${what}`));
    return false;
  }

  /** Gives the connection back to pg, with what was read past the COPY's data. */
  private detach(rest: Buffer) {
    this.done = true;
    const connection = this.connection as Connection;
    const socket = connection.stream;
    socket.removeListener('data', this.onData);
    const handler = this.pgDataHandler as (data: Buffer) => void;
    socket.addListener('data', handler);
    if (rest.length > 0) handler(rest);
    // pg's handler may pause the socket (its own backpressure): it is resumed once that has run.
    process.nextTick(() => socket.resume());
  }

  /** pg's calls as the active query. */
  handleError(error: Error): void {
    this.destroy(error);
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {}
}
