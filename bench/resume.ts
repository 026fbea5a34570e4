// Resumable sync (issue 12): the bytes a device sends for a sync of 200 units with 600 photos, cut at 50 % and
// resumed, against one clean sync. The device is the app's real sync engine (web/src/offline/sync.ts, Dexie in
// fake-indexeddb, HttpSyncTransport); between it and the real server (buildApp, PGlite, real HTTP) a TCP proxy
// counts every byte the device sends (request lines, headers, multipart framing, photos) and makes the cut.
import net from 'node:net';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import type { HttpSyncTransport } from '../web/src/api/sync-transport.ts';
import type { SyncTransport } from '../web/src/offline/sync.ts';
import { benchDevice, syncBenchServer } from './sync-device.ts';

const RECORDS = Number(process.env.RESUME_RECORDS ?? 200);
const PHOTOS_PER_RECORD = 3;
/** A compressed field photo (quality 0.7, max 1920 px) is 150–400 KB. */
const PHOTO_BYTES = Number(process.env.RESUME_PHOTO_KB ?? 200) * 1024;

type Cut = 'request' | 'response';

/** A TCP proxy counting the bytes the device sends; armed, it cuts the connection that crosses a byte count. */
class CountingProxy {
  sent = 0;
  private cutAt = Infinity;
  private cut: Cut = 'request';
  private readonly server: net.Server;
  /** Set once the armed cut happened. */
  fired = false;

  constructor(target: number) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(target, '127.0.0.1');
      let crossed = false;
      client.on('data', (chunk: Buffer) => {
        const before = this.sent;
        this.sent += chunk.length;
        if (!this.fired && before < this.cutAt && this.sent >= this.cutAt) {
          if (this.cut === 'request') {
            // The connection drops mid-body: what crossed the line never reaches the server.
            this.sent = this.cutAt;
            this.fired = true;
            upstream.write(chunk.subarray(0, this.cutAt - before));
            client.destroy();
            upstream.destroy();
            return;
          }
          crossed = true;
        }
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        if (crossed && !this.fired) {
          // The server answered the request that crossed the line; the answer is lost on the way back.
          this.fired = true;
          client.destroy();
          upstream.destroy();
          return;
        }
        client.write(chunk);
      });
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  arm(at: number, cut: Cut) {
    this.cutAt = at;
    this.cut = cut;
    this.fired = false;
  }

  disarm() {
    this.cutAt = Infinity;
  }

  close() {
    this.server.close();
  }
}

const bench = await syncBenchServer('resume', 'Retomada', (port) => new CountingProxy(port));
const { proxy, backOffice, stored } = bench;

/** A device with its own project and RECORDS units of three unique photos each, pending. */
function device(name: string, { oldClient = false } = {}) {
  return benchDevice(backOffice, `resume-${name}`, {
    records: RECORDS,
    photosPerRecord: PHOTOS_PER_RECORD,
    photoBytes: PHOTO_BYTES,
    // An app from before resumable sync: it never asks which photos the server holds.
    ...(oldClient ? { transport: withoutResumableSync } : {}),
  });
}

function withoutResumableSync(http: HttpSyncTransport): SyncTransport {
  return {
    getProjetos: () => http.getProjetos(),
    upload: (flow, fields, fotos) => http.upload(flow, fields, fotos),
    getByZona: (flow, zona) => http.getByZona(flow, zona),
    getByProjeto: (flow, p) => http.getByProjeto(flow, p),
    log: (message, extras) => http.log(message, extras),
  };
}

async function syncBytes(run: () => Promise<unknown>): Promise<number> {
  const before = proxy.sent;
  await run();
  return proxy.sent - before;
}

const clean = await device('limpo');
const cleanBytes = await syncBytes(async () => {
  const result = await clean.engine.run();
  if (!result.ok) throw new Error(`clean sync failed: ${result.error}`);
});
const payload = RECORDS * PHOTOS_PER_RECORD * PHOTO_BYTES;
console.log(
  `clean sync: ${RECORDS} records, ${RECORDS * PHOTOS_PER_RECORD} photos, ${(cleanBytes / 1e6).toFixed(2)} MB sent (photos ${(payload / 1e6).toFixed(2)} MB)`,
);

const rows: { scenario: string; sent: number; ratio: number; confirmedBeforeCut: number }[] = [];
for (const [scenario, cut, oldClient] of [
  ['cut mid-request at 50 %, resumed', 'request', false],
  ['answer lost at 50 %, resumed', 'response', false],
  ['answer lost at 50 %, resumed (app without resumable sync)', 'response', true],
] as const) {
  const d = await device(scenario.replace(/\W+/g, '-'), { oldClient });
  proxy.arm(proxy.sent + Math.round(cleanBytes / 2), cut);
  const first = await syncBytes(() => d.engine.run());
  proxy.disarm();
  if (!proxy.fired) throw new Error(`${scenario}: the cut did not happen`);
  const confirmedBeforeCut = RECORDS - (await d.records.pending(unidadeFlow)).length;
  const second = await syncBytes(async () => {
    const result = await d.engine.run();
    if (!result.ok) throw new Error(`${scenario}: resume failed: ${result.error}`);
  });
  const onServer = await stored(d.projeto);
  if (onServer.registros !== RECORDS || onServer.fotos !== RECORDS * PHOTOS_PER_RECORD) {
    throw new Error(`${scenario}: server holds ${onServer.registros} records, ${onServer.fotos} photos`);
  }
  rows.push({ scenario, sent: first + second, ratio: (first + second) / cleanBytes, confirmedBeforeCut });
}
console.table(
  rows.map((row) => ({
    scenario: row.scenario,
    'MB sent': Number((row.sent / 1e6).toFixed(2)),
    'x clean': Number(row.ratio.toFixed(3)),
    'confirmed before the cut': row.confirmedBeforeCut,
  })),
);
const worst = Math.max(...rows.filter((row) => !row.scenario.includes('without')).map((row) => row.ratio));
console.log(`resumed / clean, worst of the cuts: ${worst.toFixed(3)}x (target <= 1.1x)`);

await bench.close();
if (worst > 1.1) process.exitCode = 1;
