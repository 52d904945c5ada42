import type { FastifyError, FastifyInstance } from 'fastify';
import { ChatErrorCode } from '@caseroom/protocol';
import type { Platform } from '../platform/context.js';
import type { ChatContext } from './context.js';
import { unsafeRequestInput } from '../platform/safe-input.js';
import { ChatError, inputError } from './errors.js';
import { Realtime } from './realtime/fanout.js';
import { Relay } from './realtime/relay.js';
import { JobRunner } from './jobs.js';
import { RevocationSync } from './realtime/revocations.js';
import { pruneEvents } from './actions/sync.js';
import { pruneTasks } from './actions/tasks.js';
import { expireUploads } from './files/lifecycle.js';
import { activityRoutes } from './routes/activity.js';
import { channelRoutes } from './routes/channels.js';
import { messageRoutes } from './routes/messages.js';
import { userRoutes } from './routes/users.js';
import { adminRoutes } from './routes/admin.js';
import { seedBuiltInRules } from './actions/permissions.js';
import { connectRoute } from './routes/connect.js';
import { gate } from './routes/gate.js';
import { RateLimits } from './limits/rate-limits.js';
import { rateLimitRoutes } from './routes/rate-limits.js';
import { sessionRoutes } from './routes/session.js';
import { memberRoutes } from './routes/members.js';
import { messageExtraRoutes } from './routes/message-extras.js';
import { messageQueryRoutes } from './routes/message-queries.js';
import { threadRoutes } from './routes/threads.js';
import { batchRoutes } from './routes/batches.js';
import { userAdminRoutes } from './routes/user-admin.js';
import { uploadRoutes } from './routes/uploads.js';
import { registerMultipart } from './uploads/multipart.js';
import { sweepUploadTemp } from './uploads/receive.js';
import { fileRoutes } from './routes/files.js';
import { createServerApi } from './server-client.js';
import { HttpOut } from '../platform/http-out/index.js';
import { LinkPreviews } from './link-previews/previews.js';
import { runEnrichments, UrlEnrichment } from './actions/url-enrichment.js';
import { linkPreviewRoutes } from './routes/link-previews.js';
import type { ChatServerApi } from './server-api.js';

export type { ChatServerApi } from './server-api.js';

/** The chat service: REST under `/chat`, WebSocket `/chat/connect`, long-poll fallback. */
export interface ChatModule {
  /** Server-side API (the product's way in; it never touches chat tables). */
  server: ChatServerApi;
  /** Per-user, per-endpoint rate limits (configurable, e.g. by tests). */
  rateLimits: RateLimits;
  /** The fan-out (tests reach its hooks, e.g. `dropPublishes`). */
  realtime: Realtime;
  /** The relay of recorded events the bus did not bring (realtime/relay). */
  relay: Relay;
  /** Scheduled jobs: event and task pruning, upload expiry (chat/jobs). */
  jobs: JobRunner;
  /** Link previews and the outbound client behind them (tests extend its allow-list). */
  linkPreviews: LinkPreviews;
  /** The enrichment queue's runner (tests wait for it: `idle()`). */
  urlEnrichment: UrlEnrichment;
  /** Closes sockets and bus subscriptions. */
  close(): Promise<void>;
}

/** How often leftover link-preview enrichments are looked for. */
const ENRICH_EVERY_MS = 60 * 1000;

/** How often the event table and the task table are pruned. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * The safety net behind the validators: PostgreSQL refused a value (SQLSTATE class 22, data exception: bad text,
 * number or date) or a statement too deep for its stack (54001). Every such value should already be code 4 from
 * the schemas and the filter validator, naming its field; this answer is the same code without the name (the
 * property test, chat-bad-input-property.test.ts, fails on it, so a gap in the validators is found, not hidden).
 */
export const REFUSED_VALUE = 'a value in the request cannot be stored or compared';

function isRefusedValue(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('22') || code === '54001');
}

/** Maps any failure to the chat error shape `{code, message, StatusCode}` (chat-spec §8). */
function toChatError(err: FastifyError | Error): ChatError {
  if (err instanceof ChatError) return err;
  const status = (err as FastifyError).statusCode;
  if (status === 413) return new ChatError(ChatErrorCode.PayloadTooBig, 'payload too big', 413);
  if (status !== undefined && status >= 400 && status < 500) {
    return new ChatError(ChatErrorCode.InputError, err.message, status === 415 ? 400 : status);
  }
  if (isRefusedValue(err)) return new ChatError(ChatErrorCode.InputError, REFUSED_VALUE, 400);
  return new ChatError(ChatErrorCode.Internal, 'internal error', 500);
}

