// The library page: search as you type (diacritics and case folded by the catalog), filters
// by field, sorting, and adding scores by drag and drop or the file picker.
import { getJSON, upload } from './api.js';
import { latest } from './dom.js';

const input = document.getElementById('search');
const list = document.getElementById('scores');
const count = document.getElementById('count');
const filters = [...document.querySelectorAll('[data-filter]')];
const uploads = document.getElementById('uploads');

function render(scores) {
  list.replaceChildren(...scores.map((score) => {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = `/scores/${score.id}`;
    const cover = document.createElement('img');
    Object.assign(cover, { className: 'cover', src: `/api/scores/${score.id}/cover`, alt: '', loading: 'lazy', height: 60 });
    hideWhenMissing(cover);
    const title = document.createElement('span');
    title.className = 'title';
    title.textContent = score.title;
    const people = document.createElement('span');
    people.className = 'people';
    people.textContent = score.composers.join(', ');
    const facts = document.createElement('span');
    facts.className = 'facts muted';
    facts.textContent = ' ' + [score.key, score.rating > 0 ? '★'.repeat(score.rating) : null,
      score.pages ? `${score.pages} p.` : null].filter(Boolean).join(' · ');
    link.append(cover, title, people, facts);
    item.append(link);
    return item;
  }));
  count.textContent = scores.length === 1 ? '1 score' : `${scores.length} scores`;
}

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
  try {
    const { data } = await getJSON(`/api/scores?${queryString()}`);
    if (current()) render(data.scores);
  } catch (error) {
    count.textContent = error.message;
  }
});

input.addEventListener('input', () => refresh());
for (const select of filters) select.addEventListener('change', () => refresh(0));
input.addEventListener('keydown', (event) => {
  if (event.key === 'ArrowDown') { list.querySelector('a')?.focus(); event.preventDefault(); }
});

// Adding scores: each file in turn; a .json or .plist with a score's name is its Open In
// dictionary (forScore's metadata), sent along with it.
async function add(files) {
  const dictionaries = new Map();
  const scores = [];
  for (const file of files) {
    const [base, extension] = splitName(file.name);
    if (['json', 'plist'].includes(extension)) dictionaries.set(base, file);
    else scores.push(file);
  }
  let added = 0;
  const problems = [];
  for (const [index, file] of scores.entries()) {
    uploads.textContent = `Adding ${file.name} (${index + 1} of ${scores.length})…`;
    try {
      const dictionary = dictionaries.get(splitName(file.name)[0]);
      await upload(file, dictionary ? new Uint8Array(await dictionary.arrayBuffer()) : null);
      added += 1;
    } catch (error) {
      problems.push(`${file.name}: ${error.message}`);
    }
  }
  uploads.textContent = [`Added ${added} of ${scores.length}.`, ...problems].join(' ');
  refresh(0);
}

function splitName(name) {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot + 1).toLowerCase()] : [name, ''];
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
