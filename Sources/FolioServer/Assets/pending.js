// Marks and bookmarks made while the server is out of reach are not lost: the change is kept on the device
// (IndexedDB), with the file's version it was made against, shown at once (drawn on the page,
// listed as "not yet saved", counted: "2 changes not yet saved"), and sent through the same
// API — the one edit path — as soon as the server answers, in the order made, each against the
// file as it is then: a new mark is added to the newer file; a mark moved, restyled, edited or
// deleted is changed only if it is still there. One that is not (someone deleted it meanwhile)
// is kept and listed, for the musician to resolve (Discard); nothing is dropped silently, and
// nothing overwrites another's change. One tab at a time sends (Web Locks), each change once: a
// new mark carries a name of its own (/NM), so one whose answer was lost on the way is found in
// the file, not added again; a bookmark already there with the same name and pages is not added
// twice. Setlist order made offline waits the same way (setlistMoves).
// On a device members share, each change waits as the member's who made it (who.js keeps who
// is logged in here): only theirs is shown and sent while they are logged in, so a change is
// never saved in another's name; the others' wait for them to log in here again.
import { getJSON, change } from './api.js';
import { whenReachable } from './reconnect.js';

// The member logged in on this device (who.js keeps it), null for a musician alone.
export const memberHere = () => { try { return localStorage.getItem('folio-member'); } catch { return null; } };
const ours = (record) => (record.member ?? null) === memberHere();

// How many changes wait on this device in `member`'s name (not those refused).
export async function waitingFor(member) {
  try { return (await all()).filter((record) => (record.member ?? null) === member && !record.conflict).length; } catch { return 0; }
}

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

// Sends one waiting change: the API's answer when it was made; null when it was not — a 409
// (changed while sending) leaves it for the next round, another refusal keeps it as a conflict
// to show. Out of reach, it throws: the rest waits.
async function attempt(record, method, url, version, body) {
  try {
    return await change(method, url, version, body);
  } catch (error) {
    if (error.status === 409) return null;
    if (unreachable(error)) throw error;
    await put({ ...record, conflict: error.message });
    return null;
  }
}

// Runs `work` in one tab at a time (Web Locks, where offered).
const exclusive = (name, work) => (navigator.locks ? navigator.locks.request(name, work) : work());

