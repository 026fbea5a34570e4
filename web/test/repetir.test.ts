// 'Repetir último' (issue 26): the last record remembered per technician, flow and project at Gravar, the device's
// newest record when nothing is remembered, and which fields a pole and a unit take from it.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { posteFlow } from '@novus/domain/flows/poste';
import { unidadeDadosSchema } from '@novus/domain/flows/unidade';
import { POSTE_REPETIDOS, repeatedPoste } from '../src/collect/poste/poste-ui';
import { newestOwnRecord, RepeatMemory, repeatScope, stillRepeated } from '../src/collect/shared/repetir';
import { saveRecord } from '../src/collect/shared/save-record';
import { initialUnidadeValues, repeatedUnidade } from '../src/collect/unidade/unidade-values';
import { NovusDatabase } from '../src/offline/db';
import { type LocalColeta, RecordStore } from '../src/offline/records';
import { MemoryStorage } from './support/memory-storage';

const PROJETO = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const OUTRO_PROJETO = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
const AQUI = { lat: -25.435, lng: -49.275 };

const poste = {
  tipo: 'MADEIRA',
  altura: '11',
  carga: '300',
  tipoRedeEletrica: 'MISTA',
  aterramento: false,
  equipamentoRedeEnergia: 'TRANSFORMADOR',
  observacao: 'Inclinado, apoiado no muro',
};

describe('the memory per technician, flow and project', () => {
  const last = (id: string, dataHora: number, dados: Record<string, unknown> = poste) => ({
    id,
    dataHora,
    dados,
  });

  it('keeps one last record per technician, flow and project, apart from the others', () => {
    const memory = new RepeatMemory(new MemoryStorage());
    const maria = repeatScope('poste', PROJETO, 'Maria');
    memory.remember(maria, last('a', 1));
    memory.remember(maria, last('b', 2, { ...poste, altura: '12' }));
    memory.remember(repeatScope('poste', PROJETO, 'João'), last('c', 3));
    memory.remember(repeatScope('poste', OUTRO_PROJETO, 'Maria'), last('d', 4));
    memory.remember(repeatScope('hc', PROJETO, 'Maria'), last('e', 5, { numero: '10' }));

    expect(memory.read(maria)).toEqual(last('b', 2, { ...poste, altura: '12' }));
    expect(memory.read(repeatScope('poste', PROJETO, 'João'))?.id).toBe('c');
    expect(memory.read(repeatScope('poste', OUTRO_PROJETO, 'Maria'))?.id).toBe('d');
    expect(memory.read(repeatScope('hc', PROJETO, 'Maria'))?.id).toBe('e');
    expect(memory.read(repeatScope('hc', OUTRO_PROJETO, 'Maria'))).toBeNull();
  });

  it('a change of an older record does not replace the last one; a change of the last one does', () => {
    const memory = new RepeatMemory(new MemoryStorage());
    const scope = repeatScope('poste', PROJETO, 'Maria');
    memory.remember(scope, last('b', 2));
    memory.rememberChange(scope, last('a', 1, { ...poste, altura: '9' }));
    expect(memory.read(scope)?.dados).toEqual(poste);
    memory.rememberChange(scope, last('b', 2, { ...poste, altura: '9' }));
    expect(memory.read(scope)?.dados).toMatchObject({ altura: '9' });
  });

  it('a storage that refuses or holds something else is no memory, and never throws', () => {
    const storage = new MemoryStorage();
    const memory = new RepeatMemory(storage);
    const scope = repeatScope('poste', PROJETO, 'Maria');
    storage.refuse = true;
    expect(() => memory.remember(scope, last('a', 1))).not.toThrow();
    expect(memory.read(scope)).toBeNull();
    storage.refuse = false;
    storage.setItem(`novus.repetir:${JSON.stringify(['poste', PROJETO, 'Maria'])}`, '{"id":1}');
    expect(memory.read(scope)).toBeNull();
    storage.setItem(`novus.repetir:${JSON.stringify(['poste', PROJETO, 'Maria'])}`, 'não é JSON');
    expect(memory.read(scope)).toBeNull();
    expect(new RepeatMemory(null).read(scope)).toBeNull();
  });

  it("falls back to the technician's own newest record on the device", () => {
    const record = (id: string, dataHora: number, tecnico?: string): LocalColeta => ({
      id,
      projeto: PROJETO,
      dataHora,
      coordenadas: AQUI,
      fotos: [],
      imagensCompactadas: true,
      ...(tecnico ? { tecnico } : {}),
      dados: { ...poste, altura: String(dataHora) },
    });
    const list = [record('a', 9), record('b', 11, 'João'), record('c', 10, 'Maria'), record('d', 8, 'Maria')];
    expect(newestOwnRecord(list, 'Maria')).toEqual({ id: 'c', dataHora: 10, dados: list[2]?.dados });
    expect(newestOwnRecord(list, 'Ana')).toBeNull();
    expect(newestOwnRecord([], 'Maria')).toBeNull();
  });
});

