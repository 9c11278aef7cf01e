// The Details panel: the score's metadata (forScore's fields) in a form, saved into the
// PDF's Info and XMP with the file's version, so a stale form gets 409, not a lost edit.
import { getJSON, change } from './api.js';

const form = document.getElementById('details');

// Each control says how its field is entered (data-input, from the server's description of
// the fields): the values go out as written, and the server reads them (durations, keys,
// numbers) and answers with what it refuses.
function controls() {
  return [...form.querySelectorAll('[data-input]')].map((element) => ({
    element, input: element.dataset.input, name: element.dataset.name ?? element.name,
  }));
}

function fill(metadata) {
  for (const { element, input, name } of controls()) {
    if (input === 'stars') {
      for (const star of element.querySelectorAll('input')) star.checked = star.value === String(metadata[name] ?? '');
    } else if (input === 'list') {
      element.value = (metadata[name] ?? []).join(', ');
    } else if (input === 'duration') {
      element.value = metadata[`${name}Text`] ?? '';
    } else {
      element.value = metadata[name] == null ? '' : String(metadata[name]);
    }
  }
}

function read() {
  const body = {};
  for (const { element, input, name } of controls()) {
    if (input === 'stars') {
      body[name] = element.querySelector('input:checked')?.value || null;
    } else if (input === 'list') {
      body[name] = element.value.split(',').map((value) => value.trim()).filter(Boolean);
    } else {
      body[name] = element.value.trim() || null;
    }
  }
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
    const body = read();
    try {
      const { data, version } = await change('PUT', `/api/scores/${app.scoreID}/metadata`, app.version(), body);
      fill(data);
      document.getElementById('title').textContent = data.title ?? '';
      const people = document.querySelector('.bar .people .composers');
      if (people) people.textContent = data.composers.join(', ');
      document.title = data.title ?? document.title;
      app.saved(version, 'Details saved');
    } catch (error) {
      app.failed(error);
      // A stale form is reloaded; a refused value stays as typed, to be corrected.
      if (error.status === 409) await load();
    }
  });
  return { load };
}
