// Secrets kept in the database sealed with a key of AUTH_SECRET's (AES-256-GCM): a copy of the database or of its
// backup alone does not give them. The TOTP secrets of 'Verificação em duas etapas' (issue 42) are kept so. A value
// written before they were sealed (no 'v1:' prefix) is read as it is; one sealed under another AUTH_SECRET does not
// open (the administrador resets that user's second factor).
import crypto from 'node:crypto';

const PREFIX = 'v1:';

export class Cifra {
  private readonly key: Buffer;

  /** `secret`: AUTH_SECRET; `purpose` keeps each use's key apart from the others (and from the tokens' own). */
  constructor(secret: string, purpose: string) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', secret, 'novus', purpose, 32));
  }

  selar(text: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${iv.toString('base64url')}:${sealed.toString('base64url')}`;
  }

  /** The text sealed in `stored`, or undefined when it does not open (another key, altered). */
  abrir(stored: string): string | undefined {
    if (!stored.startsWith(PREFIX)) return stored;
    const [ivText = '', sealedText = ''] = stored.slice(PREFIX.length).split(':');
    try {
      const iv = Buffer.from(ivText, 'base64url');
      const sealed = Buffer.from(sealedText, 'base64url');
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      return Buffer.concat([
        decipher.update(sealed.subarray(0, sealed.length - 16)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
