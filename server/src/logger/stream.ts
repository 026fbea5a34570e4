// The server's log lines go to stdout without making a request wait for the write (issue 22): stdout to a pipe or
// a file is written synchronously by Node, so each request's two lines blocked the event loop. pino's SonicBoom
// writes in the background, coalescing lines while a write is in flight; `end` flushes what is left on exit.
import pino from 'pino';

export interface LogStream {
  write(line: string): void;
  end(): Promise<void>;
}

export function asyncLogStream(): LogStream {
  const destination = pino.destination({ dest: 1, sync: false });
  return {
    write: (line) => destination.write(line),
    end: () =>
      new Promise<void>((resolve) => {
        destination.once('close', () => resolve());
        destination.once('error', () => resolve());
        destination.end();
      }),
  };
}
