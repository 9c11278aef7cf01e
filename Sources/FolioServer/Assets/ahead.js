// Pages drawn ahead, so a turn shows its page in the frame after the key: once a page is
// shown, the next and the previous are drawn off screen at the same fit, and a turn swaps the
// drawn canvas in instead of drawing. Only the pages shown and their neighbours are kept (three
// in the score view, six in Perform's two pages; each a canvas at the device's pixel ratio); a
// new file, another size, zoom or a layer shown or hidden forgets them. Perform's document is
// the whole setlist, so its next piece's first page is drawn ahead like any other. One page is
// drawn ahead at a time, the likeliest first; a turn never waits for one: a page still being
// drawn ahead is finished while a stand-in shows (showTurn, below). `localStorage['folio.drawAhead']
// = 'off'` turns it off (Benchmarks/pageturn_bench.py).
import { size, draw, drawings, paintFirst } from './pages.js';

// How a turn puts its pages on screen, one rule for the score view and Perform: the pages
// drawn ahead at once; else a stand-in first — the server's pictures, or where they are not
// at hand a quick draft, whichever is ready first — and the sharp pages when drawn (finished
// if they were being drawn ahead, else drawn now). Where nothing quicker can be had (no
// draft on this screen) the sharp pages are begun at once and shown if they come before the
// pictures. After each showing, drawing waits for the frame that paints it (paintFirst).
//   ready: the pages drawn ahead, or null. finishing: a promise of them (null if cancelled),
//     being drawn ahead, or null. picture(): a promise of the pictures, or of null.
//   draft(via): a promise of quick drafts drawn through `via` (a drawings()), or null where
//     a draft saves nothing. sharp(): a promise of the pages drawn sharp.
//   show(pages, kind): puts them on screen ('picture', 'draft' or 'sharp').
//   via: the view's drawings(), cancelled by a newer turn; passed(): whether a newer turn
//     has made this one moot.
// Resolves true once the sharp pages are shown, false when a newer turn took over.
export async function showTurn({ ready, finishing, picture, draft, sharp, show, via, passed }) {
  const shown = (pages, kind) => { show(pages, kind); paintFirst(); };
  if (ready) {
    shown(ready, 'sharp');
    return true;
  }
  let moot = false;
  const superseded = via.moot().then(() => { moot = true; });
  const drafts = drawings();
  let coming = finishing;
  const candidates = [picture().then((pages) => pages && { pages, kind: 'picture' })];
  const quick = finishing || !draft ? null : draft(drafts);
  if (quick) candidates.push(quick.then((pages) => pages && { pages, kind: 'draft' }));
  else coming ??= sharp();
  if (coming) candidates.push(coming.then((pages) => pages && { pages, kind: 'sharp' }));
  const first = await firstOf(candidates, superseded);
  if (first?.kind !== 'draft') drafts.cancel();
  if (moot || passed()) return false;
  if (first) shown(first.pages, first.kind);
  if (first?.kind === 'sharp') return true;
  let pages = await coming;
  if (moot || passed()) return false;   // (a drawing begun now would hold the newer turn up)
  pages ??= await sharp();
  if (moot || passed()) return false;
  shown(pages, 'sharp');
  return true;
}

// The first of `candidates` (promises) to give something (null and a rejection give
// nothing), or null once none has or when `until` settles.
function firstOf(candidates, until) {
  return new Promise((resolve) => {
    let left = candidates.length;
    const nothing = () => { left -= 1; if (left === 0) resolve(null); };
    for (const candidate of candidates) candidate.then((value) => (value ? resolve(value) : nothing()), nothing);
    until.then(() => resolve(null));
  });
}

export function drawAhead() {
  const kept = new Map();   // key → { canvas, fitted, number }
  let drawing = null;   // { key, number, task, promise } of the page being drawn ahead
  let wanted = [];      // the page numbers worth keeping, as the view last said
  let generation = 0;
  const off = (() => { try { return localStorage.getItem('folio.drawAhead') === 'off'; } catch { return false; } })();

  // Draws page `number` under `key`; kept when done if it is still worth keeping. One at a
  // time: each drawing is the only one recorded, and only its own end clears the record.
  function start(page, key, number, fitted) {
    const canvas = document.createElement('canvas');
    size(canvas, fitted);
    const task = draw(page, canvas, fitted);
    const mine = { key, number, task };
    mine.promise = task.promise.then(() => {
      if (wanted.includes(number)) kept.set(key, { canvas, fitted, number });
    }).finally(() => { if (drawing === mine) drawing = null; });
    drawing = mine;
    return mine.promise;
  }

  return {
    // The key of page `number` drawn for `room` at `zoom`.
    key: (number, room, zoom) => `${number}|${Math.round(room.width)}x${Math.round(room.height)}|${zoom}`,
    // The page drawn ahead under `key`, or null (not waited for: see finishing()).
    ready(key) {
      return kept.get(key) ?? null;
    },
    // The page being drawn ahead under `key`, as a promise of it (null once cancelled), or null
    // when it is not being drawn: a turn shows a stand-in meanwhile rather than wait for it.
    finishing(key) {
      if (kept.has(key) || drawing?.key !== key) return null;
      return drawing.promise.then(() => kept.get(key) ?? null, () => null);
    },
    // Keeps `canvas` (the page just shown) under `key`.
    keep(key, number, canvas, fitted) {
      if (!off) kept.set(key, { canvas, fitted, number });
    },
    // Stops drawing ahead: the page the musician asked for comes first.
    yield() {
      drawing?.task.cancel();
      drawing = null;
    },
    // Draws pages `numbers` of `pdf` ahead for `room` (each page fitted by `fitting(page)`, as
    // the view fits it), the likeliest first, forgetting pages not in `near` (the page numbers
    // worth keeping). A page being drawn for an older place that is no longer wanted is
    // cancelled: the new place's pages come first.
    async prepare(pdf, numbers, room, zoom, fitting, near) {
      if (off) return;
      const mine = ++generation;
      wanted = near;
      for (const [key, entry] of kept) if (!near.includes(entry.number)) kept.delete(key);
      const keys = numbers.map((number) => this.key(number, room, zoom));
      if (drawing && !keys.includes(drawing.key)) this.yield();
      for (const [index, number] of numbers.entries()) {
        if (mine !== generation) return;
        if (number < 1 || number > pdf.numPages) continue;
        const key = keys[index];
        try {
          if (drawing?.key === key) { await drawing.promise; continue; }
          if (kept.has(key)) continue;
          if (drawing) await drawing.promise.catch(() => {});
          if (mine !== generation || kept.has(key)) continue;
          const page = await pdf.getPage(number);
          if (mine !== generation) return;
          await start(page, key, number, fitting(page));
        } catch {
          return;   // cancelled by a turn, or not to be had now: drawn when turned to
        }
      }
    },
    clear() {
      generation += 1;
      this.yield();
      kept.clear();
    },
  };
}
