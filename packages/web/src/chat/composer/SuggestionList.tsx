import { t } from '../../i18n/t';
import { Avatar } from '../../ui/Avatar';
import type { ComposerSnapshot, ComposerSuggestion } from '../sdkTypes';

interface SuggestionListProps {
  id: string;
  suggestions: NonNullable<ComposerSnapshot['suggestions']>;
  active: number;
  onHover: (index: number) => void;
  onPick: (item: ComposerSuggestion) => void;
}

/** The mention (`@`) or command (`/`) dropdown (chat-spec §2: max height 292 px). */
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
            <>
              <span className="suggestion-command">/{item.name}</span>
              {item.args ? <span className="muted"> {item.args}</span> : null}
              {item.description ? <span className="muted"> — {item.description}</span> : null}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
