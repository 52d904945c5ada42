import { useId, useRef, type ClipboardEvent } from 'react';
import { t } from '../../i18n/t';
import type { ComposerHandle } from '../sdkTypes';
import { useStore } from '../useStore';
import { PaperclipIcon } from './attachmentIcons';

type Attachments = ComposerHandle['attachments'];

/**
 * The file upload button (chat-spec §2): a labelled button opening a hidden `<input type="file" multiple>`. Disabled
 * without `upload-file` ("You can't upload files in this channel") or at the maximum ("You can't uplod more than 30
 * attachments", the spec's words); the reason is its tooltip and its description.
 */
export function AttachButton({ attachments }: { attachments: Attachments }) {
  const state = useStore(attachments.state);
  const input = useRef<HTMLInputElement>(null);
  const reasonId = useId();
  const reason = state.canUpload
    ? undefined
    : state.limitText
      ? t('chat.attachments.limit', { max: state.maxAttachments })
      : t('chat.attachments.noPermission');
  return (
    <>
      <button
        type="button"
        className="icon-button attach-button"
        aria-label={t('chat.attachments.add')}
        title={reason ?? t('chat.attachments.add')}
        aria-describedby={reason ? reasonId : undefined}
        disabled={!state.canUpload}
        onClick={() => input.current?.click()}
      >
        <PaperclipIcon />
      </button>
      {reason ? (
        <span id={reasonId} className="visually-hidden">
          {reason}
        </span>
      ) : null}
      <input
        ref={input}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        data-testid="attach-input"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = ''; // the same file can be chosen again
          if (files.length > 0) void attachments.addFiles(files);
        }}
      />
    </>
  );
}

/** chat-spec §5: pasted files (a copied image, files copied in a file manager) become attachments; text pastes as text. */
export function pasteFiles(attachments: Attachments, event: ClipboardEvent) {
  const files = Array.from(event.clipboardData?.files ?? []);
  if (files.length === 0 || !attachments.state.getSnapshot().canUpload) return;
  event.preventDefault();
  void attachments.addFiles(files);
}
