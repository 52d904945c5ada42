import type { ChatEvent, ChatEventType, EventOf } from '@caseroom/protocol';

export type EventHandler<E = ChatEvent> = (event: E) => void;

/** Typed `on(type | '*', handler)`; a throwing handler does not stop the others. */
export class EventEmitter {
  private readonly handlers = new Map<string, Set<EventHandler>>();

  constructor(private readonly onHandlerError: (error: unknown, type: string) => void) {}

  on<T extends ChatEventType>(type: T, handler: EventHandler<EventOf<T>>): () => void;
  on(type: '*' | (string & {}), handler: EventHandler): () => void;
  on(type: string, handler: EventHandler<never>): () => void {
    const set = this.handlers.get(type) ?? new Set();
    this.handlers.set(type, set);
    const h = handler as EventHandler;
    set.add(h);
    return () => {
      set.delete(h);
    };
  }

  emit(event: ChatEvent): void {
    for (const key of [event.type, '*']) {
      for (const handler of [...(this.handlers.get(key) ?? [])]) {
        try {
          handler(event);
        } catch (error) {
          this.onHandlerError(error, event.type);
        }
      }
    }
  }
}
