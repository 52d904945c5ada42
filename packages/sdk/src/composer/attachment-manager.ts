import { CHAT_LIMITS, type AppSettings, type Attachment, type UploadResponse } from '@caseroom/protocol';
import type { ChatChannel } from '../channels/channel.js';
import type { ClientContext } from '../client/context.js';
import { StateStore, type Store } from '../stores/store.js';
import { toChatApiError } from '../transport/errors.js';
import { fileNameOf, forgetAppSettings, getAppSettings } from '../transport/uploads.js';
import {
  ATTACHMENT_ERRORS,
  ATTACHMENT_TEXTS,
  attachmentTypeOf,
  blockErrorReason,
  checkUpload,
  configFor,
  fillText,
  refusedExtension,
  refusedSizeLimit,
  uploadErrorReason,
  uploadNoticeText,
  type UploadErrorReason,
  type UploadPermissionCheck,
} from './attachment-checks.js';
import { asLocal, isSendable, uploadedFields } from './local-attachments.js';

/** chat-spec §4 Attachment upload. */
export type AttachmentUploadState = 'pending' | 'uploading' | 'finished' | 'failed' | 'blocked';

/** Local-only metadata of an attachment in the composer (chat-spec §3); never sent. */
export interface LocalAttachmentMetadata {
  id: string;
  /** The file being uploaded; absent for attachments of a message being edited. */
  file?: Blob;
  uploadState: AttachmentUploadState;
  /** An object URL of the image while it is composed (browsers). */
  previewUri?: string;
  uploadPermissionCheck?: UploadPermissionCheck;
  /** Percent uploaded, 0..100, while uploading. */
  progress?: number;
  errorReason?: UploadErrorReason;
  /** The server's or the check's explanation. */
  errorExtraInfo?: string;
}

export type LocalAttachment = Attachment & { localMetadata: LocalAttachmentMetadata };

export interface AttachmentsSnapshot {
  attachments: readonly LocalAttachment[];
  /** Pending and uploading attachments; sending waits for them (chat-spec §5). */
  uploadsInProgress: number;
  /** Attachments that would be sent (finished uploads and attachments that need no upload). */
  sendableCount: number;
  maxAttachments: number;
  /** The upload control is enabled: the channel allows `upload-file` and fewer than the maximum are attached. */
  canUpload: boolean;
  /** "You currently have N attachments, the maximum is 30" when over the maximum (sending is disabled). */
  countNotice?: string;
  /** "You can't uplod more than 30 attachments" at or above the maximum (the upload control's text). */
  limitText?: string;
}

/** Options of a voice recording (chat-spec §3 voice recording). */
export interface VoiceRecordingInput {
  /** Seconds. */
  duration: number;
  /** Amplitudes 0..1, at most 100. */
  waveform_data: number[];
  name?: string;
}

let localIds = 0;

/**
 * The composer's attachments (chat-spec §3, §4, §5): files become local attachments (pending), are checked against
 * the app's upload config (blocked with the reason) and uploaded (uploading with progress, then finished or failed
 * with file-size / file-extension / unknown). Failed ones retry; removing one aborts its upload or deletes it from
 * the server when it finished and was not sent. Notices go to the client's notification list with the spec's texts.
 */
