// The score view: pdf.js draws the page with its annotations; the overlay takes the tools
// (text, square, highlight, pen, stamp, move, link) and page turns (keys, pedals, click
// zones, swipes); a tap on a link follows it and Back returns. On touch, a long press places
// a text, or, dragged on, draws a rectangle; two fingers zoom. New marks take the Style
// menu's settings. The page shown stays in the address (?page=5).
// Coordinates sent to the API are points from the top-left of the page as displayed.
// The panels (page annotations, contents, details) and undo share the file's version.
// The sound bar plays the score's recordings and the metronome (sound.js).
import { getJSON, change, uploadStamp } from './api.js';
import { details } from './details.js';
import { contents } from './contents.js';
import { emptyItem, button, pageTurn, tapOrSwipe } from './dom.js';
import { fit, size, draw, openDocument, drawHalves, drawSideBySide, turned, viewModes, showLayers } from './pages.js';
import { pageTools } from './pagetools.js';
import { markSettings } from './settings.js';
import { placeNumber, keepPlace } from './place.js';
import { mountSound } from './sound.js';
import { leadRehearsal } from './rehearsal.js';

const stage = document.getElementById('stage');
const canvas = document.getElementById('page');
const overlay = document.getElementById('overlay');
const list = document.getElementById('annotations');
const status = document.getElementById('status');
const pageLabel = document.getElementById('pageno');
const scoreID = stage.dataset.score;

const others = document.getElementById('others');
const othersToggle = document.getElementById('show-others');
const backButton = document.getElementById('link-back');
const widthButton = document.getElementById('fit-width');
const settings = markSettings(document.getElementById('mark-settings'));
const sound = mountSound({ score: Number(scoreID) });
// The server's picture of the page opened on, shown until pdf.js has drawn it; none when
// the server could not draw it (no pdftoppm).
const firstPicture = document.getElementById('first-page');
if (firstPicture && firstPicture.complete && !firstPicture.naturalWidth) firstPicture.remove();
firstPicture?.addEventListener('error', () => firstPicture.remove());

// `annotations`: the musician's marks on the page; `links`: the links a tap follows.
// `zoom` scales the fitted page (pinch); `back` holds the pages links were followed from.
const state = { document: null, page: placeNumber('page', 1), pages: 0, scale: 1, version: null, tool: 'view', annotations: [],
  links: [], rendering: null, half: false, halfway: false, two: false, splits: {}, fitWidth: false, zoom: 1, back: [] };

const undoButton = document.getElementById('undo');

function say(text) { status.textContent = text; }

// What the panels share: the version of the file last seen, and what follows a save.
const app = {
  scoreID,
  version: () => state.version,
  seen(version) { if (version) state.version = version; },
  say,
  saved(version, message) { state.version = version; say(message); refreshUndo(); },
  failed(error) { say(`Not saved: ${error.message}`); },
  goTo(page) { Object.assign(state, { page: Math.min(state.pages, Math.max(1, page)), halfway: false }); render(); },
  page: () => state.page,
  // Where half-page turns split pages, as the file keeps it (the contents panel reads it).
  splits(splits) { state.splits = splits ?? {}; },
};
const panels = { details: details(app), contents: contents(app) };
// Leading a rehearsal: every page shown reaches the followers.
const rehearsal = leadRehearsal({ toggle: document.getElementById('rehearse'), panel: document.getElementById('rehearsal'),
  where: () => ({ score: Number(scoreID), page: state.page, halfway: state.halfway, two: state.two }) });
pageTools({ scoreID, page: () => state.page, version: () => state.version, run });

async function refreshUndo() {
  try {
    const { data } = await getJSON(`/api/scores/${scoreID}/undo`);
    undoButton.disabled = !data.change;
    undoButton.title = data.change ? `Undo: ${data.change} (Ctrl+Z)` : 'Nothing to undo';
  } catch { undoButton.disabled = true; }
}

async function undo() {
  if (undoButton.disabled) return;
  try {
    const { data, version } = await change('POST', `/api/scores/${scoreID}/undo`, state.version);
    state.version = version;
    say(`Undone: ${data.undone}`);
  } catch (error) {
    say(`Cannot undo: ${error.message}`);
  }
  await loadDocument();
  await render();
  await Promise.all([panels.details.load(), panels.contents.load()]);
  refreshUndo();
}
undoButton.addEventListener('click', undo);

