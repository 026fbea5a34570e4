import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOW_TIE, zonaJson } from './support/fixtures.ts';
import {
  createAdminCliente,
  createProjeto,
  createTestContext,
  createUser,
  FORM,
  formBody,
  sample,
  type TestContext,
  zonaId,
} from './support/test-app.ts';

interface Zona {
  _id: string;
  label: string;
  poligono: { lat: number; lng: number }[];
  poligono2: { type: string; coordinates: number[][][] };
}

describe('/api/projeto', () => {
  let ctx: TestContext;
  let admin: string;
  let clienteId: string;

  const post = (fields: Record<string, string | string[]>, cookie = admin) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/projeto',
      headers: { ...FORM, cookie },
      payload: formBody(fields),
    });
  const put = (id: string, fields: Record<string, string | string[]>, cookie = admin) =>
    ctx.app.inject({
      method: 'PUT',
      url: `/api/projeto/${id}`,
      headers: { ...FORM, cookie },
      payload: formBody(fields),
    });
  const get = (url: string, cookie = admin) => ctx.app.inject({ method: 'GET', url, headers: { cookie } });
  const countRows = async (table: string) =>
    (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n ?? -1;

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ admin, cliente: clienteId } = await createAdminCliente(ctx.app, ctx.db, 'Copel'));
  });
  afterAll(async () => ctx.close());

  it('creates a project from the form: KML zones parsed on the server and IP points assigned to their zone', async () => {
    const response = await post({
      nome: 'Curitiba Centro',
      cliente: clienteId,
      fuso: '22',
      fluxos: ['hc', 'poste', 'ip'],
      disponivelInterpres: 'true',
      kml: sample('zoneamento-curitiba.kml'),
      arquivoIP: sample('pontos-ip.txt'),
    });
    expect(response.statusCode, response.body).toBe(201);
    const projeto = response.json();
    expect(projeto).toMatchObject({
      nome: 'Curitiba Centro',
      cliente: clienteId,
      fuso: 22,
      fluxos: ['hc', 'poste', 'ip'],
      disponivelInterpres: true,
    });
    expect(projeto.zonas.map((z: Zona) => z.label)).toEqual(['Zona Batel', 'Zona Centro', 'Zona Rebouças']);
    const centro = projeto.zonas.find((z: Zona) => z.label === 'Zona Centro');
    expect(centro.poligono[0]).toEqual({ lat: -25.44, lng: -49.28 });
    expect(centro.poligono2.coordinates[0][0]).toEqual([-49.28, -25.44]);
    expect(projeto.pontosIP).toHaveLength(4);
    expect(projeto.pontosIP[0]).toMatchObject({
      idConcessionaria: 'IP-001',
      idCircuito: 'CIR-10',
      quantidadeCompartilhamento: 1,
      coordenadas: [-25.435, -49.275],
      localizacao: { type: 'Point', coordinates: [-49.275, -25.435] },
      carregadoBackoffice: true,
      coletado: false,
    });
    expect(projeto.pontosIP[3].quantidadeCompartilhamento).toBe(0);

    const byZone = await ctx.db.query<{ label: string; n: number }>(
      `SELECT z.label, count(*)::int AS n FROM registros r JOIN zonas z ON z.id = r.zona
       WHERE r.projeto = $1 AND r.fluxo = 'ip' GROUP BY z.label ORDER BY z.label`,
      [projeto._id],
    );
    expect(byZone).toEqual([
      { label: 'Zona Batel', n: 1 },
      { label: 'Zona Centro', n: 2 },
      { label: 'Zona Rebouças', n: 1 },
    ]);
    const list = (await get('/api/projeto')).json();
    expect(list).toContainEqual(
      expect.objectContaining({
        _id: projeto._id,
        nome: 'Curitiba Centro',
        cliente: { _id: clienteId, nome: 'Copel' },
      }),
    );
  });

  it('accepts the spec JSON fields (zonas, pontosIP) and converts BDGD, Fiscalização and LPT Agiltec files', async () => {
    const zonas = [
      zonaJson('Única', [
        [-49.3, -25.5],
        [-49.2, -25.5],
        [-49.2, -25.4],
        [-49.3, -25.4],
        [-49.3, -25.5],
      ]),
    ];
    const response = await post({
      nome: 'Curitiba Completo',
      cliente: clienteId,
      fuso: '22',
      fluxos: 'ip,bdgd,fiscalizacao,lpt2',
      zonas: JSON.stringify(zonas),
      pontosIP: JSON.stringify([{ coordenadas: [-25.45, -49.25], idConcessionaria: 'X1', idCircuito: 'C1' }]),
      arquivoBDGD: sample('bdgd-fuso22.csv'),
      arquivoFiscalizacao: sample('fiscalizacao-fuso22.csv'),
      arquivoLPTv2: sample('lpt-agiltec.csv'),
    });
    expect(response.statusCode, response.body).toBe(201);
    const projeto = response.json();
    expect(projeto.pontosIP).toHaveLength(1);
    expect(
      projeto.pontosBDGD.map((p: { ativo: string; sequencial: number }) => [p.ativo, p.sequencial]),
    ).toEqual([
      ['Poste', 1],
      ['Transformador', 2],
      ['Chave', 3],
    ]);
    expect(projeto.pontosBDGD[0].coordenadas[0]).toBeCloseTo(-25.435, 6);
    expect(projeto.pontosFiscalizacao[0]).toMatchObject({
      barramento: 'B-01',
      placa: 'PL-1001',
      medidor: 'M-555',
    });
    expect(projeto.pontosLPTv2.map((p: { os: string }) => p.os)).toEqual(['5001', '5002']);
    expect(projeto.pontosLPTv2[0]).not.toHaveProperty('coordenadas');
  });

  it("reads a Fiscalização file in UTM zone 22 whatever the project's fuso (SPEC.md 9), BDGD in the project's", async () => {
    const response = await post({
      nome: 'Fiscalização em Fuso 23',
      cliente: clienteId,
      fuso: '23',
      fluxos: 'fiscalizacao',
      arquivoFiscalizacao: sample('fiscalizacao-fuso22.csv'),
    });
    expect(response.statusCode, response.body).toBe(201);
    const [ponto] = response.json().pontosFiscalizacao;
    // the same place as on a fuso-22 project (Curitiba), not some 600 km east in zone 23
    expect(ponto.coordenadas[0]).toBeCloseTo(-25.43, 1);
    expect(ponto.coordenadas[1]).toBeCloseTo(-49.27, 1);
  });

  it('refuses bad files with a Portuguese message naming the file and line, storing nothing', async () => {
    const before = {
      projetos: await countRows('projetos'),
      zonas: await countRows('zonas'),
      registros: await countRows('registros'),
    };
    const base = { nome: 'Projeto Ruim', cliente: clienteId, fuso: '22', fluxos: ['ip', 'bdgd'] };
    const cases: [Record<string, string | string[]>, RegExp][] = [
      [{ ...base, kml: 'isto não é xml' }, /^Zoneamento: O arquivo não é um XML\/KML válido\.$/],
      [
        {
          ...base,
          kml: '<kml><Document><Placemark><name>P</name><Point><coordinates>-49,-25</coordinates></Point></Placemark></Document></kml>',
        },
        /nenhum polígono/,
      ],
      [
        {
          ...base,
          kml: '<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x SYSTEM "file:///etc/passwd">]><kml>&x;</kml>',
        },
        /DOCTYPE ou entidades/,
      ],
      [
        { ...base, arquivoIP: '-49.27;-25.43;A;B\n-49.27;-25.43\n' },
        /^Arquivo de pontos IP: Linha 2: esperadas 4 colunas/,
      ],
      [
        { ...base, arquivoIP: '-49.27;-25.43;A;B\nabc;-25.43;A;B\n' },
        /^Arquivo de pontos IP: Linha 2: longitude não é um número/,
      ],
      [{ ...base, arquivoIP: '2.35;48.85;A;B' }, /^Arquivo de pontos IP: Linha 1: coordenada fora do Brasil/],
      [{ ...base, fuso: '', arquivoBDGD: sample('bdgd-fuso22.csv') }, /Arquivo BDGD: escolha o fuso/],
      [{ ...base, zonas: '{not json' }, /zonas não é um JSON válido/],
      [{ ...base, pontosIP: JSON.stringify([{ coordenadas: [999, 1] }]) }, /pontosIP, ponto 1/],
      [{ ...base, fuso: '17' }, /O fuso deve ser de 18 a 25\./],
      [{ ...base, fluxos: ['voo'] }, /Fluxo desconhecido\./],
      [{ ...base, fluxos: [] }, /Escolha pelo menos um fluxo\./],
      [{ ...base, nome: '' }, /O nome do projeto é obrigatório\./],
      [{ ...base, cliente: 'abc' }, /Escolha o cliente do projeto\./],
      [{ ...base, cliente: '0b9a7d3c-1111-4222-8333-944455556666' }, /Cliente não encontrado\./],
    ];
    for (const [fields, message] of cases) {
      const response = await post(fields);
      expect(response.statusCode, JSON.stringify(fields).slice(0, 120)).toBe(400);
      expect(response.json().message).toMatch(message);
      expect(response.json().errors[0].msg).toMatch(message);
    }
    // A self-crossing ring ("bow tie") is refused by PostGIS's validity check.
    const invalid = await post({ ...base, zonas: JSON.stringify([BOW_TIE]) });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe('Zoneamento: o polígono "Gravata" é inválido (as bordas se cruzam).');

    const huge = await post({ ...base, kml: 'x'.repeat(50 * 1024 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('O conteúdo enviado excede o tamanho permitido.');

    expect({
      projetos: await countRows('projetos'),
      zonas: await countRows('zonas'),
      registros: await countRows('registros'),
    }).toEqual(before);
    expect((await get('/api/projeto')).statusCode).toBe(200);
  });

  it("keeps the phones' copies 7 days unless the form says 1 to 90; an edit without the field leaves it", async () => {
    const created = await post({ nome: 'Retenção', cliente: clienteId, fluxos: 'hc' });
    expect(created.statusCode, created.body).toBe(201);
    const { _id: id } = created.json();
    expect(created.json().retencaoCopiasDias).toBe(7);
    const base = { nome: 'Retenção', cliente: clienteId, fluxos: 'hc' };
    const edited = await put(id, { ...base, retencaoCopiasDias: '30' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().retencaoCopiasDias).toBe(30);
    expect((await get(`/api/projeto/${id}`)).json().retencaoCopiasDias).toBe(30);
    // an API client of before the setting edits the project without it: the setting stays as it was
    expect((await put(id, base)).json().retencaoCopiasDias).toBe(30);
    for (const dias of ['1', '90']) {
      expect((await put(id, { ...base, retencaoCopiasDias: dias })).json().retencaoCopiasDias).toBe(
        Number(dias),
      );
    }
    const stored = async () =>
      (
        await ctx.db.query<{ dias: number }>(
          'SELECT retencao_copias_dias AS dias FROM projetos WHERE id = $1',
          [id],
        )
      )[0]?.dias;
    const projetos = await countRows('projetos');
    const range = 'O campo Cópias de segurança no aparelho (dias) deve ser um número inteiro de 1 a 90.';
    const cases: [string, string][] = [
      ['0', range],
      ['91', range],
      ['2.5', range],
      ['-3', range],
      ['abc', 'Valor inválido para Cópias de segurança no aparelho (dias).'],
    ];
    for (const [dias, message] of cases) {
      for (const response of [
        await post({ ...base, nome: `Retenção ${dias}`, retencaoCopiasDias: dias }),
        await put(id, { ...base, retencaoCopiasDias: dias }),
      ]) {
        expect(response.statusCode, dias).toBe(400);
        expect(response.json().message).toBe(message);
        expect(response.json().errors[0].msg).toBe(message);
      }
    }
    expect(await countRows('projetos')).toBe(projetos);
    expect(await stored()).toBe(90);
  });

  it('refuses a duplicate name with 409', async () => {
    await post({ nome: 'Único', cliente: clienteId, fluxos: 'hc' });
    const response = await post({ nome: 'ÚNICO', cliente: clienteId, fluxos: 'hc' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('Já existe um projeto com esse nome.');
  });

  it('on edit keeps zone ids by label, and neither duplicates nor drops points technicians collected', async () => {
    const projeto = await createProjeto(ctx.app, admin, {
      nome: 'Edição',
      cliente: clienteId,
      fluxos: ['ip'],
      arquivoIP: sample('pontos-ip.txt'),
    });
    const centro = zonaId(projeto, 'Zona Centro');
    const tecnico = await createUser(ctx.db, { roles: ['tecnico'], cliente: clienteId, zonas: [centro] });
    // A technician collected IP-001 in the field.
    await ctx.db.query(
      `UPDATE registros SET coletado = true, data_hora = now() WHERE projeto = $1 AND dados->>'idConcessionaria' = 'IP-001'`,
      [projeto._id],
    );

    const edited = await put(projeto._id, {
      id: projeto._id,
      nome: 'Edição 2',
      cliente: clienteId,
      fuso: '22',
      fluxos: ['ip', 'hc'],
      kml: sample('zoneamento-curitiba.kml'),
      arquivoIP: sample('pontos-ip.txt'),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const after = edited.json();
    expect(after.nome).toBe('Edição 2');
    expect(after.zonas.find((z: Zona) => z.label === 'Zona Centro')._id).toBe(centro);
    const ids = after.pontosIP.map((p: { idConcessionaria: string }) => p.idConcessionaria).sort();
    expect(ids).toEqual(['IP-001', 'IP-002', 'IP-003', 'IP-004']);
    expect(
      after.pontosIP.find((p: { idConcessionaria: string }) => p.idConcessionaria === 'IP-001').coletado,
    ).toBe(true);
    const zonasOfTecnico = await ctx.db.query('SELECT zona FROM usuario_zonas WHERE usuario = $1', [
      tecnico.id,
    ]);
    expect(zonasOfTecnico).toHaveLength(1);

    // Without files the edit keeps zones and points; unticking ip clears only the points not collected.
    const kept = (
      await put(projeto._id, { nome: 'Edição 2', cliente: clienteId, fuso: '22', fluxos: ['ip', 'hc'] })
    ).json();
    expect(kept.zonas).toHaveLength(3);
    expect(kept.pontosIP).toHaveLength(4);
    const unticked = (
      await put(projeto._id, { nome: 'Edição 2', cliente: clienteId, fuso: '22', fluxos: ['hc'] })
    ).json();
    expect(unticked.pontosIP.map((p: { idConcessionaria: string }) => p.idConcessionaria)).toEqual([
      'IP-001',
    ]);

    // Collected records make the project undeletable; an untouched one can go.
    const blocked = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/projeto/${projeto._id}`,
      headers: { cookie: admin },
    });
    expect(blocked.statusCode).toBe(409);
    const spare = (
      await post({
        nome: 'Descartável',
        cliente: clienteId,
        fluxos: 'hc',
        kml: sample('zoneamento-curitiba.kml'),
      })
    ).json();
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/projeto/${spare._id}`,
      headers: { cookie: admin },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await get(`/api/projeto/${spare._id}`)).statusCode).toBe(404);
  });

  it("gives a technician's getByUser only the projects and zones assigned to them", async () => {
    const projeto = await createProjeto(ctx.app, admin, {
      nome: 'Para Técnico',
      cliente: clienteId,
      fluxos: ['hc', 'ip'],
    });
    const [a, b] = projeto.zonas;
    const usuario = await ctx.app.inject({
      method: 'POST',
      url: '/api/user',
      headers: { cookie: admin },
      payload: {
        login: 'tecnico.zonas',
        firstName: 'Téc',
        lastName: 'Nico',
        password: 'campo-1234',
        passwordConfirmation: 'campo-1234',
        roles: ['tecnico'],
        cliente: clienteId,
        zonas: [a?._id, b?._id],
      },
    });
    expect(usuario.statusCode, usuario.body).toBe(201);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { login: 'tecnico.zonas', password: 'campo-1234' },
    });
    expect([...login.json().zonas].sort()).toEqual([a?._id, b?._id].sort());
    const cookie = `auth_token=${login.cookies.find((c) => c.name === 'auth_token')?.value}`;
    const mine = (await get('/api/projeto/getByUser', cookie)).json();
    expect(mine).toHaveLength(1);
    expect(Object.keys(mine[0]).sort()).toEqual([
      '_id',
      'carimboFotos',
      'fluxos',
      'fuso',
      'imagensMapa',
      'limiteDownload',
      'mapaBase',
      'nome',
      'retencaoCopiasDias',
      'zonas',
    ]);
    expect(mine[0].retencaoCopiasDias).toBe(7);
    expect(mine[0].zonas.map((z: Zona) => z._id).sort()).toEqual([a?._id, b?._id].sort());
    expect(mine[0].zonas[0].poligono.length).toBeGreaterThan(3);
  });
});
