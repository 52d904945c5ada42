import { useEffect, useId, useMemo, useState } from 'react';
import type { Contact } from '@caseroom/protocol';
import { t } from '../../i18n/t';
import { Modal } from '../../ui/Modal';
import { Avatar } from '../../ui/Avatar';
import { loadContacts, startChat, StartChatUnavailable } from './startChatApi';

interface StartChatDialogProps {
  viewerId: string;
  onClose: () => void;
  onStarted: (channel: { type: string; id: string }) => void;
}

type Load =
  { status: 'loading' } | { status: 'ready'; contacts: Contact[] } | { status: 'error'; message: string };

/** Start a new chat (product-spec §5): pick contacts, then `chat-startChat` opens or reuses the channel. */
export function StartChatDialog({ viewerId, onClose, onStarted }: StartChatDialogProps) {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const searchId = useId();

  useEffect(() => {
    const abort = new AbortController();
    loadContacts(abort.signal).then(
      (contacts) => setLoad({ status: 'ready', contacts: contacts.filter((c) => c.id !== viewerId) }),
      (err: unknown) => {
        if (abort.signal.aborted) return;
        setLoad({ status: 'error', message: messageOf(err) });
      },
    );
    return () => abort.abort();
  }, [viewerId]);

  const shown = useMemo(() => {
    if (load.status !== 'ready') return [];
    const q = query.trim().toLowerCase();
    return load.contacts.filter((c) => !q || c.name.toLowerCase().includes(q));
  }, [load, query]);

  async function start() {
    setBusy(true);
    setError(null);
    try {
      onStarted(await startChat(viewerId, chosen));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title={t('chat.start.title')} onClose={onClose} className="modal-small">
      {load.status === 'loading' ? (
        <p className="muted" role="status">
          {t('chat.start.loading')}
        </p>
      ) : load.status === 'error' ? (
        <p className="inline-error" role="alert">
          {load.message}
        </p>
      ) : (
        <>
          <label htmlFor={searchId} className="field-label">
            {t('chat.start.search')}
          </label>
          <input id={searchId} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
          <fieldset className="contact-list">
            <legend className="visually-hidden">{t('chat.start.contacts')}</legend>
            {shown.length === 0 ? <p className="muted">{t('chat.start.none')}</p> : null}
            {shown.map((c) => (
              <label key={c.id} className="contact">
                <input
                  type="checkbox"
                  checked={chosen.includes(c.id)}
                  onChange={(e) =>
                    setChosen((prev) =>
                      e.target.checked ? [...prev, c.id] : prev.filter((id) => id !== c.id),
                    )
                  }
                />
                <Avatar name={c.name} image={c.photo} size="small" />
                <span className={c.isClient ? 'participant-client' : c.isOnTeam ? '' : 'participant-guest'}>
                  {c.name}
                </span>
              </label>
            ))}
          </fieldset>
          {error ? (
            <p className="inline-error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="modal-actions">
            <button type="button" className="button" onClick={onClose}>
              {t('ui.cancel')}
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={chosen.length === 0 || busy}
              onClick={() => void start()}
            >
              {busy ? t('chat.start.starting') : t('chat.start.submit')}
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}

function messageOf(err: unknown): string {
  if (err instanceof StartChatUnavailable) return t('chat.start.unavailable');
  return err instanceof Error ? err.message : String(err);
}
