// The music stand: what the score view and performance mode share so the page is as large
// and as readable as the screen allows — night mode (the page drawn light on dark, the UI
// dark; remembered on this device), full screen (the Fullscreen API), and the side panel,
// which opens over the page in portrait and folds away in landscape; in performance mode the
// screen stays on.
const NIGHT = 'folio.night';
const PANEL = 'folio.panel';

function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function store(key, value) {
  try { localStorage.setItem(key, value); } catch { /* private mode: this page only */ }
}

// The page's pictures are drawn at their size: a new size (panel folded, full screen) is a
// resize to everything that draws.
function redraw() {
  window.dispatchEvent(new Event('resize'));
}

function night(button) {
  const apply = (on) => {
    document.documentElement.toggleAttribute('data-night', on);
    button.setAttribute('aria-pressed', String(on));
  };
  apply(stored(NIGHT) === 'on');
  button.addEventListener('click', () => {
    const on = button.getAttribute('aria-pressed') !== 'true';
    store(NIGHT, on ? 'on' : 'off');
    apply(on);
  });
}

// Full screen: the page alone, as large as the screen — the header and the sound bar go,
// and the browser's own bars too where the Fullscreen API is offered (not on an iPhone). A
// small button, Escape or leaving the browser's full screen brings them back.
function fullScreen(button) {
  const leave = Object.assign(document.createElement('button'), {
    id: 'leave-fullscreen', className: 'leave-fullscreen', hidden: true, textContent: '✕',
    title: 'Leave full screen (Esc)',
  });
  leave.setAttribute('aria-label', 'Leave full screen');
  document.body.append(leave);
  const show = (on) => {
    document.body.classList.toggle('stage-only', on);
    leave.hidden = !on;
    button.setAttribute('aria-pressed', String(on));
    redraw();
  };
  const exit = async () => {
    show(false);
    if (document.fullscreenElement) {
      try { await document.exitFullscreen(); } catch { /* left already */ }
    }
  };
  button.addEventListener('click', async () => {
    if (document.body.classList.contains('stage-only')) return exit();
    show(true);
    if (document.fullscreenEnabled) {
      try { await document.documentElement.requestFullscreen({ navigationUI: 'hide' }); } catch { /* the page alone still */ }
    }
    (document.getElementById('overlay') ?? document.getElementById('stage'))?.focus();
  });
  leave.addEventListener('click', exit);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && document.body.classList.contains('stage-only')) exit();
  });
  // The browser's full screen left by its own means (Esc, a gesture): the header comes back.
  document.addEventListener('fullscreenchange', () => {
    if (!document.fullscreenElement && document.body.classList.contains('stage-only')) show(false);
  });
}

// Portrait (or a narrow window): the panel is closed and opens over the page. Landscape: it
// sits beside the page unless the musician folded it, which is remembered.
function panel(button) {
  const portrait = window.matchMedia('(orientation: portrait), (max-width: 820px)');
  const apply = (open) => {
    document.body.classList.toggle('panel-open', open);
    document.body.classList.toggle('panel-closed', !open);
    button.setAttribute('aria-expanded', String(open));
  };
  const initial = () => apply(!portrait.matches && stored(PANEL) !== 'closed');
  initial();
  portrait.addEventListener('change', () => { initial(); redraw(); });
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    if (!portrait.matches) store(PANEL, open ? 'open' : 'closed');
    apply(open);
    // Over the page (portrait) the page keeps its size; beside it, the page grows or shrinks.
    if (!portrait.matches) redraw();
  });
  // A tap on the page closes the panel that covers it.
  document.getElementById('stage')?.addEventListener('pointerdown', () => {
    if (portrait.matches && document.body.classList.contains('panel-open')) apply(false);
  });
}

