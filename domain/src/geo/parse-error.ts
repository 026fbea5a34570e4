// A file the user uploaded could not be read: the message is Portuguese and, for point files, names the line.
export class FileParseError extends Error {
  readonly line: number | undefined;

  constructor(message: string, line?: number) {
    super(line === undefined ? message : `Linha ${line}: ${message}`);
    this.line = line;
  }
}
