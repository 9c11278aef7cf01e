// Marks and bookmarks made while the server is out of reach are not lost: the change is kept on the device
// (IndexedDB), with the file's version it was made against, shown at once (drawn on the page,
// listed as "not yet saved", counted: "2 changes not yet saved"), and sent through the same
// API — the one edit path — as soon as the server answers, in the order made, each against the
// file as it is then: a new mark is added to the newer file; a mark moved, restyled, edited or
// deleted is changed only if it is still there. One that is not (someone deleted it meanwhile)
// is kept and listed, for the musician to resolve (Discard); nothing is dropped silently, and
// nothing overwrites another's change. One tab at a time sends (Web Locks), each change once.
import { getJSON, change } from './api.js';
import { whenReachable } from './reconnect.js';

const DATABASE = 'folio-pending';
const STORE = 'changes';

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key', autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function store(mode, work) {
  const database = await open();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = database.transaction(STORE, mode);
      const result = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(result.result);
      transaction.onerror = () => reject(transaction.error);
    });
  } finally {
    database.close();
  }
}

const all = () => store('readonly', (changes) => changes.getAll());
const put = (record) => store('readwrite', (changes) => changes.put(record));
const remove = (key) => store('readwrite', (changes) => changes.delete(key));

// Whether an error is the network's (the server out of reach), not the server's answer.
export function unreachable(error) {
  return error instanceof TypeError || error?.status === undefined || error?.status === 503;
}

