// A score's history (the Details panel; the librarian's, or a musician's alone): the changes
// saved to it, the last first, with who made them and when, one member's alone if chosen.
// "Take back" on any of them (POST /api/scores/ID/changes/N/undo) takes that change back and
// keeps every change after it; the server decides whether it can (a later change touching the
// same thing is a refusal, said here), and the view reloads as after an Undo.
import { getJSON, change } from './api.js';
import { emptyItem } from './dom.js';

export function history(app, reload) {
  const panel = document.getElementById('history');
  const list = document.getElementById('history-list');
  const member = document.getElementById('history-member');
  if (!panel || !list || !member) return { load: async () => {} };
  const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });

  async function load() {
    if (!panel.open) return;
    const chosen = member.value;
    const query = chosen ? `?member=${encodeURIComponent(chosen)}` : '';
    let changes;
    try {
      ({ data: { changes } } = await getJSON(`/api/scores/${app.scoreID}/changes${query}`));
    } catch (error) {
      list.replaceChildren(emptyItem(`The history cannot be read: ${error.message}`));
      return;
    }
    // Everyone who made a change is a choice (kept while one is chosen).
    if (!chosen) {
      const authors = [...new Set(changes.map((step) => step.author).filter(Boolean))].sort((a, b) => a.localeCompare(b));
      member.replaceChildren(new Option('Everyone', ''), ...authors.map((name) => new Option(name, name)));
    }
    if (!changes.length) {
      list.replaceChildren(emptyItem(chosen ? `No changes by ${chosen}` : 'No changes saved through Folio yet'));
      return;
    }
    list.replaceChildren(...changes.map((step) => {
      const item = document.createElement('li');
      item.dataset.change = String(step.id);
      const what = document.createElement('span');
      what.className = 'history-change';
      what.textContent = step.change;
      const who = document.createElement('span');
      who.className = 'muted';
      who.textContent = `${step.author ?? 'unknown'} · ${when.format(new Date(step.madeAt))}`;
      const back = document.createElement('button');
      back.type = 'button';
      back.textContent = step.undoable ? 'Undo' : 'Take back';
      back.setAttribute('aria-label', `Take back: ${step.change} (${step.author ?? 'unknown'})`);
      back.addEventListener('click', () => takeBack(step));
      item.append(what, who, back);
      return item;
    }));
  }

  async function takeBack(step) {
    try {
      const { data, version } = await change('POST', `/api/scores/${app.scoreID}/changes/${step.id}/undo`, app.version());
      app.seen(version);
      app.say(`Taken back: ${data.undone}`);
    } catch (error) {
      app.say(`Cannot take back “${step.change}”: ${error.message}`);
      return;
    }
    await reload();
    await load();
  }

  panel.addEventListener('toggle', load);
  member.addEventListener('change', load);
  return { load };
}
