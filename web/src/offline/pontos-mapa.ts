// The field map's points of a flow in a project, kept compact beside the records (issue 41): one row per flow and
// project with the positions in typed arrays, the ids, and each point's state as its marker reads it. The map step
// draws from it at once; the records themselves (a zone's 25,000 took a phone 0.5–2.7 s to read, CPU slowed 4×,
// e2e/bench/field-map-50k.bench.ts) are read only when a point is opened or searched. A database of its own: SPEC.md
// fixes 'Novus' at version 21 (as copias.ts). RecordStore keeps it current after each write; a write cut between the
// two databases (the tab closed in between) leaves its mark behind, and a row whose count of points is not the
// project's count of records (a count reads no record) or whose flow has such a mark is built again from the records.
import { Dexie, type EntityTable, type Table } from 'dexie';
import type { FlowDefinition } from '@novus/domain/flows/flow';
import type { Fluxo } from '@novus/domain/flows/keys';
import type { NovusDatabase } from './db';
import type { LocalColeta } from './records';
import { reopening } from './reopen';

/**
 * The record's own fields a flow's marker reads besides its state: BDGD colours an asset by its type
 * (collect/bdgd/bdgd-ui.tsx). web/test/pontos-mapa.test.ts checks every flow's marker against what is kept here.
 */
export const CAMPOS_DO_MARCADOR: Partial<Record<Fluxo, readonly string[]>> = { bdgd: ['ativo'] };

/** A point's state as its marker sees it; the points of a row share a few of them. */
export interface EstadoDoPonto {
  coletado?: boolean;
  carregadoBackoffice?: boolean;
  adicionadoApp?: boolean;
  sincronizado: boolean;
  dados: Record<string, unknown>;
}

/** The points of a flow in a project, in the records' order (drawn bottom to top). */
export interface PontosDoMapa {
  fluxo: Fluxo;
  projeto: string;
  ids: string[];
  lats: Float64Array;
  lngs: Float64Array;
  /** Each point's state, an index into `estados`. */
  estadoDe: Uint16Array;
  estados: EstadoDoPonto[];
}

/** A write under way: a crash before its row is patched leaves this mark, and the flow's rows are built again. */
interface Escrita {
  id?: number;
  fluxo: Fluxo;
  /** Which page wrote it: another page's mark (a closed tab's) means its row may not have been patched. */
  sessao: string;
  em: number;
}

export class MapaDatabase extends Dexie {
  declare pontos: Table<PontosDoMapa, [Fluxo, string]>;
  declare escritas: EntityTable<Escrita, 'id'>;

  constructor(name: string) {
    // What it holds is derived from the records and built again from them when in doubt: it needs no flush to disk
    // of its own, which a save would wait for (two more per Gravar, issue 41).
    super(name, { chromeTransactionDurability: 'relaxed' });
    this.version(1).stores({ pontos: '[fluxo+projeto]', escritas: '++id, fluxo' });
  }
}

/** What a write changed in a flow's store: records written, and records removed. */
export class Mudancas {
  gravados: LocalColeta[] = [];
  removidos: LocalColeta[] = [];
  /** Projects of which the store held no record of the flow before this write: their row is what it wrote. */
  novos = new Set<string>();

  /** A transaction run again (a reopened connection) starts over. */
  limpar(): void {
    this.gravados = [];
    this.removidos = [];
    this.novos = new Set();
  }
}

/** A mark older than this, of another page, is a write that will not finish (its page closed). */
const MARCA_ESQUECIDA_MS = 60_000;

export function estadoOf(flow: Pick<FlowDefinition, 'key'>, record: LocalColeta): EstadoDoPonto {
  const dados: Record<string, unknown> = {};
  for (const campo of CAMPOS_DO_MARCADOR[flow.key] ?? []) {
    if (record.dados[campo] !== undefined) dados[campo] = record.dados[campo];
  }
  return {
    ...(record.coletado !== undefined ? { coletado: record.coletado } : {}),
    ...(record.carregadoBackoffice !== undefined ? { carregadoBackoffice: record.carregadoBackoffice } : {}),
    ...(record.adicionadoApp !== undefined ? { adicionadoApp: record.adicionadoApp } : {}),
    sincronizado: Boolean(record.sincronizadoEm),
    dados,
  };
}