export class AttachmentManager {
  private readonly store: StateStore<AttachmentsSnapshot>;
  private readonly controllers = new Map<string, AbortController>();
  private readonly noticeId = `attachments-wait-${++localIds}`;
  /** The composition's attachments while a message is edited. */
  private stash: LocalAttachment[] | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly ctx: ClientContext,
    private readonly channel: ChatChannel,
    readonly maxAttachments: number = CHAT_LIMITS.maxAttachments,
  ) {
    this.store = new StateStore(this.derive([]));
    let allowed = channel.can('upload-file');
    this.unsubscribe = channel.state.subscribe(() => {
      if (channel.can('upload-file') !== allowed) {
        allowed = !allowed;
        this.publish(this.list);
      }
    });
  }

  get state(): Store<AttachmentsSnapshot> {
    return this.store;
  }

  private get list(): readonly LocalAttachment[] {
    return this.store.getSnapshot().attachments;
  }

  /**
   * Adds files (a file input's, a drop's or the clipboard's) and uploads them; resolves when every one finished,
   * failed or was blocked. Beyond the free slots files are left out with "You can't uplod more than 30 attachments".
   */
  async addFiles(files: Iterable<Blob> | ArrayLike<Blob>): Promise<LocalAttachment[]> {
    const all = Array.from(files);
    if (!this.channel.can('upload-file')) {
      this.ctx.logger('warn', 'upload-file is not among the channel capabilities; files ignored');
      return [];
    }
    const free = Math.max(0, this.maxAttachments - this.list.length);
    if (all.length > free)
      this.ctx.notify({ text: fillText(ATTACHMENT_TEXTS.limitReached, { max: this.maxAttachments }) });
    const added = all.slice(0, free).map((file) => this.localAttachment(file));
    this.publish([...this.list, ...added]);
    return Promise.all(added.map((a) => this.run(a.localMetadata.id, true)));
  }

  /** Adds a recorded voice message (type voiceRecording, with its duration and waveform) and uploads it. */
  async addVoiceRecording(file: Blob, input: VoiceRecordingInput): Promise<LocalAttachment> {
    const attachment = {
      ...this.localAttachment(file, input.name),
      type: 'voiceRecording',
      duration: input.duration,
      waveform_data: input.waveform_data,
    };
    this.publish([...this.list, attachment]);
    return this.run(attachment.localMetadata.id, true);
  }

  /**
   * Uploads one local attachment (added if it is not held yet). Throws the chat-spec §8 messages: a missing local id
   * or file, a blocked upload, or "Error uploading attachment" with the reason as `cause` (the attachment is failed).
   */
  async uploadAttachment(attachment: LocalAttachment): Promise<LocalAttachment> {
    const id = attachment.localMetadata?.id;
    if (!id) throw new Error(ATTACHMENT_ERRORS.missingLocalId);
    if (!attachment.localMetadata.file) throw new Error(ATTACHMENT_ERRORS.fileRequired);
    if (!this.find(id)) this.publish([...this.list, attachment]);
    const done = await this.run(id, attachment.localMetadata.uploadState !== 'failed');
    if (done.localMetadata.uploadState === 'blocked') throw new Error(ATTACHMENT_ERRORS.blocked);
    if (done.localMetadata.uploadState === 'failed')
      throw new Error(ATTACHMENT_ERRORS.uploadFailed, { cause: done.localMetadata.errorReason });
    return done;
  }

  /** A failed upload again: back to uploading (chat-spec §4). */
  async retry(id: string): Promise<LocalAttachment | undefined> {
    if (this.find(id)?.localMetadata.uploadState !== 'failed') return this.find(id);
    return this.run(id, false);
  }

  /**
   * Removes an attachment: a running upload is aborted, a finished one of this composition deleted from the server
   * ("Error deleting attachment" when that fails). Attachments of the message being edited are only left out.
   */
  async remove(id: string): Promise<void> {
    const attachment = this.find(id);
    if (!attachment) return;
    this.controllers.get(id)?.abort();
    this.controllers.delete(id);
    this.release([attachment]);
    this.publish(this.list.filter((a) => a.localMetadata.id !== id));
    if (attachment.localMetadata.file && attachment.localMetadata.uploadState === 'finished') {
      try {
        await this.deleteUploaded(attachment);
      } catch (error) {
        this.ctx.logger('warn', `deleting an attachment failed: ${toChatApiError(error).message}`);
        this.ctx.notify({ text: ATTACHMENT_TEXTS.deleteError });
      }
    }
  }

  /** Adds or replaces attachments that need no upload (custom ones, or a message's when editing). */
  upsertAttachments(attachments: readonly (Attachment | LocalAttachment)[]): void {
    const next = [...this.list];
    for (const a of attachments) {
      const local = 'localMetadata' in a && a.localMetadata ? (a as LocalAttachment) : asLocal(a);
      const at = next.findIndex((x) => x.localMetadata.id === local.localMetadata.id);
      if (at >= 0) next[at] = local;
      else next.push(local);
    }
    this.publish(next);
  }

  /** What a send carries: finished uploads and attachments that needed none, without local metadata. */
  sendable(): Attachment[] {
    return this.list.filter(isSendable).map(({ localMetadata: _local, ...attachment }) => attachment);
  }

  /** chat-spec §5: a send was tried while uploads run; the persistent notice stays until they are done. */
  showWaitNotice(): void {
    if (this.store.getSnapshot().uploadsInProgress > 0)
      this.ctx.notify({ id: this.noticeId, text: ATTACHMENT_TEXTS.waitForUploads, permanent: true });
  }

  /** After a send: the attachments leave the composer (their uploads are now the message's). */
  reset(): void {
    this.release(this.list);
    this.publish([]);
  }

  /** Edit mode: the message's attachments replace the composition's, which come back with `endEditing`. */
  beginEditing(attachments: readonly Attachment[]): void {
    this.stash ??= [...this.list];
    this.publish(attachments.map(asLocal));
  }

  /** Leaves edit mode; uploads added for an edit that was not sent are deleted from the server. */
  endEditing(sent: boolean): void {
    if (!this.stash) return;
    const editing = this.list;
    for (const a of editing) this.controllers.get(a.localMetadata.id)?.abort();
    this.release(editing);
    if (!sent)
      for (const a of editing.filter(
        (x) => x.localMetadata.file && x.localMetadata.uploadState === 'finished',
      ))
        void this.deleteUploaded(a).catch(() => undefined);
    const stash = this.stash;
    this.stash = undefined;
    this.publish(stash);
  }

  dispose(): void {
    this.unsubscribe();
    for (const controller of this.controllers.values()) controller.abort();
    this.controllers.clear();
    this.release([...this.list, ...(this.stash ?? [])]);
    this.ctx.dismiss(this.noticeId);
  }

  private localAttachment(file: Blob, name?: string): LocalAttachment {
    const title = fileNameOf(file, name);
    const type = attachmentTypeOf(file.type);
    const canPreview = type === 'image' && typeof URL.createObjectURL === 'function';
    return {
      type,
      title,
      file_size: file.size,
      ...(file.type ? { mime_type: file.type } : {}),
      localMetadata: {
        id: `local-${++localIds}-${crypto.randomUUID()}`,
        file,
        uploadState: 'pending',
        ...(canPreview ? { previewUri: URL.createObjectURL(file) } : {}),
      },
    };
  }

  /** Checks (when `check`) and uploads one attachment; answers it as it ended. */
  private async run(id: string, check: boolean): Promise<LocalAttachment> {
    const start = this.find(id);
    const file = start?.localMetadata.file;
    if (!start || !file) throw new Error(ATTACHMENT_ERRORS.fileRequired);
    const name = start.title ?? fileNameOf(file);
    const image = start.type === 'image';
    const settings = await this.settings();
    if (!this.find(id)) return start; // removed while the settings loaded
    const config = configFor(settings, image);
    if (check) {
      const permission = checkUpload({ name, type: file.type, size: file.size }, config);
      if (permission.uploadBlocked) {
        const reason = blockErrorReason(permission.reason);
        this.ctx.notify({ text: uploadNoticeText(name, file.type, reason, config) });
        return this.patch(id, {
          uploadState: 'blocked',
          uploadPermissionCheck: permission,
          errorReason: reason,
        });
      }
      this.patch(id, { uploadPermissionCheck: permission });
    }
    const controller = new AbortController();
    this.controllers.set(id, controller);
    this.patch(id, {
      uploadState: 'uploading',
      progress: 0,
      errorReason: undefined,
      errorExtraInfo: undefined,
    });
    const options = {
      signal: controller.signal,
      onProgress: ({ loaded, total }: { loaded: number; total: number }) => {
        const progress = total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0;
        if (this.find(id)?.localMetadata.progress !== progress) this.patch(id, { progress });
      },
    };
    let answer: UploadResponse;
    try {
      answer = await (image ? this.channel.sendImage : this.channel.sendFile).call(
        this.channel,
        file,
        name,
        file.type || undefined,
        options,
      );
    } catch (error) {
      if (controller.signal.aborted) return start;
      this.controllers.delete(id);
      const failure = toChatApiError(error);
      const reason = uploadErrorReason(failure);
      this.ctx.logger('warn', `${ATTACHMENT_ERRORS.uploadFailed}: ${failure.message}`, { reason });
      // A refusal the check let through: the settings changed since they were read, or the content is not what its
      // name and type say. The notice names the server's limit or extension, and the next check reads them again.
      if (reason !== 'unknown') forgetAppSettings(this.ctx.api);
      const limit = reason === 'file-size' ? refusedSizeLimit(failure) : undefined;
      const shown = limit === undefined ? config : { ...config, size_limit: limit };
      const ext = reason === 'file-extension' ? refusedExtension(failure) : undefined;
      this.ctx.notify({ text: uploadNoticeText(name, file.type, reason, shown, ext) });
      return this.patch(id, { uploadState: 'failed', errorReason: reason, errorExtraInfo: failure.message });
    }
    this.controllers.delete(id);
    const held = this.find(id);
    if (!held) {
      // Removed while the answer was on its way: the upload is nobody's.
      void this.deleteUploaded({ ...start, ...uploadedFields(start, answer) }).catch(() => undefined);
      return start;
    }
    return this.patch(id, { uploadState: 'finished', progress: 100 }, uploadedFields(held, answer));
  }

  private async settings(): Promise<AppSettings | undefined> {
    try {
      return await getAppSettings(this.ctx.api);
    } catch (error) {
      // chat-spec §5: when the settings cannot be fetched, the checks pass (the server still enforces them).
      this.ctx.logger('info', `app settings unavailable: ${toChatApiError(error).message}`);
      return undefined;
    }
  }

  private deleteUploaded(attachment: Attachment): Promise<void> {
    const url = attachment.image_url ?? attachment.asset_url;
    if (!url) return Promise.resolve();
    return attachment.type === 'image' ? this.channel.deleteImage(url) : this.channel.deleteFile(url);
  }

  private find(id: string): LocalAttachment | undefined {
    return (
      this.list.find((a) => a.localMetadata.id === id) ?? this.stash?.find((a) => a.localMetadata.id === id)
    );
  }

  /** Updates one attachment's metadata (and fields) wherever it is held; answers the new copy. */
  private patch(
    id: string,
    meta: Partial<LocalAttachmentMetadata>,
    fields: Attachment = {},
  ): LocalAttachment {
    let updated: LocalAttachment | undefined;
    const change = (a: LocalAttachment): LocalAttachment => {
      if (a.localMetadata.id !== id) return a;
      const localMetadata = { ...a.localMetadata, ...meta };
      for (const key of Object.keys(meta) as (keyof LocalAttachmentMetadata)[])
        if (meta[key] === undefined) delete localMetadata[key];
      updated = { ...a, ...fields, localMetadata };
      return updated;
    };
    if (this.stash) this.stash = this.stash.map(change);
    this.publish(this.list.map(change));
    return updated ?? (this.find(id) as LocalAttachment);
  }

  private release(attachments: readonly LocalAttachment[]): void {
    for (const a of attachments)
      if (a.localMetadata.previewUri && typeof URL.revokeObjectURL === 'function')
        URL.revokeObjectURL(a.localMetadata.previewUri);
  }

  private publish(attachments: readonly LocalAttachment[]): void {
    const next = this.derive(attachments);
    if (next.uploadsInProgress === 0) this.ctx.dismiss(this.noticeId);
    this.store.set(next);
  }

  private derive(attachments: readonly LocalAttachment[]): AttachmentsSnapshot {
    const max = this.maxAttachments;
    const count = attachments.length;
    const running = attachments.filter((a) => ['pending', 'uploading'].includes(a.localMetadata.uploadState));
    return {
      attachments,
      uploadsInProgress: running.length,
      sendableCount: attachments.filter(isSendable).length,
      maxAttachments: max,
      canUpload: count < max && this.channel.can('upload-file'),
      ...(count > max ? { countNotice: fillText(ATTACHMENT_TEXTS.tooMany, { count, max }) } : {}),
      ...(count >= max ? { limitText: fillText(ATTACHMENT_TEXTS.limitReached, { max }) } : {}),
    };
  }
}
