import { DeviceQuery, DeviceRequest, GuestRequest, LongPollQuery } from '@caseroom/protocol';
import type { FastifyInstance } from 'fastify';
import { CHAT_TIMING, ChatErrorCode } from '@caseroom/protocol';
import { deleteDevice, listDevices, registerDevice } from '../actions/devices.js';
import { createGuest } from '../actions/guest.js';
import type { ChatContext } from '../context.js';
import { ChatError, inputError } from '../errors.js';
import type { Connection } from '../realtime/connections.js';
import { LongPollSink, takeFrames } from '../realtime/longpoll.js';
import { connectionClosed } from '../realtime/presence.js';
import { openSession } from '../realtime/session.js';
import { connectDevice } from './connect.js';
import { credentialsOf } from './credentials.js';
import { actorOf, parse } from './pipeline.js';

const eventsBody = (frames: string[]) => `{"events":[${frames.join(',')}]}`;

/** Connection extras (chat-spec §7 Connection): long-poll fallback, guests, devices. */
export function sessionRoutes(http: FastifyInstance, ctx: ChatContext): void {
  /**
   * `GET /chat/longpoll`: without `connection_id` opens a long-poll connection and answers its `health.check`;
   * with it, waits for that connection's events (the same frames a socket gets) and answers them. A poll may land
   * on any node: frames are queued in the database by the node that holds the connection.
   */
  http.get('/longpoll', async (req, reply) => {
    const actor = actorOf(req);
    const query = parse(LongPollQuery, req.query);
    reply.type('application/json');
    if (!query.connection_id) {
      const opened: { conn?: Connection } = {};
      const sink = new LongPollSink(ctx, CHAT_TIMING.connectionCheckTimeoutMs, () => {
        const conn = opened.conn;
        if (!conn) return;
        ctx.realtime.connections.remove(conn);
        connectionClosed(ctx, conn).catch((err: unknown) => ctx.log.warn({ err }, 'presence close'));
      });
      const session = await openSession(ctx, actor, sink, connectDevice(req));
      if (!session) throw new ChatError(ChatErrorCode.Internal, 'connection could not be opened', 500);
      opened.conn = session.conn;
      await sink.attach(session.conn.id, session.conn.userId);
      return eventsBody([session.hello]);
    }
    if (actor.kind !== 'user') throw inputError('long-poll connections belong to a user');
    const timeout = query.timeout ?? CHAT_TIMING.longPollTimeoutMs;
    return eventsBody(await takeFrames(ctx, query.connection_id, actor.userId, timeout));
  });

  /** `POST /chat/guest` (api_key only): creates a guest user and answers a token for it. */
  http.post('/guest', async (req) => {
    if (credentialsOf(req).apiKey !== ctx.config.chatApiKey) {
      throw new ChatError(ChatErrorCode.AccessKey, 'api_key not found or not valid', 401);
    }
    const { user } = parse(GuestRequest, req.body);
    return createGuest(ctx, user);
  });

  http.post('/devices', async (req) => {
    await registerDevice(ctx, actorOf(req), parse(DeviceRequest, req.body));
    return {};
  });
  http.get('/devices', async (req) => {
    const q = parse(DeviceQuery, req.query);
    return { devices: await listDevices(ctx, actorOf(req), q.user_id) };
  });
  http.delete('/devices', async (req) => {
    const q = parse(DeviceQuery, req.query);
    if (!q.id) throw new ChatError(ChatErrorCode.InputError, 'id is required', 400);
    await deleteDevice(ctx, actorOf(req), q.id, q.user_id);
    return {};
  });
}
