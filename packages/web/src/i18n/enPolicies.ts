/** English texts of the staff-only navigation and the organization analytics page (issue 15); spread into `en`. */
export const enPolicies = {
  'domain.analytics.link': 'Chat activity per week',
  'domain.analytics.title': 'Chat activity: {name}',
  'domain.analytics.intro':
    'Chats opened and messages sent, per week (Monday to Sunday, UTC) and case plan. Who wrote what is not recorded.',
  'domain.analytics.weeks': 'Period',
  'domain.analytics.weeksOption': 'Last {count} weeks',
  'domain.analytics.none': 'No chats were opened and no messages were sent in this period.',
  'domain.analytics.week': 'Week of {date}',
  'domain.analytics.caseplan': 'Case plan',
  'domain.analytics.noCaseplan': 'Chats without a case plan',
  'domain.analytics.opened': 'Chats opened',
  'domain.analytics.sent': 'Messages sent',
  'domain.analytics.total': 'Total',
  'domain.analytics.back': 'Back to the organization',
  'domain.analytics.notAllowed': 'Only the organization’s admins see its chat activity.',
} as const;
