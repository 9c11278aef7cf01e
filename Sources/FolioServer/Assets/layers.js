// The file's layers (such as forScore's "Fingerings"), each shown or hidden by a checkbox;
// the menu stays hidden when there are none. A choice lasts while the score is open.
import { showLayers } from './pages.js';

// `menu` holds the checkboxes; `render` draws the page again after a change.
export function layerMenu(menu, render) {
  const chosenLayers = new Map();
  async function listLayers(loaded) {
    const config = await loaded.getOptionalContentConfig();
    const groups = Object.entries(config.getGroups() ?? {});
    const list = menu.querySelector('div');
    list.replaceChildren();
    for (const [id, group] of groups) {
      const key = group.name ?? id;
      if (chosenLayers.has(key)) config.setVisibility(id, chosenLayers.get(key));
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