// `view`: scoreID, state ({page, version, scale}), stage, overlay, say; `saved()` after the
// queue was sent (reload the file and its marks).
export function pendingChanges(view, saved) {
  const { scoreID, state } = view;
  let records = [];
  let sending = false;
  let waiting = null;
  // Sends once the server answers (one wait at a time).
  const later = () => {
    waiting ??= whenReachable().then(() => { waiting = null; send(); });
  };
  const layer = document.createElement('canvas');
  layer.id = 'pending-marks';
  layer.className = 'pending-marks';
  view.overlay.before(layer);
  const banner = document.createElement('p');
  banner.className = 'pending-note';
  banner.setAttribute('role', 'status');
  banner.hidden = true;
  view.stage.append(banner);

  async function refresh() {
    try { records = (await all()).filter((record) => record.score === scoreID); } catch { records = []; }
    const waiting = records.filter((record) => !record.conflict).length;
    const conflicts = records.length - waiting;
    view.stage.dataset.pending = String(waiting);
    const parts = [];
    if (waiting) parts.push(`${waiting} ${waiting === 1 ? 'change' : 'changes'} not yet saved`);
    if (conflicts) parts.push(`${conflicts} could not be saved: see the marks list`);
    banner.textContent = parts.join(' · ');
    banner.hidden = parts.length === 0;
    draw();
    view.relist?.();
  }

  // The marks waiting on this page, drawn over the page (dashed: not yet in the file).
  function draw() {
    layer.width = view.overlay.width;
    layer.height = view.overlay.height;
    layer.style.width = view.overlay.style.width;
    layer.style.height = view.overlay.style.height;
    layer.style.left = view.overlay.style.left;
    layer.style.top = view.overlay.style.top;
    const context = layer.getContext('2d');
    context.clearRect(0, 0, layer.width, layer.height);
    if (view.composed?.()) return;   // a half turn or two pages: marks are drawn on one whole page
    const ratio = window.devicePixelRatio || 1;
    context.save();
    context.scale(state.scale * ratio, state.scale * ratio);
    for (const record of records) {
      if (record.kind !== 'add' || record.page !== state.page || record.conflict) continue;
      const body = record.body;
      context.strokeStyle = context.fillStyle = body.color ?? '#c62828';
      context.lineWidth = 1.5;
      context.setLineDash([4, 3]);
      const [x, y, w, h] = body.rect ?? [0, 0, 0, 0];
      if (body.type === 'freetext') {
        context.font = `${body.fontSize ?? 14}px sans-serif`;
        context.textBaseline = 'top';
        context.fillText(body.text ?? '', x + 2, y + 2);
      } else if (body.type === 'ink') {
        for (const stroke of body.strokes ?? []) {
          context.beginPath();
          for (let index = 0; index + 1 < stroke.length; index += 2) {
            if (index === 0) context.moveTo(stroke[0], stroke[1]); else context.lineTo(stroke[index], stroke[index + 1]);
          }
          context.stroke();
        }
      } else if (body.type === 'stamp' && body.symbol) {
        context.font = `${Math.max(10, h * 0.8)}px serif`;
        context.textBaseline = 'top';
        context.fillText(body.symbol, x, y);
      } else if (w && h) {
        context.strokeRect(x, y, w, h);
      }
    }
    context.restore();
  }

  // The list's entries for this page's waiting and refused changes.
  function listed() {
    return records.filter((record) => record.page === state.page || record.conflict).map((record) => {
      const item = document.createElement('li');
      item.className = record.conflict ? 'pending conflict' : 'pending';
      const label = document.createElement('span');
      label.textContent = record.conflict ? `${record.description} — not saved: ${record.conflict}` : `${record.description} — not yet saved`;
      label.title = label.textContent;
      item.append(label);
      if (record.conflict) {
        const discard = document.createElement('button');
        discard.textContent = 'Discard';
        discard.setAttribute('aria-label', `Discard ${record.description}`);
        discard.addEventListener('click', async () => { await remove(record.key); await refresh(); view.relist(); });
        item.append(discard);
      }
      return item;
    });
  }

  // Sends every waiting change of this score, in order; stops at the first the network refuses.
  async function send() {
    if (sending) return;
    sending = true;
    let sent = 0, failed = false;
    try {
      const work = async () => {
        for (const record of (await all()).filter((each) => each.score === scoreID && !each.conflict)) {
          // The file as it is now: its version, and whether the mark or bookmark changed is still there.
          const bookmark = record.what === 'bookmark';
          let data, version;
          try {
            ({ data, version } = await getJSON(bookmark ? `/api/scores/${scoreID}/contents`
              : `/api/scores/${scoreID}/annotations?page=${record.page}`));
          } catch (error) {
            if (unreachable(error)) throw error;
            await put({ ...record, conflict: error.message });   // the score itself is gone or unreadable
            continue;
          }
          const present = (bookmark ? data.bookmarks : data.annotations).some((each) => each.id === record.target);
          if (record.kind !== 'add' && !present) {
            if (record.kind === 'delete') { await remove(record.key); continue; }   // gone already: what was wanted
            await put({ ...record, conflict: `someone deleted the ${bookmark ? 'bookmark' : 'mark'} meanwhile` });
            continue;
          }
          try {
            const result = await change(record.method, record.url, version, record.body);
            if (result.version) state.version = result.version;
          } catch (error) {
            if (error.status === 409) continue;   // changed while sending: the next round sends it
            if (unreachable(error)) throw error;
            await put({ ...record, conflict: error.message });
            continue;
          }
          await remove(record.key);
          sent += 1;
        }
      };
      if (navigator.locks) await navigator.locks.request(`folio-pending-${scoreID}`, work); else await work();
    } catch {
      failed = true;   // out of reach again: what is left waits
    } finally {
      sending = false;
      await refresh();
    }
    if (sent) {
      await saved();
      if (!records.some((record) => !record.conflict)) view.say(`All changes saved (${sent} made while offline)`);
    }
    if (failed) later();
    else if (records.some((record) => !record.conflict)) setTimeout(send, 1000);
  }

  return {
    // Sends `request` ({method, url, body, kind, target, page, description, what: 'bookmark'
    // for a bookmark}); kept on the device
    // when the server cannot be reached. Resolves to the API's answer, or null when kept.
    async save(request) {
      try {
        return await change(request.method, request.url, state.version, request.body);
      } catch (error) {
        if (!unreachable(error)) throw error;
        await put({ ...request, score: scoreID, version: state.version, made: Date.now() });
        await refresh();
        later();
        return null;
      }
    },
    draw,
    listed,
    async start() {
      await refresh();
      if (records.some((record) => !record.conflict)) send();
    },
  };
}
