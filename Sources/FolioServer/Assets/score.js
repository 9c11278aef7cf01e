// The score view: pdf.js draws the page with its annotations; the overlay takes the tools
// (text, square, highlight, pen, stamp, move, link) and page turns (keys, pedals, click
// zones, swipes); a tap on a link follows it and Back returns. On touch, a long press places
// a text, or, dragged on, draws a rectangle; two fingers zoom. New marks take the Style
// menu's settings. The page shown stays in the address (?page=5).
// Coordinates sent to the API are points from the top-left of the page as displayed.
// The panels (page annotations, contents, details) and undo share the file's version.
// The sound bar plays the score's recordings and the metronome (sound.js).
// Its parts, each in its own file: the marks list (marks.js), the marking tools (tools.js),
// pointers and zoom (touch.js), links and Back (links.js), the layers menu (layers.js).
import { getJSON, change } from './api.js';
import { details } from './details.js';
import { contents } from './contents.js';
import { tabList } from './dom.js';
import { fit, size, sized, openDocument, drawHalves, drawSideBySide, viewModes, drawings, draftRatio, withLayers, slowDrawing } from './pages.js';
import { pagePictures } from './pictures.js';
import { goTo, pageTurn } from './turns.js';
import { pageTools } from './pagetools.js';
import { markSettings } from './settings.js';
import { placeNumber, keepPlace } from './place.js';
import { mountSound } from './sound.js';
import { leadRehearsal } from './rehearsal.js';
import { layerMenu } from './layers.js';
import { marksList } from './marks.js';
import { linkNavigation } from './links.js';
import { markingTools } from './tools.js';
import { pageGestures } from './touch.js';
import { setUpStand, stayAwake } from './stand.js';
import { splitHandle } from './halfsplit.js';
import { blipProof } from './reconnect.js';
import { pendingChanges } from './pending.js';
import { drawAhead, showTurn } from './ahead.js';
import { keepRecent, keepToggle } from './offline.js';
import { showWho } from './who.js';
import { history } from './history.js';

const stage = document.getElementById('stage');
const canvas = document.getElementById('page');
const overlay = document.getElementById('overlay');
const status = document.getElementById('status');
const pageLabel = document.getElementById('pageno');
const scoreID = stage.dataset.score;

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
  links: [], half: false, halfway: false, two: false, splits: {}, fitWidth: false, zoom: 1, back: [] };

const undoButton = document.getElementById('undo');
// The history in the Details panel (history.js), listed anew after every save.
let changes = { load: async () => {} };

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
  // Changes kept on the device while the server is out of reach (pending.js).
  pending: () => view.pending,
  // (pending.js has drawn and listed what waits already.)
  kept(message) { say(`${message} on this device: it is saved into the score when the server is back.`); },
};
const panels = { details: details(app), contents: contents(app) };
// The parts of the view: what they share of it, and each part's own file.
const view = { scoreID, state, stage, canvas, overlay, say, run, render, turn, composed, marking, goTo: app.goTo };
// Pages drawn ahead of a turn (forgotten with a new file or a layer shown or hidden), and the
// server's pictures of the pages a turn may show, its stand-ins while pdf.js draws.
const ahead = drawAhead();
const pictures = pagePictures((number) => (number >= 1 && number <= state.pages ? `/api/scores/${scoreID}/pages/${number}/image` : null));
const layers = layerMenu(document.getElementById('layers'), () => { ahead.clear(); render(); }, scoreID);
// Marks made with the server out of reach wait on the device and are sent when it is back.
view.pending = pendingChanges(view, async () => {
  await loadDocument();
  await render();
  await panels.contents.load().catch(() => {});
  refreshUndo();
});
view.relist = () => marks.showPending();
const links = linkNavigation(view);
view.follow = links.follow;
const marks = marksList(view);
const tools = markingTools(view, settings);
pageGestures(view, tools, links);
const splitter = splitHandle(view);
tools.choose('view');
tabList([...document.querySelectorAll('[role="tab"]')]);
// Leading a rehearsal: every page shown reaches the followers.
const rehearsal = leadRehearsal({ toggle: document.getElementById('rehearse'), panel: document.getElementById('rehearsal'),
  where: () => ({ score: Number(scoreID), page: state.page, halfway: state.halfway, two: state.two }) });
pageTools({ scoreID, page: () => state.page, version: () => state.version, run });

async function refreshUndo() {
  changes.load();
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
  await reloadAll();
}
undoButton.addEventListener('click', undo);

// After an undo or a change taken back: the file, the page and every panel anew.
async function reloadAll() {
  await loadDocument();
  await render();
  await Promise.all([panels.details.load(), panels.contents.load()]);
  refreshUndo();
}
changes = history(app, reloadAll);

