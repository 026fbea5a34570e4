// Real server processes for tests: `node --import tsx server/src/main.ts` with its own environment, called over
// real HTTP as a browser would.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { formBody } from './test-app.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface ServerProcess {
  name: string;
  url: string;
  port: number;
  process: ChildProcess;
  /** Run under a wrapper (strace), in a process group of its own that is signalled whole. */
  wrapped: boolean;
  /** Everything it printed, for failure messages. */
  output: string[];
  /** Resolves with the exit code (null when killed by a signal) once the process is gone. */
  exited: Promise<number | null>;
}

/**
 * Starts `server/src/main.ts` and resolves once it listens and printed its banner; `wrapper` runs it under another
 * command (strace, say: `['strace', '-f', '-o', file]`).
 */
export function startServer(
  name: string,
  env: Record<string, string>,
  wrapper: string[] = [],
): Promise<ServerProcess> {
  const [command = process.execPath, ...args] = [
    ...wrapper,
    process.execPath,
    '--import',
    'tsx',
    'server/src/main.ts',
  ];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Under a wrapper, a group of its own: a signal to strace alone detaches it and leaves the server running.
    detached: wrapper.length > 0,
  });
  const wrapped = wrapper.length > 0;
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let url: string | undefined;
    const timer = setTimeout(() => fail(new Error('did not start within 60 s')), 60_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      signal(child, wrapped, 'SIGKILL');
      reject(new Error(`server ${name}: ${error.message}\n${output.join('')}`));
    };
    const read = (chunk: Buffer) => {
      output.push(chunk.toString());
      const text = output.join('');
      // PORT=0 lets the system choose; Fastify's log says which port it got.
      url ??= /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
      if (url && text.includes('Novus está no ar')) {
        clearTimeout(timer);
        child.removeListener('exit', onExit);
        resolve({ name, url, port: Number(new URL(url).port), process: child, wrapped, output, exited });
      }
    };
    const onExit = (code: number | null) => fail(new Error(`exited with ${code}`));
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', onExit);
  });
}

/** The process, or its whole group when it runs under a wrapper (the server with it). */
function signal(child: ChildProcess, wrapped: boolean, name: NodeJS.Signals): void {
  try {
    if (wrapped && child.pid !== undefined) process.kill(-child.pid, name);
    else child.kill(name);
  } catch {
    // already gone
  }
}

/** SIGTERM, then SIGKILL if it is still running after 10 s (to the wrapper's whole group: no server left behind). */
export async function stopServer(server: ServerProcess | undefined): Promise<void> {
  const child = server?.process;
  if (!server || !child || child.exitCode !== null || child.signalCode !== null) return;
  signal(child, server.wrapped, 'SIGTERM');
  const timer = setTimeout(() => signal(child, server.wrapped, 'SIGKILL'), 10_000);
  await server.exited;
  clearTimeout(timer);
}

export interface CallOptions {
  cookie?: string;
  json?: unknown;
  form?: Record<string, string | string[]>;
  multipart?: { payload: Buffer; headers: Record<string, string> };
}

/** A browser-like call: JSON, form or multipart bodies and the session cookie. */
export function call(server: { url: string }, method: string, url: string, options: CallOptions = {}) {
  const headers: Record<string, string> = options.cookie ? { cookie: options.cookie } : {};
  let body: string | Buffer | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = formBody(options.form);
  } else if (options.multipart) {
    Object.assign(headers, options.multipart.headers);
    body = options.multipart.payload;
  }
  return fetch(`${server.url}${url}`, { method, headers, ...(body === undefined ? {} : { body }) });
}

/** Logs in and returns the `auth_token=...` cookie pair, or throws with the answer. */
export async function login(server: ServerProcess, login: string, password: string): Promise<string> {
  const response = await call(server, 'POST', '/api/auth/login', { json: { login, password } });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`login ${login} on ${server.name}: ${response.status} ${text}`);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('auth_token='));
  if (!cookie) throw new Error('no auth_token cookie');
  return cookie.split(';')[0] ?? '';
}
