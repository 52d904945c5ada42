import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/**
 * `@fastify/multipart` on the chat routes, for uploads. It parses nothing by itself: the upload routes stream their
 * one file part (receive.ts) with the size limit of the app's configuration. Other parts are few and small.
 */
export async function registerMultipart(http: FastifyInstance): Promise<void> {
  await http.register(fastifyMultipart, {
    limits: { files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12, headerPairs: 100 },
  });
}
