// Three engines, always (issue 40): the technician's offline day and the back office's first steps in Firefox ESR
// and in WebKitGTK (Safari's engine), as the Chromium journeys walk them; e2e/tests/engines-firefox.spec.ts and
// engines-webkit.spec.ts run them, side by side. The browser reaches the server through a proxy (fault-proxy.ts)
// that can refuse every connection or drop an answer: the same fault in every engine. Each test opens its own window
// on its own origin (the proxy's port), so nothing is shared.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createCliente, unique } from '../api';
import { adminApi, type CollectWorld, setUpWorld, TECNICO_PASSWORD } from '../collect-setup';
import { ADMIN, BASE_URL } from '../env';
import {
  clickWhenShown,
  type Engine,
  engineInstalled,
  type EngineName,
  launchEngine,
  pageText,
  type Viewport,
  waitForText,
  waitUntil,
} from './engines';
import { expectAccessibleIn } from './axe';
import { FaultProxy } from './fault-proxy';
import { DESKTOP } from '../screens';

const SCREENSHOTS = path.resolve(import.meta.dirname, '../..', 'screenshots');
const KML = path.resolve(import.meta.dirname, '../../../docs/samples/zoneamento-curitiba.kml');

interface ServerPoste {
  _id: string;
  fotos: string[];
}

async function serverPostes(world: CollectWorld): Promise<ServerPoste[]> {
  const response = await world.admin.get(
    `/api/poste/getByNomeProjeto/${encodeURIComponent(world.projetoNome)}`,
  );
  expect(response.ok()).toBe(true);
  return (await response.json()) as ServerPoste[];
}

/** A real JPEG drawn by the engine's own canvas (as its camera would hand one over), written to a file. */
async function jpegFile(engine: Engine, dir: string, label: string): Promise<string> {
  const base64 = await engine.evaluate<string>(
    `(label) => {
      const canvas = document.createElement('canvas');
      canvas.width = 640;
      canvas.height = 480;
      const context = canvas.getContext('2d');
      context.fillStyle = '#3b6ea5';
      context.fillRect(0, 0, 640, 480);
      context.fillStyle = '#ffffff';
      context.font = '48px sans-serif';
      context.fillText(label, 40, 240);
      return canvas.toDataURL('image/jpeg', 0.9).split(',')[1];
    }`,
    label,
  );
  const file = path.join(dir, `${label.replace(/\W+/g, '-')}.jpg`);
  fs.writeFileSync(file, Buffer.from(base64, 'base64'));
  return file;
}

async function signIn(engine: Engine, url: string, login: string, password: string): Promise<void> {
  await engine.goto(`${url}/login`);
  await waitUntil('the login form', () => engine.has('button', 'Entrar'), 30_000);
  await expectAccessibleIn(engine, 'login');
  await engine.fill('Login', login);
  await engine.fill('Senha', password);
  await engine.click('button', 'Entrar');
}

async function sync(engine: Engine): Promise<void> {
  await clickWhenShown(engine, 'button', 'Sincronizar');
  await waitForText(engine, 'Sincronizacao concluida', 60_000);
}

/** Iniciar → the project → Poste: the pole's map step. */
async function openPoste(engine: Engine, world: CollectWorld): Promise<void> {
  await clickWhenShown(engine, 'link', 'Iniciar');
  await clickWhenShown(engine, 'link', world.projetoNome);
  await clickWhenShown(engine, 'link', 'Poste');
  await waitForText(engine, 'Passo 1 de 2: Coordenadas');
}

/** A pole through the wizard: a point tapped on the map, the form, two photos; saved on the device. */
async function collectPoste(engine: Engine, world: CollectWorld, fotos: readonly string[]): Promise<void> {
  await openPoste(engine, world);
  await waitUntil('the map', () =>
    engine.evaluate<boolean>('() => !!document.querySelector(".leaflet-container")'),
  );
  await engine.clickInside('.leaflet-container', 0.3, 0.7);
  await clickWhenShown(engine, 'button', 'Gravar Coordenadas');
  await waitUntil('the pole form', () => engine.has('button', 'Gravar'));
  await engine.select('Altura', '10');
  await engine.select('Carga', '300');
  await engine.select('Tipo de rede elétrica', 'MISTA');
  for (const [index, foto] of fotos.entries()) {
    await engine.setFile(`Foto ${index + 1}`, foto);
    await waitUntil(`the thumbnail of Foto ${index + 1}`, () =>
      engine.has('img', `Miniatura da Foto ${index + 1}`),
    );
  }
  await expectAccessibleIn(engine, 'poste form');
  await engine.click('button', 'Gravar');
  await waitForText(engine, 'Poste gravado no aparelho.');
}

