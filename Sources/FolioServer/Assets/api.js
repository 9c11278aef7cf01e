// Calls to Folio's JSON API with the CSRF token every change needs, and the file's
// version (ETag) so an edit based on an old view gets 409 instead of overwriting. A server
// restarted meanwhile has a new token: the change is refused (403), the token renewed
// (/api/session) and the change sent once more, so nothing the musician typed is lost.
let csrf = document.querySelector('meta[name="folio-csrf"]')?.content ?? '';

// Asks the server for its current token; true when it answered.
export async function renewSession() {
  try {
    const response = await fetch('/api/session', { headers: { Accept: 'application/json' }, cache: 'no-store' });
    if (!response.ok) return false;
    csrf = (await response.json()).csrf ?? csrf;
    return true;
  } catch {
    return false;
  }
}

// `send()` made with the current token; sent again with a renewed one when the server
// refused the token.
async function withSession(send) {
  const response = await send(csrf);
  if (response.status !== 403) return response;
  const refused = response.clone();
  let text = '';
  try { text = (await refused.json())?.error?.message ?? ''; } catch { /* not JSON */ }
  if (!text.includes('CSRF') || !(await renewSession())) return response;
  return send(csrf);
}

export async function getJSON(url) {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw await failure(response);
  return { data: await response.json(), version: response.headers.get('ETag') };
}

export async function change(method, url, version, body) {
  const response = await withSession((token) => {
    const headers = { 'X-Folio-CSRF': token };
    if (version) headers['If-Match'] = version;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  });
  if (!response.ok) throw await failure(response);
  const text = await response.text();
  return { data: text ? JSON.parse(text) : null, version: response.headers.get('ETag') };
}

// A refused request as an error: the server's message, and the HTTP status.
async function failure(response) {
  return Object.assign(new Error(await message(response)), { status: response.status });
}

// Sends a file's bytes to `url` (POST, or `method`); returns the JSON answer.
export async function sendBytes(url, file, method = 'POST') {
  const response = await withSession((token) => fetch(url, {
    method, headers: { 'X-Folio-CSRF': token, 'Content-Type': 'application/octet-stream' }, body: file,
  }));
  if (!response.ok) throw await failure(response);
  return response.json();
}

async function message(response) {
  try {
    const body = await response.json();
    return body?.error?.message ?? `${response.status} ${response.statusText}`;
  } catch {
    return `${response.status} ${response.statusText}`;
  }
}

// Takes a file into the library (the server tells its kind and what it became);
// `dictionary` (bytes of a forScore Open In .json or .plist) travels in the query string as
// base64url; `apply` confirms a library CSV's plan, `score` names the score a CSV index or a
// dictionary belongs to. An error carries its HTTP status.
export async function upload(file, dictionary, { apply = false, score = null } = {}) {
  // encodeURIComponent, not URLSearchParams: its "+" for a space would reach the name.
  let query = `name=${encodeURIComponent(file.name)}`;
  if (apply) query += '&apply=1';
  if (score) query += `&score=${encodeURIComponent(score)}`;
  if (dictionary) {
    let binary = '';
    for (const byte of dictionary) binary += String.fromCharCode(byte);
    query += `&openin=${btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
  }
  return sendBytes(`/api/uploads?${query}`, file);
}

// A drop of several files: each sent and staged under one id, then taken in together in the
// server's order (scores first, so a setlist, index or dictionary finds its PDF).
// `sent(index)` hears of each file sent; returns each file's result, in the order taken, as
// { index, name, status, intake?, error? }.
export async function uploadDrop(files, sent = () => {}) {
  const bits = crypto.getRandomValues(new Uint8Array(16));
  const drop = [...bits].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  for (const [index, file] of files.entries()) {
    await sendBytes(`/api/uploads?name=${encodeURIComponent(file.name)}&drop=${drop}`, file);
    sent(index);
  }
  return (await change('POST', `/api/drops/${drop}`)).data.results;
}

// Keeps an image (PNG or JPEG) in the library as the stamp `name`; returns the stamp.
export async function uploadStamp(file, name) {
  return sendBytes(`/api/stamps?name=${encodeURIComponent(name)}`, file);
}
