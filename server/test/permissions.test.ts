// The permission matrix of DESIGN.md: every endpoint x every kind of caller x an object of client A and of
// client B, asserting the exact status of each cell.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceDownload } from '@novus/domain/flows/flow';
import { FLOWS } from '@novus/domain/flows/registry';
import type { Role } from '@novus/domain/roles';
import {
  createCookie,
  createTestContext,
  FORM,
  formBody,
  loginCookie,
  sample,
  type TestContext,
} from './support/test-app.ts';

const ACTORS = [
  'none',
  'tecnico',
  'interpretador',
  'externo',
  'supervisorA',
  'supervisorB',
  'administrador',
] as const;
type ActorName = (typeof ACTORS)[number];
type Side = 'A' | 'B';

interface Fixture {
  cliente: string;
  projeto: string;
  zona: string;
  usuario: string;
}

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  form?: Record<string, string | string[]>;
  json?: object;
}

/** Expected status per actor, in ACTORS order. */
type Row = readonly [number, number, number, number, number, number, number];

interface Endpoint {
  name: string;
  call: (side: Side, actor: ActorName) => Promise<Call> | Call;
  expect: { A: Row; B: Row };
}

describe('permission matrix', () => {
  let ctx: TestContext;
  const cookies = {} as Record<ActorName, string | undefined>;
  const fixture = {} as Record<Side, Fixture>;
  let counter = 0;
  const unique = (prefix: string) => `${prefix} ${++counter}`;

  async function adminCall(call: Call) {
    return send(call, cookies.administrador);
  }

  async function send(call: Call, cookie: string | undefined) {
    const headers: Record<string, string> = cookie ? { cookie } : {};
    if (call.form) {
      return ctx.app.inject({
        method: call.method,
        url: call.url,
        headers: { ...headers, ...FORM },
        payload: formBody(call.form),
      });
    }
    return ctx.app.inject({
      method: call.method,
      url: call.url,
      headers,
      ...(call.json ? { payload: call.json } : {}),
    });
  }

  async function makeSide(side: Side, disponivelInterpres: boolean): Promise<Fixture> {
    const cliente = (
      await adminCall({ method: 'POST', url: '/api/cliente', json: { nome: `Cliente ${side}` } })
    ).json()._id;
    const projeto = (
      await adminCall({
        method: 'POST',
        url: '/api/projeto',
        form: {
          nome: `Projeto ${side}`,
          cliente,
          fuso: '22',
          fluxos: ['hc', 'ip'],
          disponivelInterpres: String(disponivelInterpres),
          kml: sample('zoneamento-curitiba.kml'),
        },
      })
    ).json();
    const zona = projeto.zonas[0]._id;
    const usuario = (
      await adminCall({
        method: 'POST',
        url: '/api/user',
        json: {
          login: `tecnico.${side.toLowerCase()}`,
          password: 'campo-1234',
          passwordConfirmation: 'campo-1234',
          roles: ['tecnico'],
          cliente,
          zonas: [zona],
        },
      })
    ).json()._id;
    return { cliente, projeto: projeto._id, zona, usuario };
  }

  const projetoForm = (side: Side) => ({
    nome: `Projeto ${side}`,
    cliente: fixture[side].cliente,
    fuso: '22',
    fluxos: ['hc', 'ip'],
    disponivelInterpres: String(side === 'A'),
  });

  beforeAll(async () => {
    ctx = await createTestContext();
    cookies.administrador = await createCookie(ctx.app, ctx.db, { roles: ['administrador'] });
    fixture.A = await makeSide('A', true);
    fixture.B = await makeSide('B', false);
    cookies.none = undefined;
    cookies.tecnico = await loginCookie(ctx.app, 'tecnico.a', 'campo-1234');
    const roles: [ActorName, Role[], string | undefined][] = [
      ['interpretador', ['interpretador'], undefined],
      ['externo', ['externo'], undefined],
      ['supervisorA', ['supervisor'], fixture.A.cliente],
      ['supervisorB', ['supervisor'], fixture.B.cliente],
    ];
    for (const [name, userRoles, cliente] of roles) {
      cookies[name] = await createCookie(ctx.app, ctx.db, {
        roles: userRoles,
        ...(cliente ? { cliente } : {}),
      });
    }
  });
  afterAll(async () => ctx.close());

  //                               none tec  int  ext  supA supB admin
  const ADMIN_ONLY_CREATE: Row = [401, 403, 403, 403, 403, 403, 201];
  const ADMIN_ONLY_OK: Row = [401, 403, 403, 403, 403, 403, 200];
  const SUPERVISOR_A: Row = [401, 403, 403, 403, 200, 403, 200];
  const SUPERVISOR_B: Row = [401, 403, 403, 403, 403, 200, 200];

  const endpoints: Endpoint[] = [
    {
      name: 'GET /api/auth/me',
      call: () => ({ method: 'GET', url: '/api/auth/me' }),
      expect: { A: [401, 200, 200, 200, 200, 200, 200], B: [401, 200, 200, 200, 200, 200, 200] },
    },
    {
      name: 'GET /api/cliente',
      call: () => ({ method: 'GET', url: '/api/cliente' }),
      expect: { A: [401, 403, 403, 403, 200, 200, 200], B: [401, 403, 403, 403, 200, 200, 200] },
    },
    {
      name: 'GET /api/cliente/:id',
      call: (s) => ({ method: 'GET', url: `/api/cliente/${fixture[s].cliente}` }),
      expect: { A: SUPERVISOR_A, B: SUPERVISOR_B },
    },
    {
      name: 'POST /api/cliente',
      call: () => ({ method: 'POST', url: '/api/cliente', json: { nome: unique('Novo cliente') } }),
      expect: { A: ADMIN_ONLY_CREATE, B: ADMIN_ONLY_CREATE },
    },
    {
      name: 'PUT /api/cliente/:id',
      call: (s) => ({
        method: 'PUT',
        url: `/api/cliente/${fixture[s].cliente}`,
        json: { nome: `Cliente ${s}` },
      }),
      expect: { A: ADMIN_ONLY_OK, B: ADMIN_ONLY_OK },
    },
    // Clients A and B are in use, so even the administrador's delete is refused, with 409.
    {
      name: 'DELETE /api/cliente/:id',
      call: (s) => ({ method: 'DELETE', url: `/api/cliente/${fixture[s].cliente}` }),
      expect: { A: [401, 403, 403, 403, 403, 403, 409], B: [401, 403, 403, 403, 403, 403, 409] },
    },
    {
      name: 'GET /api/projeto',
      call: () => ({ method: 'GET', url: '/api/projeto' }),
      expect: { A: [401, 403, 200, 200, 200, 200, 200], B: [401, 403, 200, 200, 200, 200, 200] },
    },
    // Project A is available to Interpres, B is not.
    {
      name: 'GET /api/projeto/:id',
      call: (s) => ({ method: 'GET', url: `/api/projeto/${fixture[s].projeto}` }),
      expect: { A: [401, 403, 200, 200, 200, 403, 200], B: SUPERVISOR_B },
    },
    {
      name: 'GET /api/projeto/getByUser',
      call: () => ({ method: 'GET', url: '/api/projeto/getByUser' }),
      expect: { A: [401, 200, 200, 200, 200, 200, 200], B: [401, 200, 200, 200, 200, 200, 200] },
    },
    {
      name: 'GET /api/projeto/getByCliente/:id',
      call: (s) => ({ method: 'GET', url: `/api/projeto/getByCliente/${fixture[s].cliente}` }),
      expect: { A: SUPERVISOR_A, B: SUPERVISOR_B },
    },
    {
      name: 'POST /api/projeto',
      call: (s) => ({
        method: 'POST',
        url: '/api/projeto',
        form: { ...projetoForm(s), nome: unique('Projeto novo') },
      }),
      expect: { A: ADMIN_ONLY_CREATE, B: ADMIN_ONLY_CREATE },
    },
    {
      name: 'PUT /api/projeto/:id',
      call: (s) => ({ method: 'PUT', url: `/api/projeto/${fixture[s].projeto}`, form: projetoForm(s) }),
      expect: { A: ADMIN_ONLY_OK, B: ADMIN_ONLY_OK },
    },
    {
      name: 'DELETE /api/projeto/:id',
      call: async (s, actor) => {
        if (actor !== 'administrador') return { method: 'DELETE', url: `/api/projeto/${fixture[s].projeto}` };
        const spare = await adminCall({
          method: 'POST',
          url: '/api/projeto',
          form: { ...projetoForm(s), nome: unique('Descartável') },
        });
        return { method: 'DELETE', url: `/api/projeto/${spare.json()._id}` };
      },
      expect: { A: ADMIN_ONLY_OK, B: ADMIN_ONLY_OK },
    },
    {
      name: 'GET /api/user',
      call: () => ({ method: 'GET', url: '/api/user' }),
      expect: { A: ADMIN_ONLY_OK, B: ADMIN_ONLY_OK },
    },
    {
      name: 'GET /api/user/:id',
      call: (s) => ({ method: 'GET', url: `/api/user/${fixture[s].usuario}` }),
      expect: { A: ADMIN_ONLY_OK, B: ADMIN_ONLY_OK },
    },
    {
      name: 'POST /api/user',
      call: (s) => ({
        method: 'POST',
        url: '/api/user',
        json: {
          login: unique('login').replace(' ', '.'),
          password: 'campo-1234',
          passwordConfirmation: 'campo-1234',
          roles: ['tecnico'],
          cliente: fixture[s].cliente,
          zonas: [fixture[s].zona],
        },
      }),
      expect: { A: ADMIN_ONLY_CREATE, B: ADMIN_ONLY_CREATE },
    },
    {
      name: 'PUT /api/user/:id',
      call: (s) => ({
        method: 'PUT',
        url: `/api/user/${fixture[s].usuario}`,
        json: { firstName: 'Téc', roles: ['tecnico'], cliente: fixture[s].cliente, zonas: [fixture[s].zona] },
      }),
      expect: { A: ADMIN_ONLY_OK, B: ADMIN_ONLY_OK },
    },
    {
      name: 'DELETE /api/user/:id',
      call: async (s, actor) => {
        if (actor !== 'administrador') return { method: 'DELETE', url: `/api/user/${fixture[s].usuario}` };
        const spare = await adminCall({
          method: 'POST',
          url: '/api/user',
          json: {
            login: unique('descartavel').replace(' ', '.'),
            password: 'campo-1234',
            passwordConfirmation: 'campo-1234',
            roles: ['externo'],
          },
        });
        return { method: 'DELETE', url: `/api/user/${spare.json()._id}` };
      },
      expect: { A: ADMIN_ONLY_OK, B: ADMIN_ONLY_OK },
    },
    // The routes every flow of the registry derives: the devices' download by zone and the back office's list by
    // project (by the project's name or id, as the flow declares).
    ...FLOWS.flatMap((flow): Endpoint[] =>
      flow.byZona
        ? [
            {
              name: `GET /api/${flow.apiPath}/getByZona`,
              call: (s) => ({ method: 'GET', url: `/api/${flow.apiPath}/getByZona?id=${fixture[s].zona}` }),
              expect: { A: [401, 200, 403, 403, 200, 403, 200], B: [401, 403, 403, 403, 403, 200, 200] },
            },
          ]
        : [],
    ),
    ...FLOWS.flatMap((flow): Endpoint[] => {
      const byProject = flow.byProject;
      if (!byProject) return [];
      return [
        {
          name: `GET /api/${byProject.path}`,
          call: (s) => ({
            method: 'GET',
            url: `/api/${byProject.path.replace(
              ':projeto',
              byProject.by === 'id' ? fixture[s].projeto : encodeURIComponent(`Projeto ${s}`),
            )}`,
          }),
          // A flow the devices download by project (LPT Agiltec) also answers the technicians of its zones.
          expect: {
            A: [401, deviceDownload(flow) === 'projeto' ? 200 : 403, 200, 200, 200, 403, 200],
            B: SUPERVISOR_B,
          },
        },
      ];
    }),
  ];

  it.each(endpoints)('$name', async (endpoint) => {
    const actual: Record<Side, number[]> = { A: [], B: [] };
    for (const side of ['A', 'B'] as const) {
      for (const actor of ACTORS) {
        const response = await send(await endpoint.call(side, actor), cookies[actor]);
        actual[side].push(response.statusCode);
        if (response.statusCode >= 400)
          expect(response.json().message, `${endpoint.name} ${actor} ${side}`).toBeTruthy();
      }
    }
    expect(actual).toEqual({ A: [...endpoint.expect.A], B: [...endpoint.expect.B] });
  });

  it('serves no getByZona for a flow without it (LPT Agiltec comes by project)', async () => {
    for (const flow of FLOWS.filter((candidate) => !candidate.byZona)) {
      const response = await send(
        { method: 'GET', url: `/api/${flow.apiPath}/getByZona?id=${fixture.A.zona}` },
        cookies.administrador,
      );
      expect(response.statusCode, flow.key).toBe(404);
    }
  });

  it('filters lists by owner: a supervisor sees only the projects of their client, Interpres users only available ones', async () => {
    const list = async (actor: ActorName) =>
      (await send({ method: 'GET', url: '/api/projeto' }, cookies[actor])).json() as {
        nome: string;
        cliente: { _id: string };
        disponivelInterpres: boolean;
      }[];
    const all = await list('administrador');
    expect(all.map((p) => p.nome)).toEqual(expect.arrayContaining(['Projeto A', 'Projeto B']));
    expect(await list('supervisorA')).toEqual(all.filter((p) => p.cliente._id === fixture.A.cliente));
    expect(await list('supervisorB')).toEqual(all.filter((p) => p.cliente._id === fixture.B.cliente));
    expect(await list('interpretador')).toEqual(all.filter((p) => p.disponivelInterpres));
    expect((await list('interpretador')).map((p) => p.nome)).toContain('Projeto A');
    expect((await list('interpretador')).map((p) => p.nome)).not.toContain('Projeto B');
    const tecnicoProjects = (
      await send({ method: 'GET', url: '/api/projeto/getByUser' }, cookies.tecnico)
    ).json();
    expect(tecnicoProjects.map((p: { nome: string }) => p.nome)).toEqual(['Projeto A']);
    expect(tecnicoProjects[0].zonas.map((z: { _id: string }) => z._id)).toEqual([fixture.A.zona]);
  });
});
