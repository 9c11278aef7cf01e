// The Contents panel: the table of contents and the bookmarks, each a jump to its page;
// bookmarks made by hand (the page shown, or a range), renamed, deleted, and moved by drag
// (or the ↑ button) in the custom order Nutrient keeps; "By page" is a view of the same.
// "Bookmarks from TOC" makes forScore's page ranges. All are stored in the PDF's XMP. A
// bookmark added, renamed or deleted with the server out of reach waits on the device
// (pending.js) and is saved when it is back.
import { getJSON, change } from './api.js';
import { emptyItem, button, pages } from './dom.js';
import { splitScore } from './split.js';

const toc = document.getElementById('toc');
const marks = document.getElementById('bookmarks');
const fromTOC = document.getElementById('from-toc');
const split = document.getElementById('split');
const order = document.getElementById('bookmark-order');
const form = document.getElementById('add-bookmark');
const field = (name) => form.elements.namedItem(name);


export function contents(app) {
  const url = (path = '') => `/api/scores/${app.scoreID}/bookmarks${path}?order=${order.value}`;
  let dragged = null;

  function showTOC(data) {
    toc.replaceChildren(...data.toc.map((entry) => {
      const item = document.createElement('li');
      item.style.paddingLeft = `${Math.min(entry.level, 6) * 12}px`;
      const jump = document.createElement(entry.page ? 'button' : 'span');
      jump.className = 'jump';
      jump.textContent = entry.title || '(untitled)';
      if (entry.page) {
        jump.title = `Go to page ${entry.page}`;
        jump.addEventListener('click', () => app.goTo(entry.page));
        const page = document.createElement('span');
        page.className = 'muted';
        page.textContent = String(entry.page);
        item.append(jump, page);
      } else item.append(jump);
      return item;
    }));
    if (!data.toc.length) toc.append(emptyItem('This score has no table of contents.'));
  }

  function show(data) {
    showTOC(data);
    const custom = order.value === 'custom';
    marks.replaceChildren(...data.bookmarks.map((bookmark, index) => {
      const item = document.createElement('li');
      item.dataset.id = bookmark.id;
      const jump = document.createElement('button');
      jump.className = 'jump';
      jump.textContent = `${bookmark.name || '(untitled)'}  ${pages(bookmark.start, bookmark.end)}`;
      jump.disabled = bookmark.start == null;
      jump.addEventListener('click', () => app.goTo(bookmark.start));
      const rename = button('Rename', `Rename bookmark ${bookmark.name}`, () => renameIn(item, jump, bookmark));
      const remove = button('Delete', `Delete bookmark ${bookmark.name}`,
        () => save('DELETE', url(`/${encodeURIComponent(bookmark.id)}`), undefined, 'Bookmark deleted',
          { kind: 'delete', target: bookmark.id, description: `Deleted bookmark ${bookmark.name}` }));
      item.append(jump, rename);
      if (custom) {
        const up = button('↑', `Move bookmark ${bookmark.name} up`, () => save('PATCH', url(`/${encodeURIComponent(bookmark.id)}`),
          { before: data.bookmarks[index - 1].id }, 'Bookmark moved',
          { kind: 'edit', target: bookmark.id, description: `Bookmark ${bookmark.name} moved up` }), index === 0);
        item.append(up);
        item.draggable = true;
        item.addEventListener('dragstart', (event) => { dragged = bookmark.id; event.dataTransfer.effectAllowed = 'move'; });
        item.addEventListener('dragover', (event) => { event.preventDefault(); item.classList.add('over'); });
        item.addEventListener('dragleave', () => item.classList.remove('over'));
        item.addEventListener('drop', (event) => {
          event.preventDefault();
          item.classList.remove('over');
          if (dragged && dragged !== bookmark.id) {
            const moving = data.bookmarks.find((each) => each.id === dragged);
            save('PATCH', url(`/${encodeURIComponent(dragged)}`), { before: bookmark.id }, 'Bookmark moved',
              { kind: 'edit', target: dragged, description: `Bookmark ${moving?.name ?? ''} moved before ${bookmark.name}` });
          }
          dragged = null;
        });
      }
      item.append(remove);
      return item;
    }));
    if (!data.bookmarks.length) marks.append(emptyItem('No bookmarks.'));
    app.splits?.(data.halfTurns);
    fromTOC.disabled = data.fromTOC === 0;
    fromTOC.textContent = data.fromTOC ? `Bookmarks from TOC (${data.fromTOC})` : 'Bookmarks from TOC';
    // Something to split by; the server finds the pieces and says when there are none.
    split.disabled = !data.bookmarks.length && !data.toc.some((entry) => entry.page);
  }

  // A bookmark's name, changed in place: Enter saves, Escape keeps it.
  function renameIn(item, jump, bookmark) {
    const input = document.createElement('input');
    input.value = bookmark.name ?? '';
    input.maxLength = 1000;
    input.setAttribute('aria-label', 'New name; Enter saves, Escape cancels');
    jump.replaceWith(input);
    input.focus();
    input.select();
    input.addEventListener('keydown', (event) => {
      event.stopPropagation();
      if (event.key === 'Escape') { input.replaceWith(jump); return; }
      if (event.key !== 'Enter' || !input.value.trim()) return;
      save('PATCH', url(`/${encodeURIComponent(bookmark.id)}`), { name: input.value.trim() }, 'Bookmark renamed',
        { kind: 'edit', target: bookmark.id, description: `Bookmark ${bookmark.name} renamed ${input.value.trim()}` });
    });
  }

  async function load() {
    const { data, version } = await getJSON(`/api/scores/${app.scoreID}/contents?order=${order.value}`);
    app.seen(version);
    show(data);
  }
  // Saves one change; `queue` ({kind, target, description}) lets it wait on the device when
  // the server is out of reach (bookmarks from the TOC are not queued).
  async function save(method, address, body, message, queue = null) {
    try {
      const answer = queue
        ? await app.pending().save({ ...queue, what: 'bookmark', method, url: address, body, page: app.page() })
        : await change(method, address, app.version(), body);
      if (answer === null) { app.kept(message); return true; }
      const { data, version } = answer;
      show(data);
      app.saved(version, message);
      return true;
    } catch (error) {
      app.failed(error);
      await load();
      return false;
    }
  }

  fromTOC.addEventListener('click', () => save('POST', url('/from-toc'), undefined, 'Bookmarks made from the TOC'));
  // A split as the server plans it (its bookmarks, else its outline), confirmed, then made:
  // new scores beside this one, which stays.
  split.addEventListener('click', async () => {
    try {
      const made = await splitScore(app.scoreID);
      if (made) app.say(made);
    } catch (error) {
      app.failed(error);
    }
  });
  order.addEventListener('change', () => load());
  // The form starts at the page shown; "to" left empty marks one page.
  form.addEventListener('focusin', () => { if (!field('start').value) field('start').value = String(app.page()); });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { name: field('name').value.trim(), start: Number(field('start').value || app.page()) };
    if (field('end').value) body.end = Number(field('end').value);
    if (await save('POST', url(), body, `Bookmark ${body.name} added`,
      { kind: 'add', description: `Bookmark ${body.name} (${pages(body.start, body.end ?? body.start)})` })) form.reset();
  });
  return { load };
}