describe('Gravar remembers the last record', () => {
  let db: NovusDatabase;
  let records: RecordStore;
  let storage: MemoryStorage;
  let memory: RepeatMemory;
  let databases = 0;
  let clock = 1_790_000_000_000;

  beforeEach(() => {
    db = new NovusDatabase(`Novus-repetir-${(databases += 1)}`);
    records = new RecordStore(db, () => clock);
    storage = new MemoryStorage();
    memory = new RepeatMemory(storage);
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  const save = (values: unknown, editing: LocalColeta | null = null, tecnico = 'Maria') => {
    clock += 1000;
    return saveRecord({
      records,
      flow: posteFlow,
      projeto: { id: PROJETO },
      editing,
      point: AQUI,
      fotos: Array.from({ length: posteFlow.photoSlots }, () => null),
      tecnico,
      values,
      now: () => clock,
      memory,
    });
  };

  it('a new pole is remembered with its validated fields, and stays remembered after it leaves the device', async () => {
    const first = await save(poste);
    const second = await save({ ...poste, altura: '12', aterramento: 'true' });
    const scope = repeatScope('poste', PROJETO, 'Maria');
    expect(memory.read(scope)).toEqual({
      id: second.id,
      dataHora: second.dataHora,
      dados: { ...poste, altura: '12', aterramento: true },
    });
    await records.deleteRecord(posteFlow, second.id);
    await records.deleteRecord(posteFlow, first.id);
    expect(memory.read(scope)?.id).toBe(second.id);
    expect(memory.read(repeatScope('poste', PROJETO, 'João'))).toBeNull();
  });

  it('correcting the last pole on the device updates it; correcting an older one does not', async () => {
    const first = await save(poste);
    const second = await save({ ...poste, altura: '12' });
    await save({ ...poste, altura: '9' }, first);
    const scope = repeatScope('poste', PROJETO, 'Maria');
    expect(memory.read(scope)?.dados).toMatchObject({ altura: '12' });
    await save({ ...poste, altura: '14' }, second);
    expect(memory.read(scope)).toMatchObject({ id: second.id, dados: { altura: '14' } });
  });

  it('a refused memory does not fail the save', async () => {
    storage.refuse = true;
    const saved = await save(poste);
    expect(await records.getByID(posteFlow, saved.id)).toBeDefined();
    expect(memory.read(repeatScope('poste', PROJETO, 'Maria'))).toBeNull();
  });

  it('a form the schema refuses saves nothing and remembers nothing', async () => {
    await expect(save({ ...poste, altura: '' })).rejects.toThrow();
    expect(memory.read(repeatScope('poste', PROJETO, 'Maria'))).toBeNull();
  });
});

describe('which fields a pole repeats', () => {
  const empty = {
    tipo: 'CONCRETO DUPLO T',
    altura: '',
    carga: '',
    tipoRedeEletrica: '',
    aterramento: false,
    equipamentoRedeEnergia: 'NAO POSSUI',
    observacao: '',
  };

  it('what the pole is, never its observação', () => {
    expect(repeatedPoste(poste)).toEqual({
      tipo: 'MADEIRA',
      altura: '11',
      carga: '300',
      tipoRedeEletrica: 'MISTA',
      aterramento: false,
      equipamentoRedeEnergia: 'TRANSFORMADOR',
    });
    expect(POSTE_REPETIDOS).not.toContain('observacao');
    // every field of the schema but the note is repeated: a field added later must be decided on
    expect(Object.keys(posteFlow.dados.parse(poste)).sort()).toEqual(
      [...POSTE_REPETIDOS, 'observacao'].sort(),
    );
  });

  it('an empty text is not repeated, a false box is', () => {
    expect(repeatedPoste({ ...empty, altura: '', aterramento: false })).toEqual({
      tipo: 'CONCRETO DUPLO T',
      aterramento: false,
      equipamentoRedeEnergia: 'NAO POSSUI',
    });
  });
});

describe('which fields a unit repeats', () => {
  const comercio = {
    ...initialUnidadeValues('SDU'),
    tipoEdificacao: 'Comercial',
    tipoImovel: 'padaria',
    numero: '120',
    complementoNumero: 'A',
    complemento1: 'Loja 2',
    complemento2: 'Fundos',
    complemento3: 'Sala 3',
    quantidade: '2',
    observacao: 'Portão azul',
    drop: '0190a1b2-c3d4-7e5f-8a9b-0000000000d1',
  };
  const edificio = {
    ...initialUnidadeValues('MDU'),
    tipoImovel: 'RESIDENCIAL',
    numero: '300',
    nomeEdificio: 'Condomínio Araucária',
    nomeBloco: 'Bloco A',
    totalAndares: '8',
    aptosPorAndar: '4',
  };

  it('an SDU after an SDU: building and property types and quantidade; not its address, pole or note', () => {
    expect(repeatedUnidade(comercio, initialUnidadeValues('SDU'))).toEqual({
      tipoEdificacao: 'Comercial',
      tipoImovel: 'padaria',
      quantidade: '2',
    });
  });

  it('an MDU after an MDU: the building, not its block nor its number', () => {
    expect(repeatedUnidade(edificio, initialUnidadeValues('MDU'))).toEqual({
      tipoEdificacao: 'Residencial',
      tipoImovel: 'RESIDENCIAL',
      nomeEdificio: 'Condomínio Araucária',
      totalAndares: '8',
      aptosPorAndar: '4',
    });
  });

  it('the type chosen on step 1 stays, and takes only the fields it has', () => {
    const sdu = repeatedUnidade(edificio, initialUnidadeValues('SDU'));
    expect(sdu).toEqual({ tipoEdificacao: 'Residencial', tipoImovel: 'RESIDENCIAL' });
    expect(repeatedUnidade(comercio, initialUnidadeValues('MDU'))).toEqual({
      tipoEdificacao: 'Comercial',
      tipoImovel: 'padaria',
    });
    for (const tipo of ['SDU', 'MDU'] as const) {
      expect(repeatedUnidade(comercio, initialUnidadeValues(tipo))).not.toHaveProperty('tipoUnidade');
    }
  });

  it('VAZIO and FUNDOS repeat nothing; a vacant lot gives a house no building type', () => {
    expect(repeatedUnidade(comercio, initialUnidadeValues('VAZIO'))).toEqual({});
    expect(repeatedUnidade(comercio, initialUnidadeValues('FUNDOS'))).toEqual({});
    expect(repeatedUnidade(initialUnidadeValues('VAZIO'), initialUnidadeValues('SDU'))).toEqual({
      quantidade: '1',
    });
  });

  it('a unit made of the repeated fields and a new number passes the schema', () => {
    const next = {
      ...initialUnidadeValues('SDU'),
      ...repeatedUnidade(comercio, initialUnidadeValues('SDU')),
    };
    expect(unidadeDadosSchema.safeParse({ ...next, numero: '122' }).success).toBe(true);
    const mdu = { ...initialUnidadeValues('MDU'), ...repeatedUnidade(edificio, initialUnidadeValues('MDU')) };
    expect(unidadeDadosSchema.safeParse({ ...mdu, numero: '302' }).success).toBe(true);
  });
});

describe('the marks', () => {
  it('stay on the fields still holding the repeated value, and go from a changed one', () => {
    const marks = new Map<string, unknown>([
      ['altura', '11'],
      ['aterramento', false],
    ]);
    expect(stillRepeated(marks, { altura: '11', aterramento: false })).toBe(marks);
    expect([...stillRepeated(marks, { altura: '12', aterramento: false }).keys()]).toEqual(['aterramento']);
    expect(stillRepeated(marks, { altura: '11', aterramento: true }).has('aterramento')).toBe(false);
  });
});
