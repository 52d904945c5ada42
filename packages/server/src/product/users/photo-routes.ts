import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { z } from 'zod';
import type { ChatServerApi } from '../../chat/server-api.js';
import { txWithChat } from '../../chat/server-tx.js';
import type { Db } from '../../platform/db.js';
import { ProductError } from '../errors.js';
import type { Authenticate } from '../http/authenticate.js';
import { installProductErrorHandler } from '../http/error-handler.js';
import { chatUserFor } from './chat-user.js';
import { updateUser } from './records.js';

/** Photos are stored as 256x256 WebP, whatever was uploaded (up to 8 MB of JPEG, PNG, WebP, GIF or AVIF). */
export const PHOTO_SIZE = 256;
const MAX_UPLOAD = 8 * 1024 * 1024;
const ACCEPTED = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'];

/** Square crop around the centre, EXIF orientation applied, metadata (GPS...) dropped. */
export async function resizePhoto(input: Buffer): Promise<Buffer> {
  try {
    return await sharp(input, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(PHOTO_SIZE, PHOTO_SIZE, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw new ProductError('invalid-argument', 'The photo is not an image we can read');
  }
}

/**
 * `PUT /api/me/photo` (raw image body): resizes with sharp, stores it, points the user record and the chat
 * user at `GET /api/users/{id}/photo?v=<time>` (any signed-in user may load it; the version busts caches).
 */
export async function photoRoutes(
  http: FastifyInstance,
  opts: { db: Db; authenticate: Authenticate; chat: ChatServerApi },
): Promise<void> {
  const { db, authenticate, chat } = opts;
  installProductErrorHandler(http);
  http.addContentTypeParser(ACCEPTED, { parseAs: 'buffer', bodyLimit: MAX_UPLOAD }, (_req, body, done) =>
    done(null, body),
  );

  http.put('/api/me/photo', { bodyLimit: MAX_UPLOAD }, async (req) => {
    const { uid } = await authenticate(req);
    if (!Buffer.isBuffer(req.body))
      throw new ProductError('invalid-argument', 'Send the photo as an image body');
    const photo = await resizePhoto(req.body);
    const url = `/api/users/${encodeURIComponent(uid)}/photo?v=${Date.now()}`;
    // The photo and the chat user's image commit together; `user.updated` goes out after.
    await txWithChat(db, chat, async (q, chatInTx) => {
      await q.query(
        `INSERT INTO user_photos (user_id, content_type, content) VALUES ($1, 'image/webp', $2)
         ON CONFLICT (user_id) DO UPDATE SET content = EXCLUDED.content, updated = now()`,
        [uid, photo],
      );
      await updateUser(q, uid, { photo: url });
      const user = await chatUserFor(q, uid);
      if (user) await chatInTx.upsertUsers([user]);
    });
    return { photo: url };
  });

  http.get('/api/users/:id/photo', async (req, reply) => {
    await authenticate(req);
    const { id } = z.object({ id: z.string().min(1) }).parse(req.params);
    const { rows } = await db.query<{ content: Buffer; content_type: string }>(
      'SELECT content, content_type FROM user_photos WHERE user_id = $1',
      [id],
    );
    const row = rows[0];
    if (!row) throw new ProductError('not-found', 'Photo not found');
    return reply
      .type(row.content_type)
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(row.content));
  });
}
