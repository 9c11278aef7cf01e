// Places that stay: what a page shows (the page of a score, a setlist's piece, the library's
// search and filters) kept in the address's query, so a reload, back and forward, and a
// shared link land where they were.

// The address's query as a map of names to values.
export function place() {
  return new URLSearchParams(window.location.search);
}

// A whole number from the address, or `otherwise`.
export function placeNumber(name, otherwise = null) {
  const value = Number.parseInt(place().get(name) ?? '', 10);
  return Number.isFinite(value) ? value : otherwise;
}

// Writes `values` (name → value; null or '' removes it) into the address: a new history
// entry with `push` (back returns), else the current one replaced.
export function keepPlace(values, { push = false } = {}) {
  const query = place();
  for (const [name, value] of Object.entries(values)) {
    if (value === null || value === undefined || value === '') query.delete(name);
    else query.set(name, String(value));
  }
  // Spaces as %20, not "+": the server reads query values percent-decoded only.
  const text = query.toString().replaceAll('+', '%20');
  const address = `${window.location.pathname}${text ? `?${text}` : ''}`;
  if (address === `${window.location.pathname}${window.location.search}`) return;
  if (push) history.pushState(null, '', address);
  else history.replaceState(null, '', address);
}
