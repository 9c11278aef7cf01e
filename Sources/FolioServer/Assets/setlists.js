// Setlists: create one (list page); on a setlist's page, its pieces in order — drag to
// reorder (or the ↑ ↓ buttons, for keyboard and touch), a note on each ("attacca", saved
// when the field is left or Enter pressed), remove, add scores found by search and
// placeholders. Every change sends the version it was based on; 409 reloads. A move made while
// the server is out of reach waits on the device and is shown at once (pending.js, setlistMoves).
import { getJSON, change } from './api.js';
import { emptyItem, button, latest } from './dom.js';
import { keepToggle } from './offline.js';
import { setlistMoves, unreachable } from './pending.js';

const status = document.getElementById('status');
const say = (text) => { status.textContent = text; };
const segment = (name) => encodeURIComponent(name);

const create = document.getElementById('create');
if (create) {
  create.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = create.elements.name.value.trim();
    try {
      await change('POST', '/api/setlists', null, { name });
      location.href = `/setlists/${segment(name)}`;
    } catch (error) { say(`Not created: ${error.message}`); }
  });
}

const builder = document.querySelector('main.builder');
if (builder) {
  const name = builder.dataset.setlist;
  keepToggle(document.getElementById('keep-offline'), document.getElementById('offline-status'), { kind: 'setlist', name });
  const api = `/api/setlists/${segment(name)}`;
  const list = document.getElementById('entries');
  let version = null;
  let dragged = null;
  // The setlist as the server last gave it, and as shown (moves waiting on the device made).
  let fromServer = null;
  let shown = [];
  const waitingNote = document.createElement('p');
  waitingNote.className = 'pending-note';
  waitingNote.setAttribute('role', 'status');
  waitingNote.hidden = true;
  list.after(waitingNote);
  const moves = setlistMoves(name, waitingNote, async (message) => { await load(); if (message) say(message); });

  const describe = (entry) => {
    if (entry.kind === 'placeholder') return 'placeholder';
    if (entry.kind === 'bookmark') return entry.start ? `bookmark, pp. ${entry.start}–${entry.end}` : 'bookmark';
    return entry.score ? 'score' : 'missing';
  };

  async function show(setlist) {
    fromServer = setlist;
    setlist = { ...setlist, entries: await moves.applied(setlist.entries) };
    shown = setlist.entries;
    list.replaceChildren(...setlist.entries.map((entry, index) => {
      const item = document.createElement('li');
      item.draggable = true;
      item.dataset.position = String(index + 1);
      const title = document.createElement(entry.score ? 'a' : 'span');
      title.className = 'title';
      title.textContent = entry.title;
      if (entry.score) title.href = `/scores/${entry.score}`;
      const kind = document.createElement('span');
      kind.className = 'muted';
      kind.textContent = [(entry.composers ?? []).join(', '), entry.byline, entry.durationText, describe(entry)].filter(Boolean).join(' · ');
      const buttons = document.createElement('span');
      buttons.className = 'row-tools';
      const up = button('↑', `Move ${entry.title} up`, () => move(index + 1, index), index === 0);
      const down = button('↓', `Move ${entry.title} down`, () => move(index + 1, index + 2), index === setlist.entries.length - 1);
      const remove = button('Remove', `Remove ${entry.title}`, () => save('DELETE', `${api}/entries/${index + 1}`, undefined, 'Removed'));
      buttons.append(up, down, remove);
      const note = document.createElement('input');
      Object.assign(note, { className: 'entry-note', value: entry.note ?? '', placeholder: 'Note (attacca, capo 2…)', maxLength: 500 });
      note.setAttribute('aria-label', `Note on ${entry.title}`);
      note.addEventListener('change', () => save('PUT', `${api}/entries/${index + 1}/note`, { note: note.value },
        note.value.trim() ? `Noted ${entry.title}: ${note.value.trim()}` : `No note on ${entry.title}`));
      note.addEventListener('keydown', (event) => { if (event.key === 'Enter') note.blur(); });
      item.append(title, kind, note, buttons);
      item.addEventListener('dragstart', (event) => { dragged = index + 1; event.dataTransfer.effectAllowed = 'move'; });
      item.addEventListener('dragover', (event) => { event.preventDefault(); item.classList.add('over'); });
      item.addEventListener('dragleave', () => item.classList.remove('over'));
      item.addEventListener('drop', (event) => {
        event.preventDefault();
        item.classList.remove('over');
        if (dragged && dragged !== index + 1) move(dragged, index + 1);
        dragged = null;
      });
      return item;
    }));
    if (!setlist.entries.length) list.append(emptyItem('No pieces yet: find scores on the right.'));
    const untimed = setlist.untimed ? ` · ${setlist.untimed} without a duration` : '';
    document.getElementById('total').textContent = setlist.entries.length ? `Total ${setlist.durationText}${untimed}` : '';
    // What the 4SS download leaves out, as the server says (notes: forScore's format has none).
    const notCarried = document.getElementById('not-carried');
    notCarried.hidden = !(fromServer.notCarried ?? []).length;
    notCarried.textContent = notCarried.hidden ? '' : `The 4SS leaves out: ${fromServer.notCarried.join('; ')}`;
  }

  async function load() {
    const { data, version: current } = await getJSON(api);
    version = current;
    await show(data);
  }

  // Saves one change; `offline()`, when given, keeps it on the device if the server is out of reach.
  async function save(method, url, body, message, offline = null) {
    try {
      const { data, version: current } = await change(method, url, version, body);
      version = current;
      if (data) await show(data);
      say(message);
    } catch (error) {
      if (offline && unreachable(error)) { await offline(); return; }
      say(error.status === 409 ? 'The setlist changed elsewhere; showing it as it is now.' : `Not saved: ${error.message}`);
      await load();
    }
  }

  async function move(from, to) {
    const entry = shown[from - 1], neighbour = shown[to - 1];
    const piece = (each) => ({ kind: each.kind, score: each.score ?? null, start: each.start ?? null, title: each.title });
    const kept = async () => {
      await moves.keep({ from, to, piece: piece(entry), anchor: neighbour && { piece: piece(neighbour), side: to < from ? 'before' : 'after' },
        description: `${entry.title} moved ${to < from ? 'before' : 'after'} ${neighbour?.title ?? `place ${to}`}` });
      if (fromServer) await show(fromServer);
      say(`Moved ${entry.title} on this device; saved when the server can be reached`);
    };
    if (await moves.waiting()) { await kept(); return; }
    await save('POST', `${api}/move`, { from, to }, 'Moved', kept);
  }

  const find = document.getElementById('find');
  const found = document.getElementById('found');
  const search = latest(async (current) => {
    const query = find.value.trim();
    if (!query) { found.replaceChildren(); return; }
    const { data } = await getJSON(`/api/scores?limit=20&q=${encodeURIComponent(query)}`);
    if (!current()) return;
    found.replaceChildren(...data.scores.map((score) => {
      const item = document.createElement('li');
      const label = document.createElement('span');
      label.textContent = [score.title, score.composers.join(', ')].filter(Boolean).join(' — ');
      item.append(label, button('Add', `Add ${score.title}`, () => save('POST', `${api}/entries`, { kind: 'score', score: score.id }, `Added ${score.title}`)));
      return item;
    }));
  });
  find.addEventListener('input', () => search());

  const placeholder = document.getElementById('placeholder');
  placeholder.addEventListener('submit', (event) => {
    event.preventDefault();
    const title = placeholder.elements.title.value.trim();
    save('POST', `${api}/entries`, { kind: 'placeholder', title }, `Added ${title}`);
    placeholder.reset();
  });

  document.getElementById('delete').addEventListener('click', async () => {
    if (!confirm(`Delete the setlist ${name}? The scores stay in the library.`)) return;
    try {
      await change('DELETE', api, version);
      location.href = '/setlists';
    } catch (error) { say(`Not deleted: ${error.message}`); }
  });

  load().then(() => moves.start()).catch((error) => say(`Cannot show this setlist: ${error.message}`));
}