/** A state as a record the flow's marker can read (its UI colours a record by these fields only). */
export function registroDoEstado(estado: EstadoDoPonto): LocalColeta {
  return {
    id: '',
    projeto: '',
    dataHora: 0,
    coordenadas: { lat: 0, lng: 0 },
    fotos: [],
    imagensCompactadas: true,
    ...(estado.sincronizado ? { sincronizadoEm: 1 } : {}),
    ...(estado.coletado !== undefined ? { coletado: estado.coletado } : {}),
    ...(estado.carregadoBackoffice !== undefined ? { carregadoBackoffice: estado.carregadoBackoffice } : {}),
    ...(estado.adicionadoApp !== undefined ? { adicionadoApp: estado.adicionadoApp } : {}),
    dados: estado.dados,
  };
}

const chaveDoEstado = (estado: EstadoDoPonto) => JSON.stringify(estado);

/** The states of a row, found by their key, for adding points to it. */
class Estados {
  private readonly indices = new Map<string, number>();

  constructor(readonly lista: EstadoDoPonto[] = []) {
    lista.forEach((estado, index) => this.indices.set(chaveDoEstado(estado), index));
  }

  indexOf(estado: EstadoDoPonto): number {
    const chave = chaveDoEstado(estado);
    let index = this.indices.get(chave);
    if (index === undefined) {
      index = this.lista.length;
      this.lista.push(estado);
      this.indices.set(chave, index);
    }
    return index;
  }
}

/** The row of these records (all of one flow and project), in their order. */
export function pontosDe(
  flow: Pick<FlowDefinition, 'key'>,
  projeto: string,
  records: readonly LocalColeta[],
): PontosDoMapa {
  const estados = new Estados();
  const { length } = records;
  const row: PontosDoMapa = {
    fluxo: flow.key,
    projeto,
    ids: new Array<string>(length),
    lats: new Float64Array(length),
    lngs: new Float64Array(length),
    estadoDe: new Uint16Array(length),
    estados: estados.lista,
  };
  records.forEach((record, i) => {
    row.ids[i] = record.id;
    row.lats[i] = record.coordenadas.lat;
    row.lngs[i] = record.coordenadas.lng;
    row.estadoDe[i] = estados.indexOf(estadoOf(flow, record));
  });
  return row;
}

/**
 * The row with these records written (changed in place, or added at the end) and those removed. Unused states stay
 * in the list: a row holds a few dozen at most (a flow's asset types by its collected states).
 */
export function aplicarMudancas(
  row: PontosDoMapa,
  gravados: readonly LocalColeta[],
  removidos: ReadonlySet<string>,
  flow: Pick<FlowDefinition, 'key'> = { key: row.fluxo },
): PontosDoMapa {
  const estados = new Estados([...row.estados]);
  const at = new Map<string, number>();
  row.ids.forEach((id, index) => at.set(id, index));
  const ids = [...row.ids];
  const lats = Array.from(row.lats);
  const lngs = Array.from(row.lngs);
  const estadoDe = Array.from(row.estadoDe);
  const gone = new Set<number>();
  for (const record of gravados) {
    let index = at.get(record.id);
    if (index === undefined) {
      index = ids.length;
      at.set(record.id, index);
      ids.push(record.id);
    }
    gone.delete(index);
    lats[index] = record.coordenadas.lat;
    lngs[index] = record.coordenadas.lng;
    estadoDe[index] = estados.indexOf(estadoOf(flow, record));
  }
  for (const id of removidos) {
    const index = at.get(id);
    if (index !== undefined) gone.add(index);
  }
  const kept = (_: unknown, index: number) => !gone.has(index);
  return {
    fluxo: row.fluxo,
    projeto: row.projeto,
    ids: ids.filter(kept),
    lats: Float64Array.from(lats.filter(kept)),
    lngs: Float64Array.from(lngs.filter(kept)),
    estadoDe: Uint16Array.from(estadoDe.filter(kept)),
    estados: estados.lista,
  };
}