// Panel tabs: click, or arrow keys between them (the ARIA tabs pattern).
const tabs = [...document.querySelectorAll('[role="tab"]')];
function showTab(tab) {
  for (const other of tabs) {
    const selected = other === tab;
    other.setAttribute('aria-selected', String(selected));
    other.tabIndex = selected ? 0 : -1;
    document.getElementById(other.getAttribute('aria-controls')).hidden = !selected;
  }
}
for (const tab of tabs) {
  tab.addEventListener('click', () => showTab(tab));
  tab.addEventListener('keydown', (event) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (!step) return;
    const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length];
    showTab(next);
    next.focus();
    event.preventDefault();
    event.stopPropagation();
  });
}

async function loadDocument() {
  const url = `/api/scores/${scoreID}/pdf?v=${encodeURIComponent(state.version ?? Date.now())}`;
  const task = openDocument(url);
  const loaded = await task.promise;
  if (state.document) state.document.destroy();
  state.document = loaded;
  state.pages = loaded.numPages;
  state.page = Math.max(1, Math.min(state.page, state.pages));  // a page tool may have deleted the page shown
  await listLayers(loaded);
}

// The file's layers (such as forScore's "Fingerings"), each shown or hidden by a checkbox;
// the menu stays hidden when there are none. A choice lasts while the score is open.
const layerMenu = document.getElementById('layers');
const chosenLayers = new Map();
async function listLayers(loaded) {
  const config = await loaded.getOptionalContentConfig();
  const groups = Object.entries(config.getGroups() ?? {});
  const list = layerMenu.querySelector('div');
  list.replaceChildren();
  for (const [id, group] of groups) {
    const key = group.name ?? id;
    if (chosenLayers.has(key)) config.setVisibility(id, chosenLayers.get(key));
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = config.getGroup(id)?.visible ?? true;
    box.addEventListener('change', () => {
      config.setVisibility(id, box.checked);
      chosenLayers.set(key, box.checked);
      render();
    });
    label.append(box, document.createTextNode(` ${group.name || 'Unnamed layer'}`));
    list.append(label);
  }
  layerMenu.hidden = groups.length === 0;
  showLayers(groups.length ? config : null);
}

async function render() {
  keepPlace({ page: state.page > 1 ? state.page : null });
  rehearsal.moved();
  if (composed()) return renderComposed();
  const page = await state.document.getPage(state.page);
  const room = { width: stage.clientWidth - 20, height: state.fitWidth ? Infinity : stage.clientHeight - 20 };
  const fitted = fit(page, room, 0.2, state.zoom);
  state.scale = fitted.scale;
  size(canvas, fitted);
  size(overlay, fitted);
  overlay.style.left = `${canvas.offsetLeft}px`;
  overlay.style.top = `${canvas.offsetTop}px`;
  if (state.rendering) state.rendering.cancel();
  state.rendering = draw(page, canvas, fitted);
  try { await state.rendering.promise; } catch (error) { if (error?.name !== 'RenderingCancelledException') throw error; }
  state.rendering = null;
  pageLabel.textContent = `${state.page} / ${state.pages}`;
  clearOverlay();
  await loadAnnotations();
  if (!stage.dataset.rendered) performance.mark('folio-first-page');  // read by Benchmarks/serve_bench.py
  stage.dataset.rendered = `${state.page}`;
  firstPicture?.remove();
}

// A half turn (the next page's top half above this page's bottom half) or two pages side by
// side. They are for reading on; the tools mark one whole page (see marking()).
async function renderComposed() {
  if (state.rendering) state.rendering.cancel();
  const pages = await Promise.all([state.page, state.page + 1].map((number) => state.document.getPage(number)));
  const room = { width: stage.clientWidth - 20, height: stage.clientHeight - 20 };
  const shown = state.halfway ? await drawHalves(pages[0], pages[1], canvas, room, state.splits[state.page] ?? 0.5)
    : await drawSideBySide(pages, canvas, room);
  overlay.width = canvas.width;
  overlay.height = canvas.height;
  overlay.style.width = `${shown.width}px`;
  overlay.style.height = `${shown.height}px`;
  overlay.style.left = `${canvas.offsetLeft}px`;
  overlay.style.top = `${canvas.offsetTop}px`;
  pageLabel.textContent = state.halfway ? `${state.page}½ / ${state.pages}` : `${state.page}–${state.page + 1} / ${state.pages}`;
  clearOverlay();
  await loadAnnotations();
  stage.dataset.rendered = state.halfway ? `${state.page}.5` : `${state.page}`;
}

