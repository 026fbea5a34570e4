// The text of an uploaded KML or point file, read from its bytes: Brazilian spreadsheets export Latin-1
// (Windows-1252) as often as UTF-8, and Excel's 'Unicode text' is UTF-16 with a byte order mark.
import { FileParseError } from './parse-error.ts';

/**
 * The file's bytes as text: a byte order mark says UTF-8 or UTF-16; otherwise UTF-8 when the bytes are valid
 * UTF-8, else Windows-1252 (a superset of Latin-1 that decodes any byte, so 'São João' saved by Excel reads right).
 */
export function decodeTextFile(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes).replace(/[\u0080-\u009f]/g, windows1252);
  }
}

/**
 * Node's TextDecoder reads 'windows-1252' as ISO-8859-1 (bytes 0x80–0x9F become C1 control characters) where
 * browsers follow the WHATWG table: the quotes, dashes and € Excel writes are mapped here, the same on both.
 */
const WINDOWS_1252_80_9F =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function windows1252(control: string): string {
  return WINDOWS_1252_80_9F[control.charCodeAt(0) - 0x80] ?? control;
}

/**
 * Refuses what no KML or point file holds: NUL characters (a binary file, or UTF-16 without its byte order mark)
 * and U+FFFD, the mark a reader leaves where bytes were not in the encoding it assumed (text stored that way
 * would be mojibake for good).
 */
export function checkReadableText(text: string): void {
  if (text.includes('\u0000')) {
    throw new FileParseError('O arquivo não é um arquivo de texto (parece um arquivo binário).');
  }
  if (text.includes('\uFFFD')) {
    throw new FileParseError(
      'O arquivo tem caracteres ilegíveis (codificação de texto incorreta): salve-o como UTF-8 ou Latin-1 e envie de novo.',
    );
  }
}
