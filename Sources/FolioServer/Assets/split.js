// Splitting an anthology into one score per piece: the server plans it (by the score's
// bookmarks, else its outline), the musician confirms the new scores' names and pages, the
// server makes them beside the book, which stays. Used by the Contents panel and the library.
import { change } from './api.js';
import { pages } from './dom.js';

// Returns what was made (a sentence), or null when the musician declined; throws what the
// server refused.
export async function splitScore(id) {
  const address = `/api/scores/${id}/split`;
  const { data: plan } = await change('POST', address, undefined, { dryRun: true });
  const names = plan.pieces.map((piece) => `${piece.path} (${pages(piece.start, piece.end)})`).join('\n');
  if (!window.confirm(`Make ${plan.pieces.length} new scores?\n${names}`)) return null;
  const { data } = await change('POST', address, undefined, {});
  return `Made ${data.pieces.length} scores: ${data.pieces.map((piece) => piece.path).join(', ')}`;
}
