// The library page: search as you type (diacritics and case folded by the catalog).
import { getJSON } from './api.js';

const input = document.getElementById('search');
const list = document.getElementById('scores');
const count = document.getElementById('count');
let pending = 0;

function render(scores) {
  list.replaceChildren(...scores.map((score) => {
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = `/scores/${score.id}`;
    const title = document.createElement('span');
    title.className = 'title';
    title.textContent = score.title;
    const people = document.createElement('span');
    people.className = 'people';
    people.textContent = score.composers.join(', ');
    const facts = document.createElement('span');
    facts.className = 'facts muted';
    facts.textContent = ' ' + [score.key, score.pages ? `${score.pages} p.` : null].filter(Boolean).join(' · ');
    link.append(title, people, facts);
    item.append(link);
    return item;
  }));
  count.textContent = scores.length === 1 ? '1 score' : `${scores.length} scores`;
}

input.addEventListener('input', () => {
  const ticket = ++pending;
  setTimeout(async () => {
    if (ticket !== pending) return;
    const query = input.value.trim();
    try {
      const { data } = await getJSON(`/api/scores?q=${encodeURIComponent(query)}`);
      if (ticket === pending) render(data.scores);
    } catch (error) {
      count.textContent = error.message;
    }
  }, 120);
});

input.addEventListener('keydown', (event) => {
  if (event.key === 'ArrowDown') { list.querySelector('a')?.focus(); event.preventDefault(); }
});
