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
// the width), at least `least` times its size, then zoomed by `zoom`; drawn at `ratio`
// device pixels per CSS pixel (the screen's, unless a quick draft asks for fewer).
export function fit(page, room, least = 0, zoom = 1, ratio = window.devicePixelRatio || 1) {
  const base = page.getViewport({ scale: 1 });
  const scale = Math.max(least, Math.min(room.width / base.width, room.height / base.height)) * zoom;
  return { scale, viewport: page.getViewport({ scale }), ratio };
}

// The pixel ratio of a quick draft of a page, drawn first when the sharp page is not ready: a
// screen of 2 device pixels per CSS pixel gets one (a quarter of the pixels, so about a
// quarter of the time), and the sharp page replaces it when drawn. Null where a draft would
// save nothing (a screen of one device pixel per CSS pixel).
export function draftRatio() {
  const ratio = window.devicePixelRatio || 1;
  return ratio >= 1.5 ? 1 : null;
}

// The drawings a view has under way, cancelled together when a newer turn makes them moot
// (a page flipped past is never finished). `draw` is pages.js's draw, remembered until done.
export function drawings() {
  const tasks = new Set();
  let waiting = [];   // moot()'s promises, resolved by the next cancel()
  return {
    draw(page, canvas, fitted) {
      const task = draw(page, canvas, fitted);
      tasks.add(task);
      task.promise.then(() => tasks.delete(task), () => tasks.delete(task));
      return task;
    },
    cancel() {
      for (const task of tasks) task.cancel();
      tasks.clear();
      for (const resolve of waiting) resolve();
      waiting = [];
    },
    // Resolves at the next cancel(): a newer turn has made what is under way moot.
    moot() { return new Promise((resolve) => waiting.push(resolve)); },
  };
}

// Drawing held while a turn's page is put on screen: pdf.js draws a page in slices, one per
// animation frame, and on a slow renderer (Safari's engine on a tablet) a slice can hold a
// frame back by a tenth of a second or more. After paintFirst() no drawing begins a slice
// until the next frame has been painted (or 250 ms have passed, for a page out of sight,
// whose frames never come), so the page just shown is on screen in the next frame.
const held = { on: false, slices: [] };
export function paintFirst() {
  if (held.on) return;
  held.on = true;
  let done = false;   // this hold's own: its other timer must not end a later hold
  const release = () => {
    if (done) return;
    done = true;
    held.on = false;
    for (const slice of held.slices.splice(0)) slice();
  };
  requestAnimationFrame(() => setTimeout(release, 0));
  setTimeout(release, 250);
}

// Gives `canvas` the fitted size: CSS pixels shown, device pixels drawn.
export function size(canvas, { viewport, ratio }) {
  canvas.width = Math.floor(viewport.width * ratio);
  canvas.height = Math.floor(viewport.height * ratio);
  canvas.style.width = `${Math.floor(viewport.width)}px`;
  canvas.style.height = `${Math.floor(viewport.height)}px`;
}

// Whether `canvas` has the size `size()` would give it. Setting a canvas's size, even to the
// one it has, reallocates and clears its pixels: at a tablet's pixel ratio that costs a frame.
export function sized(canvas, { viewport, ratio }) {
  return canvas.width === Math.floor(viewport.width * ratio) && canvas.height === Math.floor(viewport.height * ratio)
    && canvas.style.width === `${Math.floor(viewport.width)}px` && canvas.style.height === `${Math.floor(viewport.height)}px`;
}

// The layers (optional content) as the reader set them, for every page drawn after; null
// draws each layer as the file says.
let layers = null;
export function showLayers(config) { layers = config; }
// Whether the pages are drawn with the layers as the reader set them (a file with layers): the
// server's pictures of its pages show the file's own choice, so they stand in for none of them.
export function withLayers() { return layers !== null; }

// How long the last three drawings took (ms), for slowDrawing().
const lately = [];

// Starts drawing `page` on `canvas`; returns pdf.js's render task (cancel, promise).
export function draw(page, canvas, { viewport, ratio }) {
  const started = performance.now();
  const task = page.render({ canvasContext: canvas.getContext('2d'), viewport,
    transform: ratio === 1 ? null : [ratio, 0, 0, ratio, 0, 0],
    optionalContentConfigPromise: layers ? Promise.resolve(layers) : undefined });
  // Each slice waits while a page just shown is painted (paintFirst).
  task.onContinue = (next) => { if (held.on) held.slices.push(next); else next(); };
  task.promise.then(() => {
    lately.push(performance.now() - started);
    if (lately.length > 3) lately.shift();
  }, () => {});
  return task;
}

