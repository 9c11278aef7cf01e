// Performance mode: the setlist's pieces as one run of pages (the server merges them, each
// piece an outline entry), turned by keys, pedals (arrows, PageDown), click zones and
// swipes; one page or two side by side, or half-page turns (forScore's: the next page's top
// half shows above the bottom half of the page being finished). The current piece's title is shown;
// the piece and its page stay in the address (?piece=3&page=5), for a reload or a shared link.
// As a piece opens, its linked recording is queued in the sound bar and the metronome takes
// its tempo and time signature (/api/setlists/NAME/sound).
import { getJSON } from './api.js';
import { sheet, size, openDocument, drawHalves, viewModes, pageFrames, framed, fit, drawings, draftRatio, withLayers, slowDrawing } from './pages.js';
import { pagePictures } from './pictures.js';
import { goTo, pageTurn, turnOnTapOrSwipe } from './turns.js';
import { drawAhead, showTurn } from './ahead.js';
import { placeNumber, keepPlace } from './place.js';
import { mountSound } from './sound.js';
import { leadRehearsal } from './rehearsal.js';
import { setUpStand, stayAwake } from './stand.js';
import { keepRecent } from './offline.js';
import { blipProof } from './reconnect.js';

const stage = document.getElementById('stage');
const label = document.getElementById('pageno');
const pieceLabel = document.getElementById('piece');
const twoButton = document.getElementById('two');
const halfButton = document.getElementById('half');
// `frames`: the largest page of each orientation, so every piece is drawn at one size.
const state = { document: null, page: 1, pages: 0, two: false, half: false, halfway: false, pieces: [], queued: undefined, frames: null };
const sound = mountSound();
// The pages after and before those shown, drawn while the musician plays (ahead.js).
const ahead = drawAhead();
// Leading a rehearsal: each piece's score and its page reach the followers.
const rehearsal = leadRehearsal({ toggle: document.getElementById('rehearse'), panel: document.getElementById('rehearsal'), where });

// Where the leader is, as a score of the library and its page (null score for a placeholder).
function where() {
  const piece = pieceAt(state.page);
  const score = piece?.sound?.score ?? null;
  const first = piece?.sound?.firstPage ?? 1;
  return { score, page: piece ? first + state.page - piece.page : state.page, halfway: state.halfway, two: state.two,
    setlist: stage.dataset.setlist, piece: piece ? state.pieces.indexOf(piece) + 1 : null };
}

// Each piece of the merged PDF with what it sounds with: the pieces are the setlist's
// entries that have pages, in order, under their titles.
async function loadSound() {
  const { data } = await getJSON(`/api/setlists/${encodeURIComponent(stage.dataset.setlist)}/sound`);
  let next = 0;
  for (const piece of state.pieces) {
    const index = data.pieces.findIndex((entry, position) => position >= next && entry.score !== null && entry.title === piece.title);
    if (index < 0) continue;
    piece.sound = data.pieces[index];
    piece.entry = index;
    next = index + 1;
  }
  if (data.pieces.some((entry) => entry.track)) sound.show(true);
  // Each entry's note for the set ("attacca") beside its title; the list is in the same order.
  const { data: setlist } = await getJSON(`/api/setlists/${encodeURIComponent(stage.dataset.setlist)}`);
  for (const piece of state.pieces) piece.note = setlist.entries[piece.entry]?.note ?? null;
  getJSON('/api/audio').then(({ data: audio }) => sound.librarySamples(audio.audio)).catch(() => {});
}

// Queues the recording of the piece on the page shown, when the piece changed.
function queueSound() {
  const piece = pieceAt(state.halfway ? state.page + 1 : state.page);
  if (piece === state.queued) return;
  state.queued = piece;
  if (!sound.player.playing) { sound.queue(piece?.sound ?? null); return; }
  // Playing on into the next piece: its recording is queued once this one stops.
  sound.player.audio.addEventListener('pause', () => { if (state.queued === piece) sound.queue(piece?.sound ?? null); }, { once: true });
}

async function load() {
  const url = `/api/setlists/${encodeURIComponent(stage.dataset.setlist)}/pdf`;
  state.document = await openDocument(url).promise;
  state.pages = state.document.numPages;
  state.frames = await pageFrames(state.document);
  const outline = (await state.document.getOutline()) ?? [];
  for (const item of outline) {
    try {
      const destination = typeof item.dest === 'string' ? await state.document.getDestination(item.dest) : item.dest;
      if (destination) state.pieces.push({ title: item.title, page: (await state.document.getPageIndex(destination[0])) + 1 });
    } catch { /* an entry without a page is not a piece */ }
  }
}

