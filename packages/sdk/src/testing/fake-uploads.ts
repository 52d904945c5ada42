import {
  AppSettingsResponse,
  ContractError,
  DEFAULT_UPLOAD_SIZE_LIMIT,
  endpointOf,
  strictSchema,
  UploadResponse,
  chatFileIdOf,
  type AppSettings,
  type StrictOptions,
  type UploadConfig,
} from '@caseroom/protocol';
import type { FakeChannelRecord } from './fake-data.js';

/** One file the fake holds. */
export interface FakeUpload {
  id: string;
  owner: string;
  /** Undefined for `/uploads/...` (not tied to a channel). */
  cid?: string;
  kind: 'file' | 'image';
  name: string;
  type: string;
  size: number;
  url: string;
  deleted: boolean;
}

/** What the upload routes need from the fake server. */
export interface FakeUploadHost {
  readonly channels: Map<string, FakeChannelRecord>;
  readonly uploads: Map<string, FakeUpload>;
  appSettings: AppSettings;
  /** Resolves when held uploads may answer (see `holdUploads`). */
  uploadGate: Promise<void> | undefined;
  /** Width and height the fake reports for every image. */
  imageSize: { width: number; height: number };
  fail(status: number, code: number, message: string): Error;
}

let counter = 0;

/** The extension of `name` with its dot, lower case (`.pdf`), or '' without one. */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** Refuses as the real server does (chat-spec §5): code 22 for the size, code 4 naming the file extension. */
function enforce(host: FakeUploadHost, config: UploadConfig, name: string, type: string, size: number): void {
  const limit = config.size_limit || DEFAULT_UPLOAD_SIZE_LIMIT;
  if (size > limit) throw host.fail(413, 22, `file size ${size} bytes exceeds the limit of ${limit} bytes`);
  const ext = extensionOf(name);
  const refused =
    (config.allowed_file_extensions?.length && !config.allowed_file_extensions.includes(ext)) ||
    config.blocked_file_extensions?.includes(ext) ||
    (config.allowed_mime_types?.length && !config.allowed_mime_types.includes(type)) ||
    config.blocked_mime_types?.includes(type);
  if (refused) throw host.fail(400, 4, `file extension ${ext || '(none)'} is not allowed`);
}

/**
 * Upload routes of the fake (chat-spec §7): `POST|DELETE /channels/{type}/{id}/file|image`, `/uploads/file|image`
 * and `GET /app`. Answers undefined for other routes.
 */
export async function routeUploads(
  host: FakeUploadHost,
  method: string,
  segments: string[],
  query: Record<string, string>,
  form: FormData | undefined,
  userId: string,
): Promise<unknown> {
  if (method === 'GET' && segments.length === 1 && segments[0] === 'app') return { app: host.appSettings };
  const channelRoute = segments[0] === 'channels' && segments.length === 4;
  const uploadRoute = segments[0] === 'uploads' && segments.length === 2;
  const kind = segments.at(-1);
  if ((!channelRoute && !uploadRoute) || (kind !== 'file' && kind !== 'image')) return undefined;
  if (method !== 'POST' && method !== 'DELETE') return undefined;
  let cid: string | undefined;
  if (channelRoute) {
    cid = `${segments[1]}:${segments[2]}`;
    const record = host.channels.get(cid);
    if (!record) throw host.fail(404, 16, `channel ${cid} does not exist`);
    if (!record.members.includes(userId)) throw host.fail(403, 17, `user ${userId} may not upload to ${cid}`);
  }
  if (method === 'DELETE') {
    const id = chatFileIdOf(query.url);
    const upload = id ? host.uploads.get(id) : undefined;
    if (!upload || upload.deleted || upload.owner !== userId || upload.cid !== cid)
      throw host.fail(404, 16, `file ${query.url ?? ''} does not exist`);
    upload.deleted = true;
    return {};
  }
  const file = form?.get('file');
  if (!file || typeof file === 'string') throw host.fail(400, 4, 'the multipart field "file" is required');
  const name = (file as Partial<File>).name ?? 'file';
  const type = file.type || 'application/octet-stream';
  const config =
    kind === 'image' ? host.appSettings.image_upload_config : host.appSettings.file_upload_config;
  if (kind === 'image' && !type.startsWith('image/'))
    throw host.fail(400, 4, `file extension ${extensionOf(name)} is not an image`);
  enforce(host, config, name, type, file.size);
  await host.uploadGate;
  const id = `fakeupload${String(++counter).padStart(6, '0')}`;
  const url = `/chat/files/${id}/${encodeURIComponent(name)}`;
  host.uploads.set(id, { id, owner: userId, cid, kind, name, type, size: file.size, url, deleted: false });
  return {
    file: url,
    mime_type: type,
    file_size: file.size,
    ...(kind === 'image'
      ? {
          thumb_url: `/chat/files/${id}/thumb`,
          original_width: host.imageSize.width,
          original_height: host.imageSize.height,
        }
      : {}),
  };
}

/**
 * Holds the upload answers to the protocol's schemas while the protocol's endpoint list does not name them yet (it
 * does once the server's routes are merged; then `checkAnswer` covers them). Throws a ContractError on drift.
 */
export function checkUploadAnswer(
  method: string,
  path: string,
  body: unknown,
  options: StrictOptions,
): boolean {
  if (endpointOf(method, path)) return false;
  const bare = path.replace(/^\/chat/, '');
  const uploadPath = /^\/(channels\/[^/]+\/[^/]+|uploads)\/(file|image)$/.test(bare);
  if (uploadPath && method === 'DELETE') {
    if (JSON.stringify(body) !== '{}') throw new ContractError(`${method} ${path} answers {} only`);
    return true;
  }
  const schema =
    method === 'GET' && bare === '/app' ? AppSettingsResponse : uploadPath ? UploadResponse : undefined;
  if (!schema) return false;
  const result = strictSchema(schema, options).safeParse(body);
  if (!result.success)
    throw new ContractError(`${method} ${path} breaks the protocol: ${result.error.message.slice(0, 500)}`);
  return true;
}
