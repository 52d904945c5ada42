import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { DeviceRequest, findUnsafeInput, pathText, type ServerEvent } from '@caseroom/protocol';
import type { DeviceInput } from '../actions/devices.js';
import { authenticate } from '../auth.js';
import type { ChatContext } from '../context.js';
import { ChatError, inputError } from '../errors.js';
import type { Connection, ConnectionSink } from '../realtime/connections.js';
import { connectionClosed } from '../realtime/presence.js';
import { SocketSweep } from '../realtime/socket-sweep.js';
import { sendPrepared } from '../realtime/ws-frame.js';
import { openSession } from '../realtime/session.js';
import { credentialsOf } from './credentials.js';

/** Sends the error frame of a refused socket, then closes it normally (the client reads the code, e.g. 40). */
function refuse(socket: WebSocket, err: ChatError): void {
  socket.send(
    JSON.stringify({
      type: 'connection.error',
      error: err.toBody(),
      created_at: new Date().toISOString(),
    } satisfies ServerEvent),
  );
  socket.close(1000, 'authentication failed');
}

/** The connect payload (query `json`): the device to register, set only when the connection opens. */
export function connectDevice(req: FastifyRequest): DeviceInput | undefined {
  const raw = (req.query as Record<string, unknown> | undefined)?.json;
  if (typeof raw !== 'string') return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(raw);
  } catch {
    throw inputError('json must be a JSON object');
  }
  const unsafe = findUnsafeInput(payload);
  if (unsafe) throw inputError(`json.${pathText(unsafe.path, '')}: ${unsafe.message}`);
  const device = (payload as { device?: unknown } | null)?.device;
  if (device === undefined) return undefined;
  const parsed = DeviceRequest.safeParse(device);
  if (!parsed.success) throw inputError('device: needs id and push_provider');
  return parsed.data;
}

/**
 * A socket's sink. Frames fanned out to the connection while it is still opening (it is registered before its
 * presence is written) wait until `greet` has sent the `health.check`, which is always the socket's first frame.
 */
function socketSink(socket: WebSocket): ConnectionSink & { greet(hello: string): void } {
  let held: Array<() => void> | undefined = [];
  return {
    get open() {
      return socket.readyState === socket.OPEN;
    },
    // After the hello (the common case, once per member per event) frames go straight out, with no closure.
    send: (frame) => (held ? held.push(() => socket.send(frame)) : socket.send(frame)),
    sendPrepared: (frame) =>
      held ? held.push(() => sendPrepared(socket, frame)) : sendPrepared(socket, frame),
    close: (code, reason) => socket.close(code, reason),
    greet(hello) {
      const waiting = held ?? [];
      held = undefined;
      socket.send(hello);
      for (const fn of waiting) if (socket.readyState === socket.OPEN) fn();
    },
  };
}

async function open(
  ctx: ChatContext,
  socket: WebSocket,
  req: FastifyRequest,
): Promise<Connection | undefined> {
  try {
    const actor = await authenticate(ctx.config, credentialsOf(req), ctx.realtime.revokedBefore);
    const sink = socketSink(socket);
    const session = await openSession(ctx, actor, sink, connectDevice(req));
    if (!session) return undefined;
    sink.greet(session.hello);
    return session.conn;
  } catch (err) {
    if (err instanceof ChatError) refuse(socket, err);
    else throw err;
    return undefined;
  }
}

/**
 * `GET /chat/connect`: the WebSocket. First frame `health.check` with the `connection_id` and `me`; client
 * `health.check` pings are answered; a socket silent for longer than the connection check timeout is dropped.
 */
export function connectRoute(http: FastifyInstance, ctx: ChatContext): void {
  const sweep = new SocketSweep(ctx);
  http.addHook('onClose', async () => sweep.stop());
  http.get('/connect', { websocket: true }, (socket, req) => {
    let conn: Connection | undefined;
    const watched = sweep.watch(socket);
    const ready = open(ctx, socket, req)
      .then((c) => (conn = watched.conn = c))
      .catch((err: unknown) => {
        ctx.log.error({ err }, 'chat socket open failed');
        socket.close(1011, 'internal error');
      });
    socket.on('pong', () => (watched.lastSeen = Date.now()));
    socket.on('message', (data) => {
      watched.lastSeen = Date.now();
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
            } satisfies ServerEvent),
          );
        }
      });
    });
    socket.on('close', () => {
      sweep.unwatch(watched);
      void ready.then(async () => {
        if (!conn) return;
        ctx.realtime.connections.remove(conn);
        await connectionClosed(ctx, conn).catch((err: unknown) => {
          if (!ctx.realtime.closing) ctx.log.warn({ err }, 'presence close');
        });
      });
    });
  });
}
