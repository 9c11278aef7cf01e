// What went wrong in this tab, from the page's first script on: every uncaught error,
// unhandled promise rejection and Content-Security-Policy violation, kept (the last 50) in
// sessionStorage['folio.errors'] as {kind, text, page}. A classic script in every page's
// head, so it listens before pdf.js and the modules run; the browser tests of every engine
// read it (WebKit's driver offers no console), and so can whoever helps a musician.
(() => {
  const key = 'folio.errors';
  const note = (kind, text) => {
    try {
      const list = JSON.parse(sessionStorage.getItem(key) || '[]');
      list.push({ kind, text: String(text).slice(0, 2000), page: location.pathname });
      sessionStorage.setItem(key, JSON.stringify(list.slice(-50)));
    } catch { /* storage full or refused: nothing more to do */ }
  };
  addEventListener('error', (event) => note('error', `${event.message} (${event.filename}:${event.lineno})`));
  addEventListener('unhandledrejection', (event) => note('rejection', event.reason?.stack || event.reason));
  document.addEventListener('securitypolicyviolation', (event) => note('csp', `${event.violatedDirective} ${event.blockedURI}`));
})();
