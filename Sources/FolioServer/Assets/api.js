// Calls to Folio's JSON API with the CSRF token every change needs, and the file's
// version (ETag) so an edit based on an old view gets 409 instead of overwriting.
const csrf = document.querySelector('meta[name="folio-csrf"]')?.content ?? '';

export async function getJSON(url) {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(await message(response));
  return { data: await response.json(), version: response.headers.get('ETag') };
}

export async function change(method, url, version, body) {
  const headers = { 'X-Folio-CSRF': csrf };
  if (version) headers['If-Match'] = version;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) {
    const error = new Error(await message(response));
    error.status = response.status;
    throw error;
  }
  const text = await response.text();
  return { data: text ? JSON.parse(text) : null, version: response.headers.get('ETag') };
}

async function message(response) {
  try {
    const body = await response.json();
    return body?.error?.message ?? `${response.status} ${response.statusText}`;
  } catch {
    return `${response.status} ${response.statusText}`;
  }
}

// Adds a file to the library; `dictionary` (bytes of a forScore Open In .json or .plist)
// travels in the query string as base64url.
export async function upload(file, dictionary) {
  // encodeURIComponent, not URLSearchParams: its "+" for a space would reach the name.
  let query = `name=${encodeURIComponent(file.name)}`;
  if (dictionary) {
    let binary = '';
    for (const byte of dictionary) binary += String.fromCharCode(byte);
    query += `&openin=${btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
  }
  const response = await fetch(`/api/uploads?${query}`, {
    method: 'POST', headers: { 'X-Folio-CSRF': csrf, 'Content-Type': 'application/octet-stream' }, body: file,
  });
  if (!response.ok) throw new Error(await message(response));
  return response.json();
}
