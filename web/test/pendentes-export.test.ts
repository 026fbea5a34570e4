// 'Exportar pendentes': the zip holds every pending record as the sync sends it, and each photo's bytes.
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ipFlow } from '@novus/domain/flows/ip';
import { posteFlow } from '@novus/domain/flows/poste';
import { unidadeFlow } from '@novus/domain/flows/unidade';
import { pendentesManifestSchema } from '@novus/domain/pendentes';
import { pendentesFile, pendentesFileName, zipPendentes } from '../src/offline/pendentes-export';
import type { LocalColeta } from '../src/offline/records';
import { uploadFields } from '../src/offline/sync';

const NOW = 1_790_000_000_000;
const PROJETO = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const jpeg = (label: string) =>
  new Blob([new Uint8Array([0xff, 0xd8, ...new TextEncoder().encode(label), 0xff, 0xd9])], {
    type: 'image/jpeg',
  });

let next = 0;
function coleta(changes: Partial<LocalColeta> = {}): LocalColeta {
  next += 1;
  return {
    id: `0190a1b2-c3d4-7e5f-8a9b-${String(next).padStart(12, '0')}`,
    projeto: PROJETO,
    dataHora: NOW - next * 60_000,
    coordenadas: { lat: -25.435, lng: -49.275 },
    fotos: [],
    imagensCompactadas: true,
    dados: {},
    ...changes,
  };
}

describe('the pendentes file', () => {
  const unidadeNova = coleta({
    fotos: [jpeg('u1-0'), null, jpeg('u1-2')],
    dados: { numero: '120', tipoUnidade: 'SDU' },
  });
  const unidadeVelha = coleta({ dataHora: NOW - 5 * 86_400_000, dados: { numero: '7' } });
  const unidadeEnviada = coleta({ sincronizadoEm: NOW, fotos: [jpeg('enviada')] });
  const pontoColetado = coleta({
    coletado: true,
    coletaId: '0190a1b2-c3d4-7e5f-8a9b-00000000c0de',
    fotos: [jpeg('ip')],
    dados: { possuiIP: true },
  });
  const pontoDesenhado = coleta({ coletado: false, adicionadoApp: true });
  const entries = [
    { flow: unidadeFlow, records: [unidadeNova, unidadeVelha, unidadeEnviada] },
    { flow: posteFlow, records: [] },
    { flow: ipFlow, records: [pontoColetado, pontoDesenhado] },
  ];

  it('lists the pending records only, flow by flow and oldest first, with the fields the sync sends', () => {
    const { manifest, fotos } = pendentesFile(entries, { login: 'paula', nome: 'Paula Campos' }, NOW);
    expect(pendentesManifestSchema.parse(manifest)).toEqual(manifest);
    expect(manifest.tecnico).toEqual({ login: 'paula', nome: 'Paula Campos' });
    expect(manifest.registros.map((r) => [r.fluxo, r.campos.id])).toEqual([
      ['hc', unidadeVelha.id],
      ['hc', unidadeNova.id],
      ['ip', pontoColetado.id],
    ]);
    expect(manifest.registros[1]?.campos).toEqual(uploadFields(unidadeNova));
    expect(manifest.registros[2]?.campos.coletaId).toBe(pontoColetado.coletaId);
    expect(manifest.registros[1]?.fotos).toEqual([
      { slot: 0, arquivo: `fotos/${unidadeNova.id}/0.jpg` },
      { slot: 2, arquivo: `fotos/${unidadeNova.id}/2.jpg` },
    ]);
    expect([...fotos.keys()]).toEqual([
      `fotos/${unidadeNova.id}/0.jpg`,
      `fotos/${unidadeNova.id}/2.jpg`,
      `fotos/${pontoColetado.id}/0.jpg`,
    ]);
  });

  it('zips the manifest and every photo byte for byte', async () => {
    const file = pendentesFile(entries, { nome: 'Paula Campos' }, NOW);
    const unzipped = unzipSync(await zipPendentes(file));
    expect(Object.keys(unzipped).sort()).toEqual(['pendentes.json', ...file.fotos.keys()].sort());
    const manifest: unknown = JSON.parse(new TextDecoder().decode(unzipped['pendentes.json']));
    expect(manifest).toEqual(file.manifest);
    for (const [arquivo, blob] of file.fotos) {
      expect(unzipped[arquivo]).toEqual(new Uint8Array(await blob.arrayBuffer()));
    }
  });

  it('carries a correction as its next revision, with the server photos it keeps as bytes', () => {
    const mantida = jpeg('servidor-1');
    const corrigida = coleta({
      fotos: [jpeg('nova-0'), null, null],
      fotosServidor: [
        { slot: 0, hash: 'a'.repeat(64), url: '/api/fotos/x/0', blob: jpeg('substituida') },
        { slot: 1, hash: 'b'.repeat(64), url: '/api/fotos/x/1', blob: mantida },
      ],
      versao: 2,
      correcao: { versao: 1, comentario: 'Número errado.', campos: {}, revisor: 'Ana', em: NOW },
      dados: { numero: '54' },
    });
    const { manifest, fotos } = pendentesFile(
      [{ flow: unidadeFlow, records: [corrigida] }],
      { nome: 'X' },
      NOW,
    );
    expect(manifest.registros[0]?.campos.versao).toBe('2');
    expect(manifest.registros[0]?.fotos.map((foto) => foto.slot)).toEqual([0, 1]);
    expect(fotos.get(`fotos/${corrigida.id}/1.jpg`)).toBe(mantida);
  });

  it('is empty when nothing is pending', () => {
    expect(
      pendentesFile([{ flow: unidadeFlow, records: [unidadeEnviada] }], { nome: 'X' }, NOW).manifest
        .registros,
    ).toEqual([]);
  });

  it('is named after the technician and the time, without accents or spaces', () => {
    expect(pendentesFileName('João da Silva', new Date(2026, 10, 24, 9, 5))).toBe(
      'pendentes-joao-da-silva-2026-11-24-0905.zip',
    );
    expect(pendentesFileName('', new Date(2026, 0, 2, 15, 30))).toBe('pendentes-tecnico-2026-01-02-1530.zip');
  });
});
