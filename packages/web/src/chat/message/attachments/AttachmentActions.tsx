import type { Attachment } from '@caseroom/protocol';
import { t } from '../../../i18n/t';

/**
 * A custom attachment's action buttons (chat-spec §2, §3 actions: name or text, style, value). The chat server has
 * no `POST /messages/{id}/action` yet and the SDK no call for it, so the buttons show what the message offers but
 * are disabled, saying why.
 */
export function AttachmentActions({ attachment }: { attachment: Attachment }) {
  const actions = attachment.actions ?? [];
  return (
    <div className="attachment-card attachment-actions">
      {attachment.title ? <p className="attachment-actions-title">{attachment.title}</p> : null}
      {attachment.text ? <p className="attachment-actions-text">{attachment.text}</p> : null}
      <div className="attachment-actions-row" role="group" title={t('chat.attachment.actionsUnavailable')}>
        {actions.map((action, index) => (
          <button
            key={`${action.name ?? ''}-${action.value ?? index}`}
            type="button"
            className={`button button-small${action.style === 'primary' ? ' button-primary' : ''}`}
            data-action-name={action.name}
            data-action-value={action.value}
            disabled
          >
            {action.text || action.value || action.name}
          </button>
        ))}
      </div>
    </div>
  );
}
