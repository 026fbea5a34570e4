// 'Exportar pendentes' imported by the back office (issue 12): the phone's zip goes through the sync's upload
// path, attributed to the technician who collected it, and importing it twice stores nothing twice.
import crypto from 'node:crypto';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDENTES_FORMATO, PENDENTES_MANIFEST, pendenteFotoPath } from '@novus/domain/pendentes';
import { CENTRO, POSTE_CAMPOS } from './support/fixtures.ts';
import {
  createCookie,
  createFieldProject,
  createTestContext,
  fakeJpeg,
  FORM,
  multipart,
  type TestContext,
  uploadRecord,
} from './support/test-app.ts';

const DIA = Date.UTC(2026, 10, 20, 14, 30);

interface Registro {
  fluxo: 'hc' | 'poste';
  campos: Record<string, string>;
  fotos: Buffer[];
}

/** The zip a phone writes: pendentes.json with the records as the sync sends them, then their photos. */
function pendentesZip(registros: Registro[], tecnico: { login?: string; nome: string }): Buffer {
  const files: Record<string, Uint8Array> = {};
  const manifest = {
    formato: PENDENTES_FORMATO,
    versao: 1,
    exportadoEm: DIA + 3_600_000,
    tecnico,
    registros: registros.map(({ fluxo, campos, fotos }) => ({
      fluxo,
      campos,
      fotos: fotos.map((data, slot) => {
        const arquivo = pendenteFotoPath(campos.id ?? '', slot, 'image/jpeg');
        files[arquivo] = data;
        return { slot, arquivo };
      }),
    })),
  };
  files[PENDENTES_MANIFEST] = new TextEncoder().encode(JSON.stringify(manifest));
  return Buffer.from(zipSync(files, { level: 0 }));
}

