// Folio's service worker: the app keeps working when the server cannot be reached (a gig
// without Wi-Fi, a server restarted mid-set). Served at /sw.js with the build's version in
// place of __VERSION__, so a new build replaces the cached app shell.
//
// - The app shell (styles, modules, pdf.js and its worker, the manifest, icons) is cached at
//   install, by version, and served from the cache.
// - Pages are fetched from the network first; the last copy of each is kept and shown when
//   the network fails.
// - The API's answers (GET) come from the network; the last answer of each is kept and given
//   when the network fails, so a score's marks, bookmarks and details still show.
// - A score's PDF is served from the device when it is there in full: kept offline ("Keep
//   offline", cache `folio-kept`) or among the last scores opened (`folio-recent`, a few).
//   pdf.js asks for byte ranges; they are cut from the stored file (206).
const VERSION = '__VERSION__';
const SHELL = `folio-shell-${VERSION}`;
const PAGES = 'folio-pages';
const API = 'folio-api';
const KEPT = 'folio-kept';
const RECENT = 'folio-recent';
const RECENT_LIMIT = 3;
const NETWORK_WAIT = 4000;
// The files kept whole, and the API answers kept (a score's, a setlist's, the shared lists;
// not searches, sockets or pictures).
const PDF = /^\/api\/(scores\/\d+|setlists\/[^/]+)\/pdf$/;
const KEPT_API = /^\/api\/(scores\/\d+(\/(annotations|metadata|contents|tracks|undo|parts))?|setlists\/[^/]+(\/sound)?|fields|stamps|audio|instruments)$/;
const SHELL_FILES = ['/assets/folio.css', '/manifest.webmanifest', '/assets/icon-192.png', '/assets/icon-512.png',
  '/pdfjs/pdf.js', '/pdfjs/pdf.worker.js', __SHELL_MODULES__];

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL);
    // One file missing (pdf.js not installed) does not stop the rest.
    await Promise.all(SHELL_FILES.map((url) => cache.add(new Request(url, { cache: 'reload' })).catch(() => {})));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('folio-shell-') && name !== SHELL) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The network, given up on after `wait` ms (a network that hangs is no better than none).
async function network(request, wait = NETWORK_WAIT) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), wait);
  try {
    return await fetch(request, { signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}

function offline(message, status = 503) {
  return new Response(JSON.stringify({ error: { message } }), {
    status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Folio-Offline': '1' },
  });
}

// `stored` (a whole file) answered as `request` asks: whole, or the byte range asked for.
async function answer(request, stored) {
  const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.get('Range') ?? '');
  if (!range) return stored;
  const blob = await stored.blob();
  const start = Number(range[1]);
  const end = Math.min(range[2] ? Number(range[2]) : blob.size - 1, blob.size - 1);
  if (!(start <= end)) {
    return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${blob.size}` } });
  }
  return new Response(blob.slice(start, end + 1), {
    status: 206,
    headers: {
      'Content-Type': stored.headers.get('Content-Type') ?? 'application/pdf', 'Accept-Ranges': 'bytes',
      'Content-Range': `bytes ${start}-${end}/${blob.size}`, 'Content-Length': String(end - start + 1),
      ETag: stored.headers.get('ETag') ?? '',
    },
  });
}

// A score's (or a setlist's) PDF: from the device when stored in full, else from the
// network. A page that asks for a version (`?v=`, the file's ETag after an edit) the stored
// copy is not gets the network's, and the stored copy is fetched again.
async function pdf(request, url) {
  const key = url.pathname;
  const wanted = url.searchParams.get('v');
  for (const name of [KEPT, RECENT]) {
    const stored = await (await caches.open(name)).match(key);
    if (!stored) continue;
    if (wanted && stored.headers.get('ETag') !== wanted) {
      refreshed.delete(key);
      refresh(name, key, stored);
      try { return await network(request, 30000); } catch { /* offline: the stored copy is the best there is */ }
    } else {
      refresh(name, key, stored);
    }
    return answer(request, stored);
  }
  try {
    return await network(request, 30000);
  } catch {
    return offline('This score is not on this device and the server cannot be reached.');
  }
}

// Fetches the whole file again when its version on the server differs (once a session).
const refreshed = new Set();
async function refresh(name, key, stored) {
  if (refreshed.has(key)) return;
  refreshed.add(key);
  try {
    const head = await network(new Request(key, { method: 'HEAD' }));
    const tag = head.headers.get('ETag');
    if (head.ok && tag && tag !== stored.headers.get('ETag')) {
      const fresh = await network(new Request(key), 60000);
      if (fresh.ok && fresh.status === 200) await (await caches.open(name)).put(key, fresh);
    }
  } catch { /* offline: the stored copy stays */ }
}

// A page: the network's, kept; else the last kept copy (by path), else the library's.
async function page(request, url) {
  const cache = await caches.open(PAGES);
  try {
    const response = await network(request);
    if (response.ok) await cache.put(url.pathname, response.clone());
    return response;
  } catch {
    const stored = await cache.match(url.pathname) ?? await cache.match('/');
    if (stored) return stored;
    return new Response('<!doctype html><meta charset="utf-8"><title>Folio offline</title>'
      + '<p>The server cannot be reached, and this page was never opened on this device.</p>',
    { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  }
}

// An API answer: the network's (the last one kept), else the last kept one.
async function api(request, url) {
  const cache = await caches.open(API);
  const key = url.pathname + url.search;
  try {
    const response = await network(request);
    if (response.ok) {
      await cache.put(key, response.clone());
      // A kept item follows the server: its stored answer is replaced by the newer one.
      const kept = await caches.open(KEPT);
      if (await kept.match(key)) await kept.put(key, response.clone());
    }
    return response;
  } catch {
    const kept = await (await caches.open(KEPT)).match(key);
    const stored = kept ?? await cache.match(key);
    if (stored) {
      const headers = new Headers(stored.headers);
      headers.set('X-Folio-Offline', '1');
      return new Response(await stored.blob(), { status: stored.status, headers });
    }
    return offline('The server cannot be reached.');
  }
}

async function shell(request) {
  const stored = await caches.match(request, { ignoreSearch: true });
  if (stored) return stored;
  const response = await network(request, 15000);
  if (response.ok) await (await caches.open(SHELL)).put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/assets/') || url.pathname.startsWith('/pdfjs/') || url.pathname === '/manifest.webmanifest') {
    event.respondWith(shell(request));
  } else if (PDF.test(url.pathname)) {
    event.respondWith(pdf(request, url));
  } else if (KEPT_API.test(url.pathname)) {
    event.respondWith(api(request, url));
  } else if (request.mode === 'navigate') {
    event.respondWith(page(request, url));
  }
});

// The page asks for a score's whole file among the recent ones (a server blip then never
// blanks its pages); the oldest beyond RECENT_LIMIT is dropped.
self.addEventListener('message', (event) => {
  const { type, url } = event.data ?? {};
  if (type !== 'recent' || !PDF.test(url ?? '')) return;
  event.waitUntil((async () => {
    const kept = await (await caches.open(KEPT)).match(url);
    const recent = await caches.open(RECENT);
    if (kept || await recent.match(url)) return;
    try {
      const response = await network(new Request(url), 120000);
      if (!response.ok || response.status !== 200) return;
      await recent.put(url, response);
      const keys = await recent.keys();
      for (const old of keys.slice(0, Math.max(0, keys.length - RECENT_LIMIT))) await recent.delete(old);
    } catch { /* offline now: nothing to store */ }
  })());
});
