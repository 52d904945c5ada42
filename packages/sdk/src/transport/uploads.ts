import { AppSettingsResponse, UploadResponse, type AppSettings } from '@caseroom/protocol';
import type { ApiClient } from './api-client.js';
import type { UploadOptions } from './multipart.js';

/** `file` for any file, `image` for images (they get a thumbnail and dimensions; chat-spec §7). */
export type UploadKind = 'file' | 'image';

/** What can be uploaded: a Blob or File, or bytes (a Node `Buffer`, a `Uint8Array`). */
export type UploadBody = Blob | Uint8Array;

/** A file name for a Blob that has none (a voice recording, a pasted image). */
export function fileNameOf(file: Blob, name?: string): string {
  if (name) return name;
  const own = (file as Partial<File>).name;
  if (typeof own === 'string' && own !== '') return own;
  const ext = file.type.split('/')[1]?.split(/[;+]/)[0];
  return ext ? `file.${ext}` : 'file';
}

/**
 * `POST {base}/file|image` (`base` is `/channels/{type}/{id}` or `/uploads`): the multipart field `file` with the
 * file's name and content type. Answers the stored file's URL and what the server learnt of it.
 */
export async function uploadFile(
  api: ApiClient,
  base: string,
  kind: UploadKind,
  file: UploadBody,
  name?: string,
  contentType?: string,
  options: UploadOptions = {},
): Promise<UploadResponse> {
  // Bytes (a Node Buffer) become a Blob: FormData takes nothing else.
  const blob =
    file instanceof Blob
      ? file
      : new Blob([file as Uint8Array<ArrayBuffer>], contentType ? { type: contentType } : {});
  const typed = contentType && contentType !== blob.type ? blob.slice(0, blob.size, contentType) : blob;
  const form = new FormData();
  form.append('file', typed, fileNameOf(blob, name));
  const answer = await api.upload<unknown>(`${base}/${kind}`, form, options);
  return UploadResponse.parse(answer);
}

/** `DELETE {base}/file|image?url=`: removes an upload that was not sent. */
export async function deleteUpload(
  api: ApiClient,
  base: string,
  kind: UploadKind,
  url: string,
): Promise<void> {
  await api.delete(`${base}/${kind}`, { query: { url } });
}

const appSettingsCache = new WeakMap<ApiClient, Promise<AppSettings>>();

/**
 * `GET /app`: the upload configurations (chat-spec §3, §7), fetched once per client; a failed fetch is forgotten so
 * the next call asks again.
 */
export function getAppSettings(api: ApiClient): Promise<AppSettings> {
  let cached = appSettingsCache.get(api);
  if (!cached) {
    cached = api.get<unknown>('/app').then((answer) => AppSettingsResponse.parse(answer).app);
    cached.catch(() => appSettingsCache.delete(api));
    appSettingsCache.set(api, cached);
  }
  return cached;
}

/** Drops the cached settings (a server refusal showed they changed); the next `getAppSettings` asks again. */
export function forgetAppSettings(api: ApiClient): void {
  appSettingsCache.delete(api);
}
