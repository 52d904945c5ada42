import type { Locator, Page } from 'playwright-core';

/** An element whose right edge is beyond the screen, as `tag.class "text"` and its right edge. */
export interface Overflow {
  element: string;
  right: number;
}

/**
 * The page's horizontal overflow: `document.scrollingElement.scrollWidth` and every rendered element (inside
 * the open modal dialog when there is one, else the whole page) whose right edge is past `width`.
 */
export async function horizontalOverflow(
  page: Page,
  width: number,
): Promise<{ scrollWidth: number; overflowing: Overflow[] }> {
  return page.evaluate((limit) => {
    const root = document.querySelector('dialog[open]') ?? document.body;
    const overflowing: { element: string; right: number }[] = [];
    for (const el of [root, ...Array.from(root.querySelectorAll('*'))]) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || rect.right <= limit + 0.5) continue;
      if (getComputedStyle(el).visibility === 'hidden') continue;
      const classes =
        typeof el.className === 'string' && el.className.trim()
          ? `.${el.className.trim().split(/\s+/).join('.')}`
          : '';
      const text = (el.textContent ?? '').trim().slice(0, 40);
      overflowing.push({
        element: `${el.tagName.toLowerCase()}${classes} "${text}"`,
        right: Math.round(rect.right),
      });
    }
    return { scrollWidth: document.scrollingElement?.scrollWidth ?? 0, overflowing };
  }, width);
}

/** Whether the element's whole box is inside the viewport. */
export async function insideViewport(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = locator.page().viewportSize();
  if (!box || !size) return false;
  return (
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= size.width + 0.5 &&
    box.y + box.height <= size.height + 0.5
  );
}

/**
 * Whether a press at the centre of the element lands on it (nothing covers it, no scrolling box clips it away):
 * what a person can actually see and tap.
 */
export async function reachable(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return false;
    const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
}

/** The names of a menu's items, in order. */
export async function menuItemNames(menu: Locator): Promise<string[]> {
  return (await menu.getByRole('menuitem').allInnerTexts()).map((name) => name.trim());
}

/**
 * Presses `locator` with one finger until `until` shows (the message menu after its 400 ms), then lifts:
 * through the DevTools protocol's touch events, which the page sees as touch pointer events. Needs a context
 * with `hasTouch`.
 */
export async function longPress(locator: Locator, until: Locator): Promise<void> {
  const page = locator.page();
  const box = await locator.boundingBox();
  if (!box) throw new Error('long press: the element has no box');
  const point = { x: box.x + Math.min(box.width / 2, 40), y: box.y + box.height / 2 };
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await until.waitFor({ timeout: 5_000 });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
