// The server's pictures of pages (GET /api/scores/ID/pages/N/image: drawn by Poppler, 1,200 px
// high, kept by the server per version of the file and the same for everyone who may see the
// marks it shows): the stand-in a turn shows at once while pdf.js draws the page sharp, however
// slowly the browser draws (Safari's engine draws a page several times slower than Chromium).
// A view fetches and decodes the pictures of the pages a turn may show next; a picture that
// cannot be had (no pdftoppm on the server, the server out of reach) is simply not used.

// `address(number)`: the picture's URL for page `number` of the view's run of pages, or null.
export function pagePictures(address) {
  const kept = new Map();   // URL → { image, decoded, ready }

  function load(url) {
    let entry = kept.get(url);
    if (!entry) {
      const image = new Image();
      image.decoding = 'async';
      image.src = url;
      entry = { image, decoded: false };
      entry.ready = image.decode().then(() => { entry.decoded = true; return image; }, () => null);
      kept.set(url, entry);
    }
    return entry;
  }

  return {
    // Page `number`'s picture, decoded — waited for at most `wait` ms — or null. A stand-in
    // races the draft and the page itself (showTurn), so the wait is long by default.
    async get(number, wait = 5000) {
      const url = address(number);
      if (!url) return null;
      const entry = load(url);
      if (entry.decoded) return entry.image;
      if (wait <= 0) return null;
      let timer = 0;
      const late = new Promise((resolve) => { timer = setTimeout(() => resolve(null), wait); });
      try {
        return await Promise.race([entry.ready, late]);
      } finally {
        clearTimeout(timer);
      }
    },
    // Fetches and decodes the pictures of pages `numbers`; forgets the others.
    prefetch(numbers) {
      const urls = numbers.map((number) => address(number)).filter(Boolean);
      for (const url of [...kept.keys()]) if (!urls.includes(url)) kept.delete(url);
      for (const url of urls) load(url);
    },
    // Forgets every picture (the file changed: they are fetched again, revalidated).
    clear() { kept.clear(); },
  };
}