/** The rows of the map's points, read by the map step and kept current by RecordStore. */
export class PontosMapaStore {
  /** This page, in the marks it leaves. */
  private readonly sessao = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  /**
   * Patches and builds of this page, one at a time in the order their writes committed: a build reading the records
   * while a write commits is followed by that write's patch, never overwritten by it.
   */
  private fila: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly novus: NovusDatabase,
    readonly db: MapaDatabase = new MapaDatabase(`${novus.name}Mapa`),
    private readonly now: () => number = Date.now,
  ) {}

  private emFila<T>(work: () => Promise<T>): Promise<T> {
    const run = this.fila.then(work, work);
    this.fila = run.catch(() => undefined);
    return run;
  }

  /**
   * Opens the database ahead of a save (the wizard, as it opens), so a save's mark is asked for at once and not after
   * the opening (see escrevendo). A database that will not open is the save's to find out, as before.
   */
  abrir(): void {
    this.db.open().catch(() => undefined);
  }

  /** The flow's points in the project, built from the records when not kept yet or when a write was cut short. */
  async ler(flow: FlowDefinition, projeto: string): Promise<PontosDoMapa> {
    const { db } = this;
    // This page's writes reach the rows first: a point just saved is on the map it goes back to.
    await this.emDia();
    let kept: [PontosDoMapa | undefined, Escrita[], number];
    try {
      kept = await Promise.all([
        reopening(db, () => db.pontos.get([flow.key, projeto])),
        reopening(db, () => db.escritas.where('fluxo').equals(flow.key).toArray()),
        // How many records the project has: a count reads keys, not records, and tells a row that missed some.
        reopening(this.novus, () => this.registros(flow).where('projeto').equals(projeto).count()),
      ]);
    } catch {
      // This database would not answer (a browser refusing a second one): the map draws from the records.
      return pontosDe(flow, projeto, await this.lerRegistros(flow, projeto));
    }
    const [row, marcas, registros] = kept;
    const alheias = marcas.filter((marca) => marca.sessao !== this.sessao);
    if (row && alheias.length === 0 && row.ids.length === registros) return row;
    return this.emFila(() => this.construir(flow, projeto, alheias));
  }

  /** Once this page's writes so far are on the rows (their marks gone). */
  async emDia(): Promise<void> {
    await this.fila;
  }

  private registros(flow: FlowDefinition) {
    return this.novus.table<LocalColeta, string>(flow.store);
  }

  private lerRegistros(flow: FlowDefinition, projeto: string): Promise<LocalColeta[]> {
    return reopening(this.novus, () => this.registros(flow).where('projeto').equals(projeto).toArray());
  }

  /** The rows of these projects not kept yet are built (after a sync, so a device holding records has them). */
  async garantir(flow: FlowDefinition, projetos: readonly string[]): Promise<void> {
    for (const projeto of projetos) {
      const kept = await reopening(this.db, () =>
        this.db.pontos.where('[fluxo+projeto]').equals([flow.key, projeto]).count(),
      );
      if (kept === 0) await this.emFila(() => this.construir(flow, projeto, []));
    }
  }

  private async construir(flow: FlowDefinition, projeto: string, vistas: readonly Escrita[]) {
    const row = pontosDe(flow, projeto, await this.lerRegistros(flow, projeto));
    const esquecidas = vistas.flatMap(({ id, em }) =>
      id !== undefined && this.now() - em > MARCA_ESQUECIDA_MS ? [id] : [],
    );
    const { db } = this;
    // Not kept (this database would not answer): drawn all the same, and built again next time.
    await reopening(db, () =>
      db.transaction('rw', db.pontos, db.escritas, async () => {
        await db.pontos.put(row);
        await db.escritas.bulkDelete(esquecidas);
      }),
    ).catch(() => undefined);
    return row;
  }

  /**
   * Runs a write of the flow's store and then brings its rows up to date with what it changed (`write` fills
   * `mudancas` inside its transaction). Its mark is down only while it runs: a page closed in between leaves it.
   * The write's caller does not wait for the rows (a save's confirmation does not wait for the map); `ler` does.
   */
  async escrevendo<T>(flow: FlowDefinition, write: (mudancas: Mudancas) => Promise<T>): Promise<T> {
    const { db } = this;
    // The mark is asked for first and the write goes on beside it, not after it (issue 41: waiting for it cost a
    // save 10–16 ms, a database opened and one more commit). Both wait for it before they end: the mark is
    // committed before the write is reported, and in Chromium, where an origin's databases share one store, it is
    // written before the record's strict commit flushes that store to disk.
    const marcando = reopening(db, () =>
      db.escritas.add({ fluxo: flow.key, sessao: this.sessao, em: this.now() }),
    ).catch(() => undefined);
    const mudancas = new Mudancas();
    let result: T;
    try {
      result = await write(mudancas);
    } catch (error) {
      // Nothing was written (the transaction rolled back): nothing to bring up to date.
      const marca = await marcando;
      if (marca !== undefined) await db.escritas.delete(marca).catch(() => undefined);
      throw error;
    }
    const marca = await marcando;
    void this.emFila(async () => {
      try {
        await this.aplicar(flow, mudancas);
      } catch {
        // A patch that failed: the rows it would have changed go, to be built again from the records when read;
        // when they would not go either, the write's mark stays, and the next page builds the flow's rows again.
        if (!(await this.esquecer(flow, mudancas))) return;
      }
      if (marca !== undefined) await db.escritas.delete(marca);
    }).catch(() => undefined);
    return result;
  }

  /** Whether the rows went; when not, the write's mark stays, and the next page builds the flow's rows again. */
  private async esquecer(flow: FlowDefinition, mudancas: Mudancas): Promise<boolean> {
    const projetos = new Set([...mudancas.gravados, ...mudancas.removidos].map((record) => record.projeto));
    return this.db.pontos
      .bulkDelete([...projetos].map((projeto): [Fluxo, string] => [flow.key, projeto]))
      .then(
        () => true,
        () => false,
      );
  }

  private async aplicar(flow: FlowDefinition, mudancas: Mudancas): Promise<void> {
    const porProjeto = new Map<string, { gravados: LocalColeta[]; removidos: Set<string> }>();
    const of = (projeto: string) => {
      let changes = porProjeto.get(projeto);
      if (!changes) {
        changes = { gravados: [], removidos: new Set() };
        porProjeto.set(projeto, changes);
      }
      return changes;
    };
    for (const record of mudancas.gravados) of(record.projeto).gravados.push(record);
    for (const record of mudancas.removidos) of(record.projeto).removidos.add(record.id);
    if (porProjeto.size === 0) return;
    const { db } = this;
    await reopening(db, () =>
      db.transaction('rw', db.pontos, async () => {
        for (const [projeto, { gravados, removidos }] of porProjeto) {
          const row = await db.pontos.get([flow.key, projeto]);
          if (row) await db.pontos.put(aplicarMudancas(row, gravados, removidos, flow));
          // The store held none of the project's records before: they are all here. Otherwise a row not kept yet
          // is built from the records when first read.
          else if (mudancas.novos.has(projeto)) {
            await db.pontos.put(
              pontosDe(
                flow,
                projeto,
                gravados.filter((record) => !removidos.has(record.id)),
              ),
            );
          }
        }
      }),
    );
  }

  close(): void {
    this.db.close();
  }
}
