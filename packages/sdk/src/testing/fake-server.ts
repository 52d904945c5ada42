import {
  checkAnswer,
  checkFrame,
  ContractError,
  CustomKeys,
  type ChatEvent,
  type ChatUser,
  type Message,
  type NewMessage,
  type OgResponse,
  linkPreviewUrl,
  type OwnUser,
  type QueryChannelRequest,
  type QueryChannelsRequest,
  type AppSettings,
} from '@caseroom/protocol';
import type { WebSocketConstructor } from '../transport/websocket.js';
import {
  answerInvite,
  changeMembers,
  channelAction,
  invite,
  queryChannel,
  queryChannels,
  setHidden,
  updateChannelData,
  type FakeMembershipHost,
} from './fake-channels.js';
import { buildMessage, type FakeChannelRecord } from './fake-data.js';
import { addReply, routeExtras, type FakeMessageHost } from './fake-messages.js';
import { FakePollSession } from './fake-longpoll.js';
import { routeMembership } from './fake-membership.js';
import { checkUploadAnswer, routeUploads, type FakeUpload, type FakeUploadHost } from './fake-uploads.js';
import { FakeWebSocket, type FakeConnection, type FakeSocketHost } from './fake-websocket.js';
import { notifyMarkRead, unreadCounts, unreadTotals, type FakeUnreadHost } from './fake-unread.js';

export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  /** A multipart body (uploads). */
  form?: FormData;
}