async function home(engine: Engine, url: string): Promise<void> {
  await engine.goto(`${url}/`);
  await waitUntil('the home', () => engine.has('button', 'Sincronizar'), 30_000);
}

/**
 * Opens the MUI select named `combobox` and picks `option`, until the select shows it: a click on an option while
 * its menu still grows in may be lost.
 */
async function choose(engine: Engine, combobox: RegExp, option: string): Promise<void> {
  await waitUntil(
    `'${option}' chosen`,
    async () => {
      const chosen = await engine.evaluate<boolean>(
        `(text) => Array.from(document.querySelectorAll('[role="combobox"]')).some((box) => box.textContent.includes(text))`,
        option,
      );
      if (chosen) return true;
      if (await engine.has('option', option)) await engine.click('option', option);
      else await engine.click('combobox', combobox);
      return false;
    },
    30_000,
  );
}

async function compress(engine: Engine): Promise<void> {
  await engine.click('button', 'Compactar Imagens');
  await waitForText(engine, 'Compactacao concluida com sucesso', 60_000);
}

interface EngineFixtures {
  /** The origin the engine's window uses, in front of the run's server. */
  rede: FaultProxy;
  /** A folder for the test's files (the photos the camera hands over). */
  files: string;
  /** Opens the engine's window (phone size unless told); closed after the test, with a screenshot on failure. */
  abrir: (name: EngineName, viewport?: Viewport) => Promise<Engine>;
}

const engineTest = test.extend<EngineFixtures>({
  rede: async ({ browserName: _ }, use) => {
    const proxy = await FaultProxy.start(BASE_URL);
    await use(proxy);
    await proxy.close();
  },
  files: async ({ browserName: _ }, use) => {
    const files = fs.mkdtempSync(path.join(os.tmpdir(), 'novus-e2e-motor-'));
    await use(files);
    fs.rmSync(files, { recursive: true, force: true });
  },
  abrir: async ({ browserName: _ }, use, testInfo) => {
    const opened: Engine[] = [];
    await use(async (name, viewport) => {
      const engine = await launchEngine(name, viewport);
      opened.push(engine);
      testInfo.annotations.push({ type: 'motor', description: engine.version });
      return engine;
    });
    for (const engine of opened) {
      if (testInfo.status !== testInfo.expectedStatus) {
        const title = testInfo.title.slice(0, 48).replace(/\W+/g, '-');
        await engine.screenshot(path.join(SCREENSHOTS, `falha-${title}.png`)).catch(() => undefined);
        testInfo.annotations.push({ type: 'página', description: await pageText(engine).catch(() => '') });
      }
      await engine.close();
    }
  },
});