// Whether a half turn or two pages are shown rather than one whole page (two pages show
// one on the last page).
function composed() {
  return state.halfway || (state.two && state.page < state.pages);
}

// Whether the tools may mark the page shown: one whole page, not a half turn or two pages.
function marking() {
  if (composed()) say(state.two ? 'Show one page to mark it.' : 'Turn on to the whole page to mark it.');
  return !composed();
}

// The page's marks in the list (each with Delete; a swipe left deletes too), and behind a
// toggle the links and form fields an engraver or a form left, counted; point-and-click
// links are not followed.
async function loadAnnotations() {
  const { data, version } = await getJSON(`/api/scores/${scoreID}/annotations?page=${state.page}`);
  state.version = version;
  const isMark = (annotation) => !['Link', 'Widget'].includes(annotation.subtype);
  state.annotations = data.annotations.filter(isMark);
  state.links = data.annotations.filter((annotation) => annotation.subtype === 'Link' && !annotation.pointAndClick
    && (annotation.target || /^(https?|mailto):/i.test(annotation.uri ?? '')));
  list.replaceChildren(...state.annotations.map((annotation) => {
    const item = document.createElement('li');
    const label = document.createElement('span');
    label.textContent = `${annotation.subtype}${annotation.contents ? ': ' + annotation.contents : ''}`;
    label.title = label.textContent;
    const deleteMark = () => removeAnnotation(annotation, `Deleted ${annotation.subtype}: Undo brings it back`);
    const remove = button('Delete', `Delete ${annotation.subtype} ${annotation.contents ?? ''}`.trim(), deleteMark);
    if (annotation.subtype === 'FreeText') item.append(label, button('Edit', `Edit the text ${annotation.contents ?? ''}`.trim(),
      () => editText(item, label, annotation)), remove);
    else item.append(label, remove);
    swipeToDelete(item, deleteMark);
    return item;
  }));
  if (!state.annotations.length) list.append(emptyItem('No marks on this page.'));
  const hidden = data.annotations.filter((annotation) => !isMark(annotation));
  const clicks = hidden.filter((annotation) => annotation.pointAndClick).length;
  othersToggle.parentElement.hidden = hidden.length === 0;
  document.getElementById('others-count').textContent = `Links and form fields (${hidden.length}`
    + `${clicks ? `, ${clicks} point-and-click` : ''})`;
  showOthers(hidden);
}

// The links and form fields, listed only while the toggle is on (an engraved page has hundreds).
function showOthers(hidden) {
  others.hidden = !othersToggle.checked;
  if (others.hidden) { others.replaceChildren(); return; }
  const shown = hidden.slice(0, 200).map((annotation) => {
    const item = document.createElement('li');
    const label = document.createElement('span');
    label.textContent = annotation.target ? `Link → p. ${annotation.target}`
      : annotation.uri ? `${annotation.pointAndClick ? 'Point-and-click' : 'Link'}: ${annotation.uri}` : annotation.subtype;
    label.title = label.textContent;
    item.append(label);
    if (annotation.target) item.append(button('Go', `Follow the link to page ${annotation.target}`, () => follow(annotation)));
    if (annotation.subtype === 'Link') {
      item.append(button('Delete', `Delete the link ${label.textContent}`, () => removeAnnotation(annotation, 'Link deleted')));
    }
    return item;
  });
  if (hidden.length > shown.length) shown.push(emptyItem(`and ${hidden.length - shown.length} more`));
  others.replaceChildren(...shown);
}
othersToggle.addEventListener('change', () => loadAnnotations());

// Deletes one annotation of the page (undoable), then says `message`.
function removeAnnotation(annotation, message) {
  run(() => change('DELETE', `/api/scores/${scoreID}/annotations/${encodeURIComponent(annotation.id)}`, state.version), message);
}

// A swipe left (pointer or finger) over a list item runs `remove`; the item follows the finger.
function swipeToDelete(item, remove) {
  let start = null;
  item.addEventListener('pointerdown', (event) => {
    if (event.target.closest('button, input')) return;
    start = { x: event.clientX };
    item.setPointerCapture(event.pointerId);
  });
  item.addEventListener('pointermove', (event) => {
    if (start) item.style.transform = `translateX(${Math.min(0, event.clientX - start.x)}px)`;
  });
  item.addEventListener('pointerup', (event) => {
    if (!start) return;
    const moved = event.clientX - start.x;
    start = null;
    item.style.transform = '';
    if (moved < -80) remove();
  });
  item.addEventListener('pointercancel', () => { start = null; item.style.transform = ''; });
}

