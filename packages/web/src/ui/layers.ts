import { createContext, createElement, useContext, useEffect, useState, type ReactNode } from 'react';

/** Why a layer is asked to close: the Escape key (or a platform close request), or a press outside it. */
export type DismissReason = 'escape' | 'outside';

export interface LayerOptions {
  /** Close the layer. Called for the top-most layer only. */
  onDismiss(reason: DismissReason): void;
  /**
   * Whether a press on `target` counts as inside the layer (its own elements, the button that toggles it).
   * Absent: presses never dismiss the layer (a thread panel, a suggestion list), and the layer below decides.
   */
  contains?: ((target: Node) => boolean) | undefined;
}

/** One open layer: a menu, a popup, a modal, a panel over the list. */
export interface Layer {
  /** The layer this one was rendered inside (through {@link LayerScope}), if any. */
  readonly parent: Layer | null;
  /** Activation order: later is higher, among layers that are not each other's ancestors. */
  order: number;
  options: LayerOptions;
}

const open = new Set<Layer>();
let counter = 0;

function isAncestor(layer: Layer, of: Layer): boolean {
  for (let p = of.parent; p; p = p.parent) if (p === layer) return true;
  return false;
}

/**
 * The open layers, top-most first. A layer is above every layer it was rendered inside, whatever the order in
 * which they opened (React runs a child's effects before its parent's); otherwise the later one is above.
 */
export function layerStack(): Layer[] {
  const rest = [...open];
  const stack: Layer[] = [];
  while (rest.length > 0) {
    const leaves = rest.filter((layer) => !rest.some((other) => other !== layer && isAncestor(layer, other)));
    const top = leaves.reduce((a, b) => (b.order > a.order ? b : a));
    stack.push(top);
    rest.splice(rest.indexOf(top), 1);
  }
  return stack;
}

/**
 * Asks the top-most layer to close, as Escape does; answers whether there was one. A modal's `cancel` event (a
 * platform close request such as Android's back gesture) goes through here too.
 */
export function dismissTopLayer(reason: DismissReason = 'escape'): boolean {
  const top = layerStack()[0];
  if (!top) return false;
  top.options.onDismiss(reason);
  return true;
}

function onKeyDown(event: KeyboardEvent): void {
  // A focused control that uses Escape itself (the composer leaving edit mode, the voice recorder) said so by
  // preventing the default; an IME uses Escape to cancel its composition.
  if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
  if (!dismissTopLayer('escape')) return;
  // Also keeps a native modal <dialog> from closing itself: only the top-most layer closes.
  event.preventDefault();
}

function onPointerDown(event: PointerEvent): void {
  // The target as seen from the document: a press inside a shadow root (the emoji picker) is on its host.
  const target = event.target as Node | null;
  if (!target) return;
  // The first layer from the top that cares about presses decides: inside it nothing closes, outside it that one
  // layer closes (a press on a modal's backdrop with a menu open in it closes the menu, not the modal).
  for (const layer of layerStack()) {
    if (!layer.options.contains) continue;
    if (!layer.options.contains(target)) layer.options.onDismiss('outside');
    return;
  }
}

function add(layer: Layer): () => void {
  layer.order = ++counter;
  if (open.size === 0) {
    // Bubble phase for keys: handlers of the focused element run first and may claim Escape. Capture phase for
    // presses: a component stopping propagation must not keep a menu open.
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown, true);
  }
  open.add(layer);
  return () => {
    open.delete(layer);
    if (open.size === 0) {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown, true);
    }
  };
}

const LayerContext = createContext<Layer | null>(null);

/**
 * Puts `active` into the one layer stack of the page (chat-spec §2: Escape or a press outside closes popups and
 * modals): Escape closes only the top-most open layer, and a press outside closes only the top-most layer that
 * cares about presses. Wrap the layer's content in {@link LayerScope} when other layers can open inside it, so
 * they stack above it even when both mount at once.
 */
export function useLayer(active: boolean, options: LayerOptions): Layer {
  const parent = useContext(LayerContext);
  const [layer] = useState<Layer>(() => ({ parent, order: 0, options }));
  // The latest callbacks, without re-registering (which would move the layer to the top).
  layer.options = options;
  useEffect(() => (active ? add(layer) : undefined), [active, layer]);
  return layer;
}

/** Marks `children` as rendered inside `layer`: layers they open stack above it. */
export function LayerScope({ layer, children }: { layer: Layer; children: ReactNode }) {
  return createElement(LayerContext.Provider, { value: layer }, children);
}
