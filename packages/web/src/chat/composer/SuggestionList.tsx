import { t } from '../../i18n/t';
import { Avatar } from '../../ui/Avatar';
import type { ComposerSnapshot, ComposerSuggestion } from '../sdkTypes';
import './suggestions.css';

interface SuggestionListProps {
  id: string;
  suggestions: NonNullable<ComposerSnapshot['suggestions']>;
  active: number;
  onHover: (index: number) => void;
  onPick: (item: ComposerSuggestion) => void;
}

/**
 * The mention (`@`) or command (`/`) dropdown (chat-spec §2: max height 292 px). A command shows its name, its
 * arguments and its description, as the channel type's `config.commands` lists them (chat-spec §3).
 */
export function SuggestionList({ id, suggestions, active, onHover, onPick }: SuggestionListProps) {
  const label = suggestions.trigger === '@' ? t('chat.composer.mentions') : t('chat.composer.commands');
  return (
    <ul id={id} role="listbox" aria-label={label} className="suggestions">
      {suggestions.items.length === 0 ? (
        <li className="suggestion muted" role="presentation">
          {t('app.loading')}
        </li>
      ) : null}
      {suggestions.items.map((item, index) => (
        <li
          key={item.kind === 'mention' ? item.user.id : item.name}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === active}
          className="suggestion"
          onMouseEnter={() => onHover(index)}
          onMouseDown={(event) => {
            event.preventDefault(); // keep the focus in the textarea
            onPick(item);
          }}
        >
          {item.kind === 'mention' ? (
            <>
              <Avatar
                name={item.user.name ?? item.user.id}
                image={item.user.image}
                online={item.user.online}
                size="small"
              />
              <span>{item.user.name ?? item.user.id}</span>
            </>
          ) : (
            <span className="suggestion-command-text">
              <span className="suggestion-command-line">
                <span className="suggestion-command">/{item.name}</span>
                {item.args ? (
                  <>
                    {' '}
                    <code
                      className="suggestion-args"
                      title={t('chat.composer.commandArgs', { args: item.args })}
                    >
                      {item.args}
                    </code>
                  </>
                ) : null}
              </span>
              {item.description ? <span className="suggestion-description">{item.description}</span> : null}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
