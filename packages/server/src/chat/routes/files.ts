import { FileQuery } from '@caseroom/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ChatContext } from '../context.js';
import { fileToSend } from '../files/read.js';
import { sendFile, setSafetyHeaders } from '../files/send.js';
import { actorOf, parse } from './pipeline.js';

type FileParams = { Params: { id: string; name?: string } };

/**
 * Stored files (chat-spec §3 attachments, issue 14): `GET /chat/files/{id}/{name}` and `/chat/files/{id}/thumb`,
 * behind the chat gate like every chat route (the token may come as the `authorization` query parameter here, for
 * `<audio>`/`<video>`; see routes/credentials). The name in the path is the client's; downloads use the stored one.
 * Never compressed (ranges address the stored bytes; images and media do not shrink).
 */
export function fileRoutes(http: FastifyInstance, ctx: ChatContext): void {
  const serve = (thumb: boolean) => async (req: FastifyRequest<FileParams>, reply: FastifyReply) => {
    setSafetyHeaders(reply);
    const query = parse(FileQuery, req.query);
    const file = await fileToSend(ctx, actorOf(req), { id: req.params.id, thumb, w: query.w, h: query.h });
    return sendFile(ctx.storage, req, reply, file);
  };
  http.get<FileParams>('/files/:id/thumb', { compress: false }, serve(true));
  http.get<FileParams>('/files/:id/:name', { compress: false }, serve(false));
}