// Follows a link: its page (Back returns to this one, as does the browser's back), or its
// web address in a new tab.
function follow(link) {
  if (link.target) {
    state.back.push(state.page);
    keepPlace({ page: link.target }, { push: true });
    showBack();
    app.goTo(link.target);
  } else if (link.uri) {
    window.open(link.uri, '_blank', 'noopener');
  }
}
function showBack() {
  const last = state.back.at(-1);
  backButton.hidden = last === undefined;
  if (last !== undefined) backButton.textContent = `↩ Back to p. ${last}`;
}
backButton.addEventListener('click', () => {
  const page = state.back.pop();
  showBack();
  if (page !== undefined) app.goTo(page);
});
window.addEventListener('popstate', () => {
  const page = placeNumber('page', 1);
  if (state.back.at(-1) === page) { state.back.pop(); showBack(); }
  if (page !== state.page) app.goTo(page);
});
function linkAt(at) {
  return state.links.findLast(({ rect: [x, y, w, h] }) => at.x >= x && at.x <= x + w && at.y >= y && at.y <= y + h);
}

// A FreeText's words, changed in place in the list: Enter saves, Escape keeps them.
function editText(item, label, annotation) {
  const input = document.createElement('input');
  input.value = annotation.contents ?? '';
  input.setAttribute('aria-label', 'New text; Enter saves, Escape cancels');
  label.replaceWith(input);
  input.focus();
  input.addEventListener('keydown', (event) => {
    event.stopPropagation();
    if (event.key === 'Escape') { input.replaceWith(label); return; }
    if (event.key !== 'Enter' || !input.value.trim()) return;
    run(() => change('PATCH', `/api/scores/${scoreID}/annotations/${encodeURIComponent(annotation.id)}`, state.version,
      { text: input.value.trim() }), 'Text changed');
  });
}

// Saves one change, then shows the file as saved; 409 means someone else changed it first.
async function run(action, done) {
  try {
    const result = await action();
    app.saved(result.version, result.message ?? done);
  } catch (error) {
    say(error.status === 409 ? 'The score changed elsewhere; showing the current version.' : `Not saved: ${error.message}`);
  }
  await loadDocument();
  await render();
}

function turn(direction) {
  const next = turned(state, direction, state.pages, { half: state.half, step: state.two ? 2 : 1 });
  if (next.page === state.page && next.halfway === state.halfway) return;
  Object.assign(state, next);
  render();
}

viewModes(state, document.getElementById('two'), document.getElementById('half'), render);