/** Registers the chat routes in their own encapsulated plugin (own error handler) and starts the fan-out. */
export async function registerChat(http: FastifyInstance, platform: Platform): Promise<ChatModule> {
  await seedBuiltInRules(platform.db);
  const realtime = new Realtime(platform.bus, platform.log);
  await realtime.start();
  // Revoked tokens and inactive users stay refused across restarts and on nodes that missed the bus message.
  const revocations = new RevocationSync(platform.db, realtime, platform.log);
  await revocations.start();
  const ctx: ChatContext = {
    ...platform,
    realtime,
    hooks: { messageNew: [], messageRemoved: [], reservedUserIds: [] },
    protectedChannelFields: new Set(['team']),
    rateLimits: new RateLimits(platform.config.redisUrl, platform.config.chatRateLimits),
    linkPreviews: new LinkPreviews(new HttpOut(platform.config.httpOut), platform.log),
    urlEnrichment: new UrlEnrichment(() => ctx),
  };

  // Temporary files of uploads a crash interrupted.
  await sweepUploadTemp(platform.config.dataDir).catch((err: unknown) =>
    platform.log.warn({ err }, 'sweeping temporary uploads failed'),
  );
  await http.register(
    async (chat) => {
      chat.decorateRequest('chatActor', null);
      chat.setErrorHandler((err: FastifyError, req, reply) => {
        const chatErr = toChatError(err);
        if (chatErr.status >= 500) req.log.error({ err }, 'chat request failed');
        else if (chatErr.message === REFUSED_VALUE)
          req.log.warn({ err }, 'chat request: a value got past validation');
        return reply.code(chatErr.status).send(chatErr.toBody());
      });
      chat.addHook('onRequest', (req, reply) => gate(ctx, req, reply));
      // Text PostgreSQL refuses and absurd nesting are code 4 on every route, before any handler sees them.
      chat.addHook('preValidation', async (req) => {
        const problem = unsafeRequestInput(req);
        if (problem) throw inputError(problem);
      });
      // The time the server spent on the request, for operators' tools and the bench (history pages are measured as
      // server time): W3C Server-Timing, from the request's arrival to the serialised answer.
      chat.addHook('onSend', async (_req, reply, payload) => {
        reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(2)}`);
        return payload;
      });
      await registerMultipart(chat);
      connectRoute(chat, ctx);
      channelRoutes(chat, ctx);
      activityRoutes(chat, ctx);
      messageRoutes(chat, ctx);
      userRoutes(chat, ctx);
      adminRoutes(chat, ctx);
      sessionRoutes(chat, ctx);
      memberRoutes(chat, ctx);
      messageExtraRoutes(chat, ctx);
      messageQueryRoutes(chat, ctx);
      threadRoutes(chat, ctx);
      rateLimitRoutes(chat, ctx);
      batchRoutes(chat, ctx);
      userAdminRoutes(chat, ctx);
      uploadRoutes(chat, ctx);
      fileRoutes(chat, ctx);
      linkPreviewRoutes(chat, ctx);
    },
    { prefix: '/chat' },
  );

  const relay = new Relay(platform.db, realtime, platform.log);
  await relay.start();
  const jobs = new JobRunner(platform.db, platform.log, [
    { name: 'prune-events', everyMs: PRUNE_EVERY_MS, run: (now) => pruneEvents(ctx, now) },
    { name: 'prune-tasks', everyMs: PRUNE_EVERY_MS, run: () => pruneTasks(ctx) },
    { name: 'expire-uploads', everyMs: PRUNE_EVERY_MS, run: (now) => expireUploads(ctx, now) },
    // Enrichments a node queued but did not finish (it stopped): any node picks them up.
    { name: 'enrich-urls', everyMs: ENRICH_EVERY_MS, run: () => runEnrichments(ctx) },
  ]);
  await jobs.start();
  // Revocations are pruned on every node (each keeps them in memory too), not as a one-node job.
  const prune = setInterval(() => {
    revocations.prune().catch((err: unknown) => platform.log.warn({ err }, 'pruning revocations failed'));
  }, PRUNE_EVERY_MS);
  prune.unref();

  return {
    server: createServerApi(ctx),
    realtime,
    relay,
    jobs,
    linkPreviews: ctx.linkPreviews,
    urlEnrichment: ctx.urlEnrichment,
    close: async () => {
      relay.stop();
      jobs.stop();
      await ctx.urlEnrichment.stop();
      await ctx.linkPreviews.close();
      clearInterval(prune);
      revocations.stop();
      await realtime.close();
      await ctx.rateLimits.close();
    },
    rateLimits: ctx.rateLimits,
  };
}