/** The journeys of one engine, as a describe block of the spec file that calls it. */
export function engineJourneys(name: EngineName): void {
  engineTest.describe(name, () => {
    // Each engine's tests open their own windows; CI installs both engines and must never skip them.
    engineTest.skip(
      !engineInstalled(name) && !process.env.CI,
      `${name} is not installed (.ci/run installs it)`,
    );

    engineTest(
      `${name}: the offline day — ready offline, the server gone, the app reloaded, a pole with photos, compression, sync`,
      async ({ rede, files, abrir }) => {
        test.setTimeout(240_000);
        const world = await setUpWorld({ fluxos: 'poste' });
        const { url } = rede;
        const engine = await abrir(name);

        await signIn(engine, url, world.tecnico.login, TECNICO_PASSWORD);
        await waitForText(engine, `Olá, ${world.tecnico.nome}`, 30_000);
        await sync(engine);
        if (name === 'webkit') {
          // WebKitGTK has no navigator.storage (Safari on iOS has it): the panel says so rather than guess.
          await waitForText(engine, 'Armazenamento: indisponível');
        }

        // The project's map downloaded: the home says the phone is ready for the day.
        await openPoste(engine, world);
        await clickWhenShown(engine, 'button', 'Download do Mapa');
        await waitForText(engine, /Mapa baixado: \d+ blocos disponíveis sem internet\./, 60_000);
        await home(engine, url);
        await waitForText(engine, 'Pronto para uso offline', 30_000);
        await expectAccessibleIn(engine, 'home pronta para uso offline');

        // The server gone: the app reloads from its service worker, and a pole with two photos is saved.
        rede.down = true;
        await engine.reload();
        await waitForText(engine, `Olá, ${world.tecnico.nome}`, 30_000);
        const fotos = [
          await jpegFile(engine, files, 'Poste 1 a'),
          await jpegFile(engine, files, 'Poste 1 b'),
        ];
        await collectPoste(engine, world, fotos);
        await home(engine, url);
        await waitForText(engine, 'Postes pendentes: 1');
        await compress(engine);
        await expectAccessibleIn(engine, 'home com um poste pendente');
        await engine.screenshot(path.join(SCREENSHOTS, `${name}-tecnico-offline.png`));

        // The server back: one sync, the pole on the server once with both photos, nothing pending.
        rede.down = false;
        await sync(engine);
        await waitForText(engine, 'Postes pendentes: 0');
        const postes = await serverPostes(world);
        expect(postes).toHaveLength(1);
        expect(postes[0]?.fotos).toHaveLength(2);
        expect(await engine.pageErrors()).toEqual([]);
        await world.admin.dispose();
      },
    );

    engineTest(
      `${name}: the pending list, and a sync whose answer is lost sends the pole once`,
      async ({ rede, files, abrir }) => {
        test.setTimeout(180_000);
        const world = await setUpWorld({ fluxos: 'poste' });
        const { url } = rede;
        const engine = await abrir(name);
        await signIn(engine, url, world.tecnico.login, TECNICO_PASSWORD);
        await waitForText(engine, `Olá, ${world.tecnico.nome}`, 30_000);
        await sync(engine);

        const fotos = [await jpegFile(engine, files, 'Poste 2 a')];
        await collectPoste(engine, world, fotos);
        // 'Levantamento': the pole waits on the phone.
        await home(engine, url);
        await clickWhenShown(engine, 'link', 'Levantamento');
        await waitForText(engine, 'Poste');
        await home(engine, url);
        await waitForText(engine, 'Postes pendentes: 1');
        await compress(engine);

        // The upload reaches the server, its answer never reaches the phone: the pole stays pending, and the next
        // sync settles it without a second copy.
        rede.dropNextAnswer({ method: 'POST', path: /^\/api\/poste$/ });
        await clickWhenShown(engine, 'button', 'Sincronizar');
        // polled through the page: classic WebDriver answers the sync's confirmation only at its next command
        await waitUntil(
          'the answer dropped',
          async () => (await pageText(engine)).length > 0 && rede.dropped.length === 1,
          60_000,
        );
        await waitUntil('the sync over', () => engine.has('button', 'Sincronizar'), 60_000);
        await waitUntil(
          'the sync button enabled',
          () =>
            engine.evaluate<boolean>(
              `() => [...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Sincronizar' && !b.disabled)`,
            ),
          60_000,
        );
        expect(await serverPostes(world)).toHaveLength(1);
        await sync(engine);
        await waitForText(engine, 'Postes pendentes: 0');
        expect(await serverPostes(world)).toHaveLength(1);
        expect(await engine.pageErrors()).toEqual([]);
        await world.admin.dispose();
      },
    );

    engineTest(
      `${name}: the back office — the administrador signs in and adds a project`,
      async ({ rede, abrir }) => {
        test.setTimeout(120_000);
        const admin = await adminApi();
        const cliente = unique('Cliente Motor');
        await createCliente(admin, cliente);
        const { url } = rede;
        const engine = await abrir(name, DESKTOP);
        await engine.goto(`${url}/login?target=backoffice`);
        await waitUntil('the login form', () => engine.has('button', 'Entrar'), 30_000);
        await engine.fill('Login', ADMIN.login);
        await engine.fill('Senha', ADMIN.password);
        await engine.click('button', 'Entrar');
        await waitForText(engine, 'Olá, Administrador', 30_000);

        const nome = unique('Projeto Motor');
        await clickWhenShown(engine, 'link', 'Projetos');
        await clickWhenShown(engine, 'link', 'Novo');
        await waitForText(engine, 'Adicionar Projeto');
        await engine.fill('Nome', nome);
        await choose(engine, /^Cliente/, cliente);
        await engine.setFile('Arquivo KML', KML);
        await waitForText(engine, 'zoneamento-curitiba.kml — 3 zonas');
        await engine.check('Poste');
        await expectAccessibleIn(engine, 'Adicionar Projeto');
        await engine.screenshot(path.join(SCREENSHOTS, `${name}-backoffice-projeto.png`));
        await engine.click('button', 'Gravar');
        await waitForText(engine, 'Projeto adicionado com sucesso.', 30_000);

        const projetos = (await (await admin.get('/api/projeto')).json()) as {
          nome: string;
          fluxos: string[];
        }[];
        expect(projetos.find((projeto) => projeto.nome === nome)?.fluxos).toEqual(['poste']);
        expect(await engine.pageErrors()).toEqual([]);
        await admin.dispose();
      },
    );
  });
}