document.addEventListener('keydown', (event) => {
  if (event.target.closest?.('input, select, textarea, form')) return;
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z') { undo(); event.preventDefault(); return; }
  if (cursorKey(event)) { event.preventDefault(); return; }
  const direction = pageTurn(event);
  if (direction === 1 || direction === -1) { turn(direction); event.preventDefault(); }
  else if (direction === 'first') { Object.assign(state, { page: 1, halfway: false }); render(); }
  else if (direction === 'last') { Object.assign(state, { page: state.pages, halfway: false }); render(); }
  else {
    const tools = { v: 'view', t: 'freetext', r: 'square', h: 'highlight', p: 'ink', s: 'stamp', m: 'move', l: 'link' };
    if (tools[event.key] && !event.ctrlKey && !event.metaKey) choose(tools[event.key]);
  }
});
document.getElementById('prev').addEventListener('click', () => turn(-1));
document.getElementById('next').addEventListener('click', () => turn(1));

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
choose('view');

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
function addMark(type, fields, message) {
  run(() => change('POST', `/api/scores/${scoreID}/annotations`, state.version,
    { type, page: state.page, ...settings.forMark(type), ...fields }), message);
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
      run(() => change('PATCH', `/api/scores/${scoreID}/annotations/${encodeURIComponent(made.target.id)}`, state.version,
        { rect }), `${made.target.subtype} moved`);
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

// View: a tap on a link follows it, elsewhere a tap or a swipe turns the page; on touch a
// long press places a text where it is, or, dragged on, draws a rectangle; two fingers
// zoom the page (pinch). The other tools: a pointer makes the mark.
let swipe = null;
let pinch = null;
const pointers = new Map();
overlay.addEventListener('pointerdown', (event) => {
  pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  if (pointers.size === 2) { beginPinch(); return; }
  const at = point(event);
  if (state.tool === 'view') {
    swipe = { x: event.clientX, y: event.clientY, time: Date.now(), at };
    if (event.pointerType === 'touch' && !composed()) {
      const pressing = swipe;
      pressing.timer = setTimeout(() => { pressing.pressed = true; overlay.setPointerCapture(event.pointerId); say('Lift for a text, or drag for a rectangle.'); }, 500);
    }
    return;
  }
  if (state.tool === 'freetext' || state.tool === 'stamp' || !marking()) return;  // on click
  if (gesture.begin(at)) overlay.setPointerCapture(event.pointerId);
});
overlay.addEventListener('pointermove', (event) => {
  if (pointers.has(event.pointerId)) pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  if (pinch) { movePinch(); return; }
  if (state.tool !== 'view') { gesture.extend(point(event)); return; }
  if (!swipe) return;
  const moved = Math.hypot(event.clientX - swipe.x, event.clientY - swipe.y);
  if (swipe.pressed) {
    swipe.rect = rectangle(swipe.at, point(event));
    if (moved > 8) drawPreview({ rect: swipe.rect });
  } else if (moved > 8) clearTimeout(swipe.timer);
});
overlay.addEventListener('pointerup', (event) => {
  pointers.delete(event.pointerId);
  if (pinch) { if (pointers.size < 2) endPinch(); return; }
  if (state.tool !== 'view') { gesture.end(point(event)); return; }
  if (!swipe) return;
  const started = swipe;
  swipe = null;
  clearTimeout(started.timer);
  if (started.pressed) {
    const rect = started.rect;
    if (rect && rect[2] >= 3 && rect[3] >= 3) addMark('square', { rect }, 'Rectangle saved');
    else { clearOverlay(); askText(started.at); }
    return;
  }
  const moved = Math.hypot(event.clientX - started.x, event.clientY - started.y);
  const link = moved < 10 && !composed() ? linkAt(point(event)) : null;
  if (link) follow(link);
  else turn(tapOrSwipe(started, event, overlay));
});
overlay.addEventListener('pointercancel', (event) => {
  pointers.delete(event.pointerId);
  if (swipe) clearTimeout(swipe.timer);
  swipe = null;
  if (pinch && pointers.size < 2) endPinch();
});

// Pinch: the page follows the fingers at once (a CSS scale), and is drawn again sharp at
// its new zoom when they lift (half to four times the fitted size).
function spread() {
  const [a, b] = [...pointers.values()];
  return Math.hypot(a.x - b.x, a.y - b.y) || 1;
}
function beginPinch() {
  if (swipe) clearTimeout(swipe.timer);
  swipe = null;
  gesture.cancel();
  pinch = { start: spread(), factor: 1 };
}
function movePinch() {
  if (pointers.size < 2) return;
  pinch.factor = Math.min(4, Math.max(0.5, state.zoom * spread() / pinch.start)) / state.zoom;
  for (const element of [canvas, overlay]) { element.style.transformOrigin = '50% 0'; element.style.transform = `scale(${pinch.factor})`; }
}
function endPinch() {
  const factor = pinch.factor;
  pinch = null;
  for (const element of [canvas, overlay]) element.style.transform = '';
  setZoom(state.zoom * factor);
}
async function setZoom(zoom) {
  state.zoom = Math.min(4, Math.max(0.5, zoom));
  await render();
  stage.scrollLeft = (stage.scrollWidth - stage.clientWidth) / 2;
  stage.dataset.zoom = state.zoom.toFixed(2);
}

// Fit the whole page (the default) or its width, to read it scrolling down.
widthButton.addEventListener('click', () => {
  state.fitWidth = !state.fitWidth;
  state.zoom = 1;
  widthButton.setAttribute('aria-pressed', String(state.fitWidth));
  stage.classList.toggle('wide', state.fitWidth);
  render();
});

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

window.addEventListener('resize', () => { if (state.document) render(); });

(async () => {
  try {
    await loadDocument();
    await render();
    overlay.focus();
    await Promise.all([panels.details.load(), panels.contents.load(), sound.load()]);
    refreshUndo();
  } catch (error) {
    say(`Cannot show this score: ${error.message}`);
  }
})();
