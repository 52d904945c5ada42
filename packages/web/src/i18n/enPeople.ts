/** English texts of avatars, presence and the slash-command list (issue 15); spread into `en`. */
export const enPeople = {
  'people.online': '{name} is online',
  'chat.composer.commandArgs': 'Arguments: {args}',
} as const;