describe('importing a phone’s pending records', () => {
  let ctx: TestContext;
  let admin: string;
  let tecnicoCookie: string;
  let supervisor: string;
  let tecnico: { id: string; login: string };
  let projeto: string;

  const unidade = (numero: string, minutes: number): Registro => ({
    fluxo: 'hc',
    campos: {
      id: crypto.randomUUID(),
      projeto,
      coordenadas: JSON.stringify(CENTRO),
      dataHora: String(DIA + minutes * 60_000),
      precisao: '4.5',
      tipoUnidade: 'SDU',
      tipoEdificacao: 'Residencial',
      tipoImovel: 'RESIDENCIAL',
      numero,
      quantidade: '1',
    },
    fotos: [fakeJpeg(3000), fakeJpeg(2500)],
  });
  const poste = (minutes: number): Registro => ({
    fluxo: 'poste',
    campos: {
      id: crypto.randomUUID(),
      projeto,
      coordenadas: JSON.stringify(CENTRO),
      dataHora: String(DIA + minutes * 60_000),
      ...POSTE_CAMPOS,
    },
    fotos: [fakeJpeg(4000)],
  });

  const importZip = (zip: Buffer, cookie = admin, fields: Record<string, string> = {}) => {
    const body = multipart(fields, [
      { field: 'arquivo', filename: 'pendentes.zip', contentType: 'application/zip', data: zip },
    ]);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/pendentes/importar',
      headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
      payload: body.payload,
    });
  };
  const count = async (sql: string, params: unknown[] = []) =>
    (await ctx.db.query<{ n: number }>(sql, params))[0]?.n ?? -1;
  const registros = () => count('SELECT count(*)::int AS n FROM registros WHERE adicionado_app OR coletado');
  const fotos = () => count('SELECT count(*)::int AS n FROM fotos');

  beforeAll(async () => {
    ctx = await createTestContext();
    const campo = await createFieldProject(ctx.app, ctx.db, {
      nome: 'Campo Pendentes',
      cliente: 'Pendentes',
      fluxos: ['hc', 'poste'],
      firstName: 'Paula',
    });
    ({ admin, projeto, tecnicoCookie } = campo);
    tecnico = { id: campo.tecnico.id, login: campo.tecnico.login };
    supervisor = await createCookie(ctx.app, ctx.db, { roles: ['supervisor'], cliente: campo.cliente });
  });
  afterAll(async () => ctx.close());

  it('stores every record with its photos as the technician’s, and a second import stores nothing again', async () => {
    const [u1, u2, p1] = [unidade('120', 1), unidade('122', 2), poste(3)];
    if (!u1 || !u2 || !p1) throw new Error('unreachable');
    // u2 also reached the server through the phone's own sync before the phone broke
    const synced = await uploadRecord(ctx.app, 'unidade', u2.campos, {
      fotos: u2.fotos,
      cookie: tecnicoCookie,
    });
    expect(synced.statusCode, synced.body).toBe(201);
    const zip = pendentesZip([u1, u2, p1], { login: tecnico.login, nome: 'Paula de Tal' });
    const [registrosBefore, fotosBefore] = [await registros(), await fotos()];

    const first = await importZip(zip);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      tecnico: tecnico.login,
      registros: 3,
      criados: 2,
      coletados: 0,
      jaExistentes: 1,
      concorrentes: 0,
      fotos: 3,
      recusados: [],
    });
    expect(await registros()).toBe(registrosBefore + 2);
    expect(await fotos()).toBe(fotosBefore + 3);

    // each record is the technician's, with its own photos' bytes
    for (const record of [u1, p1]) {
      const id = record.campos.id ?? '';
      const [row] = await ctx.db.query<{ tecnico: string; fluxo: string; projeto: string }>(
        'SELECT tecnico, fluxo, projeto FROM registros WHERE id = $1',
        [id],
      );
      expect(row).toEqual({ tecnico: tecnico.id, fluxo: record.fluxo, projeto });
      for (const [slot, bytes] of record.fotos.entries()) {
        const foto = await ctx.app.inject({
          method: 'GET',
          url: `/api/fotos/${id}/${slot}`,
          headers: { cookie: admin },
        });
        expect(foto.statusCode).toBe(200);
        expect(foto.rawPayload.equals(bytes)).toBe(true);
      }
    }
    const stored = await ctx.app.inject({
      method: 'GET',
      url: `/api/unidade/${encodeURIComponent('Campo Pendentes')}`,
      headers: { cookie: admin },
    });
    expect(
      stored
        .json<{ _id: string; numero: string }[]>()
        .map((u) => u.numero)
        .sort(),
    ).toEqual(['120', '122']);

    const again = await importZip(zip);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({
      registros: 3,
      criados: 0,
      jaExistentes: 3,
      fotos: 0,
      recusados: [],
    });
    expect(await registros()).toBe(registrosBefore + 2);
    expect(await fotos()).toBe(fotosBefore + 3);

    // Each import is the administrador's act in the audit log, with what it did.
    const auditoria = await ctx.db.query<{
      entidade_id: string;
      acao: string;
      depois: Record<string, unknown>;
    }>("SELECT entidade_id, acao, depois FROM auditoria WHERE entidade = 'pendentes' ORDER BY id");
    expect(auditoria.map((entry) => [entry.entidade_id, entry.acao, entry.depois.criados])).toEqual([
      [tecnico.login, 'importar', 2],
      [tecnico.login, 'importar', 0],
    ]);
  });

  it('reports a record it refuses, with the reason, and stores the others', async () => {
    const good = unidade('200', 10);
    const broken = { ...unidade('201', 11), fotos: [Buffer.from('isto não é uma foto')] };
    const elsewhere = unidade('202', 12);
    elsewhere.campos.projeto = crypto.randomUUID();
    const before = await registros();
    const response = await importZip(
      pendentesZip([good, broken, elsewhere], { login: tecnico.login, nome: 'Paula' }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const summary = response.json<{ criados: number; recusados: { id: string; motivo: string }[] }>();
    expect(summary.criados).toBe(1);
    expect(summary.recusados.map((r) => r.id)).toEqual([broken.campos.id, elsewhere.campos.id]);
    expect(summary.recusados[1]?.motivo).toBe('Projeto não encontrado.');
    expect(summary.recusados[0]?.motivo).toMatch(/imagem|foto/i);
    expect(await registros()).toBe(before + 1);
  });

  it('takes the technician from the form when the file does not say', async () => {
    const record = unidade('300', 20);
    const zip = pendentesZip([record], { nome: 'Paula' });
    const missing = await importZip(zip);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('O arquivo não diz quem coletou: informe o login do técnico.');
    const unknown = await importZip(zip, admin, { tecnico: 'ninguem' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Técnico não encontrado: ninguem.');
    const named = await importZip(zip, admin, { tecnico: tecnico.login });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json()).toMatchObject({ tecnico: tecnico.login, criados: 1 });
  });

  it('refuses a file that is not a zip of pendentes with a 400 in Portuguese, storing nothing', async () => {
    const before = [await registros(), await fotos()];
    const garbage = await importZip(crypto.randomBytes(5000));
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().message).toBe('O arquivo não é um zip válido de pendentes do Novus.');

    const noManifest = await importZip(
      Buffer.from(zipSync({ 'leia-me.txt': new TextEncoder().encode('oi') })),
    );
    expect(noManifest.statusCode).toBe(400);
    expect(noManifest.json().message).toMatch(/^O zip não contém pendentes\.json/);

    const wrongFormat = await importZip(
      Buffer.from(zipSync({ [PENDENTES_MANIFEST]: new TextEncoder().encode('{"formato":"outro"}') })),
    );
    expect(wrongFormat.statusCode).toBe(400);
    expect(wrongFormat.json().message).toMatch(/^O pendentes\.json do zip é inválido\./);

    const cut = pendentesZip([unidade('400', 30)], { login: tecnico.login, nome: 'Paula' });
    const truncated = await importZip(cut.subarray(0, Math.floor(cut.length / 2)));
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().message).toBe('O arquivo não é um zip válido de pendentes do Novus.');

    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/api/pendentes/importar',
      headers: { ...FORM, cookie: admin },
      payload: 'a=1',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Envie o arquivo de pendentes (.zip) no campo arquivo.');
    expect([await registros(), await fotos()]).toEqual(before);
  });

  it('is for administradores only', async () => {
    const zip = pendentesZip([unidade('500', 40)], { login: tecnico.login, nome: 'Paula' });
    const before = await registros();
    for (const cookie of [tecnicoCookie, supervisor]) {
      const response = await importZip(zip, cookie);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('Usuario nao tem permissao para esse recurso');
    }
    expect((await importZip(zip, '')).statusCode).toBe(401);
    expect(await registros()).toBe(before);
  });
});
