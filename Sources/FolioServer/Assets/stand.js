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
// HTTPS and localhost): taken when the page opens and again whenever it is shown again (the
// browser lets it go when the page is hidden, and when the musician leaves the page). The
// stage says how it went (data-awake: "on", or why not) for the page and for tests.
export function stayAwake(stage) {
  const take = async () => {
    if (document.visibilityState !== 'visible') return;
    if (!navigator.wakeLock) { stage.dataset.awake = 'not offered (needs HTTPS)'; return; }
    try {
      const lock = await navigator.wakeLock.request('screen');
      stage.dataset.awake = 'on';
      lock.addEventListener('release', () => { stage.dataset.awake = 'released'; });
    } catch (error) {
      stage.dataset.awake = `refused: ${error.name}`;
    }
  };
  document.addEventListener('visibilitychange', take);
  return take();
}

export function setUpStand() {
  watchStage();
  const nightButton = document.getElementById('night');
  if (nightButton) night(nightButton);
  const screenButton = document.getElementById('fullscreen');
  if (screenButton) fullScreen(screenButton);
  const panelButton = document.getElementById('panel-toggle');
  if (panelButton) panel(panelButton);
}
