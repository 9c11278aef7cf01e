// The Details panel: the score's metadata (forScore's fields) in a form, saved into the
// PDF's Info and XMP with the file's version, so a stale form gets 409, not a lost edit.
import { getJSON, change } from './api.js';

const form = document.getElementById('details');
const lists = ['composers', 'genres', 'tags', 'labels'];

function seconds(text) {
  const parts = text.trim().split(':').map((part) => part.trim());
  if (parts.length === 1 && parts[0] === '') return null;
  if (parts.length > 3 || parts.some((part) => !/^\d+$/.test(part))) throw new Error('duration: use m:ss or h:mm:ss');
  return parts.reduce((total, part) => total * 60 + Number(part), 0);
}

function clock(total) {
  if (total == null) return '';
  const two = (value) => String(value).padStart(2, '0');
  const [hours, minutes, rest] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  return hours ? `${hours}:${two(minutes)}:${two(rest)}` : `${Math.floor(total / 60)}:${two(rest)}`;
}

function fill(metadata) {
  form.elements.title.value = metadata.title ?? '';
  for (const name of lists) form.elements[name].value = (metadata[name] ?? []).join(', ');
  for (const star of form.querySelectorAll('input[name="rating"]')) star.checked = star.value === String(metadata.rating ?? '');
  form.elements.difficulty.value = metadata.difficulty ? String(metadata.difficulty) : '';
  form.elements.key.value = metadata.key ?? '';
  form.elements.duration.value = clock(metadata.duration);
  form.elements.tempo.value = metadata.tempo ?? '';
  form.elements.timeSignature.value = metadata.timeSignature ?? '';
  form.elements.reference.value = metadata.reference ?? '';
}

function read() {
  const number = (value) => (value === '' || value == null ? null : Number(value));
  const body = { title: form.elements.title.value.trim() };
  for (const name of lists) body[name] = form.elements[name].value.split(',').map((value) => value.trim()).filter(Boolean);
  body.rating = number(form.querySelector('input[name="rating"]:checked')?.value);
  body.difficulty = number(form.elements.difficulty.value);
  body.key = form.elements.key.value || null;
  body.duration = seconds(form.elements.duration.value);
  const tempo = form.elements.tempo.value.trim();
  if (tempo !== '' && !/^\d+$/.test(tempo)) throw new Error('tempo: beats per minute, 1 to 999');
  body.tempo = number(tempo);
  body.timeSignature = form.elements.timeSignature.value.trim() || null;
  body.reference = form.elements.reference.value.trim() || null;
  return body;
}

// `app` is the score view: the version it shows, and what to do after a save.
export function details(app) {
  async function load() {
    const { data, version } = await getJSON(`/api/scores/${app.scoreID}/metadata`);
    app.seen(version);
    fill(data);
  }
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    let body;
    try { body = read(); } catch (error) { app.say(error.message); return; }
    try {
      const { data, version } = await change('PUT', `/api/scores/${app.scoreID}/metadata`, app.version(), body);
      fill(data);
      document.getElementById('title').textContent = data.title ?? '';
      const people = document.querySelector('.bar .people');
      if (people) people.textContent = data.composers.join(', ');
      document.title = data.title ?? document.title;
      app.saved(version, 'Details saved');
    } catch (error) {
      app.failed(error);
      await load();
    }
  });
  return { load };
}
