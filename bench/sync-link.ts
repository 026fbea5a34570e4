// A sync at the speed of the link (issue 22): the app's own sync engine (web/src/offline/sync.ts, Dexie in
// fake-indexeddb, HttpSyncTransport) sends 200 units with 600 unique photos to the real server (buildApp, PGlite,
// real HTTP) through a TCP proxy shaped as a phone's link: 10 Mbit/s from the device to the server (one token
// bucket shared by every connection) and 100 ms of round trip (50 ms added each way to every chunk, in order).
// It prints the bytes sent, the link's physical limit for them, and the sync's time with 1 and with 3 uploads in
// flight, in seconds and as a multiple of that limit.
import net from 'node:net';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { benchDevice, syncBenchServer } from './sync-device.ts';

const RECORDS = Number(process.env.SYNC_LINK_RECORDS ?? 200);
const PHOTOS_PER_RECORD = 3;
const PHOTO_BYTES = Number(process.env.SYNC_LINK_PHOTO_KB ?? 200) * 1024;
/** 10 Mbit/s upstream, as bytes per millisecond. */
const UPLINK_BYTES_PER_MS = Number(process.env.SYNC_LINK_MBIT ?? 10) * 125;
const ONE_WAY_MS = Number(process.env.SYNC_LINK_RTT_MS ?? 100) / 2;
/** The concurrencies compared; the last one is held to the target. */
const CONCURRENCIES = (process.env.SYNC_LINK_CONCURRENCY ?? '1,3').split(',').map(Number);
const TARGET = 1.15;
/** Pieces the uplink is paced by (about 13 ms each at 10 Mbit/s). */
const PIECE = 16 * 1024;
/**
 * What a connection may have waiting on the phone's side of the link before its sender is paused: the socket's
 * send buffer. Without it the device would hand the proxy a whole request at once and wait only for the answer.
 */
const SEND_BUFFER = 256 * 1024;

/** One direction of one connection: chunks delivered in order, each not before its time. */
class DelayLine {
  private readonly queue: { at: number; chunk: Buffer | null }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deliver: (chunk: Buffer) => void,
    private readonly end: () => void,
  ) {}

  /** `chunk` null: the sender ended; end the other side once what came before is through. */
  push(at: number, chunk: Buffer | null) {
    this.queue.push({ at, chunk });
    if (this.queue.length === 1) this.pump();
  }

  private pump = () => {
    this.timer = undefined;
    const now = performance.now();
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if (!head) break;
      if (head.at > now) {
        this.timer = setTimeout(this.pump, Math.max(1, head.at - now));
        return;
      }
      this.queue.shift();
      if (head.chunk) this.deliver(head.chunk);
      else this.end();
    }
  };

  clear() {
    this.queue.length = 0;
    if (this.timer) clearTimeout(this.timer);
  }
}

/** A TCP proxy shaped as a phone's link; it counts the bytes the device sends. */
class ShapedLink {
  sent = 0;
  /** When the shared uplink is free again (performance.now() time). */
  private free = 0;
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(target: number) {
    this.server = net.createServer({ allowHalfOpen: true }, (device) => {
      const server = net.connect({ port: target, host: '127.0.0.1', allowHalfOpen: true });
      for (const socket of [device, server]) {
        socket.setNoDelay(true);
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
      }
      let waiting = 0;
      const up = new DelayLine(
        (chunk) => {
          server.write(chunk);
          waiting -= chunk.length;
          if (waiting <= SEND_BUFFER / 2 && device.isPaused()) device.resume();
        },
        () => server.end(),
      );
      const down = new DelayLine(
        (chunk) => device.write(chunk),
        () => device.end(),
      );
      device.on('data', (chunk: Buffer) => {
        this.sent += chunk.length;
        for (let offset = 0; offset < chunk.length; offset += PIECE) {
          const piece = chunk.subarray(offset, offset + PIECE);
          // The shared bucket: a piece leaves once the link has sent everything before it, from any connection.
          this.free = Math.max(performance.now(), this.free) + piece.length / UPLINK_BYTES_PER_MS;
          up.push(this.free + ONE_WAY_MS, piece);
          waiting += piece.length;
        }
        if (waiting > SEND_BUFFER) device.pause();
      });
      device.on('end', () => up.push(Math.max(performance.now(), this.free) + ONE_WAY_MS, null));
      server.on('data', (chunk: Buffer) => down.push(performance.now() + ONE_WAY_MS, chunk));
      server.on('end', () => down.push(performance.now() + ONE_WAY_MS, null));
      const drop = () => {
        up.clear();
        down.clear();
        device.destroy();
        server.destroy();
      };
      device.on('error', drop);
      server.on('error', drop);
      device.on('close', drop);
      server.on('close', drop);
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  close() {
    for (const socket of this.sockets) socket.destroy();
    this.server.close();
  }
}

const bench = await syncBenchServer('sync-link', 'Enlace', (port) => new ShapedLink(port));
const { proxy: link, backOffice, stored } = bench;

const rows: { concurrency: number; sent: number; limit: number; seconds: number }[] = [];
for (const concurrency of CONCURRENCIES) {
  const device = await benchDevice(backOffice, `sync-link-${concurrency}`, {
    records: RECORDS,
    photosPerRecord: PHOTOS_PER_RECORD,
    photoBytes: PHOTO_BYTES,
    concurrency,
  });
  const before = link.sent;
  const started = performance.now();
  const result = await device.engine.run();
  const seconds = (performance.now() - started) / 1000;
  if (!result.ok) throw new Error(`concurrency ${concurrency}: sync failed: ${result.error}`);
  const sent = link.sent - before;
  const onServer = await stored(device.projeto);
  const left = (await device.records.pending(unidadeFlow)).length;
  if (onServer.registros !== RECORDS || onServer.fotos !== RECORDS * PHOTOS_PER_RECORD || left > 0) {
    throw new Error(
      `concurrency ${concurrency}: server holds ${onServer.registros} records, ${onServer.fotos} photos; ${left} left pending`,
    );
  }
  rows.push({ concurrency, sent, limit: sent / UPLINK_BYTES_PER_MS / 1000, seconds });
  device.local.close();
  await device.local.delete();
}

const mbit = UPLINK_BYTES_PER_MS / 125;
console.log(
  `sync over ${mbit} Mbit/s up, ${ONE_WAY_MS * 2} ms RTT: ${RECORDS} records, ${RECORDS * PHOTOS_PER_RECORD} photos of ${PHOTO_BYTES / 1024} KB`,
);
console.table(
  rows.map((row) => ({
    'uploads in flight': row.concurrency,
    'MB sent': Number((row.sent / 1e6).toFixed(2)),
    'physical limit (s)': Number(row.limit.toFixed(1)),
    'sync (s)': Number(row.seconds.toFixed(1)),
    'x limit': Number((row.seconds / row.limit).toFixed(3)),
  })),
);
const last = rows.at(-1);
const ratio = last ? last.seconds / last.limit : Infinity;
console.log(
  `concurrency ${last?.concurrency}: ${ratio.toFixed(3)}x the physical limit (target <= ${TARGET}x)`,
);

await bench.close();
if (ratio > TARGET) process.exitCode = 1;
