import type { CaseplanOverviewItem } from '@caseroom/protocol';
import { t } from '../../i18n/t';
import { formatDate } from './dates';
import { tCount } from './tCount';

/** The reasons a plan needs attention, as small tags. */
export function ReasonTags({ item }: { item: CaseplanOverviewItem }) {
  return (
    <>
      {item.closed ? <span className="tag">{t('domain.caseplans.closedTag')}</span> : null}
      {item.attention.map((reason) => (
        <span key={reason} className={`tag home-reason home-reason-${reason}`}>
          {t(`caseplans.home.reason.${reason}`)}
        </span>
      ))}
    </>
  );
}

/** A plan's facts as a description list: what the viewer may see of it, dates through `formatDate`. */
export function PlanFacts({ item, now }: { item: CaseplanOverviewItem; now: Date }) {
  const waiting = item.staff?.clientWaitingSince;
  return (
    <dl className="home-facts">
      <div>
        <dt>{t('caseplans.home.fact.activity')}</dt>
        <dd>
          <time dateTime={item.lastActivityAt}>{formatDate(item.lastActivityAt, 'relative', now)}</time>
        </dd>
      </div>
      <div>
        <dt>{t('caseplans.home.fact.opened')}</dt>
        <dd>
          {item.lastOpenedAt ? (
            <time dateTime={item.lastOpenedAt}>{formatDate(item.lastOpenedAt, 'relative', now)}</time>
          ) : (
            t('caseplans.home.fact.never')
          )}
        </dd>
      </div>
      {waiting ? (
        <div className="home-fact-waiting">
          <dt>{t('caseplans.home.fact.waiting')}</dt>
          <dd>
            <time dateTime={waiting}>{formatDate(waiting, 'relative', now)}</time>
          </dd>
        </div>
      ) : null}
      {item.nextEvent ? (
        <div>
          <dt>{t('caseplans.home.fact.event')}</dt>
          <dd>
            {item.nextEvent.title} ·{' '}
            <time dateTime={item.nextEvent.startsAt}>
              {formatDate(item.nextEvent.startsAt, 'dateTime', now)}
            </time>
            {item.upcomingEvents > 1
              ? ` ${tCount('caseplans.home.moreEvents', item.upcomingEvents - 1)}`
              : ''}
          </dd>
        </div>
      ) : null}
      {item.staff ? (
        <div>
          <dt>{t('caseplans.home.fact.people')}</dt>
          <dd>
            {tCount('caseplans.home.people', item.staff.people.active)}
            {item.staff.people.clients > 0
              ? ` · ${tCount('caseplans.home.clients', item.staff.people.clients)}`
              : ''}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
