// The file's layers (such as forScore's "Fingerings"), each shown or hidden by a checkbox;
// the menu stays hidden when there are none. A choice lasts while the score is open. In a
// library with members, the layers of others' own marks start hidden: the server names them
// for this file (a page's marks list hiddenLayers: another member's own layer, by who it is,
// whatever it is called now) and for the library (/api/session's hiddenLayers); the member
// may show them.
import { getJSON } from './api.js';
import { showLayers } from './pages.js';
import { whoAmI } from './who.js';

const others = whoAmI().then((who) => who?.hiddenLayers ?? []);

// The layers of score `scoreID` hidden from whoever asks (none when it cannot be asked).
async function hiddenIn(scoreID) {
  try {
    const { data } = await getJSON(`/api/scores/${scoreID}/annotations?page=1`);
    return data?.hiddenLayers ?? [];
  } catch {
    return [];
  }
}

// `menu` holds the checkboxes; `render` draws the page again after a change.
export function layerMenu(menu, render, scoreID) {
  const chosenLayers = new Map();
  async function listLayers(loaded) {
    const config = await loaded.getOptionalContentConfig();
    const groups = Object.entries(config.getGroups() ?? {});
    const hidden = new Set([...(await others), ...(groups.length ? await hiddenIn(scoreID) : [])]);
    const list = menu.querySelector('div');
    list.replaceChildren();
    for (const [id, group] of groups) {
      const key = group.name ?? id;
      if (chosenLayers.has(key)) config.setVisibility(id, chosenLayers.get(key));
      else if (hidden.has(key)) config.setVisibility(id, false);
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = config.getGroup(id)?.visible ?? true;
      box.addEventListener('change', () => {
        config.setVisibility(id, box.checked);
        chosenLayers.set(key, box.checked);
        render();
      });
      label.append(box, document.createTextNode(` ${group.name || 'Unnamed layer'}`));
      list.append(label);
    }
    menu.hidden = groups.length === 0;
    showLayers(groups.length ? config : null);
  }
  return { list: listLayers };
}
