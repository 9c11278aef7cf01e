// The Contents panel: the table of contents and the bookmarks, each a jump to its page,
// and "Bookmarks from TOC" (forScore's page ranges, stored in the PDF's XMP).
import { getJSON, change } from './api.js';
import { emptyItem, button } from './dom.js';

const toc = document.getElementById('toc');
const marks = document.getElementById('bookmarks');
const fromTOC = document.getElementById('from-toc');

function pages(start, end) {
  if (start == null) return '';
  return start === end || end == null ? `p. ${start}` : `pp. ${start}–${end}`;
}

export function contents(app) {
  function show(data) {
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
    marks.replaceChildren(...data.bookmarks.map((bookmark) => {
      const item = document.createElement('li');
      const jump = document.createElement('button');
      jump.className = 'jump';
      jump.textContent = `${bookmark.name || '(untitled)'}  ${pages(bookmark.start, bookmark.end)}`;
      jump.disabled = bookmark.start == null;
      jump.addEventListener('click', () => app.goTo(bookmark.start));
      const remove = button('Delete', `Delete bookmark ${bookmark.name}`,
        () => save('DELETE', `/api/scores/${app.scoreID}/bookmarks/${encodeURIComponent(bookmark.id)}`, 'Bookmark deleted'));
      item.append(jump, remove);
      return item;
    }));
    if (!data.bookmarks.length) marks.append(emptyItem('No bookmarks.'));
    app.splits?.(data.halfTurns);
    fromTOC.disabled = data.fromTOC === 0;
    fromTOC.textContent = data.fromTOC ? `Bookmarks from TOC (${data.fromTOC})` : 'Bookmarks from TOC';
  }
  async function load() {
    const { data, version } = await getJSON(`/api/scores/${app.scoreID}/contents`);
    app.seen(version);
    show(data);
  }
  async function save(method, url, message) {
    try {
      const { data, version } = await change(method, url, app.version());
      show(data);
      app.saved(version, message);
    } catch (error) {
      app.failed(error);
      await load();
    }
  }
  fromTOC.addEventListener('click', () => save('POST', `/api/scores/${app.scoreID}/bookmarks/from-toc`, 'Bookmarks made from the TOC'));
  return { load };
}
