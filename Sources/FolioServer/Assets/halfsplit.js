// Moving a half turn's cut by hand. While a half turn is shown, its rule is a handle: dragged
// (or, focused, moved by ArrowUp and ArrowDown, 1 % a press), it keeps the cut for that page in
// the file (POST /api/scores/ID/pages, action half-turn: one undoable save, the file's version
// checked). "Auto" gives the page back to the gap between systems the viewer finds.
import { change } from './api.js';
import { splitAt } from './pages.js';

const least = 0.05, most = 0.95;

// `view`: scoreID, state ({page, version, splits}), stage, canvas, run(action, message).
export function splitHandle(view) {
  const handle = document.createElement('div');
  Object.assign(handle, { id: 'split-handle', className: 'split-handle', hidden: true, tabIndex: 0,
    title: 'Drag to move where the half turn cuts the pages (or ArrowUp / ArrowDown)' });
  handle.setAttribute('role', 'slider');
  handle.setAttribute('aria-label', 'Where the half turn cuts the pages');
  handle.setAttribute('aria-valuemin', String(least * 100));
  handle.setAttribute('aria-valuemax', String(most * 100));
  const auto = document.createElement('button');
  Object.assign(auto, { type: 'button', className: 'split-auto', textContent: 'Auto',
    title: 'Cut this page at the gap between systems again' });
  handle.append(auto);
  view.stage.append(handle);

  // The rule's place in the canvas (CSS pixels from its top) and the canvas's height.
  let rule = 0, height = 0, saving = null;
  const place = (y) => {
    rule = Math.min(height * most, Math.max(height * least, y));
    handle.style.top = `${view.canvas.offsetTop + rule - handle.offsetHeight / 2}px`;
    handle.setAttribute('aria-valuenow', String(Math.round(split() * 100)));
  };
  const split = () => {
    const [upper, lower] = (view.canvas.dataset.heights ?? '1 1').split(' ').map(Number);
    return Math.min(most, Math.max(least, splitAt(rule / height, upper, lower)));
  };
  const save = (body, message) => view.run(async () => {
    const result = await change('POST', `/api/scores/${view.scoreID}/pages`, view.state.version,
      { action: 'half-turn', pages: `${view.state.page}`, ...body });
    if (body.split) view.state.splits[view.state.page] = body.split; else delete view.state.splits[view.state.page];
    return { ...result, message };
  }, message);
  const keep = () => save({ split: Math.round(split() * 1000) / 1000 }, 'Half-turn cut moved; Undo puts it back');

  let dragging = false;
  handle.addEventListener('pointerdown', (event) => {
    if (event.target === auto) return;
    dragging = true;
    handle.setPointerCapture(event.pointerId);
    event.stopPropagation();
    event.preventDefault();
  });
  handle.addEventListener('pointermove', (event) => {
    if (!dragging) return;
    place(event.clientY - view.canvas.getBoundingClientRect().top);
    event.stopPropagation();
  });
  const drop = (event) => {
    if (!dragging) return;
    dragging = false;
    event.stopPropagation();
    if (event.type === 'pointerup') keep();
  };
  handle.addEventListener('pointerup', drop);
  handle.addEventListener('pointercancel', drop);
  handle.addEventListener('keydown', (event) => {
    const step = { ArrowUp: -0.01, ArrowDown: 0.01 }[event.key];
    if (step === undefined) return;
    event.stopPropagation();
    event.preventDefault();
    place(rule + step * height);
    clearTimeout(saving);
    saving = setTimeout(keep, 600);
  });
  auto.addEventListener('click', (event) => {
    event.stopPropagation();
    save({ reset: true }, 'Half-turn cut found from the page again');
  });

  return {
    // After each drawing: the handle on the rule of a half turn, hidden otherwise.
    shown(halfway) {
      handle.hidden = !halfway;
      if (!halfway) return;
      height = parseFloat(view.canvas.style.height) || view.canvas.clientHeight;
      handle.style.left = `${view.canvas.offsetLeft}px`;
      handle.style.width = view.canvas.style.width;
      auto.hidden = view.state.splits[view.state.page] === undefined;
      place((Number(view.canvas.dataset.rule) / view.canvas.height) * height);
    },
  };
}
