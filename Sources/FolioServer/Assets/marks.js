// The marks panel of the score view: the page's marks in a list — each with Delete (a swipe
// left deletes too) and, for a text, Edit — and behind a toggle the links and form fields an
// engraver or a form left. `view` is the score view: its state, `run` (save one change and
// show the result) and `follow` (a link).
import { getJSON } from './api.js';
import { emptyItem, button } from './dom.js';

export function marksList(view) {
  const { state, scoreID, run } = view;
  const list = document.getElementById('annotations');
  const others = document.getElementById('others');
  const othersToggle = document.getElementById('show-others');

  // The page's marks in the list (each with Delete; a swipe left deletes too), and behind a
  // toggle the links and form fields an engraver or a form left, counted; point-and-click
  // links are not followed.
  // A mark in a musician's words, not the PDF's: "Text", "Pen", "Box".
  const words = { FreeText: 'Text', Ink: 'Pen', Square: 'Box', Circle: 'Circle', Text: 'Note', Line: 'Line',
    PolyLine: 'Line', Polygon: 'Shape', StrikeOut: 'Strike-out', FileAttachment: 'Attachment' };
  const markWord = (subtype) => words[subtype] ?? subtype;

  async function loadAnnotations() {
    const { data, version } = await getJSON(`/api/scores/${scoreID}/annotations?page=${state.page}`);
    state.version = version;
    const isMark = (annotation) => !['Link', 'Widget'].includes(annotation.subtype);
    state.annotations = data.annotations.filter(isMark);
    state.links = data.annotations.filter((annotation) => annotation.subtype === 'Link' && !annotation.pointAndClick
      && (annotation.target || /^(https?|mailto):/i.test(annotation.uri ?? '')));
    list.replaceChildren(...state.annotations.map((annotation) => {
      const item = document.createElement('li');
      const label = document.createElement('span');
      const kind = markWord(annotation.subtype);
      const words = annotation.contents || annotation.symbol;
      label.textContent = `${kind}${words ? ': ' + words : ''}`;
      label.title = label.textContent;
      // A tap on a cut-short text shows it whole (no hover on a touch screen).
      label.addEventListener('click', () => item.classList.toggle('whole'));
      const deleteMark = () => removeAnnotation(annotation, `Deleted ${kind}: Undo brings it back`);
      const remove = button('Delete', `Delete ${kind} ${annotation.contents ?? ''}`.trim(), deleteMark);
      if (annotation.subtype === 'FreeText') item.append(label, button('Edit', `Edit the text ${annotation.contents ?? ''}`.trim(),
        () => editText(item, label, annotation)), remove);
      else item.append(label, remove);
      swipeToDelete(item, deleteMark);
      return item;
    }));
    if (!state.annotations.length) list.append(emptyItem('No marks on this page.'));
    showPending();
    const hidden = data.annotations.filter((annotation) => !isMark(annotation));
    const clicks = hidden.filter((annotation) => annotation.pointAndClick).length;
    othersToggle.parentElement.hidden = hidden.length === 0;
    document.getElementById('others-count').textContent = `Links and form fields (${hidden.length}`
      + `${clicks ? `, ${clicks} point-and-click` : ''})`;
    showOthers(hidden);
  }

  // The links and form fields, listed only while the toggle is on (an engraved page has hundreds).
  function showOthers(hidden) {
    others.hidden = !othersToggle.checked;
    if (others.hidden) { others.replaceChildren(); return; }
    const shown = hidden.slice(0, 200).map((annotation) => {
      const item = document.createElement('li');
      const label = document.createElement('span');
      label.textContent = annotation.target ? `Link → p. ${annotation.target}`
        : annotation.uri ? `${annotation.pointAndClick ? 'Point-and-click' : 'Link'}: ${annotation.uri}` : annotation.subtype;
      label.title = label.textContent;
      item.append(label);
      if (annotation.target) item.append(button('Go', `Follow the link to page ${annotation.target}`, () => view.follow(annotation)));
      if (annotation.subtype === 'Link') {
        item.append(button('Delete', `Delete the link ${label.textContent}`, () => removeAnnotation(annotation, 'Link deleted')));
      }
      return item;
    });
    if (hidden.length > shown.length) shown.push(emptyItem(`and ${hidden.length - shown.length} more`));
    others.replaceChildren(...shown);
  }
  othersToggle.addEventListener('change', () => loadAnnotations());

  // Deletes one annotation of the page (undoable), then says `message`.
  function removeAnnotation(annotation, message) {
    run(() => view.pending.save({ kind: 'delete', method: 'DELETE', target: annotation.id, page: state.page,
      url: `/api/scores/${scoreID}/annotations/${encodeURIComponent(annotation.id)}`,
      description: `Deleted ${markWord(annotation.subtype)}${annotation.contents ? `: ${annotation.contents}` : ''}` }), message);
  }

  // The changes kept on the device (pending.js), after the file's marks.
  function showPending() {
    for (const item of list.querySelectorAll('li.pending')) item.remove();
    const waiting = view.pending?.listed() ?? [];
    if (waiting.length) list.querySelector('li.empty')?.remove();
    list.append(...waiting);
  }

  // A swipe left (pointer or finger) over a list item runs `remove`; the item follows the finger.
  function swipeToDelete(item, remove) {
    let start = null;
    item.addEventListener('pointerdown', (event) => {
      if (event.target.closest('button, input')) return;
      start = { x: event.clientX };
      item.setPointerCapture(event.pointerId);
    });
    item.addEventListener('pointermove', (event) => {
      if (start) item.style.transform = `translateX(${Math.min(0, event.clientX - start.x)}px)`;
    });
    item.addEventListener('pointerup', (event) => {
      if (!start) return;
      const moved = event.clientX - start.x;
      start = null;
      item.style.transform = '';
      if (moved < -80) remove();
    });
    item.addEventListener('pointercancel', () => { start = null; item.style.transform = ''; });
  }

  // A FreeText's words, changed in place in the list: Enter saves, Escape keeps them.
  function editText(item, label, annotation) {
    const input = document.createElement('input');
    input.value = annotation.contents ?? '';
    input.setAttribute('aria-label', 'New text; Enter saves, Escape cancels');
    label.replaceWith(input);
    input.focus();
    input.addEventListener('keydown', (event) => {
      event.stopPropagation();
      if (event.key === 'Escape') { input.replaceWith(label); return; }
      if (event.key !== 'Enter' || !input.value.trim()) return;
      run(() => view.pending.save({ kind: 'edit', method: 'PATCH', target: annotation.id, page: state.page,
        url: `/api/scores/${scoreID}/annotations/${encodeURIComponent(annotation.id)}`, body: { text: input.value.trim() },
        description: `Text “${annotation.contents ?? ''}” changed to “${input.value.trim()}”` }), 'Text changed');
    });
  }

  return { load: loadAnnotations, showPending };
}
