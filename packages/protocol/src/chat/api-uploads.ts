import { z } from 'zod';
import {
  AppSettingsResponse,
  DeleteUploadQuery,
  UpdateAppSettingsRequest,
  UploadResponse,
} from './attachments.js';
import { ep, type ChatEndpoint } from './api-endpoint.js';

/** The multipart body of an upload (`multipart/form-data`, streamed; not JSON). */
export const UploadForm = z.object({
  file: z.string().describe('the file: a multipart part with a filename (one per request)'),
  user: z.string().optional().describe('server-side uploads only: the owner as JSON `{"id"}` (or `user_id`)'),
});

const Empty = z.object({});
const upload = 'Multipart `file`; typed from its content, checked against the app upload config';

/** Uploads and the app's upload settings (part of CHAT_ENDPOINTS; chat-spec §7 Uploads, /app). */
export const UPLOAD_ENDPOINTS: readonly ChatEndpoint[] = [
  ep(
    'POST',
    '/chat/channels/{type}/{id}/file',
    `${upload} (upload-file). Code 4 "file extension", 22 size.`,
    {
      body: UploadForm,
      response: UploadResponse,
    },
  ),
  ep('POST', '/chat/channels/{type}/{id}/image', `${upload}; JPEG, PNG, GIF, WebP or AVIF, re-encoded.`, {
    body: UploadForm,
    response: UploadResponse,
  }),
  ep('DELETE', '/chat/channels/{type}/{id}/file', 'Deletes the caller’s own upload while unattached.', {
    query: DeleteUploadQuery,
    response: Empty,
  }),
  ep('DELETE', '/chat/channels/{type}/{id}/image', 'Deletes the caller’s own upload while unattached.', {
    query: DeleteUploadQuery,
    response: Empty,
  }),
  ep('POST', '/chat/uploads/file', `${upload}; owner-only until a message carries it.`, {
    body: UploadForm,
    response: UploadResponse,
  }),
  ep('POST', '/chat/uploads/image', `${upload}; an image, as /channels/{type}/{id}/image.`, {
    body: UploadForm,
    response: UploadResponse,
  }),
  ep('DELETE', '/chat/uploads/file', 'Deletes the caller’s own upload while unattached.', {
    query: DeleteUploadQuery,
    response: Empty,
  }),
  ep('DELETE', '/chat/uploads/image', 'Deletes the caller’s own upload while unattached.', {
    query: DeleteUploadQuery,
    response: Empty,
  }),
  ep('GET', '/chat/app', 'The app settings: image_upload_config and file_upload_config.', {
    response: AppSettingsResponse,
  }),
  ep('PATCH', '/chat/app', 'Replaces the given upload configs (server-side only).', {
    body: UpdateAppSettingsRequest,
    response: AppSettingsResponse,
  }),
];
