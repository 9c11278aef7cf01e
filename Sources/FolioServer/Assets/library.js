// The library page: search as you type (diacritics and case folded by the catalog), filters
// by field, sorting, and adding files (scores, documents, forScore's files, CSV, dictionaries)
// by drag and drop or the file picker.
import { getJSON, upload, uploadDrop } from './api.js';
import { splitScore } from './split.js';
import { latest } from './dom.js';
import { place, keepPlace } from './place.js';
import { keptItems, keptGaps, keptHow, serverAnswers } from './offline.js';
import { showWho } from './who.js';

const input = document.getElementById('search');
const list = document.getElementById('scores');
const count = document.getElementById('count');
const filters = [...document.querySelectorAll('[data-filter]')];
const uploads = document.getElementById('uploads');

// The results as the server renders them (GET /library/results): its count and list items
// swapped in, each cover hidden when it cannot be drawn.
function render(html) {
  const results = new DOMParser().parseFromString(html, 'text/html');
  list.replaceChildren(...results.getElementById('scores').children);
  count.textContent = results.getElementById('count').textContent;
  for (const image of list.querySelectorAll('img.cover')) hideWhenMissing(image);
  markKept();
}

// The scores this device keeps ("Keep offline" in the score view), marked in the list.
async function markKept() {
  const kept = await keptItems();
  for (const item of list.querySelectorAll('li[data-id]')) item.classList.toggle('kept', kept.scores.has(item.dataset.id));
  return kept;
}

// Before a gig: a kept setlist whose files are no longer all on this device is named, with
// what to do, while there is still a connection to fetch them again; so is a device that may
// clear what it keeps (see keptHow).
async function warnKept(kept) {
  const gaps = await keptGaps();
  const lines = gaps.map(({ name, missing }) => `The setlist “${name}” is kept on this device, but ${missing === 1 ? '1 of its files is' : `${missing} of its files are`} `
    + 'no longer here: open it while connected and press Keep offline again.');
  if (kept.setlists.size + kept.scores.size > 0) {
    const how = await keptHow();
    if (how.kept !== 'until-removed') lines.push(`Music kept on this device is ${how.words}`);
  }
  if (!lines.length) return;
  const warning = document.createElement('div');
  warning.className = 'kept-warning';
  warning.setAttribute('role', 'alert');
  warning.dataset.gaps = String(gaps.length);
  for (const line of lines) {
    const paragraph = document.createElement('p');
    paragraph.textContent = line;
    warning.append(paragraph);
  }
  document.getElementById('drop').prepend(warning);
}

// With the server out of reach (this page from the device's copy), the kept scores are what
// can be played: the others are greyed, and a line says so.
(async () => {
  const kept = await markKept();
  await warnKept(kept).catch(() => {});
  if (await serverAnswers()) return;
  document.body.classList.add('offline');
  const count = kept.scores.size;
  uploads.textContent = `The server cannot be reached: ${count === 1 ? '1 score kept' : `${count} scores kept`} on this device can be opened.`;
})();

// Spaces as %20, not URLSearchParams' "+": the server reads query values percent-decoded only.
// A score without a cover (no pdftoppm, a damaged file) shows none rather than a broken image.
function hideWhenMissing(image) {
  image.addEventListener('error', () => image.remove());
}
for (const image of document.querySelectorAll('img.cover')) {
  if (image.complete && image.naturalWidth === 0) image.remove();
  else hideWhenMissing(image);
}

function queryString() {
  const pairs = [];
  const text = input.value.trim();
  if (text) pairs.push(['q', text]);
  for (const select of filters) if (select.value) pairs.push([select.dataset.filter, select.value]);
  return pairs.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&');
}

const refresh = latest(async (current) => {
  keepPlace(Object.fromEntries([['q', input.value.trim()], ...filters.map((select) => [select.dataset.filter, select.value])]));
  try {
    const response = await fetch(`/library/results?${queryString()}`, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`The search failed (${response.status}).`);
    const html = await response.text();
    if (current()) render(html);
  } catch (error) {
    count.textContent = error.message;
  }
});

input.addEventListener('input', () => refresh());

// An anthology's Split: the pieces planned by the server, confirmed, made; the list shows them.
list.addEventListener('click', async (event) => {
  const split = event.target.closest('button[data-split]');
  if (!split) return;
  split.disabled = true;
  try {
    const made = await splitScore(split.dataset.split);
    if (made) { uploads.textContent = made; refresh(0); }
  } catch (error) {
    uploads.textContent = `Not split: ${error.message}`;
  } finally {
    split.disabled = false;
  }
});
for (const select of filters) select.addEventListener('change', () => refresh(0));

