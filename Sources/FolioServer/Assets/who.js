// Who is using Folio, as the server says (GET /api/session): in a library with members, the
// member's name and role in the page's header, a link to the members' page for whoever may
// manage them, and Log out; controls whose right the member lacks (data-right) are hidden —
// the server refuses them anyway, this only spares a click. A musician alone sees nothing new.
export async function whoAmI() {
  try {
    const response = await fetch('/api/session', { headers: { Accept: 'application/json' }, cache: 'no-store' });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

export async function showWho(place = document.getElementById('who')) {
  const who = await whoAmI();
  if (!who?.members || !who.member) return who;
  const rights = new Set(who.rights);
  for (const control of document.querySelectorAll('[data-right]')) {
    if (!rights.has(control.dataset.right)) control.hidden = true;
  }
  if (!place) return who;
  const name = document.createElement('span');
  name.className = 'member-name';
  name.textContent = `${who.member.name} · ${who.member.role.replace('-', ' ')}`;
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
  out.addEventListener('click', async () => {
    const csrf = document.querySelector('meta[name="folio-csrf"]')?.content ?? '';
    await fetch('/api/session', { method: 'DELETE', headers: { 'X-Folio-CSRF': csrf } });
    location.assign('/login');
  });
  parts.push(out);
  place.replaceChildren(...parts);
  return who;
}
