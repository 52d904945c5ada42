import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatPosition } from '../src/chat/policy/matrix.js';
import type { TestServer } from './helpers/server.js';
import { buildChannel, callAs, messageBy, type ChatWorld } from './chat-authz-fixtures.js';
import { openSocket } from './chat-support.js';
import sharp from 'sharp';
import { png } from './helpers/media.js';
import { createTestUpload, uploadAs, type TestUpload } from './helpers/uploads.js';

/** What one cell did: the status, and for calls about oneself whether the channel's data was in the answer. */
export interface ChatOutcome {
  status: number;
  sawIt?: boolean;
}

/** Runs one cell; `allowed` is what the matrix expects (it only chooses a fresh channel or a shared one). */
export type ChatRunner = (
  server: TestServer,
  world: ChatWorld,
  who: ChatPosition,
  allowed: boolean,
) => Promise<ChatOutcome>;

/**
 * A channel built like the main one for a call that changes it for everyone: a fresh one where the call is
 * expected to succeed, else one shared by the refused positions of that call (a refusal changes nothing; if one
 * does not refuse, its cell fails anyway).
 */
async function channelToChange(server: TestServer, world: ChatWorld, call: string, allowed: boolean) {
  if (allowed) return buildChannel(server, world);
  let victim = victims.get(world)?.get(call);
  if (!victim) {
    victim = await buildChannel(server, world);
    victims.set(world, (victims.get(world) ?? new Map()).set(call, victim));
  }
  return victim;
}
const victims = new WeakMap<ChatWorld, Map<string, Awaited<ReturnType<typeof buildChannel>>>>();

type Opts = { body?: unknown; query?: Record<string, string> };

/** A page with a preview on loopback, under a domain name the server's outbound client is told about. */
let previewPort: Promise<number> | undefined;
async function previewSite(server: TestServer): Promise<string> {
  previewPort ??= new Promise((resolve) => {
    const site = http.createServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><head><title>A page</title></head></html>'),
    );
    site.unref();
    site.listen(0, '127.0.0.1', () => resolve((site.address() as AddressInfo).port));
  });
  const port = await previewPort;
  server.app.chat.linkPreviews.httpOut.allowAlso(['127.0.0.1']);
  server.app.chat.linkPreviews.httpOut.mapHost('preview.example.com', '127.0.0.1');
  return `http://preview.example.com:${port}/`;
}

/** A call whose path (and options) may depend on the world and the position. */
const plain =
  (
    method: string,
    path: (w: ChatWorld, who: ChatPosition) => string,
    opts?: (w: ChatWorld, who: ChatPosition) => Opts,
  ): ChatRunner =>
  async (server, world, who) => {
    const r = await callAs(server, world, who, method, path(world, who), opts?.(world, who) ?? {});
    return { status: r.status };
  };

/** A call on the main channel (`{type}/{id}` filled in). */
const onMain = (method: string, suffix: string, opts?: (w: ChatWorld) => Opts) =>
  plain(method, (w) => `/channels/messaging/${w.main.id}${suffix}`, opts);

/** A call on a fresh channel built like the main one (for calls that change the channel for everyone). */
const onFresh =
  (method: string, suffix: string, opts?: (w: ChatWorld, id: string) => Opts): ChatRunner =>
  async (server, world, who, allowed) => {
    const fresh = await channelToChange(server, world, `${method} ${suffix}`, allowed);
    const r = await callAs(
      server,
      world,
      who,
      method,
      `/channels/messaging/${fresh.id}${suffix}`,
      opts?.(world, fresh.id) ?? {},
    );
    return { status: r.status };
  };

/** A call about one's own message (inserted for the caller; anonymous callers get the member's). */
const ownMessage =
  (
    method: string,
    suffix: string,
    opts: Opts = {},
    prepare?: (s: TestServer, id: string) => Promise<void>,
  ): ChatRunner =>
  async (server, world, who) => {
    const author = who === 'anonymous' ? world.ids.member : world.ids[who];
    const id = await messageBy(server, world.main.cid, author);
    await prepare?.(server, id);
    const r = await callAs(server, world, who, method, `/messages/${id}${suffix}`, opts);
    return { status: r.status };
  };