export interface FakeFailure {
  status: number;
  code: number;
  message: string;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * An in-memory chat server speaking the SDK's protocol, for component and unit tests: hand its
 * `fetch` and `WebSocket` to a `ChatClient`. It knows users, channels, members, messages, read
 * state, typing and `/sync`; it can fail chosen calls, revoke tokens and drop connections. It is held to the
 * protocol as the real server is: every answer and every frame it sends is parsed with the protocol's schemas,
 * strictly (unknown keys fail, except custom data a test or client set), and drift fails the test.
 */
export class FakeChatServer
  implements FakeSocketHost, FakeMessageHost, FakeMembershipHost, FakeUploadHost, FakeUnreadHost
{
  readonly baseUrl = 'http://fake.chat/chat';
  readonly apiKey = 'fake-key';
  readonly users = new Map<string, ChatUser>();
  readonly channels = new Map<string, FakeChannelRecord>();
  /** Every answer or frame of this fake that broke the protocol (each also fails the test as an error). */
  readonly contractErrors: ContractError[] = [];
  /** Keys of custom data the test and the clients sent (they come back at the top level of users, channels...). */
  private readonly customKeys = new CustomKeys();
  /** Open connections: WebSockets and long-poll sessions. */
  readonly sockets = new Set<FakeConnection>();
  /** Link previews `GET /og` answers, by URL (without one: code 4, no preview). */
  readonly linkPreviews = new Map<string, Omit<OgResponse, 'og_scrape_url'>>();
  /** Thread replies by parent message id. */
  readonly replies = new Map<string, Message[]>();
  /** Uploaded files by id (`/chat/files/{id}/{name}`); deleted ones stay, marked. */
  readonly uploads = new Map<string, FakeUpload>();
  /** Channels each user muted (user id -> cids): left out of their unread totals, as on the server. */
  /** What `GET /app` answers; the upload routes enforce it as the server does (size: code 22; type: code 4). */
  appSettings: AppSettings = { image_upload_config: {}, file_upload_config: {} };
  /** @internal see `holdUploads` */
  uploadGate: Promise<void> | undefined;
  /** The dimensions the fake reports for every uploaded image. */
  imageSize = { width: 640, height: 480 };
  /** Every HTTP request the clients made, oldest first. */
  readonly requests: FakeRequest[] = [];
  /** When false, client pings go unanswered (to test the 35 s connection check). */
  answerPings = true;
  /** When true, WebSockets open but never answer (a proxy that swallows them); long polling works. */
  blockWebSockets = false;
  /** When true, new sockets are dropped before their health.check (server down). */
  refuseConnections = false;
  /**
   * Channel events still to record without delivering (a server node dying between its commit and its publish):
   * `/sync` has them, no socket gets them.
   */
  skipDeliveries = 0;
  private readonly events: ChatEvent[] = [];
  private readonly failures: { match: RegExp; failure: FakeFailure; times: number }[] = [];
  private tokenVersion = 1;
  private connections = 0;
  private clock = Date.parse('2026-01-01T00:00:00.000Z');

  /** `fetch` bound to this server. */
  readonly fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    this.handleFetch(input, init);

  /** A WebSocket class bound to this server. */
  readonly WebSocket: WebSocketConstructor = (() => {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const server = this;
    return class extends FakeWebSocket {
      constructor(url: string) {
        super(url, server);
      }
    };
  })();

  /** Client options for `new ChatClient(...)`. */
  get clientOptions(): {
    apiKey: string;
    baseUrl: string;
    fetch: typeof fetch;
    WebSocket: WebSocketConstructor;
  } {
    return {
      apiKey: this.apiKey,
      baseUrl: this.baseUrl,
      fetch: this.fetch as typeof fetch,
      WebSocket: this.WebSocket,
    };
  }

  upsertUser(user: ChatUser): ChatUser {
    this.customKeys.learn(user);
    const merged = { ...this.users.get(user.id), ...user };
    this.users.set(user.id, merged);
    return merged;
  }

  /** A token the fake accepts for `userId` (until `revokeTokens`). */
  tokenFor(userId: string): string {
    return `fake.${userId}.${this.tokenVersion}`;
  }

  /** Old tokens now answer code 40 (token expired). */
  revokeTokens(): void {
    this.tokenVersion += 1;
  }

  createChannel(
    type: string,
    id: string,
    data: { members?: string[] } & Record<string, unknown>,
    createdBy: string,
  ) {
    this.customKeys.learn(data);
    const cid = `${type}:${id}`;
    const existing = this.channels.get(cid);
    if (existing) return existing;
    const { members = [], ...custom } = data;
    const record: FakeChannelRecord = {
      type,
      id,
      custom,
      members: [...new Set(members)],
      messages: [],
      read: new Map(),
      createdAt: this.now(),
      createdBy,
      hidden: new Set(),
      lastSeq: 0,
    };
    for (const m of record.members) if (!this.users.has(m)) this.users.set(m, { id: m });
    this.channels.set(cid, record);
    return record;
  }

  /** A message sent by `userId` (as if from another client); emits message.new. */
  sendMessage(cid: string, userId: string, message: NewMessage) {
    this.customKeys.learn(message);
    const record = this.channels.get(cid);
    if (!record) throw new HttpError(404, 16, `channel ${cid} does not exist`);
    if (message.id && record.messages.some((m) => m.id === message.id)) {
      throw new HttpError(400, 4, `message with id ${message.id} already exists`);
    }
    const user = this.users.get(userId) ?? { id: userId };
    const created = buildMessage(message, cid, user, this.users, this.now());
    if (created.parent_id) return addReply(this, cid, created, user);
    record.messages.push(created);
    record.hidden.clear(); // as the server: a new message brings the channel back into every list
    for (const member of record.members) {
      if (member === userId) continue;
      const read = record.read.get(member) ?? { last_read: record.createdAt, unread_messages: 0 };
      record.read.set(member, { ...read, unread_messages: read.unread_messages + 1 });
    }
    this.emit(cid, {
      type: 'message.new',
      cid,
      created_at: created.created_at,
      message: created,
      user,
    } as ChatEvent);
    return created;
  }

  /**
   * Sends an event to every connected member of the channel and records it for `/sync`. Recorded events take the
   * channel's next `seq` (a `message.new`'s message takes the same); typing and presence carry none.
   */
  emit(cid: string, event: ChatEvent, exceptUserId?: string): void {
    const record = this.channels.get(cid);
    if (record && !TRANSIENT.test(event.type)) {
      record.lastSeq += 1;
      (event as { seq?: number }).seq = record.lastSeq;
      if (event.type === 'message.new' && event.message.seq === undefined) event.message.seq = record.lastSeq;
    }
    this.conform(() => checkFrame(event, this.customKeys.options));
    if (record && !TRANSIENT.test(event.type)) {
      this.events.push(event);
      if (this.skipDeliveries > 0) {
        this.skipDeliveries -= 1;
        return;
      }
    }
    const members = record?.members ?? [];
    for (const socket of this.sockets) {
      if (socket.userId && members.includes(socket.userId) && socket.userId !== exceptUserId)
        socket.push(event);
    }
  }

  /** The last event recorded for channel `cid` (to hand a client a second copy in tests). */
  lastEvent(cid: string): ChatEvent {
    const event = this.events.findLast((e) => 'cid' in e && e.cid === cid);
    if (!event) throw new Error(`no event recorded for ${cid}`);
    return event;
  }

  /** Sends an event to `userId`'s connections only (notifications, hide/show) and records it. */
  emitToUser(userId: string, event: ChatEvent): void {
    this.conform(() => checkFrame(event, this.customKeys.options));
    this.events.push(event);
    for (const socket of this.sockets) if (socket.userId === userId) socket.push(event);
  }

  /** Hides or shows the channel for one user (`channel.hidden` / `channel.visible` to them). */
  setHidden(cid: string, userId: string, hidden: boolean): void {
    setHidden(this, cid, userId, hidden);
  }

  /** Adds or removes members, with `member.*` to the channel and `notification.*_channel` to them. */
  changeMembers(cid: string, userIds: string[], kind: 'added' | 'removed'): void {
    changeMembers(this, cid, userIds, kind);
  }

  /** Merges custom channel data (`channel.updated`). */
  updateChannel(cid: string, data: Record<string, unknown>): void {
    this.customKeys.learn(data);
    updateChannelData(this, cid, data);
  }

  /** `notification.invited` to the invitee; `answerInvite` accepts (they become a member) or rejects. */
  invite(cid: string, userId: string): void {
    invite(this, cid, userId);
  }

  answerInvite(cid: string, userId: string, accept: boolean): void {
    answerInvite(this, cid, userId, accept);
  }

  /** Upload answers wait until the returned function is called (to see the uploading state). */
  holdUploads(): () => void {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = () => {
        if (this.uploadGate === gate) this.uploadGate = undefined;
        resolve();
      };
    });
    this.uploadGate = gate;
    return release;
  }

  /** The next `times` requests whose `METHOD path` matches fail with `failure`. */
  failNext(match: RegExp, failure: FakeFailure, times = 1): void {
    this.failures.push({ match, failure, times });
  }

  /** Drops every socket as a network failure would (close 1006). */
  dropConnections(): void {
    for (const socket of [...this.sockets]) socket.serverClose(1006, 'network down');
  }

  /** Requests to paths matching `re`. */
  requestsTo(re: RegExp): FakeRequest[] {
    return this.requests.filter((r) => re.test(`${r.method} ${r.path}`));
  }

  /** @internal socket host */
  accept(socket: FakeWebSocket): void {
    if (this.refuseConnections) {
      queueMicrotask(() => socket.serverClose(1006, ''));
      return;
    }
    if (this.blockWebSockets) return;
    const userId = socket.query.get('user_id') ?? undefined;
    const token = socket.query.get('authorization');
    const anonymous = socket.query.get('auth_type') === 'anonymous';
    const failure = anonymous ? undefined : this.checkToken(token, userId);
    if (failure) {
      this.send(socket, {
        type: 'connection.error',
        error: { code: failure.code, message: failure.message, StatusCode: failure.status },
        created_at: this.now(),
      });
      queueMicrotask(() => socket.serverClose(1000, `code ${failure.code}`));
      return;
    }
    this.register(socket, userId);
  }

  /** Adds an accepted connection and sends its first health.check. */
  private register(connection: FakeConnection, userId: string | undefined): void {
    connection.userId = userId;
    connection.connectionId = `conn-${++this.connections}`;
    this.sockets.add(connection);
    const me: OwnUser = {
      ...(this.users.get(userId ?? '') ?? { id: userId ?? 'anon' }),
      ...unreadTotals(this, userId ?? ''),
    };
    const connectionId = connection.connectionId;
    this.send(connection, { type: 'health.check', connection_id: connectionId, me, created_at: this.now() });
  }

  /** `GET /longpoll`: opens a session (answering its health.check), or waits for its frames. */
  private async longPoll(request: FakeRequest): Promise<{ events: unknown[] }> {
    if (this.refuseConnections) throw new TypeError('fetch failed: connection refused');
    const id = request.query.connection_id;
    if (!id) {
      const session = new FakePollSession((s) => this.sockets.delete(s));
      this.register(session, request.query.user_id);
      return { events: session.drain() };
    }
    const session = [...this.sockets].find((s) => s.connectionId === id);
    const unknown = () => new HttpError(400, 46, `connection_id "${id}" not found`);
    if (!(session instanceof FakePollSession)) throw unknown();
    return { events: await session.take(Number(request.query.timeout ?? 30_000), unknown) };
  }

  /** @internal */
  detach(socket: FakeConnection): void {
    this.sockets.delete(socket);
  }

  /** @internal pings are answered with a health.check */
  receive(socket: FakeWebSocket, frame: unknown): void {
    if (this.answerPings && (frame as { type?: unknown }).type === 'health.check') {
      this.send(socket, {
        type: 'health.check',
        connection_id: socket.connectionId ?? '',
        created_at: this.now(),
      });
    }
  }

  /** Pushes a frame the fake makes itself (not an emitted event), checked first. */
  private send(connection: FakeConnection, frame: ChatEvent): void {
    this.conform(() => checkFrame(frame, this.customKeys.options));
    connection.push(frame);
  }

  /** Runs a protocol check; a violation is kept in `contractErrors` and thrown (to the test calling the fake). */
  private conform(check: () => void): void {
    try {
      check();
    } catch (err) {
      if (err instanceof ContractError) this.contractErrors.push(err);
      throw err;
    }
  }

  /** @internal an HTTP error answer */
  fail(status: number, code: number, message: string): Error {
    return new HttpError(status, code, message);
  }

  /** @internal strictly increasing server time */
  now(): string {
    // Strictly increasing, and never behind real time, so orderings are deterministic.
    this.clock = Math.max(this.clock + 1, Date.now());
    return new Date(this.clock).toISOString();
  }

  private checkToken(token: string | null | undefined, userId: string | undefined): FakeFailure | undefined {
    const parts = token?.split('.') ?? [];
    if (parts.length !== 3 || parts[0] !== 'fake' || parts[1] !== userId) {
      return { status: 401, code: 43, message: 'token signature is invalid' };
    }
    if (Number(parts[2]) !== this.tokenVersion)
      return { status: 401, code: 40, message: 'token has expired' };
    return undefined;
  }

  private async handleFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    await Promise.resolve();
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const path = url.pathname.replace(/^\/chat/, '');
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const method = init.method ?? 'GET';
    // Uploads: a FormData, or (Node) the multipart body as a stream, read here as the server would.
    const form =
      init.body instanceof FormData
        ? init.body
        : init.body instanceof ReadableStream
          ? await new Response(init.body, { headers: init.headers }).formData()
          : undefined;
    const request: FakeRequest = {
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
      ...(form ? { form } : {}),
    };
    this.requests.push(request);
    this.customKeys.learn(body);
    const answer = (status: number, out: unknown) => {
      this.conform(() => {
        if (status >= 400 || !checkUploadAnswer(method, url.pathname, out, this.customKeys.options))
          checkAnswer(method, url.pathname, status, out, this.customKeys.options);
      });
      return json(status, out);
    };
    try {
      const failure = this.takeFailure(`${method} ${path}`);
      if (failure) throw new HttpError(failure.status, failure.code, failure.message);
      if (headers['auth-type'] !== 'anonymous') {
        const bad = this.checkToken(headers.authorization, request.query.user_id);
        if (bad) throw new HttpError(bad.status, bad.code, bad.message);
      }
      return answer(200, await this.route(request));
    } catch (error) {
      if (error instanceof HttpError) {
        return answer(error.status, { code: error.code, message: error.message, StatusCode: error.status });
      }
      // A client may swallow a failed request: drift is reported as an unhandled error too, which fails the test.
      if (error instanceof ContractError) {
        queueMicrotask(() => {
          throw error;
        });
      }
      throw error;
    }
  }

  private takeFailure(key: string): FakeFailure | undefined {
    const index = this.failures.findIndex((f) => f.match.test(key));
    const entry = this.failures[index];
    if (!entry) return undefined;
    entry.times -= 1;
    if (entry.times <= 0) this.failures.splice(index, 1);
    return entry.failure;
  }

  /** `POST /sync`: per channel after the cursor's seq (or after `last_sync_at`), members' channels only. */
  private sync(userId: string, body: Record<string, unknown>) {
    const cursor = (body.cursor ?? { channels: {} }) as { channels: Record<string, number> };
    const since = typeof body.last_sync_at === 'string' ? body.last_sync_at : undefined;
    const cids = new Set([
      ...((body.channel_cids as string[] | undefined) ?? []),
      ...Object.keys(cursor.channels),
    ]);
    const readable = [...cids].filter((cid) => this.channels.get(cid)?.members.includes(userId));
    const events = this.events.filter((e) => {
      const cid = 'cid' in e ? e.cid : undefined;
      const seq = 'seq' in e ? e.seq : undefined;
      if (typeof cid !== 'string' || !readable.includes(cid) || typeof seq !== 'number') return false;
      const after = cursor.channels[cid];
      if (after !== undefined) return seq > after;
      return since !== undefined && e.created_at > since;
    });
    const channels: Record<string, number> = {};
    for (const cid of readable) channels[cid] = this.channels.get(cid)?.lastSeq ?? 0;
    return { events, more: false, cursor: { channels, notifications: 0 } };
  }

  /** As the server: a read or mark-unread tells the reader's connections, with their new totals. */
  private notifyReadState(userId: string, cid: string, action = '', body: object, result: unknown): void {
    const user = this.users.get(userId) ?? { id: userId };
    if (action === 'read' && !('thread_id' in body)) notifyMarkRead(this, userId, cid, user);
    if (action === 'unread') {
      const event = (result as { event: ChatEvent & { total_unread_count: number; unread_channels: number } })
        .event;
      Object.assign(event, unreadTotals(this, userId));
      this.emitToUser(userId, event);
    }
  }

  /** `GET /og`: a preview set in {@link linkPreviews}, else code 4 as the server answers a page without one. */
  private linkPreview(url: string): OgResponse {
    if (!linkPreviewUrl(url)) {
      throw new HttpError(400, 4, 'url: the link must be http or https with a hostname of valid domain form');
    }
    const preview = this.linkPreviews.get(url);
    if (!preview) throw new HttpError(400, 4, 'url: the link has no preview');
    return { ...preview, og_scrape_url: url };
  }

  private async route(request: FakeRequest): Promise<unknown> {
    const userId = request.query.user_id ?? '';
    const body = (request.body ?? {}) as Record<string, unknown>;
    const segments = request.path.split('/').filter(Boolean).map(decodeURIComponent);
    if (request.method === 'GET' && request.path === '/longpoll') return this.longPoll(request);
    if (request.method === 'POST' && request.path === '/channels') {
      return queryChannels(this, userId, body as QueryChannelsRequest);
    }
    if (request.method === 'POST' && request.path === '/sync') return this.sync(userId, body);
    if (request.method === 'GET' && request.path === '/og') return this.linkPreview(request.query.url ?? '');
    if (request.method === 'GET' && request.path === '/unread') return unreadCounts(this, userId);
    const upload = await routeUploads(this, request.method, segments, request.query, request.form, userId);
    if (upload !== undefined) return upload;
    const extra = routeExtras(this, request, segments, body, userId);
    if (extra !== undefined) return extra;
    const membership = routeMembership(this, request, segments, body, userId);
    if (membership !== undefined) return membership;
    if (segments[0] === 'channels' && request.method === 'POST') {
      const [, type = '', idOrQuery = '', action] = segments;
      if (idOrQuery === 'query' && segments.length === 3) {
        const members = ((body as QueryChannelRequest).data?.members ?? []).slice().sort();
        return queryChannel(this, userId, type, `!members-${members.join('-')}`, body as QueryChannelRequest);
      }
      const result = channelAction(this, userId, type, idOrQuery, action ?? '', body);
      this.notifyReadState(userId, `${type}:${idOrQuery}`, action, body, result);
      return result;
    }
    throw new HttpError(404, 16, `${request.method} ${request.path} does not exist`);
  }
}

/** Events that are not recorded and carry no seq. */
const TRANSIENT = /^(typing\.|user\.|health\.|capabilities\.|notification\.)/;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
