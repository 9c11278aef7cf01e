// The librarian's members page: the ensemble as a table (role and instrument changed in
// place, a new invitation link, removal), and a form that adds a member and shows their
// invitation link with its QR code to scan from a phone.
import { change, getJSON } from './api.js';
import { showWho } from './who.js';

const table = document.querySelector('#member-list tbody');
const status = document.getElementById('members-status');
const shown = document.getElementById('invitation-link');
const roles = ['librarian', 'conductor', 'section-leader', 'player'];

function say(text) { status.textContent = text; }

// The invitation as the server made it: the link to copy, the QR code (the server's SVG,
// shown as an image so nothing in it runs).
function showInvitation(invited) {
  const link = document.createElement('a');
  link.href = invited.link;
  link.textContent = invited.link;
  link.className = 'invitation-address';
  const picture = document.createElement('img');
  picture.alt = `QR code of ${invited.member.name}'s invitation`;
  picture.src = URL.createObjectURL(new Blob([invited.qr], { type: 'image/svg+xml' }));
  picture.className = 'qr';
  const note = document.createElement('p');
  note.textContent = `Invitation for ${invited.member.name}: open it on their device once, before ${new Date(invited.expiresAt).toLocaleString()}.`;
  shown.replaceChildren(note, link, picture);
  shown.hidden = false;
}

function cell(content) {
  const td = document.createElement('td');
  if (typeof content === 'string') td.textContent = content; else td.append(content);
  return td;
}

async function update(member, body) {
  try {
    await change('PATCH', `/api/members/${member.id}`, null, body);
    say(`${member.name} changed.`);
  } catch (error) {
    say(error.message);
  }
  await load();
}

function row(member) {
  const tr = document.createElement('tr');
  tr.dataset.member = member.name;
  const role = document.createElement('select');
  role.setAttribute('aria-label', `Role of ${member.name}`);
  for (const name of roles) role.add(new Option(name.replace('-', ' '), name, false, name === member.role));
  role.addEventListener('change', () => update(member, { role: role.value }));
  const instrument = document.createElement('input');
  instrument.value = member.instrument ?? '';
  instrument.maxLength = 100;
  instrument.setAttribute('aria-label', `Instrument of ${member.name}`);
  instrument.addEventListener('change', () => update(member, { instrument: instrument.value }));
  const actions = document.createElement('span');
  const invite = document.createElement('button');
  invite.type = 'button';
  invite.textContent = 'New link';
  invite.addEventListener('click', async () => {
    try { showInvitation((await change('POST', `/api/members/${member.id}/invitation`, null, {})).data); } catch (error) { say(error.message); }
  });
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.textContent = 'Remove';
  remove.addEventListener('click', async () => {
    if (!confirm(`Remove ${member.name}? Their marks stay in the scores.`)) return;
    try { await change('DELETE', `/api/members/${member.id}`, null); say(`${member.name} removed.`); } catch (error) { say(error.message); }
    await load();
  });
  actions.append(invite, remove);
  tr.append(cell(member.name), cell(role), cell(instrument), cell(member.section ?? ''),
            cell(member.hasPassword ? 'set' : 'invited'), cell(actions));
  return tr;
}

async function load() {
  try {
    const { data } = await getJSON('/api/members');
    table.replaceChildren(...data.members.map(row));
  } catch (error) {
    say(error.message);
  }
}

document.getElementById('add-member').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const body = { name: form.get('name'), role: form.get('role') };
  if (form.get('instrument')) body.instrument = form.get('instrument');
  try {
    showInvitation((await change('POST', '/api/members', null, body)).data);
    event.target.reset();
    say('');
  } catch (error) {
    say(error.message);
  }
  await load();
});

showWho();
load();