// The search and filters the address holds (a reload, a shared link, back and forward);
// a value the menus do not offer yet (a facet past the first hundred) is added to its menu.
// On load (`typed`), words typed before this module ran — a slow tablet — are kept and searched.
function restore(typed = '') {
  const query = place();
  input.value = query.get('q') ?? typed;
  for (const select of filters) {
    const value = query.get(select.dataset.filter) ?? '';
    if (value && ![...select.options].some((option) => option.value === value)) {
      select.append(Object.assign(document.createElement('option'), { value, textContent: value }));
    }
    select.value = value;
  }
  return [...query.keys()].length > 0 || input.value.trim() !== '';
}
window.addEventListener('popstate', () => { restore(); refresh(0); });
if (restore(input.value)) refresh(0);
input.addEventListener('keydown', (event) => {
  if (event.key === 'ArrowDown') { list.querySelector('a')?.focus(); event.preventDefault(); }
});

// Adding files: one is sent and taken in at once; several are sent as one drop, which the
// server takes in its own order (LibraryIntake.addAll, as `folio add` does) and answers file
// by file — a score, a setlist, an import, metadata or bookmarks. A CSV or dictionary whose
// score was not found is offered a choice of score; a library CSV's plan is shown with a
// button to apply it.
async function add(files) {
  const results = document.createElement('ul');
  results.className = 'intake';
  uploads.replaceChildren(results);
  if (files.length === 1) {
    const line = document.createElement('li');
    line.textContent = `Adding ${files[0].name}…`;
    results.append(line);
    try { show(line, files[0], await upload(files[0], null)); } catch (error) { fail(line, files[0], error); }
    refresh(0);
    return;
  }
  const progress = document.createElement('li');
  results.append(progress);
  try {
    const taken = await uploadDrop(files, (index) => {
      progress.textContent = `Sent ${index + 1} of ${files.length} files…`;
    });
    progress.remove();
    for (const result of taken) {
      const line = document.createElement('li');
      results.append(line);
      const file = files[result.index];
      if (result.intake) show(line, file, result.intake);
      else fail(line, file, Object.assign(new Error(result.error), { status: result.status }));
    }
  } catch (error) {
    progress.textContent = `The files could not be added: ${error.message}`;
    progress.className = 'error';
  }
  refresh(0);
}

// One file's result: its summary, the plan's lines and a button to apply it when nothing was written.
function show(line, file, result) {
  line.replaceChildren(result.summary);
  line.dataset.kind = result.kind;
  const details = [...result.lines, ...result.warnings];
  if (details.length) {
    const list = document.createElement('ul');
    list.className = 'muted';
    list.append(...details.slice(0, 50).map((text) => Object.assign(document.createElement('li'), { textContent: text })));
    line.append(list);
  }
  if (!result.applied) {
    const button = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Apply these changes' });
    button.addEventListener('click', () => resend(line, file, button, { apply: true }));
    line.append(button);
  }
}

// Sends `file` again with `options` (apply the plan, or the score it belongs to) and shows
// what became of it.
async function resend(line, file, button, options) {
  button.disabled = true;
  try { show(line, file, await upload(file, null, options)); refresh(0); } catch (error) { fail(line, file, error); }
}

// A refused file: the server's message; for a CSV or dictionary without its score, a choice of score.
async function fail(line, file, error) {
  line.replaceChildren(error.message.startsWith(file.name) ? error.message : `${file.name}: ${error.message}`);
  line.className = 'error';
  if (error.status !== 404) return;
  let scores = [];
  try { scores = (await getJSON('/api/scores?sort=title')).data.scores; } catch { return; }
  if (scores.length === 0) return;
  const select = document.createElement('select');
  select.setAttribute('aria-label', `The score ${file.name} belongs to`);
  select.append(...scores.map((score) => Object.assign(document.createElement('option'), {
    value: score.id, textContent: `${score.title || score.path} (${score.path})`,
  })));
  const button = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Add to this score' });
  button.addEventListener('click', () => { line.className = ''; resend(line, file, button, { score: select.value }); });
  line.append(' ', select, ' ', button);
}

document.getElementById('upload').addEventListener('change', (event) => add([...event.target.files]));
const drop = document.getElementById('drop');
drop.addEventListener('dragover', (event) => { event.preventDefault(); drop.classList.add('dragging'); });
drop.addEventListener('dragleave', () => drop.classList.remove('dragging'));
drop.addEventListener('drop', (event) => {
  event.preventDefault();
  drop.classList.remove('dragging');
  add([...event.dataTransfer.files]);
});

showWho();
