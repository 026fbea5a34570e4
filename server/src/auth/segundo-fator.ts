// 'Verificação em duas etapas' (issue 42): TOTP (RFC 6238, 30 s, 6 digits, SHA-1, as every authenticator app
// reads it) with otpauth, one step either side for a phone's clock; a code is accepted once (the last step taken is
// kept); ten recovery codes kept as SHA-256 hashes (random 50-bit codes: a slow hash adds nothing), each good once.
import crypto from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Role } from '@novus/domain/roles';
import type { Database, Queryable } from '../db/database.ts';
import type { Cifra } from './cifra.ts';

const ISSUER = 'Novus';
const RECOVERY_CODES = 10;
/** Roles the administrador's setting may require the second factor of. */
const GESTORES: readonly Role[] = ['administrador', 'supervisor'];
const OBRIGATORIO = 'segundoFatorObrigatorio';

export interface SegundoFatorRow {
  id: string;
  login: string;
  roles: string[];
  totp_segredo: string | null;
  totp_pendente: string | null;
}

export interface NovoSegredo {
  segredo: string;
  uri: string;
  qrSvg: string;
}

const totpOf = (login: string, segredo: string) =>
  new TOTP({ issuer: ISSUER, label: login, secret: Secret.fromBase32(segredo) });

/** A fresh secret for `login`, with what the app scans or the person types. */
export async function novoSegredo(login: string): Promise<NovoSegredo> {
  const segredo = new Secret({ size: 20 }).base32;
  const uri = totpOf(login, segredo).toString();
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { segredo, uri, qrSvg };
}

/** A code as typed: spaces and dashes dropped, lower case (recovery codes are shown as 'abcde-fghij'). */
const normalized = (codigo: string) => codigo.replace(/[\s-]/g, '').toLowerCase();

/**
 * The time step of a right six-digit code for the secret kept as `guardado` (sealed, cifra.ts) at `now`, or null
 * (also when the secret does not open: sealed under another AUTH_SECRET).
 */
function passoDe(cifra: Cifra, guardado: string, codigo: string, now: number): number | null {
  const token = normalized(codigo);
  if (!/^\d{6}$/.test(token)) return null;
  const segredo = cifra.abrir(guardado);
  if (segredo === undefined) return null;
  const delta = TOTP.validate({ token, secret: Secret.fromBase32(segredo), timestamp: now, window: 1 });
  return delta === null ? null : TOTP.counter({ timestamp: now }) + delta;
}

const hashOf = (codigo: string) => crypto.createHash('sha256').update(normalized(codigo)).digest('hex');

/** Ten new recovery codes for the user (the old ones go), returned as shown once to the person. */
export async function novosCodigosRecuperacao(tx: Queryable, usuario: string): Promise<string[]> {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const codigos = Array.from({ length: RECOVERY_CODES }, () => {
    const chars = Array.from(crypto.randomBytes(10), (byte) => alphabet[byte % alphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  await tx.query('DELETE FROM codigos_recuperacao WHERE usuario = $1', [usuario]);
  await tx.query('INSERT INTO codigos_recuperacao (usuario, hash) SELECT $1, unnest($2::text[])', [
    usuario,
    codigos.map(hashOf),
  ]);
  return codigos;
}

/**
 * Takes `codigo` for the user's active secret: a TOTP code of a step later than the last one taken, or an unused
 * recovery code. Each is good once, also when two requests race (the update is the check).
 */
export async function aceitarCodigo(
  db: Queryable,
  cifra: Cifra,
  usuario: { id: string; totp_segredo: string },
  codigo: string,
  now = Date.now(),
): Promise<boolean> {
  const passo = passoDe(cifra, usuario.totp_segredo, codigo, now);
  if (passo !== null) {
    const taken = await db.query(
      `UPDATE usuarios SET totp_ultimo_passo = $2
       WHERE id = $1 AND (totp_ultimo_passo IS NULL OR totp_ultimo_passo < $2) RETURNING id`,
      [usuario.id, passo],
    );
    return taken.length > 0;
  }
  const used = await db.query(
    `UPDATE codigos_recuperacao SET usado_em = now()
     WHERE usuario = $1 AND hash = $2 AND usado_em IS NULL RETURNING usuario`,
    [usuario.id, hashOf(codigo)],
  );
  return used.length > 0;
}

/**
 * Turns the secret being set up on when `codigo` is its code: it becomes the active one, that step taken, and
 * ten recovery codes are made. Null when the code is wrong or nothing is being set up.
 */
export async function confirmarPendente(
  db: Database,
  cifra: Cifra,
  usuario: { id: string; totp_pendente: string | null },
  codigo: string,
  now = Date.now(),
): Promise<string[] | null> {
  const { totp_pendente: pendente } = usuario;
  if (pendente === null) return null;
  const passo = passoDe(cifra, pendente, codigo, now);
  if (passo === null) return null;
  return db.transaction(async (tx) => {
    const turned = await tx.query(
      `UPDATE usuarios SET totp_segredo = totp_pendente, totp_pendente = NULL, totp_ultimo_passo = $3
       WHERE id = $1 AND totp_pendente = $2 RETURNING id`,
      [usuario.id, pendente, passo],
    );
    if (turned.length === 0) return null;
    return novosCodigosRecuperacao(tx, usuario.id);
  });
}

/** Keeps `segredo`, sealed, as the one being set up (a new start replaces an unfinished one). */
export async function guardarPendente(
  db: Queryable,
  cifra: Cifra,
  usuario: string,
  segredo: string,
): Promise<void> {
  await db.query('UPDATE usuarios SET totp_pendente = $2 WHERE id = $1', [usuario, cifra.selar(segredo)]);
}

/** Turns the second factor off: secret, pending secret, last step and recovery codes. */
export async function desligar(db: Queryable, usuario: string): Promise<void> {
  await db.query(
    'UPDATE usuarios SET totp_segredo = NULL, totp_pendente = NULL, totp_ultimo_passo = NULL WHERE id = $1',
    [usuario],
  );
  await db.query('DELETE FROM codigos_recuperacao WHERE usuario = $1', [usuario]);
}

export async function segundoFatorDe(db: Queryable, usuario: string): Promise<SegundoFatorRow | undefined> {
  const rows = await db.query<SegundoFatorRow>(
    'SELECT id, login, roles, totp_segredo, totp_pendente FROM usuarios WHERE id = $1',
    [usuario],
  );
  return rows[0];
}

export async function codigosRestantes(db: Queryable, usuario: string): Promise<number> {
  const rows = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM codigos_recuperacao WHERE usuario = $1 AND usado_em IS NULL',
    [usuario],
  );
  return rows[0]?.count ?? 0;
}

export async function segundoFatorObrigatorio(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ valor: unknown }>('SELECT valor FROM configuracoes WHERE chave = $1', [
    OBRIGATORIO,
  ]);
  return rows[0]?.valor === true;
}

export async function definirObrigatorio(db: Queryable, valor: boolean): Promise<void> {
  await db.query(
    `INSERT INTO configuracoes (chave, valor) VALUES ($1, $2::jsonb)
     ON CONFLICT (chave) DO UPDATE SET valor = EXCLUDED.valor`,
    [OBRIGATORIO, JSON.stringify(valor)],
  );
}

/** Whether the administrador's setting requires the second factor of someone with these roles. */
export async function exigidoPara(db: Queryable, roles: readonly string[]): Promise<boolean> {
  if (!roles.some((role) => (GESTORES as readonly string[]).includes(role))) return false;
  return segundoFatorObrigatorio(db);
}
