// Page tools for the page shown: turn it a quarter either way, crop it to the music, add a
// blank page after it, delete it. Each is one undoable save (POST /api/scores/ID/pages with
// the file's version); what a tool had to give up (an outline entry, a link) is said.
import { change } from './api.js';

const tools = {
  'rotate-left': (page) => [{ action: 'rotate', pages: `${page}`, by: -90 }, 'Page turned left'],
  'rotate-right': (page) => [{ action: 'rotate', pages: `${page}`, by: 90 }, 'Page turned right'],
  crop: (page) => [{ action: 'crop', pages: `${page}`, margin: 10 }, 'Page cropped to the music'],
  insert: (page) => [{ action: 'insert-blank', at: page + 1 }, 'Blank page added after this one'],
  delete: (page) => [{ action: 'delete', pages: `${page}` }, 'Page deleted; Undo brings it back'],
};

// `app`: scoreID, page(), version(), run(action, message) (saves, then shows the file again).
export function pageTools(app) {
  for (const button of document.querySelectorAll('[data-page-tool]')) {
    button.addEventListener('click', () => {
      const [tool, message] = tools[button.dataset.pageTool](app.page());
      app.run(async () => {
        const result = await change('POST', `/api/scores/${app.scoreID}/pages`, app.version(), tool);
        const warnings = result.data?.warnings ?? [];
        return { ...result, message: warnings.length ? `${message} (${warnings.join('; ')})` : message };
      }, message);
    });
  }
}