// Whether this browser draws pages slowly here (the middle of the last three drawings took
// over 400 ms: Safari's engine on a long score, an old tablet), so a turn may come before
// the page after it is drawn ahead: the views then fetch the server's pictures of the next
// pages as stand-ins (pictures.js); a fast browser never asks the server for them.
export function slowDrawing() {
  if (!lately.length) return false;
  return [...lately].sort((a, b) => a - b)[Math.floor(lately.length / 2)] > 400;
}

// One size for a run of pages of differing paper (a setlist of A4, letter and a scan): the
// largest page of each orientation ({portrait, landscape}: {width, height} in points, as
// shown), so every page is drawn at the scale that fits that frame and a staff keeps its size
// from piece to piece.
export async function pageFrames(document) {
  const frames = {};
  const numbers = Array.from({ length: document.numPages }, (_, index) => index + 1);
  for (const page of await Promise.all(numbers.map((number) => document.getPage(number)))) {
    const { width, height } = page.getViewport({ scale: 1 });
    const kind = height >= width ? 'portrait' : 'landscape';
    const frame = frames[kind] ?? { width: 0, height: 0 };
    frames[kind] = { width: Math.max(frame.width, width), height: Math.max(frame.height, height) };
  }
  return frames;
}

// The room a page is fitted into so that it is drawn at its frame's scale (see pageFrames);
// `room` itself without frames.
export function framed(page, room, frames) {
  if (!frames) return room;
  const { width, height } = page.getViewport({ scale: 1 });
  const frame = frames[height >= width ? 'portrait' : 'landscape'];
  if (!frame) return room;
  const scale = Math.min(room.width / frame.width, room.height / frame.height);
  return { width: width * scale, height: height * scale };
}

