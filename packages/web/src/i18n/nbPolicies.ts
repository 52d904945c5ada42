import type { MessageKey } from './en';

/** Norsk bokmål for the organization analytics page (issue 15); spread into `nbDomain`. */
export const nbPolicies: Partial<Record<MessageKey, string>> = {
  'domain.analytics.link': 'Chataktivitet per uke',
  'domain.analytics.title': 'Chataktivitet: {name}',
  'domain.analytics.intro':
    'Åpnede chatter og sendte meldinger per uke (mandag til søndag, UTC) og saksplan. Hvem som skrev hva, lagres ikke.',
  'domain.analytics.weeks': 'Periode',
  'domain.analytics.weeksOption': 'Siste {count} uker',
  'domain.analytics.none': 'Ingen chatter ble åpnet og ingen meldinger sendt i denne perioden.',
  'domain.analytics.week': 'Uken fra {date}',
  'domain.analytics.caseplan': 'Saksplan',
  'domain.analytics.noCaseplan': 'Chatter uten saksplan',
  'domain.analytics.opened': 'Åpnede chatter',
  'domain.analytics.sent': 'Sendte meldinger',
  'domain.analytics.total': 'Totalt',
  'domain.analytics.back': 'Tilbake til organisasjonen',
  'domain.analytics.notAllowed': 'Bare organisasjonens administratorer ser chataktiviteten.',
};