// Opens the file (again, after a save). One whose fetch failed in a blip is let go without
// destroy(): pdf.js throws from its broken range stream when it is torn down.
async function loadDocument({ broken = false } = {}) {
  const url = `/api/scores/${scoreID}/pdf?v=${encodeURIComponent(state.version ?? Date.now())}`;
  const task = openDocument(url);
  const loaded = await task.promise;
  ahead.clear();
  pictures.clear();
  if (state.document && !broken) state.document.destroy();
  state.document = loaded;
  state.pages = loaded.numPages;
  state.page = Math.max(1, Math.min(state.page, state.pages));  // a page tool may have deleted the page shown
  await layers.list(loaded);
}

// Draws the page (or half turn, or two pages) the state names. A page that cannot be had
// (the server out of reach, its bytes not kept) leaves the page drawn before it on screen and
// the state on it, with a notice; the page is drawn when the server answers again.
// The drawings of the page asked for: cancelled when a newer turn comes before they are done.
const current = drawings();
const blipSafe = blipProof({ stage, state, draw: () => drawState(), cancel: () => { current.cancel(); ahead.yield(); },
  place: () => keepPlace({ page: state.page > 1 ? state.page : null }), reopen: () => loadDocument({ broken: true }) });
function render() { return blipSafe(); }

async function drawState() {
  keepPlace({ page: state.page > 1 ? state.page : null });
  rehearsal.moved();
  if (composed()) return renderComposed();
  // The page asked for now; turned past meanwhile (a newer render waits), it is left unfinished.
  const number = state.page;
  const passed = () => state.page !== number || composed();
  // Where drawing is slow, the pictures of the pages a turn may show next, asked for first: a
  // turn may come before this page is drawn.
  const nextPictures = () => { if (slowDrawing() && !withLayers()) pictures.prefetch([number + 1, number + 2, number - 1, number]); };
  nextPictures();
  const page = await state.document.getPage(number);
  const room = { width: stage.clientWidth - 20, height: state.fitWidth ? Infinity : stage.clientHeight - 20 };
  const fitted = fit(page, room, 0.2, state.zoom);
  // Drawn ahead: swapped in at once; else a stand-in first — the server's picture of the
  // page or, without one at hand, on a high-density screen a quick draft at one device pixel
  // per CSS pixel — and the sharp page after it (ahead.js, showTurn). Drawn aside either way:
  // the page shown stays until the new one is whole.
  const key = ahead.key(number, room, state.zoom);
  const ready = ahead.ready(key)?.canvas ?? null;
  current.cancel();
  // Being drawn ahead: finished, not begun again; any other drawing ahead yields.
  const finishing = ready ? null : ahead.finishing(key)?.then((entry) => entry?.canvas ?? null) ?? null;
  if (!ready && !finishing) ahead.yield();
  // (Not for the page opened on: the server's picture of it shows until it is drawn.)
  const opened = Boolean(stage.dataset.rendered);
  const quick = opened ? draftRatio() : null;
  const sharp = await showTurn({
    ready, finishing, via: current, passed,
    picture: () => (opened && !withLayers() ? pictures.get(number) : Promise.resolve(null)),
    draft: quick ? async (via) => {
      const draftFit = fit(page, room, 0.2, state.zoom, quick);
      const draft = document.createElement('canvas');
      size(draft, draftFit);
      await via.draw(page, draft, draftFit).promise;
      return draft;
    } : null,
    sharp: async () => {
      const spare = document.createElement('canvas');
      size(spare, fitted);
      await current.draw(page, spare, fitted).promise;
      ahead.keep(key, number, spare, fitted);
      return spare;
    },
    show: (drawn, kind) => {
      show(drawn, fitted, number, kind);
      if (kind === 'sharp') return;
      overlay.getContext('2d').clearRect(0, 0, overlay.width, overlay.height);   // the last page's marks
      stage.dataset.sharp = 'drawing';
    },
  });
  if (!sharp) return;
  stage.dataset.sharp = String(number);
  performance.mark('folio-page-sharp', { detail: number });   // read by Benchmarks/pageturn_bench.py
  if (sized(overlay, fitted)) overlay.getContext('2d').clearRect(0, 0, overlay.width, overlay.height); else size(overlay, fitted);
  overlay.style.left = `${canvas.offsetLeft}px`;
  overlay.style.top = `${canvas.offsetTop}px`;
  view.pending.draw();
  splitter.shown(false);
  tools.clear();
  await loadMarks();
  if (!stage.dataset.rendered) performance.mark('folio-first-page');  // read by Benchmarks/serve_bench.py
  stage.dataset.rendered = `${number}`;
  firstPicture?.remove();
  if (passed()) return;
  // The pages a turn is likely to show next, drawn while the musician plays this one.
  nextPictures();
  const near = [number + 1, number - 1];
  ahead.prepare(state.document, near, room, state.zoom, (each) => fit(each, room, 0.2, state.zoom), [number, ...near]);
}

