import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { CHAT_TIMING } from '@caseroom/protocol';
import { authenticate } from '../auth.js';
import type { ChatContext } from '../context.js';
import { ChatError } from '../errors.js';
import { presentUser } from '../presenters/user.js';
import type { Connection } from '../realtime/connections.js';
import { ensureUser, getUser, unreadTotals } from '../store/users.js';
import { credentialsOf } from './credentials.js';

/** Sends the error frame of a refused socket, then closes it normally (the client reads the code, e.g. 40). */
function refuse(socket: WebSocket, err: ChatError): void {
  socket.send(
    JSON.stringify({ type: 'connection.error', error: err.toBody(), created_at: new Date().toISOString() }),
  );
  socket.close(1000, 'authentication failed');
}

async function open(
  ctx: ChatContext,
  socket: WebSocket,
  req: FastifyRequest,
): Promise<Connection | undefined> {
  let actor;
  try {
    actor = await authenticate(ctx.config, credentialsOf(req), ctx.realtime.revokedBefore);
  } catch (err) {
    if (err instanceof ChatError) refuse(socket, err);
    else throw err;
    return undefined;
  }
  if (actor.kind !== 'user') {
    refuse(socket, new ChatError(4, 'a server token cannot open a user connection', 400));
    return undefined;
  }
  const userId = actor.userId;
  await ensureUser(ctx.db, userId);
  await ctx.db.query('UPDATE chat_users SET last_active = now() WHERE id = $1', [userId]);
  const [row, totals] = await Promise.all([getUser(ctx.db, userId), unreadTotals(ctx.db, userId)]);
  if (socket.readyState !== socket.OPEN || !row) return undefined;
  const conn: Connection = { id: crypto.randomUUID(), userId, socket, watching: new Set() };
  ctx.realtime.connections.add(conn);
  socket.send(
    JSON.stringify({
      type: 'health.check',
      connection_id: conn.id,
      me: { ...presentUser(row), ...totals },
      created_at: new Date().toISOString(),
    }),
  );
  return conn;
}

/**
 * `GET /chat/connect`: the WebSocket. First frame `health.check` with the `connection_id` and `me`; client
 * `health.check` pings are answered; a socket silent for longer than the connection check timeout is dropped.
 */
export function connectRoute(http: FastifyInstance, ctx: ChatContext): void {
  http.get('/connect', { websocket: true }, (socket, req) => {
    let conn: Connection | undefined;
    let lastSeen = Date.now();
    const ready = open(ctx, socket, req)
      .then((c) => (conn = c))
      .catch((err: unknown) => {
        ctx.log.error({ err }, 'chat socket open failed');
        socket.close(1011, 'internal error');
      });
    socket.on('pong', () => (lastSeen = Date.now()));
    socket.on('message', (data) => {
      lastSeen = Date.now();
      void ready.then(() => {
        if (!conn) return;
        let frame: unknown;
        try {
          frame = JSON.parse(String(data));
        } catch {
          return;
        }
        if ((frame as { type?: unknown } | null)?.type === 'health.check') {
          socket.send(
            JSON.stringify({
              type: 'health.check',
              connection_id: conn.id,
              created_at: new Date().toISOString(),
            }),
          );
        }
      });
    });
    const check = setInterval(() => {
      if (Date.now() - lastSeen > CHAT_TIMING.connectionCheckTimeoutMs) socket.terminate();
      else if (socket.readyState === socket.OPEN) socket.ping();
    }, CHAT_TIMING.wsPingIntervalMs);
    socket.on('close', () => {
      clearInterval(check);
      void ready.then(() => {
        if (conn) ctx.realtime.connections.remove(conn);
      });
    });
  });
}
