import { once } from 'node:events';
import {
  AppSettingsResponse,
  DeleteUploadQuery,
  UpdateAppSettingsRequest,
  type UploadResponse,
} from '@caseroom/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ChatContext } from '../context.js';
import { notAllowed } from '../errors.js';
import { channelForActor, requireCapability } from '../policy/channel-access.js';
import { receiveFile } from '../uploads/receive.js';
import { getAppSettings, updateAppSettings, type UploadKind } from '../uploads/settings.js';
import { acceptUpload, deleteUpload } from '../uploads/upload.js';
import { actorOf, parse, type ChannelParams } from './pipeline.js';

/** How long an answered upload waits for the rest of its body before the connection is dropped. */
const DRAIN_TIMEOUT_MS = 30_000;

/**
 * Reads and discards what is left of the request body, so a refusal sent before the client finished sending
 * arrives as an answer rather than a reset connection.
 */
async function drain(req: FastifyRequest): Promise<void> {
  const raw = req.raw;
  if (raw.readableEnded || raw.destroyed) return;
  raw.resume();
  const timer = setTimeout(() => raw.destroy(), DRAIN_TIMEOUT_MS);
  try {
    await Promise.race([once(raw, 'end'), once(raw, 'close')]);
  } catch {
    // The client went away: nothing left to drain.
  } finally {
    clearTimeout(timer);
  }
}

/** Runs an upload step; on failure the body is drained before the error answers. */
async function draining<T>(req: FastifyRequest, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    await drain(req);
    throw err;
  }
}

/**
 * Uploads and the app's upload settings (chat-spec §7 Uploads, `/file`, `/image`, `GET/PATCH /app`). Thin: the
 * channel routes check read access and `upload-file` before a byte is read; uploads/upload.ts does the rest.
 */
export function uploadRoutes(http: FastifyInstance, ctx: ChatContext): void {
  for (const kind of ['file', 'image'] as const satisfies readonly UploadKind[]) {
    http.post<{ Params: ChannelParams }>(
      `/channels/:type/:id/${kind}`,
      async (req): Promise<UploadResponse> => {
        const actor = actorOf(req);
        return draining(req, async () => {
          const cid = `${req.params.type}:${req.params.id}`;
          const access = await channelForActor(ctx.db, actor, cid);
          requireCapability(access, 'upload-file', 'upload files');
          return acceptUpload(ctx, actor, { kind, cid }, (dir, limit) => receiveFile(req, dir, limit));
        });
      },
    );

    http.post(`/uploads/${kind}`, async (req): Promise<UploadResponse> => {
      const actor = actorOf(req);
      return draining(req, () =>
        acceptUpload(ctx, actor, { kind, cid: null }, (dir, limit) => receiveFile(req, dir, limit)),
      );
    });

    http.delete<{ Params: ChannelParams }>(`/channels/:type/:id/${kind}`, async (req) => {
      const actor = actorOf(req);
      const { url } = parse(DeleteUploadQuery, req.query);
      const cid = `${req.params.type}:${req.params.id}`;
      await channelForActor(ctx.db, actor, cid);
      return deleteUpload(ctx, actor, url, cid);
    });

    http.delete(`/uploads/${kind}`, async (req) => {
      const { url } = parse(DeleteUploadQuery, req.query);
      return deleteUpload(ctx, actorOf(req), url, null);
    });
  }

  http.get('/app', async () => AppSettingsResponse.parse({ app: await getAppSettings(ctx.db) }));

  http.patch('/app', async (req) => {
    if (actorOf(req).kind !== 'server') throw notAllowed('only the server may change the app settings');
    const patch = parse(UpdateAppSettingsRequest, req.body);
    return { app: await updateAppSettings(ctx.db, patch) };
  });
}
