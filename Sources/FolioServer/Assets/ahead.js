// Pages drawn ahead, so a turn shows its page in the frame after the key: once a page is
// shown, the next and the previous are drawn off screen at the same fit, and a turn swaps the
// drawn canvas in instead of drawing. Only the pages shown and their neighbours are kept (three
// in the score view, six in Perform's two pages; each a canvas at the device's pixel ratio); a
// new file, another size, zoom or a layer shown or hidden forgets them. Perform's document is
// the whole setlist, so its next piece's first page is drawn ahead like any other. One page is
// drawn ahead at a time, the likeliest first; a turn never waits for one: a page still being
// drawn ahead is finished while a stand-in shows (see score.js). `localStorage['folio.drawAhead']
// = 'off'` turns it off (Benchmarks/pageturn_bench.py).
import { size, draw } from './pages.js';

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