/** A read of the main channel's parent message. */
const onParent = (method: string, suffix: string, opts?: (w: ChatWorld) => Opts) =>
  plain(method, (w) => `/messages/${w.main.parentId}${suffix}`, opts);

const payload = (v: unknown) => ({ query: { payload: JSON.stringify(v) } });

/** A call about oneself whose answer may carry the channel: `sawIt` = `seen(body)`. */
const seeing =
  (
    method: string,
    path: string,
    opts: (w: ChatWorld) => Opts,
    seen: (body: unknown, w: ChatWorld) => boolean,
  ): ChatRunner =>
  async (server, world, who) => {
    const r = await callAs(server, world, who, method, path, opts(world));
    return { status: r.status, ...(r.status < 300 ? { sawIt: seen(r.body, world) } : {}) };
  };

const mentions = (body: unknown, needle: string) => JSON.stringify(body).includes(needle);

const otherUser = (w: ChatWorld) => w.ids.outsider;
/** Someone to block: the outsider, or (for the outsider) the org member. */
const blockTarget = (w: ChatWorld, who: ChatPosition) =>
  who === 'outsider' ? w.ids.orgMember : w.ids.outsider;
const uniq = () => crypto.randomUUID().slice(0, 8);

let smallPng: Promise<Buffer> | undefined;
/** A real multipart upload of a small PNG as the position. */
const upload =
  (path: (w: ChatWorld) => string): ChatRunner =>
  async (server, world, who) => {
    const auth = who === 'anonymous' ? ({ authType: 'anonymous' } as const) : { token: world.tokens[who] };
    smallPng ??= png(16, 16);
    const r = await uploadAs(server, auth, path(world), await smallPng, 'authz.png');
    return { status: r.status };
  };

/** Deletes an unattached upload of the position's own (recorded for it; on the main channel when `onMain`). */
const deleteOwnUpload =
  (path: (w: ChatWorld) => string, onMain: boolean): ChatRunner =>
  async (server, world, who) => {
    const id = `authz${crypto.randomBytes(12).toString('base64url')}`;
    await server.db.query(
      `INSERT INTO chat_uploads (id, owner_id, cid, kind, name, mime_type, size, storage_key)
       VALUES ($1, $2, $3, 'file', 'a.txt', 'text/plain', 1, $4)`,
      [
        id,
        who === 'anonymous' ? 'nobody' : world.ids[who],
        onMain ? world.main.cid : null,
        `uploads/${id}/original`,
      ],
    );
    const r = await callAs(server, world, who, 'DELETE', path(world), {
      query: { url: `/chat/files/${id}/a.txt` },
    });
    return { status: r.status };
  };
const mainPath = (suffix: string) => (w: ChatWorld) => `/channels/messaging/${w.main.id}${suffix}`;

/** The matrix's stored file: a photo (with its thumbnail) the member sent in the main channel, made once per world. */
const files = new WeakMap<ChatWorld, Promise<TestUpload>>();
function matrixFile(server: TestServer, world: ChatWorld): Promise<TestUpload> {
  let file = files.get(world);
  if (!file) {
    file = (async () => {
      const image = sharp({ create: { width: 8, height: 6, channels: 3, background: '#c33' } });
      const upload = await createTestUpload(server, {
        owner: world.ids.member,
        bytes: await image.clone().png().toBuffer(),
        thumb: await image.clone().webp().toBuffer(),
        name: 'matrix photo.png',
        mimeType: 'image/png',
        width: 8,
        height: 6,
      });
      await server.app.chat.server.sendMessage(world.main.cid, world.ids.member, {
        text: 'a photo',
        attachments: [{ type: 'image', image_url: upload.url, thumb_url: upload.thumbUrl }],
      });
      return upload;
    })();
    files.set(world, file);
  }
  return file;
}

/** A read of the matrix's stored file (bytes, not JSON: plain fetch, with the caller's token in the header). */
const fileRead =
  (which: 'original' | 'thumb'): ChatRunner =>
  async (server, world, who) => {
    const file = await matrixFile(server, world);
    const url = new URL(which === 'thumb' ? file.thumbUrl : file.url, server.url);
    url.searchParams.set('api_key', server.config.chatApiKey);
    const headers: Record<string, string> =
      who === 'anonymous'
        ? { 'auth-type': 'anonymous' }
        : { 'auth-type': 'jwt', authorization: world.tokens[who] };
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    return { status: res.status };
  };

