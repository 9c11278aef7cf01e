// A classic script run while the page is still being parsed: it starts pdf.js's worker at
// once, so the worker's 2 MB of script is compiled on another core while this thread is busy
// with pdf.js itself. pages.js hands it to pdf.js as its worker port.
globalThis.folioPDFWorker = new Worker('/pdfjs/pdf.worker.js');
