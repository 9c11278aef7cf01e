// Pages drawn ahead, so a turn shows its page in the frame after the key: once a page is
// shown, the next and the previous are drawn off screen at the same fit, and a turn swaps the
// drawn canvas in instead of drawing. Only the pages shown and their neighbours are kept (three
// in the score view, six in Perform's two pages; each a canvas at the device's pixel ratio); a
// new file, another size, zoom or a layer shown or hidden forgets them. Perform's document is
// the whole setlist, so its next piece's first page is drawn ahead like any other. `localStorage['folio.drawAhead'] = 'off'` turns it off
// (Benchmarks/pageturn_bench.py measures both).
import { size, draw } from './pages.js';

export function drawAhead() {
  const kept = new Map();   // key → { canvas, fitted, number }
  let task = null;
  let drawing = null;   // { key, promise } of the page being drawn ahead
  let generation = 0;
  const off = (() => { try { return localStorage.getItem('folio.drawAhead') === 'off'; } catch { return false; } })();

  return {
    // The key of page `number` drawn for `room` at `zoom`.
    key: (number, room, zoom) => `${number}|${Math.round(room.width)}x${Math.round(room.height)}|${zoom}`,
    // The page drawn ahead under `key` — waited for when it is being drawn — or null.
    async ready(key) {
      if (!kept.has(key) && drawing?.key === key) {
        try { await drawing.promise; } catch { /* cancelled: drawn by the caller */ }
      }
      return kept.get(key) ?? null;
    },
    // Keeps `canvas` (the page just shown) under `key`.
    keep(key, number, canvas, fitted) {
      if (!off) kept.set(key, { canvas, fitted, number });
    },
    // Stops drawing ahead: the page the musician asked for comes first.
    yield() {
      task?.cancel();
      task = null;
    },
    // Draws pages `numbers` of `pdf` ahead for `room` (each page fitted by `fitting(page)`, as
    // the view fits it), forgetting pages not in `near` (the page numbers worth keeping).
    async prepare(pdf, numbers, room, zoom, fitting, near) {
      if (off) return;
      const mine = ++generation;
      for (const [key, entry] of kept) if (!near.includes(entry.number)) kept.delete(key);
      for (const number of numbers) {
        if (number < 1 || number > pdf.numPages || mine !== generation) continue;
        const key = this.key(number, room, zoom);
        if (kept.has(key)) continue;
        try {
          const page = await pdf.getPage(number);
          const fitted = fitting(page);
          const canvas = document.createElement('canvas');
          size(canvas, fitted);
          task = draw(page, canvas, fitted);
          drawing = { key, promise: task.promise };
          await task.promise;
          task = null;
          drawing = null;
          if (mine === generation) kept.set(key, { canvas, fitted, number });
        } catch {
          task = null;
          drawing = null;
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