// A name for a new mark (its /NM): a UUID, also where crypto.randomUUID is not offered (plain HTTP).
function markName() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

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
    let others = 0;
    try {
      const here = (await all()).filter((record) => record.score === scoreID);
      records = here.filter(ours);
      others = here.length - records.length;
    } catch { records = []; }
    const waiting = records.filter((record) => !record.conflict).length;
    const conflicts = records.length - waiting;
    view.stage.dataset.pending = String(waiting);
    const parts = [];
    if (waiting) parts.push(`${waiting} ${waiting === 1 ? 'change' : 'changes'} not yet saved`);
    if (conflicts) parts.push(`${conflicts} could not be saved: see the marks list`);
    if (others) parts.push(`${others} ${others === 1 ? 'change' : 'changes'} by another member ${others === 1 ? 'waits' : 'wait'} for them to log in here`);
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
        for (const record of (await all()).filter((each) => each.score === scoreID && !each.conflict && ours(each))) {
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
          // Already in the file: sent before, its answer lost on the way.
          const arrived = record.kind === 'add' && (bookmark
            ? data.bookmarks.some((each) => each.name === record.body.name && each.start === record.body.start
              && each.end === (record.body.end ?? record.body.start))
            : data.annotations.some((each) => each.id === record.body.name));
          if (arrived) { await remove(record.key); sent += 1; continue; }
          if (record.kind !== 'add' && !present) {
            if (record.kind === 'delete') { await remove(record.key); continue; }   // gone already: what was wanted
            await put({ ...record, conflict: `someone deleted the ${bookmark ? 'bookmark' : 'mark'} meanwhile` });
            continue;
          }
          const result = await attempt(record, record.method, record.url, version, record.body);
          if (!result) continue;
          if (result.version) state.version = result.version;
          await remove(record.key);
          sent += 1;
        }
      };
      await exclusive(`folio-pending-${scoreID}`, work);
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
      if (request.kind === 'add' && request.what !== 'bookmark') request = { ...request, body: { name: markName(), ...request.body } };
      try {
        return await change(request.method, request.url, state.version, request.body);
      } catch (error) {
        if (!unreachable(error)) throw error;
        await put({ ...request, score: scoreID, version: state.version, made: Date.now(), member: memberHere() });
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

// Setlist order changed while the server is out of reach: each move waits on the device with the
// piece it moved (its score, or its title) and the piece it was put before or after, shown at
// once, and is sent when the server answers, against the setlist as it is then — the piece is
// found where it now is and put next to that neighbour again (at the place asked for when the
// neighbour is gone). A piece someone removed meanwhile is not
// moved: the move is listed, for the musician to discard. `note` is where that is said; `saved()`
// after moves were sent.
export function setlistMoves(name, note, saved) {
  const api = `/api/setlists/${encodeURIComponent(name)}`;
  let sending = false;
  let waiting = null;
  const later = () => { waiting ??= whenReachable().then(() => { waiting = null; send(); }); };
  const mine = async () => { try { return (await all()).filter((record) => record.setlist === name && ours(record)); } catch { return []; } };
  // The same piece: a score by its id (a bookmark of it by its first page too), else by its title.
  const same = (entry, piece) => entry.kind === piece.kind && (piece.score
    ? entry.score === piece.score && (entry.start ?? null) === (piece.start ?? null) : entry.title === piece.title);
  // Where a piece is: at `at` (0-based) when it is still there, else the first entry like it; -1 when gone.
  const locate = (entries, piece, at) => (entries[at] && same(entries[at], piece) ? at : entries.findIndex((entry) => same(entry, piece)));
  // The move to make on `entries`, 1-based {from, to}: the piece put next to the piece it was
  // moved before or after (its anchor) — so a piece others added meanwhile keeps its place — or,
  // with the anchor gone, at the place asked for (last, if the setlist got shorter). Null when
  // the piece itself is gone.
  const place = (entries, record) => {
    const from = locate(entries, record.piece, record.from - 1);
    if (from < 0) return null;
    let anchor = record.anchor ? locate(entries, record.anchor.piece, record.to - 1) : -1;
    if (anchor === from) anchor = -1;
    if (anchor < 0) return { from: from + 1, to: Math.min(Math.max(record.to, 1), entries.length) };
    const left = anchor > from ? anchor - 1 : anchor;   // the anchor's index once the piece is taken out
    return { from: from + 1, to: (record.anchor.side === 'before' ? left : left + 1) + 1 };
  };

  async function say() {
    const records = await mine();
    const open = records.filter((record) => !record.conflict);
    const text = document.createElement('span');
    text.textContent = open.length ? `${open.length} ${open.length === 1 ? 'change' : 'changes'} not yet saved` : '';
    note.replaceChildren(text, ...records.filter((record) => record.conflict).map((record) => {
      const item = document.createElement('span');
      item.className = 'conflict';
      item.textContent = `${record.description} — not saved: ${record.conflict} `;
      const discard = document.createElement('button');
      discard.textContent = 'Discard';
      discard.setAttribute('aria-label', `Discard ${record.description}`);
      discard.addEventListener('click', async () => { await remove(record.key); await say(); });
      item.append(discard);
      return item;
    }));
    note.hidden = records.length === 0;
    return open.length;
  }

  async function send() {
    if (sending) return;
    sending = true;
    let sent = 0, failed = false;
    try {
      const work = async () => {
        for (const record of (await mine()).filter((each) => !each.conflict)) {
          const { data, version } = await getJSON(api);
          const move = place(data.entries, record);
          if (!move) { await put({ ...record, conflict: 'someone removed it from the setlist meanwhile' }); continue; }
          if (move.from !== move.to && !(await attempt(record, 'POST', `${api}/move`, version, move))) continue;
          await remove(record.key);
          sent += 1;
        }
      };
      await exclusive(`folio-pending-setlist-${name}`, work);
    } catch {
      failed = true;
    } finally {
      sending = false;
    }
    const open = await say();
    if (sent) await saved(open === 0 ? `All changes saved (${sent} made while offline)` : null);
    if (failed) later();
    else if (open) setTimeout(send, 1000);
  }

  return {
    // `entries` as the musician sees them: with the moves still waiting made.
    async applied(entries) {
      const list = [...entries];
      for (const record of await mine()) {
        const move = record.conflict ? null : place(list, record);
        if (!move) continue;
        const [entry] = list.splice(move.from - 1, 1);
        list.splice(move.to - 1, 0, entry);
      }
      return list;
    },
    // Whether moves are waiting (then a new one waits behind them, positions being the shown ones).
    async waiting() { return (await mine()).some((record) => !record.conflict); },
    // Keeps a move ({from, to, piece: {kind, score, start, title}, anchor: {piece, side: 'before' | 'after'},
    // description}) on the device.
    async keep(move) {
      await put({ ...move, setlist: name, made: Date.now(), member: memberHere() });
      await say();
      later();
    },
    async start() { if (await say()) send(); },
  };
}
