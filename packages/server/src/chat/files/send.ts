import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FileStorage } from '../../platform/storage/index.js';
import { notFound } from '../errors.js';
import type { FileToSend } from './read.js';
import {
  contentDisposition,
  FILE_CACHE_CONTROL,
  isInlineType,
  parseRange,
  SAFETY_HEADERS,
  servedType,
  sniffImageType,
} from './headers.js';

/** Sets the headers every file answer carries (errors included: the route sets them first). */
export function setSafetyHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(SAFETY_HEADERS)) reply.header(name, value);
}

async function typeOf(storage: FileStorage, file: FileToSend): Promise<string> {
  if (file.variant === 'original') return file.upload.mime_type;
  const head = await storage.get(file.key, { start: 0, end: 15 });
  if (!head) return 'application/octet-stream';
  const chunks: Buffer[] = [];
  for await (const chunk of head) chunks.push(chunk as Buffer);
  return sniffImageType(Buffer.concat(chunks));
}

/**
 * Answers a readable file: its type and disposition (inline only for raster images, audio and video; the rest a
 * download with active types neutralised), private caching with an `ETag` (`304` on `If-None-Match`), and single
 * byte ranges (`206`, `416`) for seeking in audio and video.
 */
export async function sendFile(
  storage: FileStorage,
  req: FastifyRequest,
  reply: FastifyReply,
  file: FileToSend,
): Promise<FastifyReply> {
  const stat = await storage.stat(file.key);
  if (!stat) throw notFound(`File "${file.upload.id}" does not exist`);
  const type = await typeOf(storage, file);
  const etag = `"${file.upload.id}-${file.variant}-${stat.size}"`;
  const inline = isInlineType(type);
  reply.header('etag', etag);
  reply.header('cache-control', FILE_CACHE_CONTROL);
  reply.header('accept-ranges', 'bytes');
  reply.header('content-type', inline ? type : servedType(type));
  const name = file.variant === 'original' ? file.upload.name : `${file.variant}-${file.upload.name}`;
  reply.header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', name));
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
    return reply.code(304).send();
  }
  const ifRange = req.headers['if-range'];
  const range = ifRange && ifRange !== etag ? undefined : parseRange(req.headers.range, stat.size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${stat.size}`);
    return reply.code(416).send();
  }
  const body = await storage.get(file.key, range);
  if (!body) throw notFound(`File "${file.upload.id}" does not exist`);
  if (range) {
    reply.code(206);
    reply.header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`);
    reply.header('content-length', String(range.end - range.start + 1));
  } else {
    reply.header('content-length', String(stat.size));
  }
  return reply.send(body);
}
