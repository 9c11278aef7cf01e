// Folio on the device: the service worker (sw.js) registered where the browser allows one
// (HTTPS, or localhost), a score's or a setlist's "Keep offline" toggle, and the library page
// saying what can be played while the server cannot be reached.
//
// What "Keep offline" stores goes into the cache `folio-kept`, which the service worker reads
// first: the PDF in full, the page that shows it, and the API answers that page asks for.

const KEPT = 'folio-kept';
const PAGES = 'folio-pages';
const supported = 'serviceWorker' in navigator && 'caches' in window && window.isSecureContext;

// Registers the service worker once per page; resolves with it when it controls the page (or
// null where there is none).
export const ready = supported
  ? navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(() => navigator.serviceWorker.ready).catch(() => null)
  : Promise.resolve(null);

// Asks the service worker to keep `url` (a PDF) among the recent files, so a server blip
// never blanks a page of the score being played.
export async function keepRecent(url) {
  const worker = await ready;
  worker?.active?.postMessage({ type: 'recent', url });
}

function formatBytes(bytes) {
  if (!Number.isFinite(bytes)) return '';
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

// Fetches each of `urls` from the server and stores the answers; throws the first failure
// (then nothing is stored: keeping is all or nothing).
async function store(cacheName, urls) {
  const answers = [];
  for (const url of urls) {
    const response = await fetch(url, { cache: 'no-store', headers: { 'X-Folio-Keep': '1' } });
    if (!response.ok || response.headers.get('X-Folio-Offline')) throw new Error(`${url}: ${response.status}`);
    answers.push([url, response]);
  }
  const cache = await caches.open(cacheName);
  for (const [url, response] of answers) await cache.put(url, response);
}

async function forget(urls) {
  const cache = await caches.open(KEPT);
  for (const url of urls) await cache.delete(url);
}

// What a score needs to open and play with the server away.
async function scoreFiles(id) {
  const base = `/api/scores/${id}`;
  const details = await (await fetch(base, { cache: 'no-store' })).json();
  const pages = Math.min(Math.max(Number(details.pages) || 1, 1), 2000);
  const marks = Array.from({ length: pages }, (_, index) => `${base}/annotations?page=${index + 1}`);
  return {
    api: [`${base}/pdf`, base, `${base}/metadata`, `${base}/contents?order=custom`, `${base}/contents?order=page`,
      `${base}/tracks`, `${base}/undo`, ...marks, '/api/fields', '/api/stamps', '/api/audio'],
    pages: [`/scores/${id}`],
  };
}

async function setlistFiles(name) {
  const base = `/api/setlists/${encodeURIComponent(name)}`;
  const setlist = await (await fetch(base, { cache: 'no-store' })).json();
  const scores = [...new Set(setlist.entries.map((entry) => entry.score).filter(Boolean))];
  const each = await Promise.all(scores.map(scoreFiles));
  return {
    api: [base, `${base}/pdf`, `${base}/sound`, ...each.flatMap((files) => files.api)],
    pages: [`/setlists/${encodeURIComponent(name)}`, `/setlists/${encodeURIComponent(name)}/perform`, ...each.flatMap((files) => files.pages)],
  };
}

// Which scores and setlists are kept, by the keys of the kept cache.
export async function keptItems() {
  if (!supported) return { scores: new Set(), setlists: new Set() };
  const keys = await (await caches.open(KEPT)).keys();
  const paths = keys.map((request) => new URL(request.url).pathname);
  return {
    scores: new Set(paths.map((path) => /^\/api\/scores\/(\d+)\/pdf$/.exec(path)?.[1]).filter(Boolean)),
    setlists: new Set(paths.map((path) => /^\/api\/setlists\/([^/]+)\/pdf$/.exec(path)?.[1]).filter(Boolean).map(decodeURIComponent)),
  };
}

// A device several members share (a section's iPad): what one member's session was answered —
// the marks lists of kept scores (another's own layer is not listed to them), their parts, the
// last answers and pages — is forgotten when they log out; the kept scores' answers are fetched
// again for whoever logs in next (refreshKept), the files themselves stay.
export async function forgetMembersAnswers() {
  if (!supported) return;
  await caches.delete(PAGES);
  await caches.delete('folio-api');
  const kept = await caches.open(KEPT);
  for (const request of await kept.keys()) {
    const path = new URL(request.url).pathname;
    if (/^\/api\/scores\/\d+\/annotations$/.test(path) || path === '/api/parts/mine') await kept.delete(request);
  }
}

// Fetches the kept scores' answers (not their files) again, as the member now logged in is answered.
export async function refreshKept() {
  if (!supported) return;
  const { scores } = await keptItems();
  for (const id of scores) {
    const { api, pages } = await scoreFiles(id);
    await keepFiles(api.filter((url) => !url.endsWith('/pdf')), pages);
  }
}

// Stores what an item needs offline: its API answers, and its pages (kept, and among the last
// pages, which the service worker shows when the network fails).
async function keepFiles(api, pages) {
  await store(KEPT, api);
  await store(PAGES, pages);
  await store(KEPT, pages);
}

// "Keep offline": a toggle (`button`, aria-pressed) and a line that says how it stands.
export async function keepToggle(button, status, item) {
  if (!supported) {
    button.disabled = true;
    button.title = 'Keeping music on this device needs HTTPS (or localhost)';
    if (!window.isSecureContext) {
      const link = document.createElement('a');
      link.href = '/trust';
      link.textContent = 'Needs HTTPS: how to set it up';
      status.replaceChildren(link);
    }
    return;
  }
  const files = () => (item.kind === 'setlist' ? setlistFiles(item.name) : scoreFiles(item.id));
  const isKept = async () => {
    const kept = await keptItems();
    return item.kind === 'setlist' ? kept.setlists.has(item.name) : kept.scores.has(String(item.id));
  };
  const say = async (kept) => {
    button.setAttribute('aria-pressed', String(kept));
    if (!kept) { status.textContent = ''; delete status.dataset.kept; return; }
    const estimate = await navigator.storage?.estimate?.().catch(() => null);
    const used = estimate ? ` · ${formatBytes(estimate.usage)} on this device` : '';
    const how = await keptHow();
    status.dataset.kept = how.kept;
    status.textContent = `Available offline: ${how.words}${used}`;
  };
  await say(await isKept());
  button.addEventListener('click', async () => {
    const keep = button.getAttribute('aria-pressed') !== 'true';
    button.disabled = true;
    try {
      const { api, pages } = await files();
      if (keep) {
        status.textContent = 'Keeping…';
        await navigator.storage?.persist?.().catch(() => false);
        // The page's own answers are kept too: the item opens from the kept pages.
        await keepFiles(api, pages);
      } else {
        await forget([...api, ...pages]);
      }
      await say(keep);
    } catch (error) {
      status.textContent = `Could not keep it offline: ${error.message}`;
      await say(await isKept());
    } finally {
      button.disabled = false;
    }
  });
}

// Whether what is kept stays kept, in a musician's words: {kept: 'until-removed' | 'may-be-cleared',
// words}. Storage the browser has made persistent (navigator.storage.persisted()), or a web
// app opened from the Home Screen (which Safari does not clear), stays until removed; else the
// browser may clear it — Safari after a week without a visit — and the words say what to do.
export async function keptHow() {
  const persisted = await navigator.storage?.persisted?.().catch(() => false);
  const homeScreen = navigator.standalone === true || window.matchMedia?.('(display-mode: standalone)').matches;
  if (persisted || homeScreen) return { kept: 'until-removed', words: 'kept until you remove it' };
  return { kept: 'may-be-cleared', words: 'for now — the browser may clear it (Safari after a week unused). '
    + 'To keep it, add Folio to the Home Screen: Share, then "Add to Home Screen", and open Folio from there.' };
}

// The kept setlists whose files are no longer all on this device (the browser cleared some,
// or a score was kept off again): [{name, missing}], read from the device's caches alone, so
// it can be asked with the server out of reach, before a gig.
export async function keptGaps() {
  if (!supported) return [];
  const cache = await caches.open(KEPT);
  const { setlists } = await keptItems();
  const gaps = [];
  for (const name of setlists) {
    const base = `/api/setlists/${encodeURIComponent(name)}`;
    let missing = 0;
    const answer = await cache.match(base);
    if (!answer) { gaps.push({ name, missing: 1 }); continue; }
    const setlist = await answer.json().catch(() => ({ entries: [] }));
    const scores = [...new Set((setlist.entries ?? []).map((entry) => entry.score).filter(Boolean))];
    const needed = [`${base}/pdf`, `/setlists/${encodeURIComponent(name)}/perform`, ...scores.map((id) => `/api/scores/${id}/pdf`)];
    for (const url of needed) if (!(await cache.match(url))) missing += 1;
    if (missing > 0) gaps.push({ name, missing });
  }
  return gaps;
}

// Whether the server answers (a small request with a short wait).
export async function serverAnswers() {
  try {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 3000);
    const response = await fetch('/api/fields', { cache: 'no-store', signal: controller.signal });
    return response.ok && !response.headers.get('X-Folio-Offline');
  } catch {
    return false;
  }
}
