// The login and invitation pages: a member's name and password sent as JSON with the CSRF
// token, the session cookie set by the answer, then on to where they were going. On its own
// (no imports): these pages are reachable before logging in, and load nothing else.
const csrf = document.querySelector('meta[name="folio-csrf"]')?.content ?? '';
const status = document.getElementById('login-status');

async function send(url, body) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Folio-CSRF': csrf },
    body: JSON.stringify(body),
  });
  if (response.ok) return true;
  let message = `${response.status}`;
  try { message = (await response.json())?.error?.message ?? message; } catch { /* not JSON */ }
  status.textContent = message;
  return false;
}

// A logout made while the server was out of reach (who.js): the session it left is ended now.
async function endLeftSession() {
  if (localStorage.getItem('folio-logout') !== '1') return;
  try {
    const response = await fetch('/api/session', { method: 'DELETE', headers: { 'X-Folio-CSRF': csrf } });
    if (response.ok && !response.headers.get('X-Folio-Offline')) localStorage.removeItem('folio-logout');
  } catch { /* still out of reach: the next visit tries again */ }
}
const leftSession = endLeftSession();

const login = document.getElementById('login');
login?.addEventListener('submit', async (event) => {
  event.preventDefault();
  status.textContent = 'Logging in…';
  const form = new FormData(login);
  await leftSession;
  if (await send('/api/session', { name: form.get('name'), password: form.get('password') })) {
    location.assign(login.dataset.next || '/');
  }
});

const invitation = document.getElementById('invitation');
invitation?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(invitation);
  if (form.get('password') !== form.get('again')) {
    status.textContent = 'The two passwords differ.';
    return;
  }
  status.textContent = 'Saving…';
  if (await send(`/api/invitations/${encodeURIComponent(invitation.dataset.token)}`, { password: form.get('password') })) {
    location.assign('/');
  }
});
