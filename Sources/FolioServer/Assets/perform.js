// Performance mode: the setlist's pieces as one run of pages (the server merges them, each
// piece an outline entry), turned by keys, pedals (arrows, PageDown), click zones and
// swipes; one page or two side by side. The current piece's title is shown.
import { pageTurn, tapOrSwipe } from './dom.js';
import { fit, size, draw } from './pages.js';

const pdfjs = globalThis.pdfjsLib;
pdfjs.GlobalWorkerOptions.workerSrc = '/pdfjs/pdf.worker.js';
const stage = document.getElementById('stage');
const label = document.getElementById('pageno');
const pieceLabel = document.getElementById('piece');
const twoButton = document.getElementById('two');
const state = { document: null, page: 1, pages: 0, two: false, pieces: [] };

async function load() {
  const url = `/api/setlists/${encodeURIComponent(stage.dataset.setlist)}/pdf`;
  state.document = await pdfjs.getDocument({ url, isEvalSupported: false }).promise;
  state.pages = state.document.numPages;
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

async function sheet(number, room) {
  const page = await state.document.getPage(number);
  const fitted = fit(page, room);
  const canvas = document.createElement('canvas');
  size(canvas, fitted);
  canvas.className = 'sheet';
  await draw(page, canvas, fitted).promise;
  return canvas;
}

async function render() {
  const count = state.two ? 2 : 1;
  const room = { width: (stage.clientWidth - 20) / count - (count - 1) * 6, height: stage.clientHeight - 20 };
  const numbers = [state.page, state.page + 1].slice(0, count).filter((number) => number <= state.pages);
  const canvases = await Promise.all(numbers.map((number) => sheet(number, room)));
  stage.replaceChildren(...canvases);
  label.textContent = numbers.length > 1 ? `${numbers[0]}–${numbers[1]} / ${state.pages}` : `${state.page} / ${state.pages}`;
  const piece = pieceAt(state.page);
  pieceLabel.textContent = piece ? piece.title : '';
  stage.dataset.rendered = String(state.page);
}

function turn(direction) {
  const step = state.two ? 2 : 1;
  const next = Math.min(Math.max(1, state.page + direction * step), Math.max(1, state.pages - (state.two ? 1 : 0)));
  if (next === state.page) return;
  state.page = next;
  render();
}

document.addEventListener('keydown', (event) => {
  const direction = pageTurn(event);
  if (direction === 1 || direction === -1) { turn(direction); event.preventDefault(); }
  else if (direction === 'first') { state.page = 1; render(); }
  else if (direction === 'last') { state.page = Math.max(1, state.pages - (state.two ? 1 : 0)); render(); }
  else if (event.key === '2') toggleTwo();
});
document.getElementById('prev').addEventListener('click', () => turn(-1));
document.getElementById('next').addEventListener('click', () => turn(1));

function toggleTwo() {
  state.two = !state.two;
  twoButton.setAttribute('aria-pressed', String(state.two));
  render();
}
twoButton.addEventListener('click', toggleTwo);

let start = null;
stage.addEventListener('pointerdown', (event) => { start = { x: event.clientX, time: Date.now() }; });
stage.addEventListener('pointerup', (event) => {
  if (!start) return;
  const started = start;
  start = null;
  turn(tapOrSwipe(started, event, stage));
});
window.addEventListener('resize', () => { if (state.document) render(); });

(async () => {
  try {
    await load();
    await render();
    stage.focus();
  } catch (error) {
    pieceLabel.textContent = `Cannot play this setlist: ${error.message}`;
  }
})();
