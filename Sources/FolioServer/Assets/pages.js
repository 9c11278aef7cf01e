// Pages drawn by pdf.js: documents opened, pages fitted into a space, sharp on high-density screens.

const pdfjs = globalThis.pdfjsLib;
if (globalThis.folioPDFWorker) pdfjs.GlobalWorkerOptions.workerPort = globalThis.folioPDFWorker;
else pdfjs.GlobalWorkerOptions.workerSrc = '/pdfjs/pdf.worker.js';

// Opens the PDF at `url`. Only the ranges the pages drawn need are fetched (the server
// answers Range requests), so a large scan shows its first page before the rest arrives;
// fonts a PDF names but does not embed, and CJK character maps, come from pdf.js's own files.
export function openDocument(url) {
  return pdfjs.getDocument({
    url, isEvalSupported: false, disableAutoFetch: true, disableStream: true, rangeChunkSize: 256 * 1024,
    standardFontDataUrl: '/pdfjs/standard_fonts/', cMapUrl: '/pdfjs/cmaps/', cMapPacked: true,
  });
}

// The viewport that fits `page` into `room` ({width, height}; a height of Infinity fits
// the width), at least `least` times its size, then zoomed by `zoom`.
export function fit(page, room, least = 0, zoom = 1) {
  const base = page.getViewport({ scale: 1 });
  const scale = Math.max(least, Math.min(room.width / base.width, room.height / base.height)) * zoom;
  return { scale, viewport: page.getViewport({ scale }), ratio: window.devicePixelRatio || 1 };
}

// Gives `canvas` the fitted size: CSS pixels shown, device pixels drawn.
export function size(canvas, { viewport, ratio }) {
  canvas.width = Math.floor(viewport.width * ratio);
  canvas.height = Math.floor(viewport.height * ratio);
  canvas.style.width = `${Math.floor(viewport.width)}px`;
  canvas.style.height = `${Math.floor(viewport.height)}px`;
}

// The layers (optional content) as the reader set them, for every page drawn after; null
// draws each layer as the file says.
let layers = null;
export function showLayers(config) { layers = config; }

// Starts drawing `page` on `canvas`; returns pdf.js's render task (cancel, promise).
export function draw(page, canvas, { viewport, ratio }) {
  return page.render({ canvasContext: canvas.getContext('2d'), viewport,
    transform: ratio === 1 ? null : [ratio, 0, 0, ratio, 0, 0],
    optionalContentConfigPromise: layers ? Promise.resolve(layers) : undefined });
}

// `page` drawn on a canvas of its own, fitted to `room`.
export async function sheet(page, room) {
  const fitted = fit(page, room);
  const canvas = document.createElement('canvas');
  size(canvas, fitted);
  await draw(page, canvas, fitted).promise;
  return canvas;
}

// Sizes `canvas` in CSS pixels after its device pixels; returns that size.
function shown(canvas, ratio) {
  const css = { width: Math.floor(canvas.width / ratio), height: Math.floor(canvas.height / ratio) };
  canvas.style.width = `${css.width}px`;
  canvas.style.height = `${css.height}px`;
  return css;
}

// Pages side by side on `canvas`, each fitted to an equal share of `room`, 6 CSS pixels
// apart. Returns the canvas's size in CSS pixels.
export async function drawSideBySide(pages, canvas, room) {
  const share = { width: (room.width - (pages.length - 1) * 6) / pages.length, height: room.height };
  const sheets = await Promise.all(pages.map((page) => sheet(page, share)));
  const ratio = window.devicePixelRatio || 1, gap = Math.round(6 * ratio);
  canvas.width = sheets.reduce((sum, part) => sum + part.width, 0) + gap * (sheets.length - 1);
  canvas.height = Math.max(...sheets.map((part) => part.height));
  const context = canvas.getContext('2d');
  let x = 0;
  for (const part of sheets) { context.drawImage(part, x, 0); x += part.width + gap; }
  return shown(canvas, ratio);
}

// forScore's half-page turn: the top of `next` above the rest of `current` (the page being
// finished), split at `split` of the height (the middle unless the file says otherwise),
// each fitted to `room`, on `canvas`, with a rule between. Returns the canvas's size in CSS pixels.
export async function drawHalves(current, next, canvas, room, split = 0.5) {
  const [lower, upper] = await Promise.all([current, next].map((page) => sheet(page, room)));
  const ratio = window.devicePixelRatio || 1;
  const top = Math.floor(upper.height * split), bottom = lower.height - Math.floor(lower.height * split);
  canvas.width = Math.max(lower.width, upper.width);
  canvas.height = top + bottom;
  const context = canvas.getContext('2d');
  context.drawImage(upper, 0, 0, upper.width, top, (canvas.width - upper.width) / 2, 0, upper.width, top);
  context.drawImage(lower, 0, lower.height - bottom, lower.width, bottom, (canvas.width - lower.width) / 2, top, lower.width, bottom);
  context.fillStyle = '#3874d8';
  context.fillRect(0, top - ratio, canvas.width, 2 * ratio);
  return shown(canvas, ratio);
}

// Two pages side by side and half-page turns exclude each other, as in forScore: the two
// buttons that choose them, kept in step with `state` ({two, half, halfway}); each change
// draws again. Returns the toggles, for keys.
export function viewModes(state, twoButton, halfButton, render) {
  const set = (two, half) => {
    Object.assign(state, { two, half, halfway: false });
    twoButton.setAttribute('aria-pressed', String(two));
    halfButton.setAttribute('aria-pressed', String(half));
    render();
  };
  const toggles = { two: () => set(!state.two, false), half: () => set(false, !state.half) };
  twoButton.addEventListener('click', toggles.two);
  halfButton.addEventListener('click', toggles.half);
  return toggles;
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
