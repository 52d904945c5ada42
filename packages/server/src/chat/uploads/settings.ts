import {
  DEFAULT_UPLOAD_SIZE_LIMIT,
  type AppSettings,
  type UpdateAppSettingsRequest,
  type UploadConfig,
} from '@caseroom/protocol';
import type { Queryable } from '../../platform/db.js';

/**
 * The app's upload configurations (chat-spec §3 app settings, `GET/PATCH /chat/app`), one row of
 * `chat_app_settings`. Extensions are kept lower-case with their dot, MIME types lower-case.
 */

export type UploadKind = 'file' | 'image';

/** Extensions and MIME types in one spelling: `.PDF`, `pdf` -> `.pdf`; `Image/PNG` -> `image/png`. */
export function normaliseConfig(config: UploadConfig): UploadConfig {
  const ext = (list: string[] | undefined) =>
    list &&
    [...new Set(list.map((e) => e.trim().toLowerCase()).filter(Boolean))].map((e) =>
      e.startsWith('.') ? e : `.${e}`,
    );
  const mime = (list: string[] | undefined) =>
    list && [...new Set(list.map((m) => m.trim().toLowerCase()).filter(Boolean))];
  const out: UploadConfig = {};
  const put = <K extends keyof UploadConfig>(key: K, value: UploadConfig[K] | undefined) => {
    if (value !== undefined) out[key] = value;
  };
  put('allowed_file_extensions', ext(config.allowed_file_extensions));
  put('blocked_file_extensions', ext(config.blocked_file_extensions));
  put('allowed_mime_types', mime(config.allowed_mime_types));
  put('blocked_mime_types', mime(config.blocked_mime_types));
  put('size_limit', config.size_limit);
  return out;
}

export async function getAppSettings(q: Queryable): Promise<AppSettings> {
  const { rows } = await q.query<{ image_upload_config: UploadConfig; file_upload_config: UploadConfig }>(
    'SELECT image_upload_config, file_upload_config FROM chat_app_settings',
  );
  const row = rows[0];
  return {
    image_upload_config: row?.image_upload_config ?? {},
    file_upload_config: row?.file_upload_config ?? {},
  };
}

/** The configuration an upload of `kind` is checked against. */
export async function uploadConfigOf(q: Queryable, kind: UploadKind): Promise<UploadConfig> {
  const settings = await getAppSettings(q);
  return kind === 'image' ? settings.image_upload_config : settings.file_upload_config;
}

/** The size limit of a configuration in bytes (0 or absent: the default of 100 MiB). */
export const sizeLimitOf = (config: UploadConfig): number => config.size_limit || DEFAULT_UPLOAD_SIZE_LIMIT;

/** `PATCH /chat/app`: each configuration given replaces the stored one. */
export async function updateAppSettings(q: Queryable, patch: UpdateAppSettingsRequest): Promise<AppSettings> {
  const image = patch.image_upload_config && normaliseConfig(patch.image_upload_config);
  const file = patch.file_upload_config && normaliseConfig(patch.file_upload_config);
  await q.query(
    `INSERT INTO chat_app_settings (id, image_upload_config, file_upload_config, updated_at)
     VALUES (true, coalesce($1::jsonb, '{}'), coalesce($2::jsonb, '{}'), now())
     ON CONFLICT (id) DO UPDATE SET
       image_upload_config = coalesce($1::jsonb, chat_app_settings.image_upload_config),
       file_upload_config = coalesce($2::jsonb, chat_app_settings.file_upload_config),
       updated_at = now()`,
    [image ? JSON.stringify(image) : null, file ? JSON.stringify(file) : null],
  );
  return getAppSettings(q);
}
