// The page turn, one rule for every view that turns pages — the score view, Perform and a
// rehearsal's follower: what a key, a pedal, a tap or a swipe asks for, and where it leads
// in one-page, two-page and half-page mode. A view keeps its own state ({page, halfway,
// two, half}) and drawing; where a turn leads is decided here only.

// What a key does to the page: 1 forward, -1 back (arrows, space, PageDown/PageUp — what
// Bluetooth page-turner pedals send), 'first' or 'last' (Home, End); null for other keys.
export function pageTurn(event) {
  if (['ArrowRight', 'ArrowDown', 'PageDown', ' '].includes(event.key)) return 1;
  if (['ArrowLeft', 'ArrowUp', 'PageUp'].includes(event.key)) return -1;
  if (event.key === 'Home') return 'first';
  if (event.key === 'End') return 'last';
  return null;
}

// What a pointer released after starting at `start` ({x, time}) does to the page: a quick
// horizontal swipe over 50 px turns toward it; a tap turns back in the left third of
// `element`, forward elsewhere.
export function tapOrSwipe(start, event, element) {
  const moved = event.clientX - start.x;
  if (Math.abs(moved) > 50 && Date.now() - start.time < 800) return moved < 0 ? 1 : -1;
  const box = element.getBoundingClientRect();
  return event.clientX - box.left < box.width / 3 ? -1 : 1;
}

// Turns `element`'s pages by tap or swipe (see tapOrSwipe): `turn(direction)` gets 1 or -1.
export function turnOnTapOrSwipe(element, turn) {
  let start = null;
  element.addEventListener('pointerdown', (event) => { start = { x: event.clientX, time: Date.now() }; });
  element.addEventListener('pointerup', (event) => {
    if (!start) return;
    const started = start;
    start = null;
    turn(tapOrSwipe(started, event, element));
  });
}

// Where a turn by `direction` (1, -1) leads from `at` ({page, halfway}) in a run of `pages`:
// with half turns, a page goes to the next by way of its half turn (next page's top above
// this one's bottom); without, page by page (`step` at a time).
export function turned(at, direction, pages, { half = false, step = 1 } = {}) {
  if (!half) {
    const page = Math.min(Math.max(1, at.page + direction * step), Math.max(1, pages - step + 1));
    return { page, halfway: false };
  }
  if (direction > 0) {
    if (at.halfway) return { page: at.page + 1, halfway: false };
    return at.page < pages ? { page: at.page, halfway: true } : at;
  }
  if (at.halfway) return { page: at.page, halfway: false };
  return at.page > 1 ? { page: at.page - 1, halfway: true } : at;
}

// The page a view shows last: the last page alone, or with two pages side by side the last
// two (the first of them is the view's page).
export function lastPage(pages, { two = false } = {}) {
  return Math.max(1, pages - (two ? 1 : 0));
}

// Where `action` (1, -1, 'first', 'last' — what pageTurn and tapOrSwipe give) leads from
// `at` ({page, halfway}) in a run of `pages` shown as `mode` ({two, half}).
export function goTo(at, action, pages, { two = false, half = false } = {}) {
  if (action === 'first') return { page: 1, halfway: false };
  if (action === 'last') return { page: lastPage(pages, { two }), halfway: false };
  return turned(at, action, pages, { half: half && !two, step: two ? 2 : 1 });
}