/** Every chat endpoint, keyed as `CHAT_ENDPOINTS` names it (`METHOD /chat/path`). */
export const CHAT_RUNNERS: Record<string, ChatRunner> = {
  'GET /chat/connect': async (server, world, who) => {
    const s = await openSocket(
      server,
      who === 'anonymous' ? { authType: 'anonymous' } : { token: world.tokens[who] },
    );
    await s.close();
    return { status: s.first.type === 'health.check' ? 200 : 401 };
  },
  'GET /chat/longpoll': plain('GET', () => '/longpoll'),
  'GET /chat/hi': plain('GET', () => '/hi'),
  'POST /chat/guest': plain(
    'POST',
    () => '/guest',
    () => ({ body: { user: { id: `az-g-${uniq()}` } } }),
  ),
  'POST /chat/devices': plain(
    'POST',
    () => '/devices',
    () => ({ body: { id: `dev-${uniq()}`, push_provider: 'firebase' } }),
  ),
  'GET /chat/devices': plain('GET', () => '/devices'),
  'DELETE /chat/devices': async (server, world, who) => {
    const id = `dev-${uniq()}`;
    await callAs(server, world, who, 'POST', '/devices', { body: { id, push_provider: 'firebase' } });
    return { status: (await callAs(server, world, who, 'DELETE', '/devices', { query: { id } })).status };
  },
  'GET /chat/rate_limits': plain('GET', () => '/rate_limits'),
  'GET /chat/og': async (server, world, who) => {
    const url = await previewSite(server);
    return { status: (await callAs(server, world, who, 'GET', '/og', { query: { url } })).status };
  },
  'POST /chat/channels': seeing(
    'POST',
    '/channels',
    () => ({ body: { filter_conditions: {} } }),
    (b, w) => mentions(b, w.main.cid),
  ),
  'POST /chat/channels/{type}/{id}/query': onMain('POST', '/query', () => ({ body: {} })),
  'POST /chat/channels/{type}/query': async (server, world, who) => {
    const r = await callAs(server, world, who, 'POST', '/channels/messaging/query', {
      body: { data: { members: [world.ids.owner, world.ids.member] } },
    });
    const cid = (r.body.channel as { cid?: string } | undefined)?.cid;
    // Someone else asking makes a channel of three (with themselves): not the pair's. It goes again at once, so
    // that nobody shares a channel with owner and member for the rest of the run.
    if (cid && cid !== world.pair.cid)
      await server.db.query('DELETE FROM chat_channels WHERE cid = $1', [cid]);
    return { status: r.status, ...(r.status < 300 ? { sawIt: cid === world.pair.cid } : {}) };
  },
  'PATCH /chat/channels/{type}/{id}': onMain('PATCH', '', () => ({
    body: { set: { topic: `t-${uniq()}` } },
  })),
  'POST /chat/channels/{type}/{id}': async (server, world, who, allowed) => {
    const fresh = await channelToChange(server, world, 'add members', allowed);
    // Adds a user of no position (adding a position would change what it may read for the rest of the run).
    const extra = `az-extra-${uniq()}`;
    await server.app.chat.server.upsertUsers([{ id: extra }]);
    const r = await callAs(server, world, who, 'POST', `/channels/messaging/${fresh.id}`, {
      body: { add_members: [extra] },
    });
    const added = await server.db.query('SELECT 1 FROM chat_members WHERE cid = $1 AND user_id = $2', [
      fresh.cid,
      extra,
    ]);
    // A refused call that still added someone is a leak: report it as allowed.
    return { status: r.status < 300 || added.rowCount ? 200 : r.status };
  },
  'DELETE /chat/channels/{type}/{id}': onFresh('DELETE', ''),
  'PATCH /chat/channels/{type}/{id}/member/{userId}': plain(
    'PATCH',
    (w, who) => `/channels/messaging/${w.main.id}/member/${who === 'anonymous' ? 'nobody' : w.ids[who]}`,
    () => ({ body: { set: { pinned: true } } }),
  ),
  'POST /chat/channels/{type}/{id}/message': onMain('POST', '/message', () => ({
    body: { message: { text: 'hello' } },
  })),
  'GET /chat/channels/{type}/{id}/messages': onMain('GET', '/messages', (w) => ({
    query: { ids: w.main.parentId },
  })),
  'GET /chat/channels/{type}/{id}/pinned_messages': onMain('GET', '/pinned_messages'),
  'POST /chat/channels/{type}/{id}/read': onMain('POST', '/read', () => ({ body: {} })),
  'POST /chat/channels/{type}/{id}/unread': onMain('POST', '/unread', (w) => ({
    body: { message_id: w.main.lastId },
  })),
  'POST /chat/channels/{type}/{id}/event': onMain('POST', '/event', () => ({
    body: { event: { type: 'typing.start' } },
  })),
  'POST /chat/channels/{type}/{id}/hide': onFresh('POST', '/hide', () => ({ body: {} })),
  'POST /chat/channels/{type}/{id}/show': onMain('POST', '/show', () => ({ body: {} })),
  'POST /chat/channels/{type}/{id}/stop-watching': onMain('POST', '/stop-watching', () => ({ body: {} })),
  'POST /chat/channels/{type}/{id}/truncate': onFresh('POST', '/truncate', () => ({ body: {} })),
  'POST /chat/channels/read': plain(
    'POST',
    () => '/channels/read',
    () => ({ body: {} }),
  ),
  'POST /chat/channels/delivered': plain(
    'POST',
    () => '/channels/delivered',
    (w) => ({
      body: { latest_delivered_messages: [{ cid: w.main.cid, id: w.main.lastId }] },
    }),
  ),
  'POST /chat/moderation/mute/channel': plain(
    'POST',
    () => '/moderation/mute/channel',
    (w) => ({ body: { channel_cid: w.main.cid } }),
  ),
  'POST /chat/moderation/unmute/channel': plain(
    'POST',
    () => '/moderation/unmute/channel',
    (w) => ({ body: { channel_cid: w.main.cid } }),
  ),
  'POST /chat/moderation/flag': plain(
    'POST',
    () => '/moderation/flag',
    (w) => ({
      body: { target_message_id: w.main.removedReplyId },
    }),
  ),
  'POST /chat/sync': seeing(
    'POST',
    '/sync',
    (w) => ({
      body: { channel_cids: [w.main.cid], last_sync_at: new Date(Date.now() - 3_600_000).toISOString() },
    }),
    (b, w) => mentions(b, w.word),
  ),
  'GET /chat/messages/{id}': onParent('GET', ''),
  'POST /chat/messages/{id}': ownMessage('POST', '', { body: { message: { text: 'edited' } } }),
  'PUT /chat/messages/{id}': ownMessage('PUT', '', { body: { message: { text: 'edited' } } }),
  'DELETE /chat/messages/{id}': ownMessage('DELETE', ''),
  'POST /chat/messages/{id}/undelete': ownMessage('POST', '/undelete', { body: {} }, async (s, id) => {
    await s.db.query(
      `UPDATE chat_messages SET type = 'deleted', deleted_type = 'regular', deleted_at = now() WHERE id = $1`,
      [id],
    );
  }),
  'GET /chat/messages/{id}/replies': onParent('GET', '/replies'),
  'POST /chat/messages/{id}/reaction': onParent('POST', '/reaction', () => ({
    body: { reaction: { type: `r${uniq()}` } },
  })),
  'DELETE /chat/messages/{id}/reaction/{type}': async (server, world, who) => {
    const type = `r${uniq()}`;
    if (who !== 'anonymous') {
      await server.db.query('INSERT INTO chat_reactions (message_id, user_id, type) VALUES ($1, $2, $3)', [
        world.main.parentId,
        world.ids[who],
        type,
      ]);
    }
    const r = await callAs(server, world, who, 'DELETE', `/messages/${world.main.parentId}/reaction/${type}`);
    return { status: r.status };
  },
  'GET /chat/messages/{id}/reactions': onParent('GET', '/reactions'),
  'POST /chat/messages/{id}/reactions': onParent('POST', '/reactions', () => ({ body: {} })),
  'POST /chat/messages/history': plain(
    'POST',
    () => '/messages/history',
    (w) => ({
      body: { filter: { message_id: { $eq: w.main.parentId } } },
    }),
  ),
  'POST /chat/threads': seeing(
    'POST',
    '/threads',
    () => ({ body: {} }),
    (b, w) => mentions(b, w.main.parentId),
  ),
  'GET /chat/threads/{id}': plain('GET', (w) => `/threads/${w.main.parentId}`),
  'PATCH /chat/threads/{id}': plain(
    'PATCH',
    (w) => `/threads/${w.main.parentId}`,
    () => ({ body: { set: { title: `t-${uniq()}` } } }),
  ),
  'GET /chat/search': seeing(
    'GET',
    '/search',
    (w) => payload({ filter_conditions: { cid: w.main.cid }, query: w.word }),
    (b, w) => mentions(b, w.word),
  ),
  'GET /chat/unread': seeing(
    'GET',
    '/unread',
    () => ({}),
    (b, w) => mentions(b, w.main.cid),
  ),
  'POST /chat/unread_batch': plain(
    'POST',
    () => '/unread_batch',
    (w) => ({ body: { user_ids: [w.ids.member] } }),
  ),
  'GET /chat/users': seeing(
    'GET',
    '/users',
    (w) => payload({ filter_conditions: { id: { $in: [w.ids.member] } } }),
    (b, w) => mentions(b, w.ids.member),
  ),
  'POST /chat/users': async (server, world, who) => {
    const id = who === 'anonymous' ? 'anonymous-self' : world.ids[who];
    const r = await callAs(server, world, who, 'POST', '/users', {
      // A new name: an upsert that changes nothing is neither written nor announced (issue 13 §8).
      body: { users: [{ id, name: `Authz ${who} ${uniq()}` }] },
    });
    return { status: r.status };
  },
  'GET /chat/permissions': plain('GET', () => '/permissions'),
  'GET /chat/permissions/{id}': plain('GET', () => '/permissions/1'),
  'POST /chat/permissions': plain(
    'POST',
    () => '/permissions',
    () => ({
      body: {
        permission: { name: `p${uniq()}`, action: 'Allow', resources: ['ReadChannel'], roles: ['user'] },
      },
    }),
  ),
  'PUT /chat/permissions/{id}': plain(
    'PUT',
    () => '/permissions/1',
    () => ({ body: { permission: { name: 'x' } } }),
  ),
  'DELETE /chat/permissions/{id}': plain('DELETE', () => '/permissions/1'),
  'GET /chat/roles': plain('GET', () => '/roles'),
  'POST /chat/roles': plain(
    'POST',
    () => '/roles',
    () => ({ body: { name: `role${uniq()}` } }),
  ),
  'DELETE /chat/roles/{name}': plain('DELETE', () => '/roles/channel_member'),
  'GET /chat/channeltypes': plain('GET', () => '/channeltypes'),
  'GET /chat/channeltypes/{name}': plain('GET', () => '/channeltypes/messaging'),
  'POST /chat/channeltypes': plain(
    'POST',
    () => '/channeltypes',
    () => ({ body: { name: `ct${uniq()}` } }),
  ),
  'PUT /chat/channeltypes/{name}': plain(
    'PUT',
    () => '/channeltypes/messaging',
    () => ({ body: { typing_events: true } }),
  ),
  'DELETE /chat/channeltypes/{name}': plain('DELETE', () => '/channeltypes/messaging'),
  'GET /chat/commands': plain('GET', () => '/commands'),
  'GET /chat/commands/{name}': plain('GET', () => '/commands/giphy'),
  'POST /chat/commands': plain(
    'POST',
    () => '/commands',
    () => ({ body: { name: `c${uniq()}`, description: 'x' } }),
  ),
  'PUT /chat/commands/{name}': plain(
    'PUT',
    () => '/commands/giphy',
    () => ({ body: { description: 'x' } }),
  ),
  'DELETE /chat/commands/{name}': plain('DELETE', () => '/commands/giphy'),
  'POST /chat/channels/delete': async (server, world, who, allowed) => {
    // A task: each channel is authorized on its own, so "allowed" means the channel was deleted.
    const fresh = await channelToChange(server, world, 'batch delete', allowed);
    const r = await callAs(server, world, who, 'POST', '/channels/delete', { body: { cids: [fresh.cid] } });
    if (r.status >= 300) return { status: r.status };
    const taskId = String(r.body.task_id);
    for (let i = 0; i < 200; i++) {
      const t = await server.db.query<{ status: string }>('SELECT status FROM chat_tasks WHERE id = $1', [
        taskId,
      ]);
      if (t.rows[0]?.status !== 'pending' && t.rows[0]?.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const gone = await server.db.query('SELECT 1 FROM chat_channels WHERE cid = $1 AND deleted_at IS NULL', [
      fresh.cid,
    ]);
    return { status: gone.rowCount === 0 ? 200 : 403 };
  },
  'GET /chat/tasks/{id}': async (server, world, who) => {
    const started = await callAs(server, world, 'owner', 'POST', '/channels/delete', {
      body: { cids: ['messaging:no-such-channel'] },
    });
    const r = await callAs(server, world, who, 'GET', `/tasks/${String(started.body.task_id)}`);
    return { status: r.status };
  },
  'GET /chat/members': plain(
    'GET',
    () => '/members',
    (w) => payload({ type: 'messaging', id: w.main.id, filter_conditions: {} }),
  ),
  'DELETE /chat/users/{id}': plain('DELETE', (w) => `/users/${otherUser(w)}`),
  'POST /chat/users/delete': plain(
    'POST',
    () => '/users/delete',
    (w) => ({ body: { user_ids: [otherUser(w)] } }),
  ),
  'POST /chat/users/{id}/deactivate': plain(
    'POST',
    (w) => `/users/${otherUser(w)}/deactivate`,
    () => ({ body: {} }),
  ),
  'POST /chat/users/{id}/reactivate': plain(
    'POST',
    (w) => `/users/${otherUser(w)}/reactivate`,
    () => ({ body: {} }),
  ),
  'POST /chat/users/deactivate': plain(
    'POST',
    () => '/users/deactivate',
    (w) => ({ body: { user_ids: [otherUser(w)] } }),
  ),
  'POST /chat/users/reactivate': plain(
    'POST',
    () => '/users/reactivate',
    (w) => ({ body: { user_ids: [otherUser(w)] } }),
  ),
  'POST /chat/users/restore': plain(
    'POST',
    () => '/users/restore',
    (w) => ({ body: { user_ids: [otherUser(w)] } }),
  ),
  'GET /chat/users/{id}/export': plain('GET', (w) => `/users/${w.ids.member}/export`),
  'POST /chat/users/block': plain(
    'POST',
    () => '/users/block',
    (w, who) => ({ body: { blocked_user_id: blockTarget(w, who) } }),
  ),
  'GET /chat/users/block': plain('GET', () => '/users/block'),
  'POST /chat/users/unblock': plain(
    'POST',
    () => '/users/unblock',
    (w, who) => ({ body: { blocked_user_id: blockTarget(w, who) } }),
  ),
  'POST /chat/channels/{type}/{id}/file': upload(mainPath('/file')),
  'POST /chat/channels/{type}/{id}/image': upload(mainPath('/image')),
  'DELETE /chat/channels/{type}/{id}/file': deleteOwnUpload(mainPath('/file'), true),
  'DELETE /chat/channels/{type}/{id}/image': deleteOwnUpload(mainPath('/image'), true),
  'POST /chat/uploads/file': upload(() => '/uploads/file'),
  'POST /chat/uploads/image': upload(() => '/uploads/image'),
  'DELETE /chat/uploads/file': deleteOwnUpload(() => '/uploads/file', false),
  'DELETE /chat/uploads/image': deleteOwnUpload(() => '/uploads/image', false),
  'GET /chat/app': plain('GET', () => '/app'),
  'PATCH /chat/app': plain(
    'PATCH',
    () => '/app',
    () => ({ body: { file_upload_config: { size_limit: 1 } } }),
  ),
  'POST /chat/users/{id}/event': plain(
    'POST',
    (w) => `/users/${w.ids.member}/event`,
    () => ({
      body: { event: { type: 'custom.ping' } },
    }),
  ),
  'GET /chat/files/{id}/{name}': fileRead('original'),
  'GET /chat/files/{id}/thumb': fileRead('thumb'),
};
