// Using a page by keyboard alone, as the browser tests do for sign-in, registration, buying,
// staking and claiming (WCAG 2.1.1, 2.4.7, 4.1.3): Tab until a control has the focus,
// see that the focus shows, and find what a screen reader would announce in a live region.
import assert from 'node:assert/strict';

/** Pixels of the control and a margin for its outline, as the viewer sees them. */
async function look(page, box) {
  const margin = 8;
  const x = Math.max(0, box.x - margin);
  const y = Math.max(0, box.y - margin);
  return page.screenshot({
    clip: { x, y, width: box.width + 2 * margin, height: box.height + 2 * margin },
    animations: 'disabled',
    caret: 'hide',
  });
}

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has the focus, at most `max` times, then
 * checks that the focus is visible: the control (or `ring`, the box that draws the focus for a
 * visually hidden input) looks different focused than not.
 */
export async function tabTo(page, target, { max = 80, back = false, ring } = {}) {
  const control = await target.elementHandle();
  for (let i = 1; i <= max; i += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await control.evaluate((el) => el === document.activeElement)) {
      const shown = ring ?? target;
      const box = await shown.boundingBox();
      assert.ok(box, 'the focused control is on screen');
      const focused = await look(page, box);
      await control.evaluate((el) => el.blur());
      const blurred = await look(page, box);
      await control.evaluate((el) => el.focus());
      assert.ok(
        !focused.equals(blurred),
        `the focus shows on ${await control.evaluate((el) => el.outerHTML.slice(0, 120))}`,
      );
      return i;
    }
  }
  const at = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120));
  throw new Error(`not reached by ${max} Tabs (the focus is on ${at})`);
}

const LIVE = '[aria-live]:not([aria-live="off"]), [role="alert"], [role="status"], [role="log"]';

/**
 * From now on, keeps every text that appears in a live region of the page (what a screen reader
 * would announce), so that a passing state (approving, pending) can be checked after it went.
 */
export async function listen(page) {
  await page.evaluate((selector) => {
    if (window.__announced) return;
    window.__announced = [];
    const keep = () => {
      for (const region of document.querySelectorAll(selector)) {
        const text = region.textContent.trim();
        if (text && window.__announced.at(-1) !== text) window.__announced.push(text);
      }
    };
    new MutationObserver(keep).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, LIVE);
}

/**
 * Waits until `text` has been inside a live region (aria-live polite or assertive, role alert,
 * status or log) since `listen`, or is in one now.
 */
export async function announced(page, text, { timeout = 30_000 } = {}) {
  await page.waitForFunction(
    ([wanted, selector]) =>
      (window.__announced ?? []).some((said) => said.includes(wanted)) ||
      [...document.querySelectorAll(selector)].some((region) => region.textContent.includes(wanted)),
    [text, LIVE],
    { timeout },
  );
}
