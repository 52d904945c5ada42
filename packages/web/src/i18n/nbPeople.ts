import type { MessageKey } from './en';

/** Norwegian (bokmål) texts of avatars, presence and the slash-command list (issue 15). */
export const nbPeople: Partial<Record<MessageKey, string>> = {
  'people.online': '{name} er pålogget',
  'chat.composer.commandArgs': 'Argumenter: {args}',
};
