// The marking tools of the score view: text, rectangle, highlight, pen, stamp, move and link,
// each by pointer or by keyboard alone (a cursor moved with the arrows), with a preview on the
// overlay; new marks take the Style menu's settings. `view` is the score view: its state,
// stage and overlay, `say`, `run` (save one change and show the result) and `marking()`
// (whether the page shown may be marked).
import { getJSON, change, uploadStamp } from './api.js';

export function markingTools(view, settings) {
  const { state, stage, overlay, scoreID, say, run, marking } = view;
  const markWords = { freetext: 'Text', square: 'Box', highlight: 'Highlight', ink: 'Pen', stamp: 'Stamp' };

  const hints = {
    view: 'Arrows, space and PageDown turn pages.',
    freetext: 'Text: click on the page, or move the cursor with the arrows and press Enter; then type.',
    square: 'Rectangle: drag, or arrows and Enter at one corner, then at the other.',
    highlight: 'Highlight: drag, or arrows and Enter at one corner, then at the other.',
    ink: 'Pen: draw, or arrows and Enter to start, arrows along the stroke, Enter to end.',
    stamp: 'Stamp: click, or arrows and Enter where the mark goes.',
    move: 'Move: drag a mark, or arrows onto it, Enter, arrows to its new place, Enter.',
    link: 'Link: drag over the sign (D.S., coda, repeat), then give the page it jumps to.',
  };
  function choose(tool) {
    if (tool !== state.tool) { gesture.cancel(); if (state.document) say(hints[tool]); }
    state.tool = tool;
    stage.classList.toggle('view', tool === 'view');
    stage.classList.toggle('wide', state.fitWidth);
    stage.classList.toggle('move', tool === 'move');
    for (const button of document.querySelectorAll('[data-tool]')) {
      button.setAttribute('aria-pressed', String(button.dataset.tool === tool));
    }
  }
  for (const button of document.querySelectorAll('[data-tool]')) {
    button.addEventListener('click', () => choose(button.dataset.tool));
  }

  // Pointer positions in points of the displayed page.
  function point(event) {
    const box = overlay.getBoundingClientRect();
    return { x: (event.clientX - box.left) / state.scale, y: (event.clientY - box.top) / state.scale };
  }

  function clearOverlay() {
    overlay.getContext('2d').clearRect(0, 0, overlay.width, overlay.height);
  }

  function drawPreview(shape) {
    const context = overlay.getContext('2d');
    const ratio = window.devicePixelRatio || 1;
    clearOverlay();
    context.save();
    context.scale(state.scale * ratio, state.scale * ratio);
    const style = settings.current();
    context.lineWidth = state.tool === 'link' ? 1.5 / state.scale : style.width;
    context.strokeStyle = state.tool === 'link' ? '#3874d8' : style.color;
    context.globalAlpha = style.opacity;
    if (shape.rect) {
      const [x, y, w, h] = shape.rect;
      if (state.tool === 'highlight') { context.globalAlpha = 0.45; context.fillStyle = style.color; context.fillRect(x, y, w, h); }
      else context.strokeRect(x, y, w, h);
    }
    for (const stroke of shape.strokes ?? []) {
      context.beginPath();
      stroke.forEach((p, i) => (i ? context.lineTo(p.x, p.y) : context.moveTo(p.x, p.y)));
      context.stroke();
    }
    context.restore();
  }

  overlay.addEventListener('click', (event) => {
    if (state.tool === 'view' || !marking()) return;
    if (state.tool === 'freetext') askText(point(event));
    else if (state.tool === 'stamp') stamp(point(event));
  });

  // The user's own stamps (images kept in the library) join the marks; "Add a stamp…" keeps a
  // PNG or JPEG there under its file's name and chooses it.
  const stampSizes = new Map();
  async function loadStamps(chosen) {
    const select = document.getElementById('symbol');
    const { data } = await getJSON('/api/stamps');
    select.querySelector('optgroup.own')?.remove();
    if (data.stamps.length === 0) return;
    const group = Object.assign(document.createElement('optgroup'), { label: 'Your stamps', className: 'own' });
    for (const item of data.stamps) {
      stampSizes.set(item.name, [item.width, item.height]);
      group.append(Object.assign(document.createElement('option'), { value: `image:${item.name}`, textContent: item.name }));
    }
    select.append(group);
    if (chosen) select.value = `image:${chosen}`;
  }
  loadStamps().catch(() => {});
  document.getElementById('stamp-file')?.addEventListener('change', async (event) => {
    const [file] = event.target.files;
    if (!file) return;
    const name = file.name.replace(/\.[^.]*$/, '');
    try {
      await uploadStamp(file, name);
      await loadStamps(name);
      say(`Stamp ${name} kept: click the page to place it`);
    } catch (error) {
      say(`Not kept: ${error.message}`);
    }
    event.target.value = '';
  });

  // A stamp: the chosen musical mark, centred where the click was, at about printed size; one
  // of the user's pictures 60 points wide (or high) in its own proportions.
  function stamp(at) {
    const symbol = document.getElementById('symbol').value;
    if (symbol.startsWith('image:')) {
      const image = symbol.slice(6);
      const [w, h] = stampSizes.get(image) ?? [1, 1];
      const [width, height] = w >= h ? [60, round(60 * h / w)] : [round(60 * w / h), 60];
      addMark('stamp', { image, rect: [round(at.x - width / 2), round(at.y - height / 2), width, height] }, 'Stamp saved');
      return;
    }
    const text = ['pp', 'p', 'mp', 'mf', 'f', 'ff', 'sfz', 'cresc-text', 'dim-text', 'vs'].includes(symbol);
    const [width, height] = text ? [Math.max(24, symbol.length * 11), 22] : symbol === 'cresc' || symbol === 'dim' ? [60, 16] : [22, 22];
    addMark('stamp', { symbol, rect: [round(at.x - width / 2), round(at.y - height / 2), width, height] }, 'Stamp saved');
  }

  // Saves a new mark of `type` on the page shown, in the Style menu's settings.
  // Kept on the device when the server is out of reach (pending.js), sent when it is back.
  function addMark(type, fields, message) {
    const words = fields.text ?? fields.symbol ?? fields.image;
    run(() => view.pending.save({ kind: 'add', method: 'POST', url: `/api/scores/${scoreID}/annotations`, page: state.page,
      body: { type, page: state.page, ...settings.forMark(type), ...fields },
      description: `${markWords[type] ?? type}${words ? `: ${words}` : ''}` }), message);
  }
  // The Move tool: the topmost mark under the pointer, and where a drag by (dx, dy) puts it,
  // kept on the page.
  function markAt(at) {
    return state.annotations.findLast(({ rect: [x, y, w, h] }) => at.x >= x && at.x <= x + w && at.y >= y && at.y <= y + h);
  }
  function moved([x, y, w, h], dx, dy) {
    const width = overlay.clientWidth / state.scale, height = overlay.clientHeight / state.scale;
    return [round(Math.min(Math.max(0, x + dx), width - w)), round(Math.min(Math.max(0, y + dy), height - h)), w, h];
  }

  // A mark being made, the same whether by pointer or by keyboard (see cursorKey): begun at a
  // point, extended, ended (saved) or cancelled.
  const gesture = {
    current: null,
    begin(at) {
      if (state.tool === 'move') {
        const target = markAt(at);
        if (!target) { say('Point at a mark on the page to move it.'); return false; }
        this.current = { start: at, target };
        drawPreview({ rect: target.rect });
        return true;
      }
      this.current = { start: at, points: [at] };
      return true;
    },
    extend(at) {
      const made = this.current;
      if (!made) return;
      if (state.tool === 'move') drawPreview({ rect: moved(made.target.rect, at.x - made.start.x, at.y - made.start.y) });
      else if (state.tool === 'ink') { made.points.push(at); drawPreview({ strokes: [made.points] }); }
      else drawPreview({ rect: rectangle(made.start, at) });
    },
    cancel() { this.current = null; clearOverlay(); },
    end(at) {
      const made = this.current;
      this.current = null;
      if (!made) return;
      if (state.tool === 'move') {
        const rect = moved(made.target.rect, at.x - made.start.x, at.y - made.start.y);
        if (rect.every((value, index) => Math.abs(value - made.target.rect[index]) < 0.5)) { clearOverlay(); return; }
        run(() => view.pending.save({ kind: 'edit', method: 'PATCH', target: made.target.id, page: state.page, body: { rect },
          url: `/api/scores/${scoreID}/annotations/${encodeURIComponent(made.target.id)}`,
          description: `Moved ${made.target.contents || made.target.subtype}` }), `${made.target.subtype} moved`);
        return;
      }
      if (state.tool === 'ink') {
        if (made.points.length < 2) { clearOverlay(); return; }
        const stroke = made.points.flatMap((p) => [round(p.x), round(p.y)]);
        addMark('ink', { strokes: [stroke] }, 'Pen stroke saved');
        return;
      }
      const rect = rectangle(made.start, at);
      if (rect[2] < 3 || rect[3] < 3) { clearOverlay(); return; }
      if (state.tool === 'link') { askPage(rect); return; }
      addMark(state.tool, { rect }, state.tool === 'square' ? 'Rectangle saved' : 'Highlight saved');
    },
  };

  // Marking by keyboard alone: with a tool other than View and the page focused, the arrows
  // move a cursor (5 points; with Shift 50), Enter places a text or a stamp where it stands, or
  // begins and then ends a rectangle, highlight, pen stroke or move; Escape drops the mark.
  // Returns whether the key was taken (PageDown, PageUp and space still turn pages).
  let cursor = null;
  function cursorKey(event) {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (state.tool === 'view' || document.activeElement !== overlay) return false;
    if (!steps[event.key] && event.key !== 'Enter' && event.key !== 'Escape') return false;
    if (!marking()) return false;
    const width = overlay.clientWidth / state.scale, height = overlay.clientHeight / state.scale;
    cursor = cursor ? { x: Math.min(cursor.x, width), y: Math.min(cursor.y, height) } : { x: round(width / 2), y: round(height / 2) };
    if (steps[event.key]) {
      const [dx, dy] = steps[event.key], step = event.shiftKey ? 50 : 5;
      cursor = { x: Math.min(Math.max(0, cursor.x + dx * step), width), y: Math.min(Math.max(0, cursor.y + dy * step), height) };
      if (gesture.current) gesture.extend(cursor); else clearOverlay();
      drawCursor(cursor);
    } else if (event.key === 'Escape') gesture.cancel();
    else if (state.tool === 'freetext') askText(cursor);
    else if (state.tool === 'stamp') stamp(cursor);
    else if (gesture.current) gesture.end(cursor);
    else if (gesture.begin(cursor)) { drawCursor(cursor); say('Arrows to the other corner or along the stroke, then Enter.'); }
    return true;
  }

  function drawCursor(at) {
    const context = overlay.getContext('2d');
    const ratio = window.devicePixelRatio || 1;
    context.save();
    context.scale(state.scale * ratio, state.scale * ratio);
    context.lineWidth = 1.5 / state.scale;
    context.strokeStyle = '#3874d8';
    context.beginPath();
    context.moveTo(at.x - 8, at.y); context.lineTo(at.x + 8, at.y);
    context.moveTo(at.x, at.y - 8); context.lineTo(at.x, at.y + 8);
    context.stroke();
    context.restore();
  }

  function rectangle(a, b) {
    return [round(Math.min(a.x, b.x)), round(Math.min(a.y, b.y)), round(Math.abs(a.x - b.x)), round(Math.abs(a.y - b.y))];
  }
  function round(value) { return Math.round(value * 100) / 100; }

  // An entry field over the page at `at` (points of the displayed page), named `label`, focused.
  function entryAt(at, label, attributes = {}) {
    const input = Object.assign(document.createElement('input'), { className: 'textentry', ...attributes });
    input.setAttribute('aria-label', label);
    const box = overlay.getBoundingClientRect();
    const parent = stage.getBoundingClientRect();
    input.style.left = `${box.left - parent.left + stage.scrollLeft + at.x * state.scale}px`;
    input.style.top = `${box.top - parent.top + stage.scrollTop + at.y * state.scale}px`;
    stage.append(input);
    input.focus();
    return input;
  }

  function askText(at) {
    const input = entryAt(at, 'Text of the new annotation; Enter saves, Escape cancels');
    let finished = false;
    const finish = (save) => {
      if (finished) return;  // removing the input blurs it, which finishes again
      finished = true;
      const text = input.value.trim();
      input.remove();
      overlay.focus();
      if (!save || !text) return;
      const size = settings.current().size;
      const width = Math.min(Math.max(40, text.length * size * 0.6 + 12), 500);
      addMark('freetext', { rect: [round(at.x), round(at.y), round(width), round(size * 1.8)], text }, 'Text saved');
    };
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') finish(true);
      else if (event.key === 'Escape') finish(false);
      event.stopPropagation();
    });
    input.addEventListener('blur', () => finish(true));
  }

  // The Link tool's second step: the page the link over `rect` jumps to (Enter saves,
  // Escape drops it).
  function askPage(rect) {
    const input = entryAt({ x: rect[0] + rect[2], y: rect[1] }, `The page the link jumps to (1 to ${state.pages}); Enter saves, Escape cancels`,
      { type: 'number', min: '1', max: String(state.pages), placeholder: 'page' });
    say(`Link: the page it jumps to, 1 to ${state.pages}, then Enter.`);
    input.addEventListener('keydown', (event) => {
      event.stopPropagation();
      if (event.key === 'Escape') { input.remove(); clearOverlay(); overlay.focus(); return; }
      if (event.key !== 'Enter' || !input.value) return;
      const to = Number(input.value);
      input.remove();
      overlay.focus();
      run(() => change('POST', `/api/scores/${scoreID}/links`, state.version, { page: state.page, rect, to }), `Link to page ${to} saved`);
    });
  }

  return { choose, point, clear: clearOverlay, preview: drawPreview, gesture, cursorKey, askText, addMark, rectangle };
}
