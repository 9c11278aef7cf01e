#!/bin/sh
# Remakes the engravers' sample PDFs from their sources with the engravers themselves
# (Debian: apt-get install musescore3 lilypond). The PDFs are kept in git, so the tests
# need neither program; run this to check a newer version's conventions.
set -eu
cd "$(dirname "$0")"
for source in musescore-*.musicxml; do
    QT_QPA_PLATFORM=offscreen mscore3 -o "${source%.musicxml}.pdf" "$source"
done
for source in lilypond-*.ly; do
    lilypond --loglevel=ERROR -o "${source%.ly}" "$source"
done