// Puts `drawn` (page `number` drawn aside, as `kind`: the sharp page, or a stand-in scaled
// up — the server's picture or a draft) on the visible canvas, sized for `fitted`. A turn
// between pages of one size copies pixels only: pdf.js paints a page opaque, so the copy
// replaces every pixel.
function show(drawn, fitted, number, kind) {
  stage.dataset.shownAs = kind;   // 'picture', 'draft' or 'sharp': read by the benchmark
  state.scale = fitted.scale;
  if (!sized(canvas, fitted)) size(canvas, fitted);
  canvas.getContext('2d').drawImage(drawn, 0, 0, canvas.width, canvas.height);
  pageLabel.textContent = `${number} / ${state.pages}`;
  performance.mark('folio-page-shown', { detail: number });   // read by Benchmarks/pageturn_bench.py
}

// The page's marks; the page itself is drawn whatever becomes of them (the server out of
// reach: the music stays, the list says why it is empty).
async function loadMarks() {
  try {
    await marks.load();
  } catch (error) {
    say(`Marks not loaded: ${error.message}`);
  }
}

// A half turn (the next page's top half above this page's bottom half) or two pages side by
// side. They are for reading on; the tools mark one whole page (see marking()).
async function renderComposed() {
  current.cancel();
  const pages = await Promise.all([state.page, state.page + 1].map((number) => state.document.getPage(number)));
  const room = { width: stage.clientWidth - 20, height: stage.clientHeight - 20 };
  // Composed aside first, then shown (the same sizes and marks as drawn).
  const spare = document.createElement('canvas');
  const shown = state.halfway ? await drawHalves(pages[0], pages[1], spare, room, state.splits[state.page] ?? null, current)
    : await drawSideBySide(pages, spare, room, current);
  canvas.width = spare.width;
  canvas.height = spare.height;
  canvas.style.width = spare.style.width;
  canvas.style.height = spare.style.height;
  for (const key of ['split', 'rule', 'heights']) {
    if (spare.dataset[key] === undefined) delete canvas.dataset[key]; else canvas.dataset[key] = spare.dataset[key];
  }
  canvas.getContext('2d').drawImage(spare, 0, 0);
  overlay.width = canvas.width;
  overlay.height = canvas.height;
  overlay.style.width = `${shown.width}px`;
  overlay.style.height = `${shown.height}px`;
  overlay.style.left = `${canvas.offsetLeft}px`;
  overlay.style.top = `${canvas.offsetTop}px`;
  splitter.shown(state.halfway);
  pageLabel.textContent = state.halfway ? `${state.page}½ / ${state.pages}` : `${state.page}–${state.page + 1} / ${state.pages}`;
  tools.clear();
  await loadMarks();
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

// Saves one change, then shows the file as saved; 409 means someone else changed it first.
// A change the server could not be reached for (null) waits on the device: shown, not lost.
async function run(action, done) {
  try {
    const result = await action();
    if (result === null) {
      app.kept(done);
      await marks.load().catch(() => {});   // the list as it was (an edit field closed), what waits after it
      return;
    }
    app.saved(result.version, result.message ?? done);
  } catch (error) {
    say(error.status === 409 ? 'The score changed elsewhere; showing the current version.' : `Not saved: ${error.message}`);
  }
  await loadDocument();
  await render();
}

// A turn or a jump (1, -1, 'first', 'last'), as every view turns (turns.js).
function turn(action) {
  const next = goTo(state, action, state.pages, state);
  if (next.page === state.page && next.halfway === state.halfway) return;
  Object.assign(state, next);
  render();
}

viewModes(state, document.getElementById('two'), document.getElementById('half'), render);

document.addEventListener('keydown', (event) => {
  if (event.target.closest?.('input, select, textarea, form')) return;
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z') { undo(); event.preventDefault(); return; }
  if (tools.cursorKey(event)) { event.preventDefault(); return; }
  const action = pageTurn(event);
  if (action !== null) { turn(action); event.preventDefault(); }
  else {
    const keys = { v: 'view', t: 'freetext', r: 'square', h: 'highlight', p: 'ink', s: 'stamp', m: 'move', l: 'link' };
    if (keys[event.key] && !event.ctrlKey && !event.metaKey) tools.choose(keys[event.key]);
  }
});
document.getElementById('prev').addEventListener('click', () => turn(-1));
document.getElementById('next').addEventListener('click', () => turn(1));

window.addEventListener('resize', () => { if (state.document) render(); });
setUpStand();
// Played from, the score view keeps the screen on too (asked for on the first tap or key).
stayAwake(stage);

(async () => {
  try {
    await loadDocument();
    await render();
    overlay.focus();
    keepRecent(`/api/scores/${scoreID}/pdf`);
    keepToggle(document.getElementById('keep-offline'), document.getElementById('offline-status'), { kind: 'score', id: scoreID });
    view.pending.start();
    await Promise.all([panels.details.load(), panels.contents.load(), sound.load()]);
    refreshUndo();
  } catch (error) {
    say(`Cannot show this score: ${error.message}`);
  }
})();

showWho();
