// The API documentation (issue 13), generated from the declarations of domain/src/api: a page and the OpenAPI 3
// document, for administradores.
import { z } from '../zod.ts';
import { endpoint } from './contract.ts';

export const docsPage = endpoint({
  method: 'GET',
  path: '/api/docs',
  tag: 'documentação',
  summary: 'Esta documentação, navegável.',
  allow: ['administrador'],
  ok: {
    status: 200,
    description: 'Página HTML.',
    produces: 'text/html',
    answer: z.string().describe('Página HTML.'),
  },
});

export const openapiDocument = endpoint({
  method: 'GET',
  path: '/api/docs/openapi.json',
  tag: 'documentação',
  summary: 'Esta documentação, como OpenAPI 3.',
  allow: ['administrador'],
  ok: {
    status: 200,
    description: 'O documento OpenAPI.',
    answer: z
      .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) })
      .describe('Documento OpenAPI 3.'),
  },
});