function pieceAt(page) {
  let current = null;
  for (const piece of state.pieces) if (piece.page <= page) current = piece;
  return current;
}

// The address's place as a page of the whole run; the first page when it names none.
function placed() {
  const piece = state.pieces[(placeNumber('piece') ?? 1) - 1];
  const page = (piece?.page ?? 1) + (placeNumber('page') ?? 1) - 1;
  return Math.min(Math.max(1, page), Math.max(1, state.pages));
}

// Keeps the piece shown (1-based) and its page in the address.
function keep() {
  const piece = pieceAt(state.page);
  const number = piece ? state.pieces.indexOf(piece) + 1 : null;
  keepPlace({ piece: number, page: piece ? state.page - piece.page + 1 : state.page });
}

// Page `number` as drawn ahead, or null.
function aheadSheet(number, room) {
  const canvas = ahead.ready(ahead.key(number, room, 1))?.canvas ?? null;
  if (canvas) canvas.className = 'sheet';
  return canvas;
}

// Page `number` drawn now: a quick draft at `ratio`, or (no ratio) sharp and kept for the
// turns back. Drawn through `via`, cancelled by a newer turn (turnDrawings).
async function drawnSheet(number, room, ratio = null, via = turnDrawings) {
  const page = await state.document.getPage(number);
  const canvas = await sheet(page, framed(page, room, state.frames), { ratio, via });
  if (!ratio) ahead.keep(ahead.key(number, room, 1), number, canvas, null);
  canvas.className = 'sheet';
  return canvas;
}

// The drawings of the pages asked for: cancelled when a newer turn comes before they are done.
const turnDrawings = drawings();

// The server's pictures of the pages (pictures.js), by the piece's score and its page there;
// none for a placeholder.
const pictures = pagePictures((number) => {
  const piece = pieceAt(number);
  const score = piece?.sound?.score;
  if (!score || number > state.pages) return null;
  return `/api/scores/${score}/pages/${(piece.sound.firstPage ?? 1) + number - piece.page}/image`;
});

// Page `number` as the server's picture, on a canvas of the sheet's size; null without one.
async function pictureSheet(number, room) {
  if (withLayers()) return null;
  const picture = await pictures.get(number);
  if (!picture) return null;
  const page = await state.document.getPage(number);
  const canvas = document.createElement('canvas');
  size(canvas, fit(page, framed(page, room, state.frames)));
  canvas.getContext('2d').drawImage(picture, 0, 0, canvas.width, canvas.height);
  canvas.className = 'sheet';
  return canvas;
}

// Draws the page (half turn, two pages) the state names. A page that cannot be had leaves
// the pages shown on screen and the state on them, with a notice; the page is drawn when the
// server answers again (see reconnect.js).
const render = blipProof({ stage, state, draw: () => drawState(), place: () => keep(), cancel: () => { turnDrawings.cancel(); ahead.yield(); }, reopen: async () => {
  ahead.clear();
  state.document = await openDocument(`/api/setlists/${encodeURIComponent(stage.dataset.setlist)}/pdf`).promise;
} });

