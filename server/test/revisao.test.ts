// Issue 24: the flags an upload sets (each rule at its edges), the review's permissions per role, decisions one by
// one and in bulk, the history, and corrections coming back as new revisions (replayed, out of order, raced).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CENTRO, unidadeForm } from './support/fixtures.ts';
import {
  createCliente,
  createCookie,
  createFieldProject,
  createTestContext,
  fakeJpeg,
  type TestContext,
  uploadRecord,
  zonaId,
} from './support/test-app.ts';

const REALWORLD = path.resolve(import.meta.dirname, '../../../shared/realworld/jpg');
// Inside 'Zona Batel', a zone of the project the technician is not assigned to.
const BATEL = { lat: -25.435, lng: -49.265 };
/** Metres north of a point, in degrees of latitude. */
const norte = (at: { lat: number; lng: number }, metros: number) => ({
  lat: at.lat + metros / 111_195,
  lng: at.lng,
});
/** Spots about 90 m apart inside 'Zona Centro' (−25.44…−25.43, −49.28…−49.27), the technician's zone. */
const lugar = (n: number) => ({
  lat: -25.439 + (n % 10) * 0.0008,
  lng: -49.279 + Math.floor(n / 10) * 0.0008,
});

describe('quality flags, review and corrections (issue 24)', () => {
  let ctx: TestContext;
  let admin: string;
  let tecnico: string;
  let tecnicoId: string;
  let supervisor: string;
  let outroSupervisor: string;
  let interpretador: string;
  let externo: string;
  let outroTecnico: string;
  let projeto: string;
  /** Each upload at its own hour, so the pace rule only meets the records a test places close in time. */
  let hora = 0;
  const proximaHora = () => Date.UTC(2026, 9, 1, 0) + (hora += 1) * 3_600_000;

  const enviar = async (
    campos: Record<string, string>,
    { fotos = [fakeJpeg()], cookie = tecnico, at = CENTRO, dataHora = proximaHora() } = {},
  ) => {
    const id = campos.id ?? crypto.randomUUID();
    const response = await uploadRecord(
      ctx.app,
      'unidade',
      unidadeForm(id, projeto, {
        precisao: '4',
        coordenadas: JSON.stringify(at),
        dataHora: String(dataHora),
        ...campos,
      }),
      { fotos, cookie },
    );
    return { id, response };
  };
  const flagsDe = async (id: string) =>
    (
      await ctx.db.query<{ flags: { codigo: string; valor: number | null }[] }>(
        'SELECT flags FROM registros WHERE id = $1',
        [id],
      )
    )[0]?.flags;
  const get = (url: string, cookie: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie } });
  const post = (url: string, cookie: string, payload: unknown) =>
    ctx.app.inject({ method: 'POST', url, headers: { cookie }, payload: payload as object });

  beforeAll(async () => {
    ctx = await createTestContext();
    const campo = await createFieldProject(ctx.app, ctx.db, { nome: 'Qualidade', fluxos: ['hc', 'poste'] });
    ({ admin, tecnicoCookie: tecnico, projeto } = campo);
    tecnicoId = campo.tecnico.id;
    const session = (options: Parameters<typeof createCookie>[2]) => createCookie(ctx.app, ctx.db, options);
    supervisor = await session({ roles: ['supervisor'], cliente: campo.cliente });
    outroSupervisor = await session({
      roles: ['supervisor'],
      cliente: await createCliente(ctx.app, admin, 'Outro'),
    });
    interpretador = await session({ roles: ['interpretador'] });
    externo = await session({ roles: ['externo'] });
    outroTecnico = await session({
      roles: ['tecnico'],
      cliente: campo.cliente,
      zonas: [zonaId(campo, 'Zona Centro')],
    });
  });
  afterAll(async () => ctx.close());

  describe('flags set by the upload', () => {
    it('GPS accuracy: at the threshold none, past it precisao_baixa with the value, none recorded sem_precisao', async () => {
      const [igual, pior, sem] = await Promise.all([
        enviar({ precisao: '15' }, { at: lugar(1) }),
        enviar({ precisao: '15.1' }, { at: lugar(2) }),
        enviar({ precisao: '' }, { at: lugar(3) }),
      ]);
      for (const { response } of [igual, pior, sem]) expect(response.statusCode, response.body).toBe(201);
      expect(await flagsDe(igual.id)).toEqual([]);
      expect(await flagsDe(pior.id)).toEqual([{ codigo: 'precisao_baixa', valor: 15.1 }]);
      expect(await flagsDe(sem.id)).toEqual([{ codigo: 'sem_precisao', valor: null }]);
    });

    it('outside every zone of the technician: kept, flagged; the administrador has no zones to leave', async () => {
      const fora = await enviar({}, { at: BATEL });
      expect(fora.response.statusCode, fora.response.body).toBe(201);
      expect(await flagsDe(fora.id)).toEqual([{ codigo: 'fora_da_zona', valor: null }]);
      const doAdmin = await enviar({}, { at: norte(BATEL, 50), cookie: admin });
      expect(await flagsDe(doAdmin.id)).toEqual([]);
    });

    it('a near duplicate: another upload of the flow within 2 m, not at 2.5 m', async () => {
      const base = lugar(4);
      await enviar({}, { at: base });
      const perto = await enviar({}, { at: norte(base, 1.5), cookie: outroTecnico });
      const longe = await enviar({}, { at: norte(base, 3.6), cookie: outroTecnico });
      expect(await flagsDe(perto.id)).toEqual([{ codigo: 'duplicata', valor: 1.5 }]);
      // 2.1 m from the one at 1.5 m, 3.6 m from the first: beyond the project's 2 m.
      expect(await flagsDe(longe.id)).toEqual([]);
    });

    it('photo evidence: no photo; EXIF time hours from the record; EXIF position far from it', async () => {
      const semFoto = await enviar({}, { fotos: [], at: lugar(5) });
      expect(await flagsDe(semFoto.id)).toEqual([{ codigo: 'poucas_fotos', valor: 0 }]);
      // A Canon 40D photo of 2008-05-30 15:56 local (no GPS); a Nikon with a GPS fix in Europe.
      const canon = fs.readFileSync(path.join(REALWORLD, 'Canon_40D.jpg'));
      const antiga = await enviar({}, { fotos: [canon], at: lugar(6) });
      expect(antiga.response.statusCode, antiga.response.body).toBe(201);
      const [flag] = (await flagsDe(antiga.id)) ?? [];
      expect(flag?.codigo).toBe('foto_hora');
      expect(flag?.valor).toBeGreaterThan(60 * 24 * 365 * 18);
      // The same photo with the record taken at its EXIF time (15:56:01 in UTC−3) is not flagged.
      const naHora = await enviar(
        {},
        { fotos: [canon], at: lugar(7), dataHora: Date.UTC(2008, 4, 30, 18, 56, 31) },
      );
      expect(await flagsDe(naHora.id)).toEqual([]);
      const gps = fs.readFileSync(path.join(REALWORLD, 'gps__DSCN0010.jpg'));
      const longe = await enviar({}, { fotos: [gps], at: lugar(8) });
      expect(longe.response.statusCode, longe.response.body).toBe(201);
      const codigos = ((await flagsDe(longe.id)) ?? []).map((f) => f.codigo);
      expect(codigos).toContain('foto_local');
    });

    it('implausible pace: the previous record 5 s earlier and 300 m away, not 15 s earlier', async () => {
      const t = Date.UTC(2026, 8, 1, 12);
      const a = lugar(0);
      await enviar({}, { at: a, dataHora: t });
      const rapido = await enviar({}, { at: norte(a, 300), dataHora: t + 5_000 });
      const devagar = await enviar({}, { at: norte(a, 600), dataHora: t + 20_000 });
      expect(await flagsDe(rapido.id)).toEqual([{ codigo: 'ritmo', valor: 300 }]);
      expect(await flagsDe(devagar.id)).toEqual([]);
    });

    it('the project’s thresholds are the administrador’s, and the next uploads follow them', async () => {
      const url = `/api/projeto/${projeto}/qualidade`;
      expect((await get(url, supervisor)).json()).toEqual({ precisaoMaxima: 15, distanciaDuplicata: 2 });
      const put = (cookie: string, payload: unknown) =>
        ctx.app.inject({ method: 'PUT', url, headers: { cookie }, payload: payload as object });
      expect((await put(supervisor, { precisaoMaxima: 5, distanciaDuplicata: 2 })).statusCode).toBe(403);
      const bad = await put(admin, { precisaoMaxima: -1, distanciaDuplicata: 2 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/precisão máxima/);
      expect((await put(admin, { precisaoMaxima: 5, distanciaDuplicata: 2 })).statusCode).toBe(200);
      const { id } = await enviar({ precisao: '6' }, { at: lugar(9) });
      expect(await flagsDe(id)).toEqual([{ codigo: 'precisao_baixa', valor: 6 }]);
      expect((await put(admin, { precisaoMaxima: 15, distanciaDuplicata: 2 })).statusCode).toBe(200);
    });
  });

  describe('the review', () => {
    it('lists by role: the client’s supervisor, the interpretador and externo only on Interpres projects', async () => {
      const url = `/api/revisao?projeto=${projeto}`;
      const lista = await get(url, supervisor);
      expect(lista.statusCode, lista.body).toBe(200);
      const body = lista.json();
      expect(body.porPagina).toBe(50);
      expect(body.total).toBeGreaterThan(5);
      expect(body.contagem.flags.fora_da_zona).toBe(1);
      expect(body.contagem.estados.pendente).toBe(body.total);
      // The 'Técnico' filter offers every technician of the project's records, not only this page's.
      expect(body.tecnicos.map((t: { nome: string }) => t.nome).sort()).toHaveLength(3);
      for (const cookie of [outroSupervisor, interpretador, externo, tecnico]) {
        expect((await get(url, cookie)).statusCode).toBe(403);
      }
      await ctx.db.query('UPDATE projetos SET disponivel_interpres = true WHERE id = $1', [projeto]);
      expect((await get(url, interpretador)).statusCode).toBe(200);
      expect((await get(url, externo)).statusCode).toBe(200);
      const { registros } = (await get(`${url}&flag=fora_da_zona`, externo)).json();
      expect(registros).toHaveLength(1);
      // The externo reads the photos too, and only reads.
      const foto = registros[0].fotos[0];
      expect((await get(foto, externo)).statusCode).toBe(200);
      const decisao = await post(`/api/revisao/${registros[0].id}`, externo, {
        estado: 'aprovado',
        versao: 1,
      });
      expect(decisao.statusCode).toBe(403);
      const bad = await get(`/api/revisao?projeto=${projeto}&flag=nada`, supervisor);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Sinalização inválida.');
    });

    it('rejects with a comment (required), approves, keeps every decision; a stale version is refused', async () => {
      const { id } = await enviar({ numero: '12' }, { at: lugar(11) });
      const semMotivo = await post(`/api/revisao/${id}`, supervisor, { estado: 'reprovado', versao: 1 });
      expect(semMotivo.statusCode).toBe(400);
      expect(semMotivo.json().message).toBe('Informe o motivo da reprovação.');
      const reprovado = await post(`/api/revisao/${id}`, supervisor, {
        estado: 'reprovado',
        comentario: 'Número da casa errado.',
        campos: { numero: 'É 21, não 12.' },
        versao: 1,
      });
      expect(reprovado.statusCode, reprovado.body).toBe(200);
      expect(reprovado.json().revisao).toMatchObject({
        estado: 'reprovado',
        versao: 1,
        comentario: 'Número da casa errado.',
        campos: { numero: 'É 21, não 12.' },
      });
      const velho = await post(`/api/revisao/${id}`, supervisor, { estado: 'aprovado', versao: 2 });
      expect(velho.statusCode).toBe(409);
      const historico = (await get(`/api/revisao/${id}/historico`, supervisor)).json();
      expect(historico.decisoes).toEqual([
        expect.objectContaining({ estado: 'reprovado', versao: 1, comentario: 'Número da casa errado.' }),
      ]);
      const audit = await ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM auditoria WHERE entidade = 'revisao' AND entidade_id = $1",
        [id],
      );
      expect(audit[0]?.n).toBe(1);
    });

    it('approves in bulk what a filter shows, after the count the confirmation said', async () => {
      const url = `/api/revisao?projeto=${projeto}&flag=sem_precisao`;
      const antes = (await get(url, supervisor)).json();
      expect(antes.aAprovar).toBe(1);
      const errado = await post('/api/revisao/aprovar', supervisor, {
        projeto,
        flag: 'sem_precisao',
        esperado: 3,
      });
      expect(errado.statusCode).toBe(409);
      expect(errado.json().message).toMatch(/agora 1 registros/);
      const certo = await post('/api/revisao/aprovar', supervisor, {
        projeto,
        flag: 'sem_precisao',
        esperado: 1,
      });
      expect(certo.json()).toEqual({ aprovados: 1 });
      const depois = (await get(`${url}&estado=aprovado`, supervisor)).json();
      expect(depois.total).toBe(1);
      expect(depois.aAprovar).toBe(0);
    });
  });

  describe('corrections', () => {
    it('go back to the technician, come back as revision 2 (replayed once), pendente, with the history kept', async () => {
      const foto = fakeJpeg(3000);
      const { id } = await enviar({ numero: '12' }, { fotos: [foto], at: lugar(12) });
      await post(`/api/revisao/${id}`, supervisor, {
        estado: 'reprovado',
        comentario: 'Confira o número.',
        campos: { numero: 'Errado.' },
        versao: 1,
      });
      const correcoes = (await get('/api/correcoes', tecnico)).json();
      const correcao = correcoes.find((c: { registro: { _id: string } }) => c.registro._id === id);
      expect(correcao).toMatchObject({
        fluxo: 'hc',
        registro: { _id: id, numero: '12', versao: 1, revisao: 'reprovado' },
        revisao: { versao: 1, comentario: 'Confira o número.', campos: { numero: 'Errado.' } },
      });
      expect(correcao.fotos).toEqual([
        { slot: 0, hash: crypto.createHash('sha256').update(foto).digest('hex'), url: `/api/fotos/${id}/0` },
      ]);
      expect((await get('/api/correcoes', outroTecnico)).json()).toEqual([]);

      // The corrected unit: the number fixed, the photo kept by its hash and a new one added.
      const nova = fakeJpeg(4000);
      const revisao = () =>
        uploadRecord(
          ctx.app,
          'unidade',
          unidadeForm(id, projeto, {
            numero: '21',
            versao: '2',
            precisao: '4',
            coordenadas: JSON.stringify(lugar(12)),
            dataHora: String(proximaHora()),
            fotosNoServidor: JSON.stringify([{ slot: 0, hash: correcao.fotos[0].hash }]),
          }),
          { fotos: [nova], cookie: tecnico, names: ['1.jpg'] },
        );
      const [primeira, replay] = [await revisao(), await revisao()];
      expect(primeira.statusCode, primeira.body).toBe(200);
      expect(primeira.json()).toMatchObject({ _id: id, numero: '21', versao: 2, revisao: 'pendente' });
      expect(replay.statusCode).toBe(200);
      const versoes = await ctx.db.query<{ versao: number }>(
        'SELECT versao FROM registro_versoes WHERE registro = $1',
        [id],
      );
      expect(versoes).toEqual([{ versao: 1 }]);
      expect((await get('/api/correcoes', tecnico)).json()).not.toContainEqual(
        expect.objectContaining({ registro: expect.objectContaining({ _id: id }) }),
      );
      // Revision 2 with both photos; revision 1's photo still served by its number.
      const item = (await get(`/api/revisao?projeto=${projeto}&estado=pendente`, supervisor))
        .json()
        .registros.find((r: { id: string }) => r.id === id);
      expect(item.revisao).toMatchObject({ estado: 'pendente', versao: 2 });
      expect(item.dados.numero).toBe('21');
      expect(item.fotos).toEqual([`/api/fotos/${id}/0?v=2`, `/api/fotos/${id}/1?v=2`]);
      expect((await get(`/api/fotos/${id}/1?v=2`, supervisor)).rawPayload.equals(nova)).toBe(true);
      expect((await get(`/api/fotos/${id}/0?v=1`, supervisor)).rawPayload.equals(foto)).toBe(true);
      expect((await get(`/api/fotos/${id}/1?v=1`, supervisor)).statusCode).toBe(404);
      const historico = (await get(`/api/revisao/${id}/historico`, supervisor)).json();
      expect(
        historico.versoes.map((v: { versao: number; dados: { numero: string } }) => [
          v.versao,
          v.dados.numero,
        ]),
      ).toEqual([
        [1, '12'],
        [2, '21'],
      ]);
      expect(historico.decisoes.map((d: { estado: string; versao: number }) => [d.estado, d.versao])).toEqual(
        [
          ['reprovado', 1],
          ['pendente', 2],
        ],
      );

      // A reviewer who still had revision 1 open is refused; revision 2 is approved.
      expect(
        (await post(`/api/revisao/${id}`, supervisor, { estado: 'aprovado', versao: 1 })).statusCode,
      ).toBe(409);
      const aprovado = await post(`/api/revisao/${id}`, supervisor, { estado: 'aprovado', versao: 2 });
      expect(aprovado.json().revisao).toMatchObject({ estado: 'aprovado', versao: 2 });
    });

    it('refuses a revision out of order or from another technician, storing nothing', async () => {
      const { id } = await enviar({}, { at: lugar(13) });
      const form = (versao: string) =>
        unidadeForm(id, projeto, { versao, coordenadas: JSON.stringify(lugar(13)), numero: '9' });
      const salto = await uploadRecord(ctx.app, 'unidade', form('3'), {
        fotos: [fakeJpeg()],
        cookie: tecnico,
      });
      expect(salto.statusCode).toBe(409);
      expect(salto.json().message).toMatch(/sincronize de novo/);
      const alheio = await uploadRecord(ctx.app, 'unidade', form('2'), {
        fotos: [fakeJpeg()],
        cookie: outroTecnico,
      });
      expect(alheio.statusCode).toBe(409);
      const row = await ctx.db.query<{ versao: number; numero: string }>(
        "SELECT versao, dados->>'numero' AS numero FROM registros WHERE id = $1",
        [id],
      );
      expect(row).toEqual([{ versao: 1, numero: '7' }]);
      expect(tecnicoId).toBeTruthy();
    });
  });
});
