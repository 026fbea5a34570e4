// Requests a test describes as data (method, URL, a JSON, form or multipart body, whose session) and sends with
// app.inject; an event stream is answered on its headers and then dropped.
import type { FastifyInstance } from 'fastify';
import { FORM, formBody } from './test-app.ts';

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  json?: object;
  form?: Record<string, string | string[]>;
  body?: { payload: Buffer; headers: Record<string, string> };
  /** An event stream that stays open: resolved on its headers, then dropped. */
  stream?: boolean;
  /** A session of its own, instead of the caller's given to send. */
  cookie?: string;
}

export interface Sent {
  statusCode: number;
  body: string;
}

/** The answer's JSON, typed as the caller expects it (its shape is checked by the route's own tests). */
export function parsed<T>(sent: Sent): T {
  return JSON.parse(sent.body) as T;
}

export async function send(app: FastifyInstance, call: Call, cookie: string | undefined): Promise<Sent> {
  const headers: Record<string, string> = {};
  const sessionCookie = call.cookie ?? cookie;
  if (sessionCookie) headers.cookie = sessionCookie;
  let payload: string | Buffer | object | undefined;
  if (call.form) {
    Object.assign(headers, FORM);
    payload = formBody(call.form);
  } else if (call.body) {
    Object.assign(headers, call.body.headers);
    payload = call.body.payload;
  } else if (call.json) {
    payload = call.json;
  }
  const options = {
    method: call.method,
    url: call.url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  };
  if (call.stream) {
    const response = await app.inject({ ...options, payloadAsStream: true });
    const stream = response.stream();
    let body = '';
    if (response.statusCode === 200) {
      stream.destroy();
    } else {
      for await (const chunk of stream) body += String(chunk);
    }
    return { statusCode: response.statusCode, body };
  }
  const response = await app.inject(options);
  return { statusCode: response.statusCode, body: response.body };
}