async function drawState() {
  keep();
  rehearsal.moved();
  queueSound();
  if (state.halfway) {
    const canvas = document.createElement('canvas');
    canvas.className = 'sheet';
    const room = { width: stage.clientWidth - 20, height: stage.clientHeight - 20 };
    const number = state.page;
    const [current, next] = await Promise.all([number, number + 1].map((each) => state.document.getPage(each)));
    turnDrawings.cancel();
    await drawHalves(current, next, canvas, framed(current, room, state.frames), null, turnDrawings);
    if (state.page !== number || !state.halfway) return;   // turned on meanwhile: a newer render draws
    stage.replaceChildren(canvas, ...stage.querySelectorAll('.page-notice, .awake-note'));
    label.textContent = `${number}½ / ${state.pages}`;
    pieceLabel.textContent = described(pieceAt(number + 1));
    stage.dataset.rendered = `${number}.5`;
    return;
  }
  const count = state.two ? 2 : 1;
  const room = { width: (stage.clientWidth - 20) / count - (count - 1) * 6, height: stage.clientHeight - 20 };
  const numbers = [state.page, state.page + 1].slice(0, count).filter((number) => number <= state.pages);
  // Turned past meanwhile (a newer render waits): left unfinished.
  const passed = () => state.page !== numbers[0] || state.halfway || (state.two ? 2 : 1) !== count;
  // Where drawing is slow, the pictures of the pages a turn may show next, asked for first: a
  // turn may come before these pages are drawn.
  const nextPictures = () => {
    if (!slowDrawing() || withLayers()) return;
    pictures.prefetch([...numbers, ...numbers.map((number) => number + count), ...numbers.map((number) => number + 2 * count),
      ...numbers.map((number) => number - count)]);
  };
  nextPictures();
  // Drawn ahead: swapped in at once; else stand-ins first — the server's pictures or, without
  // them at hand, on a high-density screen quick drafts (see draftRatio) — and the sharp pages
  // after them (ahead.js, showTurn); the pages shown stay until then.
  const canvases = numbers.map((number) => aheadSheet(number, room));
  turnDrawings.cancel();
  const allReady = canvases.every(Boolean);
  stage.dataset.drawn = allReady ? 'ahead' : 'on the turn';
  // A page being drawn ahead is finished, not begun again; any other drawing ahead yields.
  const finishing = numbers.map((number, index) => (canvases[index] ? null : ahead.finishing(ahead.key(number, room, 1))));
  if (!finishing.some(Boolean)) ahead.yield();
  const sheets = (each) => Promise.all(numbers.map((number, index) => canvases[index] ?? each(number, index)))
    .then((list) => (list.every(Boolean) ? list : null));
  const finished = async (index) => {
    const canvas = (await finishing[index])?.canvas ?? null;
    if (canvas) canvas.className = 'sheet';
    return canvas;
  };
  const quick = draftRatio();
  const shown = await showTurn({
    ready: allReady ? canvases : null, via: turnDrawings, passed,
    finishing: canvases.every((canvas, index) => canvas || finishing[index]) ? sheets((number, index) => finished(index)) : null,
    picture: () => sheets((number) => pictureSheet(number, room)),
    draft: quick ? (via) => sheets((number) => drawnSheet(number, room, quick, via)) : null,
    sharp: () => sheets(async (number, index) => (finishing[index] ? await finished(index) : null) ?? drawnSheet(number, room)),
    show: (pages, kind) => {
      showPages(pages, numbers);
      stage.dataset.sharp = kind === 'sharp' ? String(numbers[0]) : 'drawing';
    },
  });
  if (!shown) return;
  stage.dataset.rendered = String(numbers[0]);
  // The pages a turn shows next (the next piece's first, at a piece's end) and those before.
  const near = [...numbers.map((number) => number + count), ...numbers.map((number) => number - count)];
  nextPictures();
  ahead.prepare(state.document, near, room, 1, (page) => fit(page, framed(page, room, state.frames)), [...numbers, ...near]);
}

// Puts `canvases` (pages `numbers`, drafts or sharp) on the stage, with the page and the piece.
function showPages(canvases, numbers) {
  stage.replaceChildren(...canvases, ...stage.querySelectorAll('.page-notice, .awake-note'));
  performance.mark('folio-page-shown', { detail: numbers[0] });   // read by Benchmarks/pageturn_bench.py
  label.textContent = numbers.length > 1 ? `${numbers[0]}–${numbers[1]} / ${state.pages}` : `${numbers[0]} / ${state.pages}`;
  pieceLabel.textContent = described(pieceAt(numbers[0]));
}

// A piece as the header names it: its title, and its note for the set.
function described(piece) {
  if (!piece) return '';
  return piece.note ? `${piece.title} — ${piece.note}` : piece.title;
}

// A turn or a jump (1, -1, 'first', 'last'), as every view turns (turns.js).
function turn(action) {
  const next = goTo(state, action, state.pages, state);
  if (next.page === state.page && next.halfway === state.halfway) return;
  Object.assign(state, next);
  render();
}

document.addEventListener('keydown', (event) => {
  const action = pageTurn(event);
  if (action !== null) { turn(action); event.preventDefault(); }
  else if (event.key === '2') modes.two();
  else if (event.key === 'h') modes.half();
});
document.getElementById('prev').addEventListener('click', () => turn(-1));
document.getElementById('next').addEventListener('click', () => turn(1));

const modes = viewModes(state, twoButton, halfButton, render);

turnOnTapOrSwipe(stage, turn);
window.addEventListener('resize', () => { if (state.document) { ahead.clear(); render(); } });
setUpStand();
stayAwake(stage);

(async () => {
  try {
    await load();
    keepRecent(`/api/setlists/${encodeURIComponent(stage.dataset.setlist)}/pdf`);
    await loadSound().catch((error) => { document.getElementById('sound-status').textContent = error.message; });
    state.page = placed();
    await render();
    stage.focus();
  } catch (error) {
    pieceLabel.textContent = `Cannot play this setlist: ${error.message}`;
  }
})();
