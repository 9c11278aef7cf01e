// Links in the score view: a tap follows one to its page (Back returns, as does the browser's
// back) or opens its web address. `view` gives the state and `goTo(page)`.
import { keepPlace, placeNumber } from './place.js';

export function linkNavigation(view) {
  const { state } = view;
  const backButton = document.getElementById('link-back');

  // Follows a link: its page (Back returns to this one, as does the browser's back), or its
  // web address in a new tab.
  function follow(link) {
    if (link.target) {
      state.back.push(state.page);
      keepPlace({ page: link.target }, { push: true });
      showBack();
      view.goTo(link.target);
    } else if (link.uri) {
      window.open(link.uri, '_blank', 'noopener');
    }
  }
  function showBack() {
    const last = state.back.at(-1);
    backButton.hidden = last === undefined;
    if (last !== undefined) backButton.textContent = `↩ Back to p. ${last}`;
  }
  backButton.addEventListener('click', () => {
    const page = state.back.pop();
    showBack();
    if (page !== undefined) view.goTo(page);
  });
  window.addEventListener('popstate', () => {
    const page = placeNumber('page', 1);
    if (state.back.at(-1) === page) { state.back.pop(); showBack(); }
    if (page !== state.page) view.goTo(page);
  });
  function linkAt(at) {
    return state.links.findLast(({ rect: [x, y, w, h] }) => at.x >= x && at.x <= x + w && at.y >= y && at.y <= y + h);
  }

  return { follow, at: linkAt };
}