// `page` drawn on a canvas of its own, fitted to `room`: at the screen's pixel ratio, or at
// `ratio` (a draft), through `via` (a view's drawings(), so a newer turn can cancel it).
export async function sheet(page, room, { ratio, via } = {}) {
  const fitted = ratio ? fit(page, room, 0, 1, ratio) : fit(page, room);
  const canvas = document.createElement('canvas');
  size(canvas, fitted);
  await (via ?? { draw }).draw(page, canvas, fitted).promise;
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
// apart (`via`: as for sheet()). Returns the canvas's size in CSS pixels.
export async function drawSideBySide(pages, canvas, room, via = undefined) {
  const share = { width: (room.width - (pages.length - 1) * 6) / pages.length, height: room.height };
  const sheets = await Promise.all(pages.map((page) => sheet(page, share, { via })));
  const ratio = window.devicePixelRatio || 1, gap = Math.round(6 * ratio);
  canvas.width = sheets.reduce((sum, part) => sum + part.width, 0) + gap * (sheets.length - 1);
  canvas.height = Math.max(...sheets.map((part) => part.height));
  const context = canvas.getContext('2d');
  let x = 0;
  for (const part of sheets) { context.drawImage(part, x, 0); x += part.width + gap; }
  return shown(canvas, ratio);
}

// forScore's half-page turn: the top of `next` above the rest of `current` (the page being
// finished), each fitted to `room`, on `canvas`, with a rule between. Where the file says
// (`split`, forScore keeps one per page) both pages are cut there; else each is cut at a gap
// between its systems near the middle (`systemGaps`), so no staff is cut, and the two parts
// are shown at a size that fits the room. `via`: as for sheet(). Returns the canvas's size in CSS pixels.
export async function drawHalves(current, next, canvas, room, split = null, via = undefined) {
  const [lower, upper] = await Promise.all([current, next].map((page) => sheet(page, room, { via })));
  const ratio = window.devicePixelRatio || 1;
  const cut = split === null ? systemGaps(upper, lower) : { upper: split, lower: split };
  const top = Math.floor(upper.height * cut.upper), bottom = lower.height - Math.floor(lower.height * cut.lower);
  canvas.width = Math.max(lower.width, upper.width);
  canvas.height = top + bottom;
  const context = canvas.getContext('2d');
  context.drawImage(upper, 0, 0, upper.width, top, (canvas.width - upper.width) / 2, 0, upper.width, top);
  context.drawImage(lower, 0, lower.height - bottom, lower.width, bottom, (canvas.width - lower.width) / 2, top, lower.width, bottom);
  context.fillStyle = '#3874d8';
  context.fillRect(0, top - ratio, canvas.width, 2 * ratio);
  canvas.dataset.split = `${cut.upper.toFixed(4)} ${cut.lower.toFixed(4)}`;
  canvas.dataset.rule = String(top);
  canvas.dataset.heights = `${upper.height} ${lower.height}`;
  const css = shown(canvas, ratio);
  // Cut at different heights, the parts may be taller than one page: shown a little smaller.
  const shrink = Math.min(1, room.height / css.height);
  if (shrink < 1) {
    css.width = Math.floor(css.width * shrink);
    css.height = Math.floor(css.height * shrink);
    canvas.style.width = `${css.width}px`;
    canvas.style.height = `${css.height}px`;
  }
  return css;
}

// The split (a fraction of each page's height) that puts a half turn's rule at `fraction` of
// the composed canvas, whose coming page was drawn `upperHeight` high and the page being
// finished `lowerHeight` (both cut at the same fraction, as drawHalves does with a split).
export function splitAt(fraction, upperHeight, lowerHeight) {
  const below = upperHeight * (1 - fraction) + fraction * lowerHeight;
  return below > 0 ? (fraction * lowerHeight) / below : fraction;
}

// Which rows of a drawn sheet hold no ink (1) and which do (0). Light greys (a scan's
// paper, a faint frame) count as blank; every pixel of a row is looked at until one is ink.
function blankRows(sheet) {
  const { width, height } = sheet;
  const rows = new Uint8Array(height);
  if (width === 0 || height === 0) return rows;
  const data = sheet.getContext('2d', { willReadFrequently: true }).getImageData(0, 0, width, height).data;
  for (let y = 0; y < height; y++) {
    let blank = 1;
    for (let i = y * width * 4, end = i + width * 4; i < end; i += 4) {
      if (data[i + 3] > 64 && data[i] + data[i + 1] + data[i + 2] < 600) { blank = 0; break; }
    }
    rows[y] = blank;
  }
  return rows;
}

// The runs of blank rows between a quarter and three quarters down a sheet, as fractions of
// its height ({middle, width}); runs thinner than 1.2 % of the page (the spaces between a
// staff's lines) do not count.
function gaps(sheet) {
  const height = sheet.height, blank = blankRows(sheet), found = [];
  const least = Math.max(3, Math.round(height * 0.012));
  const from = Math.floor(height * 0.25), to = Math.ceil(height * 0.75);
  let start = -1;
  for (let y = from; y <= to; y++) {
    const open = y < to && blank[y] === 1;
    if (open && start < 0) start = y;
    if (!open && start >= 0) {
      if (y - start >= least) found.push({ middle: (start + y) / 2 / height, width: (y - start) / height });
      start = -1;
    }
  }
  return found;
}

// Where a half turn cuts the coming page (`upper`) and the page being finished (`lower`), as
// fractions of their heights: a gap the two share (the widest, nearer the middle on a tie),
// else the coming page's widest gap near the middle and the finished page's gap nearest to it.
// A page without a gap is cut at the other's place, or at the middle.
export function systemGaps(upper, lower) {
  const score = (gap) => gap.width - 0.15 * Math.abs(gap.middle - 0.5);
  const best = (list) => list.reduce((found, gap) => (!found || score(gap) > score(found) ? gap : found), null);
  const above = gaps(upper), below = gaps(lower);
  // Gaps at the same height on both pages: one cut through both, in the middle of the overlap.
  const shared = above.flatMap((a) => below.map((b) => {
    const start = Math.max(a.middle - a.width / 2, b.middle - b.width / 2);
    const end = Math.min(a.middle + a.width / 2, b.middle + b.width / 2);
    return { middle: (start + end) / 2, width: end - start };
  })).filter((gap) => gap.width >= 0.008);
  const common = best(shared);
  if (common) return { upper: common.middle, lower: common.middle };
  const first = best(above);
  const nearest = (list, to) => list.reduce((found, gap) => (!found || Math.abs(gap.middle - to) < Math.abs(found.middle - to) ? gap : found), null);
  const upperCut = first?.middle ?? best(below)?.middle ?? 0.5;
  return { upper: upperCut, lower: nearest(below, upperCut)?.middle ?? upperCut };
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
