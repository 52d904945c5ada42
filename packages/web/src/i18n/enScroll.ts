/** English texts of the message list's scrolling and unread behaviour and the tab title (issue 15); spread into `en`. */
export const enScroll = {
  /** The tab title with the user's unread count in front: "(3) Chats · Caseroom". */
  'app.title.unread': '({count}) {title}',
};
