// Who is using Folio, as the server says (GET /api/session): in a library with members, the
// member's name and role in the page's header, a link to the members' page for whoever may
// manage them, and Log out; controls whose right the member lacks (data-right) are hidden —
// the server refuses them anyway, this only spares a click. A musician alone sees nothing new.
// On a device members share, the member logged in is kept on it (pending.js sends only their
// waiting changes); logging out says what still waits in their name and forgets what their
// session was answered; whoever logs in next has the kept scores' answers fetched again.
// offline.js is loaded only when needed: importing it registers the service worker, which pages
// that only ask who is here (a rehearsal's follower) go without.
import { memberHere, waitingFor } from './pending.js';

const offline = () => import('./offline.js');

export async function whoAmI() {
  return (await ask()).who;
}

// The server's answer (null when it refused or could not be reached), and whether it was reached.
async function ask() {
  try {
    const response = await fetch('/api/session', { headers: { Accept: 'application/json' }, cache: 'no-store' });
    const reached = response.status !== 503 && !response.headers.get('X-Folio-Offline');
    return { who: response.ok ? await response.json() : null, reached };
  } catch {
    return { who: null, reached: false };
  }
}

export async function showWho(place = document.getElementById('who')) {
  const { who, reached } = await ask();
  if (who && !who.members) remember(null);
  if (!who && !reached) {
    // Out of reach: the member last logged in here, who may still log out (and is told what waits).
    const name = memberHere();
    if (name && place) place.replaceChildren(...bar({ name, role: null }, new Set()));
    return who;
  }
  if (!who?.members || !who.member) return who;
  if (memberHere() !== who.member.name) {
    remember(who.member.name);
    offline().then((kept) => kept.refreshKept()).catch(() => {});   // the kept scores as this member is answered
  }
  const rights = new Set(who.rights);
  for (const control of document.querySelectorAll('[data-right]')) {
    if (!rights.has(control.dataset.right)) control.hidden = true;
  }
  place?.replaceChildren(...bar(who.member, rights));
  return who;
}

// The header's parts for `member` ({name, role}; role null: not known, the server out of reach).
function bar(member, rights) {
  const name = document.createElement('span');
  name.className = 'member-name';
  name.textContent = member.role ? `${member.name} · ${member.role.replace('-', ' ')}` : `${member.name} · offline`;
  const parts = [name];
  const mine = document.createElement('a');
  mine.className = 'button';
  mine.href = '/parts/mine';
  mine.textContent = 'My parts';
  parts.push(mine);
  if (rights.has('members')) {
    const link = document.createElement('a');
    link.className = 'button';
    link.href = '/members';
    link.textContent = 'Members';
    parts.push(link);
  }
  const out = document.createElement('button');
  out.type = 'button';
  out.id = 'log-out';
  out.textContent = 'Log out';
  out.addEventListener('click', () => logOut(member.name));
  parts.push(out);
  return parts;
}

async function logOut(member) {
  const waiting = await waitingFor(member);
  if (waiting && !window.confirm(`${waiting} ${waiting === 1 ? 'change' : 'changes'} you made offline ${waiting === 1 ? 'is' : 'are'} not saved yet. `
    + 'They stay on this device, and are saved when you log in here again. Log out?')) return;
  const csrf = document.querySelector('meta[name="folio-csrf"]')?.content ?? '';
  const ended = await fetch('/api/session', { method: 'DELETE', headers: { 'X-Folio-CSRF': csrf } })
    .then((answer) => answer.ok && !answer.headers.get('X-Folio-Offline')).catch(() => false);
  // Out of reach: the session is ended by the login page once the server answers (login.js).
  if (!ended) try { localStorage.setItem('folio-logout', '1'); } catch { /* nothing to keep it in */ }
  remember(null);
  await offline().then((kept) => kept.forgetMembersAnswers()).catch(() => {});
  location.assign('/login');
}

// Keeps (or with null forgets) who is logged in on this device.
function remember(name) {
  try {
    if (name) localStorage.setItem('folio-member', name); else localStorage.removeItem('folio-member');
  } catch { /* storage refused: changes wait as nobody's */ }
}
