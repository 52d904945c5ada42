import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CASEPLAN_ATTENTION, type CaseplanOverviewItem } from '@caseroom/protocol';
import { t } from '../../i18n/t';
import { formatDate } from './dates';
import { attentionGroups } from './homeQuery';
import { useWaitingChats } from './useWaitingChats';

/** Items a group shows before "Show all": the home stays a glance with hundreds of plans. */
const GROUP_PREVIEW = 5;

const planPath = (id: string) => `/app/caseplans/${encodeURIComponent(id)}`;

/**
 * "Needs attention": clients waiting for an answer (longest first), plans you have not opened for a while, and
 * upcoming events, each with a link into the plan or its chat. Built only from the server's `attention`.
 */
export function NeedsAttention({ items, now }: { items: readonly CaseplanOverviewItem[]; now: Date }) {
  const groups = attentionGroups(items.filter((i) => !i.closed));
  const chats = useWaitingChats(groups.waiting.map((i) => i.id));
  const titleId = useId();
  const none = groups.waiting.length + groups.notOpened.length + groups.events.length === 0;
  return (
    <section className="home-attention" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('caseplans.home.attention')}</h2>
      {none ? (
        <p className="home-calm">{t('caseplans.home.attention.none')}</p>
      ) : (
        <div className="home-groups">
          <Group title={t('caseplans.home.attention.waiting')} items={groups.waiting} tone="waiting">
            {(item) => {
              const chatLink = chats.get(item.id);
              return (
                <>
                  <Link className="home-card-title" to={planPath(item.id)}>
                    {item.name}
                  </Link>
                  <span className="home-card-detail">
                    {t('caseplans.home.clientWrote', {
                      when: formatDate(item.staff?.clientWaitingSince ?? '', 'relative', now),
                    })}
                  </span>
                  {chatLink ? (
                    <Link className="button button-small home-card-action" to={chatLink}>
                      {t('caseplans.home.openChat')}
                    </Link>
                  ) : null}
                </>
              );
            }}
          </Group>
          <Group
            title={t('caseplans.home.attention.notOpened', { days: CASEPLAN_ATTENTION.notOpenedDays })}
            items={groups.notOpened}
            tone="stale"
          >
            {(item) => (
              <>
                <Link className="home-card-title" to={planPath(item.id)}>
                  {item.name}
                </Link>
                <span className="home-card-detail">
                  {item.lastOpenedAt
                    ? t('caseplans.home.openedWhen', { when: formatDate(item.lastOpenedAt, 'relative', now) })
                    : t('caseplans.home.neverOpened')}
                </span>
              </>
            )}
          </Group>
          <Group
            title={t('caseplans.home.attention.events', { days: CASEPLAN_ATTENTION.upcomingDays })}
            items={groups.events}
            tone="event"
          >
            {(item) => (
              <>
                <Link className="home-card-title" to={planPath(item.id)}>
                  {item.nextEvent?.title}
                </Link>
                <span className="home-card-detail">
                  {item.nextEvent ? (
                    <time dateTime={item.nextEvent.startsAt}>
                      {formatDate(item.nextEvent.startsAt, 'dateTime', now)} (
                      {formatDate(item.nextEvent.startsAt, 'relative', now)})
                    </time>
                  ) : null}{' '}
                  · {item.name}
                </span>
              </>
            )}
          </Group>
        </div>
      )}
    </section>
  );
}

function Group({
  title,
  items,
  tone,
  children,
}: {
  title: string;
  items: readonly CaseplanOverviewItem[];
  tone: 'waiting' | 'stale' | 'event';
  children: (item: CaseplanOverviewItem) => ReactNode;
}) {
  const [all, setAll] = useState(false);
  const titleId = useId();
  if (items.length === 0) return null;
  const shown = all ? items : items.slice(0, GROUP_PREVIEW);
  return (
    <div className={`home-group home-group-${tone}`}>
      <h3 id={titleId}>
        {title} <span className="home-group-count">{items.length}</span>
      </h3>
      <ul className="home-cards" aria-labelledby={titleId}>
        {shown.map((item) => (
          <li key={item.id} className="home-card">
            {children(item)}
          </li>
        ))}
      </ul>
      {items.length > GROUP_PREVIEW ? (
        <button type="button" className="button button-small home-more" onClick={() => setAll(!all)}>
          {all
            ? t('caseplans.home.attention.showFewer')
            : t('caseplans.home.attention.showAll', { count: items.length })}
        </button>
      ) : null}
    </div>
  );
}