// The page is drawn for the room the stage has: when that room changes without a window
// resize (the header wraps to a second row, the panel folds), the page is drawn again.
function watchStage() {
  const stage = document.getElementById('stage');
  if (!stage || !('ResizeObserver' in window)) return;
  let last = null;
  let timer = 0;
  new ResizeObserver(([entry]) => {
    const size = `${Math.round(entry.contentRect.width)}x${Math.round(entry.contentRect.height)}`;
    if (last !== null && size !== last) {
      clearTimeout(timer);
      timer = setTimeout(redraw, 50);
    }
    last = size;
  }).observe(stage);
}

// The screen stays on while the music is up (the Screen Wake Lock, which a browser offers on
// HTTPS and localhost). Safari's engine grants it only from a tap or a key, so it is asked for
// when the page opens (where that is enough), on every tap, key or pedal while it is not held,
// and again after every return to the page (the browser lets it go while the page is hidden).
// The stage says how it went (data-awake: "on", or why not), and a note on the stage says so
// only when it matters: "Screen may dim — tap to keep it on".
export function stayAwake(stage) {
  let lock = null;
  let asking = false;
  const note = document.createElement('p');
  note.className = 'awake-note';
  note.setAttribute('role', 'status');
  note.hidden = true;
  stage.append(note);
  let fade = 0;
  const shown = (state) => {
    stage.dataset.awake = state;
    clearTimeout(fade);
    note.hidden = state === 'on';
    if (state.startsWith('not offered')) {
      // Nothing a tap can change: said for a moment, not over the music all evening.
      note.textContent = 'Screen may dim: keeping it on needs HTTPS (see /trust)';
      fade = setTimeout(() => { note.hidden = true; }, 8000);
    } else {
      note.textContent = 'Screen may dim — tap to keep it on';
    }
  };
  const take = async () => {
    if (lock || asking || document.visibilityState !== 'visible') return;
    if (!navigator.wakeLock) {
      if (!stage.dataset.awake) shown('not offered (needs HTTPS)');   // said once, not at every tap
      return;
    }
    asking = true;
    try {
      const held = await navigator.wakeLock.request('screen');   // asked within the tap's or key's handler
      lock = held;
      shown('on');
      held.addEventListener('release', () => {
        if (lock === held) lock = null;
        shown('released');
      });
    } catch (error) {
      shown(`refused: ${error.name}`);
    } finally {
      asking = false;
    }
  };
  for (const type of ['pointerdown', 'keydown']) document.addEventListener(type, take, { capture: true });
  document.addEventListener('visibilitychange', take);
  return take();
}

// The header's title, composers and piece, cut short to keep one row: a tap shows them
// whole (the header wraps while it does), another tap cuts them short again.
function wholeOnTap() {
  const bar = document.querySelector('body.score header.bar');
  if (!bar) return;
  for (const part of bar.querySelectorAll('h1, .people, #piece')) {
    if (part.id !== 'piece') part.title = part.textContent;   // the piece changes as pages turn
    part.addEventListener('click', () => bar.classList.toggle('whole'));
  }
}

// The menus of the header's tools strip (Style, Layers), which scrolls sideways: each opens
// fixed below its summary, where the strip has scrolled it, and within the window.
function menusBelowStrip() {
  for (const menu of document.querySelectorAll('header.bar .tools details')) {
    menu.addEventListener('toggle', () => {
      const panel = menu.querySelector(':scope > div');
      if (!menu.open || !panel) return;
      const at = menu.querySelector('summary').getBoundingClientRect();
      panel.style.top = `${Math.round(at.bottom + 4)}px`;
      panel.style.left = `${Math.round(Math.max(4, Math.min(at.left, window.innerWidth - panel.offsetWidth - 4)))}px`;
    });
  }
}

export function setUpStand() {
  watchStage();
  wholeOnTap();
  menusBelowStrip();
  const nightButton = document.getElementById('night');
  if (nightButton) night(nightButton);
  const screenButton = document.getElementById('fullscreen');
  if (screenButton) fullScreen(screenButton);
  const panelButton = document.getElementById('panel-toggle');
  if (panelButton) panel(panelButton);
}
